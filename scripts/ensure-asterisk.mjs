// The real-PBX test tier runs a real Asterisk. Debian 12 does not package it and these machines cannot
// download it, so it is built once from the source kept beside the project (../shared/vendor/asterisk,
// or ASTERISK_SOURCE_DIR) into a cache outside the work tree, keyed by the tarball's checksum, and reused
// by every later run. sipp (Debian's sip-tester) is the SIP peer of those tests.
//
// Never fails the test run: when the tier cannot run here (no source, not root, a build that failed)
// it says why and the tier's tests skip with that same reason (see apps/server/test/support/asterisk.ts).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { asteriskTier } from './asterisk-tier.mjs';

const tier = asteriskTier();
if (tier.ready) {
  console.log(`Asterisk ready in ${tier.prefix}`);
  process.exit(0);
}
if (!tier.buildable) {
  console.log(`Real-Asterisk tests will be skipped: ${tier.reason}`);
  process.exit(0);
}

const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', env, ...opts });
  return r.status === 0;
}
let releaseLock = () => {};
function fail(reason) {
  releaseLock();
  fs.mkdirSync(path.dirname(tier.failedMarker), { recursive: true });
  fs.writeFileSync(tier.failedMarker, `${reason}\n`);
  console.log(`Real-Asterisk tests will be skipped: ${reason}`);
  process.exit(0);
}

const packages = [
  'build-essential',
  'libedit-dev',
  'libjansson-dev',
  'libxml2-dev',
  'libsqlite3-dev',
  'uuid-dev',
  'libssl-dev',
  'libsrtp2-dev',
  'libcurl4-openssl-dev',
  'pkg-config',
  'sip-tester',
  'iproute2',
  'bzip2',
];
const missing = packages.filter((p) => spawnSync('dpkg', ['-s', p], { stdio: 'ignore' }).status !== 0);
if (missing.length > 0) {
  console.log(`Installing ${missing.join(' ')} for the real-Asterisk tests…`);
  const install = () =>
    run('apt-get', ['-o', 'DPkg::Lock::Timeout=300', 'install', '-y', '-qq', '--no-install-recommends', ...missing]);
  if (!install()) {
    run('apt-get', ['-o', 'DPkg::Lock::Timeout=300', 'update', '-qq']);
    if (!install()) fail(`apt-get could not install ${missing.join(' ')}`);
  }
}

// One build at a time, even when two test runs start together.
fs.mkdirSync(tier.cacheRoot, { recursive: true });
const lock = `${tier.prefix}.lock`;
let lockFd;
for (let i = 0; ; i++) {
  try {
    lockFd = fs.openSync(lock, 'wx');
    break;
  } catch {
    if (tier.isReady()) process.exit(0);
    const age = Date.now() - fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs;
    if (!(age < 30 * 60_000)) fs.rmSync(lock, { force: true });
    else if (i % 30 === 0) console.log('Another run is building Asterisk; waiting…');
    spawnSync('sleep', ['2']);
  }
}
releaseLock = () => {
  fs.closeSync(lockFd);
  fs.rmSync(lock, { force: true });
  releaseLock = () => {};
};
try {
  const started = Date.now();
  const build = `${tier.prefix}.build`;
  fs.rmSync(build, { recursive: true, force: true });
  fs.mkdirSync(build, { recursive: true });
  const downloads = path.join(build, 'downloads');
  fs.mkdirSync(downloads);
  fs.copyFileSync(tier.pjprojectTarball, path.join(downloads, path.basename(tier.pjprojectTarball)));
  console.log(`Building Asterisk from ${tier.tarball} into ${tier.prefix} (about 5 minutes on 2 cores)…`);
  if (!run('tar', ['xzf', tier.tarball, '-C', build, '--strip-components=1'])) fail('could not unpack the source');
  // The kept pjproject tarball is checked by its own checksum (README); Asterisk's build compares it with
  // the md5 of the upstream download, which a repacked copy need not match, and would then try to download.
  const pjName = path.basename(tier.pjprojectTarball);
  const md5 = createHash('md5').update(fs.readFileSync(tier.pjprojectTarball)).digest('hex');
  fs.writeFileSync(path.join(build, 'third-party/pjproject', `${pjName}.md5`), `${md5}  ${pjName}\n`);
  const inBuild = { cwd: build };
  const quiet = { ...inBuild, stdio: ['ignore', 'ignore', 'inherit'] };
  if (
    !run(
      './configure',
      [
        `--prefix=${tier.prefix}`,
        '--with-pjproject-bundled',
        '--with-jansson',
        `--with-download-cache=${downloads}`,
        `EXTERNALS_CACHE_DIR=${downloads}`,
      ],
      quiet,
    )
  )
    fail('configure failed');
  if (!run('make', ['menuselect.makeopts'], quiet)) fail('make menuselect.makeopts failed');
  if (
    !run(
      'menuselect/menuselect',
      [
        '--disable-category',
        'MENUSELECT_CORE_SOUNDS',
        '--disable-category',
        'MENUSELECT_MOH',
        '--disable-category',
        'MENUSELECT_EXTRA_SOUNDS',
        'menuselect.makeopts',
      ],
      quiet,
    )
  )
    fail('menuselect failed');
  if (!run('make', ['-j2'], quiet)) fail('make failed');
  if (!run('make', ['install'], quiet)) fail('make install failed');
  fs.rmSync(build, { recursive: true, force: true });
  fs.writeFileSync(tier.readyMarker, `${new Date().toISOString()}\n`);
  console.log(`Asterisk built in ${Math.round((Date.now() - started) / 1000)} s.`);
} finally {
  releaseLock();
}
