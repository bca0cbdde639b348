// Browser tests use Debian's Chromium headless shell (the whole browser where only that is installed). Install it when
// missing and we are root; otherwise explain.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const SHELL = '/usr/bin/chromium-headless-shell';
const BROWSER = '/usr/bin/chromium';
const CHROMIUM = process.env.CHROMIUM_PATH ?? SHELL;

if (existsSync(CHROMIUM)) process.exit(0);

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
if (!isRoot) {
  // Without root the whole browser will do, when it is there (e2e/chromium.ts falls back to it).
  if (!process.env.CHROMIUM_PATH && existsSync(BROWSER)) process.exit(0);
  console.error(
    `Chromium is needed for the browser tests and was not found at ${CHROMIUM}.\n` +
      'Install it with: sudo apt-get install -y --no-install-recommends chromium-headless-shell fonts-liberation\n' +
      '(or set CHROMIUM_PATH to another Chromium binary).',
  );
  process.exit(1);
}

console.log("Installing Chromium's headless shell from Debian packages for the browser tests…");
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
const apt = (args) => execFileSync('apt-get', ['-o', 'DPkg::Lock::Timeout=300', ...args], { stdio: 'inherit', env });
apt(['update', '-qq']);
apt(['install', '-y', '-qq', '--no-install-recommends', 'chromium-headless-shell', 'fonts-liberation']);
if (!existsSync(CHROMIUM)) {
  console.error(`Chromium was installed but ${CHROMIUM} is still missing.`);
  process.exit(1);
}
