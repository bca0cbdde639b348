import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { prepareDataDir } from '../src/data-dir.ts';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'centralino-datadir-'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));
const mode = (p: string) => fs.statSync(p).mode & 0o777;

describe('DATA_DIR is private to the service', () => {
  it('creates it 0700, or 0710 for the group of an Asterisk whose configuration lives inside', () => {
    const plain = path.join(scratch, 'plain');
    expect(prepareDataDir(plain, { configDir: path.join(plain, 'asterisk'), gid: null }).warnings).toEqual([]);
    expect(mode(plain)).toBe(0o700);
    const gid = process.getgid?.() ?? 0;
    const shared = path.join(scratch, 'shared');
    expect(prepareDataDir(shared, { configDir: path.join(shared, 'asterisk'), gid }).warnings).toEqual([]);
    expect(mode(shared)).toBe(0o710);
    expect(fs.statSync(shared).gid).toBe(gid);
    // Asterisk's files elsewhere: nobody but the service passes through.
    const apart = path.join(scratch, 'apart');
    prepareDataDir(apart, { configDir: '/etc/asterisk', gid });
    expect(mode(apart)).toBe(0o700);
  });

  it('warns about an existing installation readable by others, saying what to run, and changes nothing', () => {
    const old = path.join(scratch, 'old');
    fs.mkdirSync(old, { mode: 0o755 });
    fs.chmodSync(old, 0o755);
    fs.writeFileSync(path.join(old, 'centralino.db'), '');
    fs.chmodSync(path.join(old, 'centralino.db'), 0o644);
    const { warnings } = prepareDataDir(old, { configDir: path.join(old, 'asterisk'), gid: null });
    expect(warnings).toEqual([
      `DATA_DIR ${old} is 0755: other local users can reach the database and its passwords. Make it 0700 (chmod 0700 ${old})`,
      `${path.join(old, 'centralino.db')} is 0644: it holds passwords in clear. Make it 0600 (chmod 600 ${path.join(old, 'centralino.db')})`,
    ]);
    expect(mode(old)).toBe(0o755);
  });

  it('a started server writes its database 0600 in a 0700 folder', async () => {
    const dataDir = path.join(scratch, 'server');
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
      cwd: repoRoot,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        ADMIN_PASSWORD: 'data-dir-test-password',
        TFTP_PORT: '0',
        ASTERISK_MODE: 'off',
        // Asterisk's configuration and the call recordings outside DATA_DIR: the folder is then the service's alone
        // (inside, Asterisk's group may pass through it: 0710).
        ASTERISK_CONFIG_DIR: path.join(scratch, 'asterisk-etc'),
        RECORDINGS_DIR: path.join(scratch, 'recordings'),
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => {
      output += d;
    });
    child.stderr.on('data', (d) => {
      output += d;
    });
    try {
      for (let i = 0; i < 300 && !/Centralino listening/.test(output); i++) {
        if (child.exitCode !== null) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(fs.existsSync(path.join(dataDir, 'centralino.db')), output).toBe(true);
      expect(mode(dataDir)).toBe(0o700);
      for (const name of fs.readdirSync(dataDir)) {
        const file = path.join(dataDir, name);
        if (fs.statSync(file).isFile()) expect([name, mode(file)]).toEqual([name, 0o600]);
      }
    } finally {
      // Gone before the folder is removed: a closing server still writes its database and files.
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill();
        await exited;
      }
    }
  }, 60_000);
});
