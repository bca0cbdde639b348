import fs from 'node:fs';
import path from 'node:path';
import { apiAs, expect, seriousViolations, signInWithLocalUsers, test } from './fixtures.ts';

/*
 * Call history (/calls) against the real server: calls end as Asterisk ends them, as lines of its call-record spool
 * (cdr_custom, the fields of SPOOL_FIELDS in pbx/call-records.ts), which the console takes in by itself. The
 * administrator reads the list with names, filters it (the filter lands in the URL and comes back from it), opens a
 * call's way and legs, scrolls to older calls and exports the filter as CSV.
 */

type Fields = Record<string, string>;

/** One spool line, every field quoted as cdr_custom writes it. */
function line(f: Fields): string {
  const record: Fields = {
    start: '',
    end: '',
    clid: '',
    src: '',
    dst: '',
    dcontext: 'from-internal',
    channel: '',
    dstchannel: '',
    lastapp: 'Dial',
    lastdata: '',
    duration: '0',
    billsec: '0',
    disposition: 'ANSWERED',
    amaflags: 'DOCUMENTATION',
    accountcode: '',
    uniqueid: `${f.linkedid}.${Math.random().toString(36).slice(2, 8)}`,
    userfield: '',
    linkedid: '',
    sequence: '1',
    did: '',
    recordingfile: '',
    ...f,
  };
  return `${Object.values(record)
    .map((v) => `"${v.replaceAll('"', '""')}"`)
    .join(',')}\n`;
}

/** Asterisk's local time, as it writes it: 'YYYY-MM-DD HH:MM:SS'. */
function stamp(date: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${p(date.getMonth() + 1)}-${p(date.getDate())} ${p(date.getHours())}:${p(date.getMinutes())}:${p(date.getSeconds())}`;
}

test('call history: read who called whom, filter by URL, open a call, scroll on, export CSV', async ({
  page,
  server,
}) => {
  await signInWithLocalUsers(page, [
    ['alice', 'Alice Rossi', '201'],
    ['bob', 'Bob Bianchi', '202'],
  ]);
  const now = new Date();
  now.setMinutes(0, 0, 0);
  const at = (minutesAgo: number) => stamp(new Date(now.getTime() - minutesAgo * 60_000));
  let spool = '';
  // Today: Bob calls Alice, who answers; a customer's call ends in Alice's voicemail.
  spool += line({
    linkedid: 'e2e-int',
    start: at(30),
    clid: '"Bob Bianchi" <202>',
    src: '202',
    dst: '201',
    channel: 'PJSIP/202-00000001',
    dstchannel: 'PJSIP/201-00000002',
    duration: '95',
    billsec: '90',
  });
  spool += line({
    linkedid: 'e2e-in',
    start: at(20),
    src: '0612345678',
    dst: '201',
    channel: 'PJSIP/vivavox-00000003',
    dstchannel: 'PJSIP/201-00000004',
    duration: '20',
    disposition: 'NO ANSWER',
    did: '0721123456',
  });
  spool += line({
    linkedid: 'e2e-in',
    start: at(19),
    src: '0612345678',
    dst: 'vmu201',
    channel: 'PJSIP/vivavox-00000003',
    lastapp: 'VoiceMail',
    lastdata: '201@default,u',
    duration: '25',
    billsec: '25',
    did: '0721123456',
    sequence: '2',
  });
  // Last week: 60 calls of Bob's that Alice missed, more than a page.
  for (let i = 0; i < 60; i++) {
    spool += line({
      linkedid: `e2e-old-${i}`,
      start: at(7 * 24 * 60 + i),
      src: '202',
      dst: '201',
      channel: 'PJSIP/202-1',
      dstchannel: 'PJSIP/201-2',
      duration: '15',
      disposition: 'NO ANSWER',
    });
  }
  const dir = path.join(server.dataDir, 'asterisk', 'cdr-spool');
  fs.mkdirSync(dir, { recursive: true });
  fs.appendFileSync(path.join(dir, 'cdr.csv'), spool);
  // The console takes the spool in and builds the history by itself.
  await expect
    .poll(async () => (await apiAs(page, 'GET', '/api/calls?limit=200')).body?.rows?.length, { timeout: 30_000 })
    .toBe(62);

  // Still in the first-run wizard here, which has no menu: the screen is opened by its address.
  await page.goto('/calls');
  await expect(page.getByRole('heading', { name: 'Call history', level: 1 })).toBeVisible();
  const table = page.getByRole('table', { name: 'Call history' });
  const internal = table.getByRole('row').filter({ hasText: 'Bob Bianchi' }).first();
  await expect(internal).toContainText('Internal');
  await expect(internal).toContainText('Alice Rossi');
  await expect(internal).toContainText('1:30');
  await expect(internal).toContainText('Answered');
  await expect(page.getByText('50 calls shown, more below')).toBeVisible();
  expect(await seriousViolations(page, ['main'])).toEqual([]);

  // Inbound only: the filter goes into the URL, and the URL alone gives the same view.
  await page.getByRole('combobox', { name: 'Direction' }).click();
  await page.getByRole('option', { name: 'Inbound' }).click();
  await page.getByRole('button', { name: 'Show calls', exact: true }).click();
  await expect(page).toHaveURL(/direction=inbound/);
  await expect(page.getByText('1 call shown', { exact: true })).toBeVisible();
  const inbound = table.getByRole('row').filter({ hasText: '0612345678' });
  await expect(inbound).toContainText('Voicemail');
  await page.reload();
  await expect(page.getByRole('combobox', { name: 'Direction' })).toHaveValue('Inbound');
  await expect(page.getByText('1 call shown', { exact: true })).toBeVisible();

  // Its way and legs.
  await table.getByRole('button', { name: /^Details/ }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText('Came in on 0721123456')).toBeVisible();
  await expect(dialog.getByText('Rang 201')).toBeVisible();
  await expect(dialog.getByText('Voicemail of 201 — answered')).toBeVisible();
  await expect(dialog.getByRole('table', { name: 'Legs' }).getByRole('row')).toHaveCount(3);
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);

  // A typing mistake is told at once and not applied.
  await page.getByRole('textbox', { name: 'Number contains' }).fill('06-12');
  await expect(page.getByText('Type digits only (and * # +)')).toBeVisible();

  // All calls again: the second page comes as the list is scrolled to its end.
  await page.getByRole('button', { name: 'All calls', exact: true }).click();
  await expect(page).not.toHaveURL(/direction=/);
  await page.getByRole('button', { name: 'Show more' }).scrollIntoViewIfNeeded();
  await expect(page.getByText('62 calls shown', { exact: true })).toBeVisible();

  // Last week's missed calls as CSV.
  await page.getByRole('button', { name: 'Last 30 days' }).click();
  await page.getByRole('combobox', { name: 'Result' }).click();
  await page.getByRole('option', { name: 'Missed' }).click();
  await page.getByRole('button', { name: 'Show calls', exact: true }).click();
  await expect(page).toHaveURL(/result=missed/);
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const file = await (await download).path();
  const lines = fs.readFileSync(file, 'utf8').trimEnd().split('\n');
  expect(lines[0]).toBe(
    'time,direction,caller,caller_name,called,called_name,answered_by,trunk,queue,wait_s,talk_s,result,recorded',
  );
  expect(lines).toHaveLength(61);
  expect(lines[1]).toContain(',internal,202,Bob Bianchi,201,Alice Rossi,,,,15,0,missed,no');
});
