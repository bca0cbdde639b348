import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the cores: one worker on this 2-core machine, while the
    // suites spend much of their time waiting on PostgreSQL, child processes and the network. One worker per
    // core (three starved the scrypt-heavy sign-in suites into their 20 s timeouts). TEST_WORKERS overrides it.
    maxWorkers: Number(process.env.TEST_WORKERS ?? Math.max(2, availableParallelism())),
    projects: [
      {
        test: {
          name: 'contract',
          root: 'packages/contract',
          include: ['test/**/*.test.ts'],
        },
      },
      {
        test: {
          name: 'server',
          root: 'apps/server',
          include: ['test/**/*.test.ts'],
          testTimeout: 20_000,
          hookTimeout: 30_000,
          // Each file imports the whole server (Fastify, Kysely, zod schemas): seconds per file when every file
          // starts a fresh worker. The suites hold their state in their own databases and temp folders, and
          // src keeps only caches at module level, so a worker's files share one module graph.
          isolate: false,
        },
      },
      {
        extends: 'apps/web/vite.config.ts',
        test: {
          name: 'web',
          root: 'apps/web',
          include: ['test/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['test/setup.ts'],
        },
      },
    ],
  },
});
