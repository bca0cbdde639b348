// Audio tools the tests use, from Debian's packages: sox with its MP3 format library converts uploaded
// recordings (call flows) to what Asterisk plays, and espeak-ng speaks the message the voicemail transcription
// test sends. Installed when missing and we are root; otherwise the run stops and says what to install.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const SOX = process.env.SOX_PATH || 'sox';

function soxReadsMp3() {
  // sox answers --help-format with exit status 1 even for a format it has.
  const run = spawnSync(SOX, ['--help-format', 'mp3'], { encoding: 'utf8' });
  return !run.error && /Reads: yes/.test(`${run.stdout}${run.stderr}`);
}

const missing = () => [
  ...(soxReadsMp3() ? [] : ['sox', 'libsox-fmt-mp3']),
  ...(existsSync('/usr/bin/espeak-ng') ? [] : ['espeak-ng']),
];

const packages = missing();
if (packages.length === 0) process.exit(0);

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
if (!isRoot) {
  console.error(
    `The recording and voicemail transcription tests need ${packages.join(', ')}.\n` +
      `Install with: sudo apt-get install -y --no-install-recommends ${packages.join(' ')}`,
  );
  process.exit(1);
}

const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
console.log(`Installing ${packages.join(', ')} from Debian packages for the audio tests…`);
const install = () =>
  spawnSync(
    'apt-get',
    ['-o', 'DPkg::Lock::Timeout=300', 'install', '-y', '-qq', '--no-install-recommends', ...packages],
    { stdio: 'inherit', env },
  );
if (install().status !== 0) {
  console.log('Install failed; refreshing the package lists and trying again…');
  execFileSync('apt-get', ['-o', 'DPkg::Lock::Timeout=300', 'update', '-qq'], { stdio: 'inherit', env });
  if (install().status !== 0) {
    console.error(`Could not install ${packages.join(' ')} with apt-get.`);
    process.exit(1);
  }
}
const still = missing();
if (still.length > 0) {
  console.error(`Installed, but still missing: ${still.join(', ')}.`);
  process.exit(1);
}
console.log(`${packages.join(', ')} installed.`);
