// Recordings are converted with Debian's sox (and its MP3 format library). Install them when missing and we
// are root; otherwise explain. Exits 0 when sox can read MP3, 1 otherwise (the audio tests then skip).
import { execFileSync, spawnSync } from 'node:child_process';

const SOX = process.env.SOX_PATH || 'sox';

function readsMp3() {
  // sox answers --help-format with exit status 1 even for a format it has.
  const run = spawnSync(SOX, ['--help-format', 'mp3'], { encoding: 'utf8' });
  return !run.error && /Reads: yes/.test(`${run.stdout}${run.stderr}`);
}

if (readsMp3()) process.exit(0);

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
if (!isRoot) {
  console.error(
    'sox with MP3 support is needed to convert recordings and was not found.\n' +
      'Install it with: sudo apt-get install -y --no-install-recommends sox libsox-fmt-mp3',
  );
  process.exit(1);
}

const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
const packages = ['sox', 'libsox-fmt-mp3'];
console.log('Installing sox and libsox-fmt-mp3 from Debian packages for the recording tests…');
const install = () =>
  spawnSync(
    'apt-get',
    ['-o', 'DPkg::Lock::Timeout=300', 'install', '-y', '-qq', '--no-install-recommends', ...packages],
    { stdio: 'inherit', env },
  );
if (install().status !== 0) {
  execFileSync('apt-get', ['-o', 'DPkg::Lock::Timeout=300', 'update', '-qq'], { stdio: 'inherit', env });
  if (install().status !== 0) {
    console.error(`Could not install ${packages.join(' ')} with apt-get.`);
    process.exit(1);
  }
}
if (!readsMp3()) {
  console.error('sox was installed but cannot read MP3.');
  process.exit(1);
}
console.log('sox installed.');
