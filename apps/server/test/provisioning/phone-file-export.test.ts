import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { PhoneFileExport } from '../../src/provisioning/phone-file-export.ts';

// The races between background writes and removals, which nginx in phone-front.test.ts cannot time on purpose.
describe('phone files written for a front web server', () => {
  const roots: string[] = [];
  const start = () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'centralino-export-'));
    roots.push(root);
    const disk = new PhoneFileExport(root, null, pino({ level: 'silent' }));
    disk.start();
    return { root, disk, at: (...parts: string[]) => path.join(root, 'provisioning', ...parts) };
  };
  afterEach(() => {
    for (const root of roots.splice(0)) fs.rmSync(root, { recursive: true, force: true });
  });

  const MAC = '00:15:65:aa:bb:cc';
  const TOKEN = 'a'.repeat(32);

  it('puts a written file in place in the background', async () => {
    const { disk, at } = start();
    disk.write(MAC, TOKEN, 'phone.cfg', Buffer.from('secret=1'));
    await disk.settled();
    expect(fs.readFileSync(at(TOKEN, 'phone.cfg'), 'utf8')).toBe('secret=1');
    // No temporary file is left for the front server to find.
    expect(fs.readdirSync(at(TOKEN))).toEqual(['phone.cfg']);
  });

  it('never writes a token-less file: it carries the first-access URL, for the allowed networks only', async () => {
    const { disk, at } = start();
    disk.write(MAC, '', '001565aabbcc.cfg', Buffer.from(`url = /provisioning/${TOKEN}`));
    disk.write(MAC, '', '001565aabbcc.cfg', Buffer.from(`url = /provisioning/${TOKEN}`), 'first');
    await disk.settled();
    expect(fs.readdirSync(at())).toEqual([]);
  });

  it('throws a write away when the phone changed before it reached the disk', async () => {
    const { disk, at } = start();
    disk.write(MAC, TOKEN, 'phone.cfg', Buffer.from('old'));
    disk.dropMac(MAC);
    await disk.settled();
    expect(fs.existsSync(at(TOKEN, 'phone.cfg'))).toBe(false);
    expect(fs.readdirSync(at())).toEqual([]);

    // The same for a retired first-access token and for everything at once.
    disk.write(MAC, TOKEN, 'phone.cfg', Buffer.from('old'));
    disk.dropToken(MAC, TOKEN);
    disk.write('00:15:65:00:00:01', TOKEN.replace(/a/g, 'b'), 'phone.cfg', Buffer.from('old'));
    disk.clear();
    await disk.settled();
    expect(fs.readdirSync(at())).toEqual([]);

    // A write that starts after the removal is the new truth and goes on disk.
    disk.write(MAC, TOKEN, 'phone.cfg', Buffer.from('new'));
    await disk.settled();
    expect(fs.readFileSync(at(TOKEN, 'phone.cfg'), 'utf8')).toBe('new');
  });

  it('moves a first-fetch file into the served tree at a pause, unless the phone changed meanwhile', async () => {
    const { root, disk, at } = start();
    const first = (...parts: string[]) => path.join(root, 'provisioning-first', ...parts);
    disk.write(MAC, TOKEN, 'phone.cfg', Buffer.from('reported'), 'first');
    await disk.settled();
    disk.promoteSoon(MAC, TOKEN);
    // Not in the report's turn: the storm goes on being served from provisioning-first meanwhile.
    expect(fs.existsSync(first(TOKEN, 'phone.cfg'))).toBe(true);
    for (let i = 0; i < 100 && !fs.existsSync(at(TOKEN, 'phone.cfg')); i++) await new Promise((r) => setTimeout(r, 20));
    expect(fs.readFileSync(at(TOKEN, 'phone.cfg'), 'utf8')).toBe('reported');
    expect(fs.existsSync(first(TOKEN))).toBe(false);

    // A new first-access token (the phone's files dropped) before the pause: the file written for it in
    // provisioning-first is a new one, whose first fetch must be reported; it stays.
    const other = 'c'.repeat(32);
    disk.write(MAC, other, 'phone.cfg', Buffer.from('old'), 'first');
    await disk.settled();
    disk.promoteSoon(MAC, other);
    disk.dropMac(MAC);
    disk.write(MAC, other, 'phone.cfg', Buffer.from('new, not reported yet'), 'first');
    await disk.settled();
    disk.promoteNow();
    expect(fs.existsSync(at(other))).toBe(false);
    expect(fs.readFileSync(first(other, 'phone.cfg'), 'utf8')).toBe('new, not reported yet');
  });

  it('takes a retired token out of reach at once and deletes it later, outside the served tree', async () => {
    const { root, disk, at } = start();
    disk.write(MAC, TOKEN, 'phone.cfg', Buffer.from('tok1 file'));
    await disk.settled();
    disk.dropToken(MAC, TOKEN);
    expect(fs.existsSync(at(TOKEN))).toBe(false);
    const asideNow = () => fs.readdirSync(root).filter((name) => !name.startsWith('provisioning'));
    expect(asideNow().length).toBeGreaterThan(0);
    // Emptied about a second later. Every folder put aside is looked at: the one being emptied is renamed first and
    // deleted in the background, so a fresh empty one may be there while the old one still holds the token.
    const leftovers = () =>
      asideNow().flatMap((name) => {
        try {
          return fs.readdirSync(path.join(root, name));
        } catch {
          return []; // deleted between the listing and the look
        }
      });
    for (let i = 0; i < 100 && leftovers().length > 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(leftovers()).toEqual([]);
  });

  it('removes what a stopped process left aside when the next one starts', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'centralino-export-'));
    roots.push(root);
    // A process id that cannot be running (above Linux's pid_max).
    fs.mkdirSync(path.join(root, '.put-aside-99999999', '1'), { recursive: true });
    fs.mkdirSync(path.join(root, 'provisioning.old-99999999-3'), { recursive: true });
    new PhoneFileExport(root, null, pino({ level: 'silent' })).start();
    const names = () => fs.readdirSync(root).filter((name) => name.includes('99999999') && !name.includes('.gone-'));
    expect(names()).toEqual([]);
  });
});
