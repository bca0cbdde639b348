import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { followFirstUseLog, reportedToken } from '../../src/provisioning/first-use-reports.ts';

const tok = (n: number) => `${n}`.padStart(32, 'a');
const line = (n: number) => `/provisioning-first/${tok(n)}/phone.cfg\n`;

async function until(what: string, done: () => boolean) {
  for (let i = 0; i < 300 && !done(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!done()) throw new Error(`still waiting for ${what}`);
}

describe("the front web server's log of first steady-state fetches", () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });
  const newLog = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'first-use-'));
    dirs.push(dir);
    return path.join(dir, 'first-use.log');
  };

  it('takes the token of a first-tree path, and nothing else', () => {
    expect(reportedToken(`/provisioning-first/${tok(1)}/phone.cfg`)).toBe(tok(1));
    // Served from the steady-state tree (not a first fetch), a path that climbs, no file, a short token.
    expect(reportedToken(`/provisioning/${tok(1)}/phone.cfg`)).toBeUndefined();
    expect(reportedToken('/provisioning-first/../x')).toBeUndefined();
    expect(reportedToken(`/provisioning-first/${tok(1)}/`)).toBeUndefined();
    expect(reportedToken('/provisioning-first/abc/phone.cfg')).toBeUndefined();
    expect(reportedToken(`/provisioning-first/${tok(1)}/a/b.cfg`)).toBeUndefined();
  });

  it('makes the log private, reads what was logged before it started, then each line as nginx appends it', async () => {
    const file = newLog();
    // Fetched while the service was stopped: those phones did use their tokens.
    fs.writeFileSync(file, line(1));
    const tokens: string[] = [];
    const reports = await followFirstUseLog(file, (t) => tokens.push(t), pino({ level: 'silent' }));
    try {
      expect(tokens).toEqual([tok(1)]);
      // nginx writes its buffer whole, which may end mid-line: the half line waits for the rest.
      fs.appendFileSync(file, `${line(2)}${line(3).slice(0, 20)}`);
      await until('the second token', () => tokens.length === 2);
      await new Promise((r) => setTimeout(r, 250));
      expect(tokens).toEqual([tok(1), tok(2)]);
      fs.appendFileSync(file, `${line(3).slice(20)}/api/health\n`);
      await until('the third token', () => tokens.length === 3);
      expect(tokens).toEqual([tok(1), tok(2), tok(3)]);
    } finally {
      await reports.close();
    }
    const fresh = newLog();
    await (await followFirstUseLog(fresh, () => {}, pino({ level: 'silent' }))).close();
    expect(fs.statSync(fresh).mode & 0o777).toBe(0o600);
  });

  it('empties a long log once read and quiet, and follows a log rotated away', async () => {
    const file = newLog();
    const tokens: string[] = [];
    const reports = await followFirstUseLog(file, (t) => tokens.push(t), pino({ level: 'silent' }));
    try {
      // More than the 64 KiB after which the log is emptied (about 50 bytes a phone).
      const many = Array.from({ length: 2000 }, (_, i) => line(i)).join('');
      fs.appendFileSync(file, many);
      await until('2,000 tokens', () => tokens.length === 2000);
      await until('the log emptied', () => fs.statSync(file).size === 0);
      // nginx appends after the truncation: its next line is at the start, and read.
      fs.appendFileSync(file, line(5000));
      await until('the token after the truncation', () => tokens.length === 2001);
      // logrotate renames the log and nginx opens a new one: the rest of the old one, then the new one.
      fs.renameSync(file, `${file}.1`);
      fs.appendFileSync(`${file}.1`, line(5001));
      fs.writeFileSync(file, line(5002));
      await until('both tokens after the rotation', () => tokens.length === 2003);
      expect(tokens.slice(2000)).toEqual([tok(5000), tok(5001), tok(5002)]);
      expect(new Set(tokens).size).toBe(2003);
    } finally {
      await reports.close();
    }
  });
});
