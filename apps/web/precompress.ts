import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Text formats worth compressing; images such as .png are compressed already. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|xml|webmanifest)$/;

async function* filesUnder(dir: string): AsyncGenerator<string> {
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(full);
    else yield full;
  }
}

/**
 * Writes a brotli (.br, quality 11) and a gzip (.gz, level 9) copy next to every text file of the build,
 * once, at build time; the server sends them as they are (@fastify/static `preCompressed`), so no request
 * pays for compressing. A copy that would not be smaller is not written.
 */
export async function precompressDir(dir: string): Promise<void> {
  const jobs: Promise<void>[] = [];
  for await (const file of filesUnder(dir)) {
    if (!COMPRESSIBLE.test(file)) continue;
    jobs.push(
      (async () => {
        const raw = await fs.readFile(file);
        const [br, gz] = await Promise.all([
          brotli(raw, {
            params: {
              [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
              [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
            },
          }),
          gzip(raw, { level: 9 }),
        ]);
        if (br.length < raw.length) await fs.writeFile(`${file}.br`, br);
        if (gz.length < raw.length) await fs.writeFile(`${file}.gz`, gz);
      })(),
    );
  }
  await Promise.all(jobs);
}

export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'centralino:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    // After every file (public/ included) is written.
    async closeBundle() {
      await precompressDir(outDir);
    },
  };
}
