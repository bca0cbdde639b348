import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * The server tests that add and remove network interfaces in this machine's namespace (each real-Asterisk lab's
 * veth pair, the scan lab's bridge). Chromium aborts the requests in flight when an interface comes or goes
 * (net::ERR_NETWORK_CHANGED), so `npm test` runs them first (TEST_PART=network), and the rest (TEST_PART=rest)
 * alongside the browser tests (scripts/test.mjs). Unset: every test.
 */
const NETWORK_TESTS = ['test/asterisk/**/*.test.ts', 'test/phone-actions.test.ts'];
const part = process.env.TEST_PART;

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
          include: part === 'network' ? NETWORK_TESTS : ['test/**/*.test.ts'],
          exclude: part === 'rest' ? [...configDefaults.exclude, ...NETWORK_TESTS] : configDefaults.exclude,
          // A test's budget, not a speed check (speed is measured in bench/): npm test runs these beside the browser
          // tests, and on a machine busy with other work a backup round trip or a walk of every route took over
          // 20 s. Each test waits for its events (a response, a row, a file).
          testTimeout: 60_000,
          hookTimeout: 120_000,
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
          // A budget, not a speed check: ListView's 60 rows drawn in jsdom took 6 s beside four real-Asterisk and
          // browser runs on two cores (Vitest's default of 5 s failed it); quiet, it takes under 1 s.
          testTimeout: 30_000,
        },
      },
    ],
  },
});
