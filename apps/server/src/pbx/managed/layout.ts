import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { type Config, lookupId } from '../../config.ts';
import {
  type AsteriskInstallation,
  DISTRIBUTION_MOH,
  DISTRIBUTION_SOUNDS,
  findInstallation,
  isProblem,
  type PbxProblem,
} from './installation.ts';
import { noMusicOnHold, noVoicePrompts, type Words } from './messages.ts';

/** The AMI account the console uses on the Asterisk it runs (bound to loopback, secret generated once). */
export const MANAGED_AMI_USERNAME = 'centralino';

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/** The system user a managed Asterisk runs as when the console runs as root (made like Debian's package does). */
function ensureAsteriskAccount(): void {
  if (lookupId('group', 'asterisk') === null) spawnSync('groupadd', ['--system', 'asterisk'], { stdio: 'ignore' });
  if (lookupId('passwd', 'asterisk') === null) {
    spawnSync(
      'useradd',
      ['--system', '-g', 'asterisk', '-M', '-d', '/nonexistent', '-s', '/usr/sbin/nologin', 'asterisk'],
      { stdio: 'ignore' },
    );
  }
}

/**
 * Managed mode, before DATA_DIR is prepared: which Asterisk runs, as whom, with which modules. As root it runs as
 * the `asterisk` system user (made when missing); as anyone else, as that user (Asterisk cannot change user then).
 */
export function resolveManagedPbx(config: Config): { config: Config; installation: AsteriskInstallation | PbxProblem } {
  const installation = findInstallation({
    bin: config.pbx.asteriskBin,
    cacheDir: config.pbx.asteriskCacheDir,
    searchPath: process.env.PATH ?? '',
  });
  let runAs = config.pbx.runAs;
  if (isRoot()) {
    if (runAs.user === null || runAs.group === null) {
      ensureAsteriskAccount();
      const gid = lookupId('group', 'asterisk');
      if (lookupId('passwd', 'asterisk') !== null && gid !== null) runAs = { user: 'asterisk', group: 'asterisk', gid };
    }
  } else {
    runAs = { user: null, group: null, gid: null };
  }
  const modules =
    config.pbx.explicitDirectories.modules || isProblem(installation)
      ? config.pbx.directories.modules
      : installation.modulesDir;
  return {
    installation,
    config: { ...config, pbx: { ...config.pbx, runAs, directories: { ...config.pbx.directories, modules } } },
  };
}

/**
 * Managed mode, once DATA_DIR exists: Asterisk's own folders (DATA_DIR/pbx/...) owned by its user, its data folder
 * pointing at the distribution's prompts and music and at the build's documentation, and the AMI secret (private to
 * the console). Answers the config with the AMI connection filled in, and what is missing (warnings).
 */
export function prepareManagedLayout(
  config: Config,
  installation: AsteriskInstallation | PbxProblem,
): { config: Config; warnings: Words[] } {
  const warnings: Words[] = [];
  const root = path.join(config.dataDir, 'pbx');
  const { runAs, directories } = config.pbx;
  const uid = runAs.user === null ? null : lookupId('passwd', runAs.user);
  fs.mkdirSync(root, { recursive: true });
  if (runAs.gid !== null) {
    fs.chownSync(root, -1, runAs.gid);
    fs.chmodSync(root, 0o710);
    // Asterisk passes through DATA_DIR to its folders: an existing 0700 DATA_DIR of another group would stop it.
    const st = fs.statSync(config.dataDir);
    if (st.gid !== runAs.gid || (st.mode & 0o010) === 0) {
      fs.chownSync(config.dataDir, -1, runAs.gid);
      fs.chmodSync(config.dataDir, (st.mode & 0o700) | 0o010);
    }
  }
  for (const name of ['varlib', 'spool', 'run', 'log'] as const) {
    if (config.pbx.explicitDirectories[name]) continue;
    const dir = directories[name];
    fs.mkdirSync(dir, { recursive: true });
    // Explicit: the console's umask (0077) narrows what mkdir asks for.
    fs.chmodSync(dir, 0o750);
    if (uid !== null && runAs.gid !== null) fs.chownSync(dir, uid, runAs.gid);
  }
  if (!config.pbx.explicitDirectories.data) {
    const data = directories.data;
    fs.mkdirSync(data, { recursive: true });
    fs.chmodSync(data, 0o750);
    if (runAs.gid !== null) fs.chownSync(data, -1, runAs.gid);
    const link = (name: string, target: string | null) => {
      const at = path.join(data, name);
      const current = fs.lstatSync(at, { throwIfNoEntry: false });
      if (current?.isSymbolicLink() && fs.readlinkSync(at) === target) return;
      if (current) fs.rmSync(at, { recursive: true, force: true });
      if (target) fs.symlinkSync(target, at);
    };
    link('documentation', isProblem(installation) ? null : installation.documentationDir);
    const sounds = fs.existsSync(DISTRIBUTION_SOUNDS) ? DISTRIBUTION_SOUNDS : null;
    link('sounds', sounds);
    const missing = ['en', 'it'].filter((lang) => !sounds || !fs.existsSync(path.join(sounds, lang, 'vm-login.gsm')));
    if (missing.length > 0) {
      warnings.push(noVoicePrompts(missing));
    }
    if (fs.existsSync(DISTRIBUTION_MOH)) link('moh', DISTRIBUTION_MOH);
    else {
      link('moh', null);
      fs.mkdirSync(path.join(data, 'moh'), { recursive: true });
      fs.chmodSync(path.join(data, 'moh'), 0o755);
      warnings.push(noMusicOnHold());
    }
  }
  const secretFile = path.join(root, 'ami-secret');
  let secret = fs.existsSync(secretFile) ? fs.readFileSync(secretFile, 'utf8').trim() : '';
  if (secret.length < 16) {
    secret = randomBytes(24).toString('base64url');
    fs.writeFileSync(secretFile, `${secret}\n`, { mode: 0o600 });
  }
  fs.chmodSync(secretFile, 0o600);
  return {
    warnings,
    config: {
      ...config,
      pbx: {
        ...config.pbx,
        ami: { host: '127.0.0.1', port: config.pbx.amiPort, username: MANAGED_AMI_USERNAME, secret },
      },
    },
  };
}
