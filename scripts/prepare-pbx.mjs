// `npm install` (postinstall): prepares the phone system `npm start` runs in managed mode. It uses an Asterisk
// already installed (ASTERISK_BIN, or `asterisk` on the PATH), or builds one from the kept source into the cache
// the real-PBX tests share (scripts/ensure-asterisk.mjs), and installs Debian's English and Italian prompts and
// music on hold. Never fails the install: without root or source it says what is missing, and the console still
// starts (its dashboard says the same).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { asteriskTier } from './asterisk-tier.mjs';

const started = Date.now();
const root = path.resolve(import.meta.dirname, '..');
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const say = (line) => console.log(`[phone system] ${line}`);

const mode = process.env.ASTERISK_MODE ?? (process.env.AMI_HOST ? 'external' : 'managed');
if (mode !== 'managed') {
  say(`ASTERISK_MODE=${mode}: Centralino does not run Asterisk here, nothing to prepare.`);
  process.exit(0);
}

const executable = (file) => {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
};
const onPath = () =>
  [...(process.env.PATH ?? '').split(path.delimiter), '/usr/sbin', '/usr/local/sbin']
    .filter(Boolean)
    .map((d) => path.join(d, 'asterisk'))
    .find(executable);

const installed = process.env.ASTERISK_BIN ?? onPath();
if (installed) {
  const version = spawnSync(installed, ['-V'], { encoding: 'utf8' }).stdout?.trim();
  say(`Using ${installed} (${version || 'version unknown'}).`);
} else {
  const tier = asteriskTier();
  if (tier.ready || tier.isReady?.()) say(`Using the Asterisk built in ${tier.prefix}.`);
  else if (!tier.buildable) say(`No Asterisk to run: ${tier.reason}. The console starts without a phone system.`);
  else {
    say('Building Asterisk 22 from source (once; about 5 minutes on 2 cores)…');
    spawnSync(process.execPath, [path.join(root, 'scripts/ensure-asterisk.mjs')], { stdio: 'inherit' });
    say(tier.isReady() ? `Asterisk built in ${tier.prefix}.` : 'Asterisk could not be built (see above).');
  }
}

// Prompts (voicemail, IVR and queue announcements) and music on hold: Debian's packages, as a packaged Asterisk uses.
// Asterisk looks prompts up by language (sounds/en, sounds/it): the -gsm packages hold only the voices' own folders
// (en_US_f_Allison, it_IT_m_Carlo), and the language links come with asterisk-core-sounds-en and -it, which pull
// them in. Checked by the link, so a machine with only the voices gets the links too.
const packages = [
  ['asterisk-core-sounds-en', '/usr/share/asterisk/sounds/en/vm-login.gsm'],
  ['asterisk-core-sounds-it', '/usr/share/asterisk/sounds/it/vm-login.gsm'],
  ['asterisk-moh-opsound-gsm', '/usr/share/asterisk/moh/macroform-cold_day.gsm'],
];
const missing = packages.filter(([, file]) => !fs.existsSync(file)).map(([name]) => name);
if (missing.length > 0 && !isRoot) {
  say(`Voice prompts and music on hold are missing: sudo apt-get install -y ${missing.join(' ')}`);
} else if (missing.length > 0) {
  say(`Installing ${missing.join(', ')}…`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const args = ['-o', 'DPkg::Lock::Timeout=300', 'install', '-y', '-qq', '--no-install-recommends', ...missing];
  let r = spawnSync('apt-get', args, { stdio: 'inherit', env });
  if (r.status !== 0) {
    spawnSync('apt-get', ['-o', 'DPkg::Lock::Timeout=300', 'update', '-qq'], { stdio: 'inherit', env });
    r = spawnSync('apt-get', args, { stdio: 'inherit', env });
  }
  if (r.status !== 0) say(`Could not install ${missing.join(' ')}: callers will hear silence until they are.`);
}

// The user a managed Asterisk runs as when the console runs as root (main.ts makes it too, if this was skipped).
if (isRoot) {
  if (spawnSync('getent', ['group', 'asterisk']).status !== 0) spawnSync('groupadd', ['--system', 'asterisk']);
  if (spawnSync('getent', ['passwd', 'asterisk']).status !== 0) {
    spawnSync('useradd', [
      '--system',
      '-g',
      'asterisk',
      '-M',
      '-d',
      '/nonexistent',
      '-s',
      '/usr/sbin/nologin',
      'asterisk',
    ]);
  }
}
say(`Ready in ${Math.round((Date.now() - started) / 1000)} s.`);
