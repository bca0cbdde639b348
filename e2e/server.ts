import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const ADMIN_PASSWORD = 'Centralino-e2e-1';

export interface RunningServer {
  url: string;
  /** Milliseconds from spawning the first process to its first healthy answer. */
  coldStartMs: number;
  dataDir: string;
  output: () => string;
  stop: () => Promise<void>;
  /** Stops and starts the server on the same data; `env` changes its settings from then on. */
  restart: (env?: Record<string, string>) => Promise<void>;
  /** performance.now() when the running server process was spawned (benches time a start from it). */
  launchedAt: () => number;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export async function waitForHealth(url: string, child: ChildProcess, output: () => string) {
  // SERVER_START_TIMEOUT_MS gives more on a machine busy with other work (the benchmarks use it).
  const deadline = Date.now() + Number(process.env.SERVER_START_TIMEOUT_MS ?? 60_000);
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${output()}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`server did not become healthy:\n${output()}`);
}

/** Starts the real built server (apps/server/dist) on a free port with its own data directory. */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'centralino-e2e-'));
  let port = await freePort();
  let url = `http://127.0.0.1:${port}`;
  let log = '';
  let child: ChildProcess;
  // Parallel workers' servers must not meet on the phonebook services' default ports.
  let settings = {
    // No Asterisk of its own (managed mode is the product's default): a browser test drives the console; the
    // real-PBX tier (apps/server/test/asterisk) runs Asterisk.
    ASTERISK_MODE: env.AMI_HOST ? 'external' : 'off',
    PHONEBOOK_LDAP_PORT: String(await freePort()),
    PHONEBOOK_LDAPS_PORT: String(await freePort()),
    ...env,
  };

  let launchedAt = 0;
  const launch = async () => {
    launchedAt = performance.now();
    // SERVER_NODE_ARGS (benches): Node options for the server process, e.g. '--cpu-prof --cpu-prof-dir=/tmp/prof'.
    const nodeArgs = (process.env.SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
    child = spawn(process.execPath, [...nodeArgs, path.join(root, 'apps/server/dist/main.js')], {
      cwd: root,
      env: {
        PATH: process.env.PATH ?? '',
        PORT: String(port),
        // On every address, as an installation listens: phones are given this machine's own address while the
        // PBX address is empty (never a loopback one, which no phone reaches), and the check asks it there.
        HOST: '0.0.0.0',
        DATA_DIR: dataDir,
        ADMIN_PASSWORD,
        LOG_LEVEL: 'warn',
        ...settings,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (d) => {
      log += d;
    });
    child.stderr?.on('data', (d) => {
      log += d;
    });
    await waitForHealth(url, child, () => log);
  };

  const stop = async () => {
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  };

  const started = performance.now();
  // The free port is released before the server takes it: another worker's process may take it in between. The
  // server then stops at once on EADDRINUSE, and is started again on another port.
  for (let attempt = 1; ; attempt++) {
    try {
      await launch();
      break;
    } catch (error) {
      if (attempt >= 3 || !/EADDRINUSE/.test(log)) throw error;
      port = await freePort();
      url = `http://127.0.0.1:${port}`;
      log = '';
    }
  }
  const coldStartMs = performance.now() - started;
  return {
    url,
    coldStartMs,
    dataDir,
    output: () => log,
    stop: async () => {
      await stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
    launchedAt: () => launchedAt,
    restart: async (changed = {}) => {
      await stop();
      settings = { ...settings, ...changed };
      await launch();
    },
  };
}
