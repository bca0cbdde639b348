// The integration tests run against PostgreSQL too. Start the local server when it is installed but
// stopped, install it from Debian's packages when missing and we are root; otherwise explain.
import { execFileSync, execSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import net from 'node:net';

const url = new URL(process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
const host = url.hostname;
const port = Number(url.port || 5432);

function reachable() {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port, timeout: 1500 });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

async function waitReachable(seconds) {
  for (let i = 0; i < seconds * 4; i++) {
    if (await reachable()) return true;
    await new Promise((r) => setTimeout(r, 250));
  }
  return false;
}

if (await reachable()) process.exit(0);

const isLocal = host === '127.0.0.1' || host === 'localhost' || host === '::1';
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
if (!isLocal || !isRoot) {
  console.error(
    `PostgreSQL is not reachable at ${host}:${port}; the integration tests need it.\n` +
      'Start it (for example: sudo pg_ctlcluster <version> main start) or set TEST_POSTGRES_URL.',
  );
  process.exit(1);
}

const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
if (!existsSync('/etc/postgresql')) {
  console.log('Installing PostgreSQL from Debian packages for the integration tests…');
  execFileSync('apt-get', ['-o', 'DPkg::Lock::Timeout=300', 'update', '-qq'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['-o', 'DPkg::Lock::Timeout=300', 'install', '-y', '-qq', 'postgresql'], {
    stdio: 'inherit',
    env,
  });
}
for (const version of readdirSync('/etc/postgresql')) {
  console.log(`Starting PostgreSQL ${version}…`);
  try {
    execSync(`pg_ctlcluster --skip-systemctl-redirect ${version} main start`, { stdio: 'inherit' });
  } catch {
    // Already running or another cluster answers; the check below decides.
  }
}
if (!(await waitReachable(20))) {
  console.error(`PostgreSQL still does not answer at ${host}:${port}.`);
  process.exit(1);
}
// Tests connect as postgres without a password, as on the project's machines (trust auth on loopback).
