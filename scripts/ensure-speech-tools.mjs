// The voicemail transcription test speaks a message with espeak-ng and turns it into the WAV Asterisk records
// (8 kHz, 16-bit, mono) with sox. Install both from Debian's packages when missing and we are root; otherwise
// explain.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const TOOLS = { '/usr/bin/espeak-ng': 'espeak-ng', '/usr/bin/sox': 'sox' };
const missing = Object.entries(TOOLS)
  .filter(([file]) => !existsSync(file))
  .map(([, pkg]) => pkg);
if (missing.length === 0) process.exit(0);

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
if (!isRoot) {
  console.error(
    `${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} needed for the voicemail transcription test.\n` +
      `Install with: sudo apt-get install -y --no-install-recommends ${missing.join(' ')}`,
  );
  process.exit(1);
}
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
console.log(`Installing ${missing.join(', ')} from Debian packages for the voicemail transcription test…`);
const install = () =>
  spawnSync(
    'apt-get',
    ['-o', 'DPkg::Lock::Timeout=300', 'install', '-y', '-qq', '--no-install-recommends', ...missing],
    {
      stdio: 'inherit',
      env,
    },
  );
if (install().status !== 0) {
  console.log('Install failed; refreshing the package lists and trying again…');
  execFileSync('apt-get', ['-o', 'DPkg::Lock::Timeout=300', 'update', '-qq'], { stdio: 'inherit', env });
  if (install().status !== 0) {
    console.error(`Could not install ${missing.join(' ')} with apt-get.`);
    process.exit(1);
  }
}
console.log(`${missing.join(', ')} installed.`);
