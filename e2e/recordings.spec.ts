import fs from 'node:fs';
import path from 'node:path';
import { apiAs, expect, seriousViolations, signInAs, signInWithLocalUsers, test } from './fixtures.ts';

/*
 * Call recordings (issue 41) against the real server: a call ends as Asterisk ends it, its spool line naming the
 * recording MixMonitor wrote under DATA_DIR/recordings/<day>/. The administrator plays it from the call's row and its
 * details (the audio element loads and plays it through the short-lived link) and downloads it; a read-only account
 * without the permission sees that the call was recorded, and no player.
 */

/** A WAV of `seconds` of a 440 Hz tone, 8 kHz mono 16-bit, as MixMonitor writes them. */
function wav(seconds: number): Buffer {
  const samples = 8000 * seconds;
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++)
    data.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / 8000)), i * 2);
  const head = Buffer.alloc(44);
  head.write('RIFF', 0);
  head.writeUInt32LE(36 + data.length, 4);
  head.write('WAVEfmt ', 8);
  head.writeUInt32LE(16, 16);
  head.writeUInt16LE(1, 20);
  head.writeUInt16LE(1, 22);
  head.writeUInt32LE(8000, 24);
  head.writeUInt32LE(16000, 28);
  head.writeUInt16LE(2, 32);
  head.writeUInt16LE(16, 34);
  head.write('data', 36);
  head.writeUInt32LE(data.length, 40);
  return Buffer.concat([head, data]);
}

const p = (n: number) => String(n).padStart(2, '0');
const day = (d: Date) => `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
const stamp = (d: Date) => `${day(d)} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;

test('recordings: play from the row and the details, download, and none for a read-only account', async ({
  page,
  server,
}) => {
  await signInWithLocalUsers(page, [
    ['alice', 'Alice Rossi', '201'],
    ['bob', 'Bob Bianchi', '202'],
  ]);
  const start = new Date(Date.now() - 10 * 60_000);
  const linkedid = `${Math.floor(start.getTime() / 1000)}.42`;
  const name = `${day(start)}/${linkedid}.wav`;
  const file = path.join(server.dataDir, 'recordings', name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, wav(30));
  const fields = {
    start: stamp(start),
    end: stamp(new Date(start.getTime() + 32_000)),
    clid: '"Bob Bianchi" <202>',
    src: '202',
    dst: '201',
    dcontext: 'from-internal',
    channel: 'PJSIP/202-00000001',
    dstchannel: 'PJSIP/201-00000002',
    lastapp: 'Dial',
    lastdata: 'PJSIP/201',
    duration: '32',
    billsec: '30',
    disposition: 'ANSWERED',
    amaflags: 'DOCUMENTATION',
    accountcode: '',
    uniqueid: linkedid,
    userfield: '',
    linkedid,
    sequence: '1',
    did: '',
    recordingfile: name,
  };
  const spool = path.join(server.dataDir, 'asterisk', 'cdr-spool');
  fs.mkdirSync(spool, { recursive: true });
  fs.appendFileSync(
    path.join(spool, 'cdr.csv'),
    `${Object.values(fields)
      .map((v) => `"${v.replaceAll('"', '""')}"`)
      .join(',')}\n`,
  );
  await expect
    .poll(async () => (await apiAs(page, 'GET', '/api/calls')).body?.rows?.[0]?.recording, { timeout: 30_000 })
    .toBe('available');

  await page.goto('/calls');
  const table = page.getByRole('table', { name: 'Call history' });
  const row = table.getByRole('row').filter({ hasText: 'Bob Bianchi' });
  await expect(row.getByRole('button', { name: /^Play/ })).toBeVisible();
  expect(await seriousViolations(page, ['main'])).toEqual([]);

  // Download: the file as the server has it.
  const download = page.waitForEvent('download');
  await row.getByRole('button', { name: /^Download/ }).click();
  const saved = await download;
  expect(saved.suggestedFilename()).toMatch(/^call-.*\.wav$/);
  expect(fs.statSync(await saved.path()).size).toBe(fs.statSync(file).size);

  // Play from the row: the audio element loads the link and plays.
  await row.getByRole('button', { name: /^Play/ }).click();
  const audio = row.locator('audio');
  await expect(audio).toBeVisible();
  await expect
    .poll(() => audio.evaluate((a: HTMLAudioElement) => a.readyState), { timeout: 15_000 })
    .toBe(4 /* HAVE_ENOUGH_DATA */);
  await audio.evaluate((a: HTMLAudioElement) => a.play().catch(() => undefined));
  await expect
    .poll(() => audio.evaluate((a: HTMLAudioElement) => a.currentTime), { timeout: 15_000 })
    .toBeGreaterThan(0);
  // A long call seeks at once: the server answers the range the element asks for.
  await audio.evaluate((a: HTMLAudioElement) => {
    a.currentTime = 25;
  });
  await expect
    .poll(() => audio.evaluate((a: HTMLAudioElement) => a.currentTime), { timeout: 15_000 })
    .toBeGreaterThan(25);

  // The details dialog has its own player (axe checks the dialog as it opens).
  await table.getByRole('button', { name: /^Details/ }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: 'Recording' })).toBeVisible();
  await dialog.getByRole('button', { name: /^Play/ }).click();
  await expect
    .poll(() => dialog.locator('audio').evaluate((a: HTMLAudioElement) => a.readyState), { timeout: 15_000 })
    .toBe(4);
  await page.keyboard.press('Escape');

  // Every listen and download is in the audit log.
  const audit = (await apiAs(page, 'GET', '/api/admin/audit?pageSize=200')).body.rows.map(
    (r: { action: string }) => r.action,
  );
  expect(audit.filter((a: string) => a === 'recording_listen')).toHaveLength(2);
  expect(audit.filter((a: string) => a === 'recording_download')).toHaveLength(1);

  // A read-only account without the permission sees the call was recorded, and no player.
  expect(
    (
      await apiAs(page, 'POST', '/api/admin/accounts', {
        username: 'viewer',
        password: 'viewer-pass-1',
        role: 'readonly',
      })
    ).status,
  ).toBe(201);
  await signInAs(page, 'viewer', 'viewer-pass-1');
  await page.goto('/calls');
  const viewed = page.getByRole('table', { name: 'Call history' }).getByRole('row').filter({ hasText: 'Bob Bianchi' });
  await expect(viewed.getByText('Recorded (this account may not listen)')).toBeVisible();
  await expect(viewed.getByRole('button', { name: /^Play/ })).toHaveCount(0);
  await expect(page.locator('audio')).toHaveCount(0);
});
