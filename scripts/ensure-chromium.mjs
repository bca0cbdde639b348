// Browser tests use Debian's Chromium. Install it when missing and we are root; otherwise explain.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

if (existsSync(CHROMIUM)) process.exit(0);

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
if (!isRoot) {
  console.error(
    `Chromium is needed for the browser tests and was not found at ${CHROMIUM}.\n` +
      'Install it with: sudo apt-get install -y --no-install-recommends chromium fonts-liberation\n' +
      '(or set CHROMIUM_PATH to another Chromium binary).',
  );
  process.exit(1);
}

console.log('Installing Chromium from Debian packages for the browser tests…');
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
execFileSync('apt-get', ['-o', 'DPkg::Lock::Timeout=300', 'update', '-qq'], { stdio: 'inherit', env });
execFileSync(
  'apt-get',
  ['-o', 'DPkg::Lock::Timeout=300', 'install', '-y', '-qq', '--no-install-recommends', 'chromium', 'fonts-liberation'],
  {
    stdio: 'inherit',
    env,
  },
);
if (!existsSync(CHROMIUM)) {
  console.error(`Chromium was installed but ${CHROMIUM} is still missing.`);
  process.exit(1);
}
