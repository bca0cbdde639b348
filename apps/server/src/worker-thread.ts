import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * A worker thread running one module of the server: in the bundle, the file `bundled` that build.mjs writes next
 * to main.js; from the TypeScript source (tests, tools), `source` loaded through tsx, which the thread registers
 * for itself (a thread does not inherit the loader). `from` is the caller's `import.meta.url`.
 */
export function startThread(from: string, bundled: string, source: string, options: WorkerOptions = {}): Worker {
  if (!from.endsWith('.ts')) return new Worker(new URL(bundled, from), options);
  const module = new URL(source, from);
  const api = pathToFileURL(
    createRequire(from)
      .resolve('tsx/esm/api')
      .replace(/\.cjs$/, '.mjs'),
  ).href;
  return new Worker(
    `import(${JSON.stringify(api)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(module.href)}); });`,
    { ...options, eval: true },
  );
}
