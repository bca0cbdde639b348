import fs from 'node:fs';
import path from 'node:path';
import { apiAs, expect, seriousViolations, signIn, test } from './fixtures.ts';

/*
 * Call reports (/calls/reports) against the real server: calls end as lines of Asterisk's call-record spool and queue
 * events as lines of its queue log, which the console takes in by itself. The administrator reads the charts and
 * the tables beside them, narrows the report to inbound calls (the filter lands in the URL and comes back from it),
 * saves a chart's figures as CSV and as PNG and the month as PDF, in the light and the dark scheme (axe in both).
 */

const pad = (n: number) => String(n).padStart(2, '0');
const stamp = (d: Date) =>
  `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;

/** One cdr_custom line: every field quoted, in SPOOL_FIELDS' order. */
function cdr(f: Record<string, string>): string {
  const record: Record<string, string> = {
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
    uniqueid: `${f.linkedid}.1`,
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

test('call reports: charts with their tables, a filter in the URL, CSV, PNG and PDF, light and dark', async ({
  page,
  server,
}) => {
  await signIn(page);
  // Today at 10:00 (or yesterday's, before ten in the morning): every call in the same hour.
  const base = new Date();
  if (base.getHours() < 10) base.setDate(base.getDate() - 1);
  base.setHours(10, 0, 0, 0);
  const at = (s: number) => stamp(new Date(base.getTime() + s * 1000));
  let calls = '';
  // An answered inbound call on the provider's trunk, an inbound one nobody took, an outbound one.
  calls += cdr({
    linkedid: 'r-in',
    start: at(0),
    src: '3331234567',
    dst: '201',
    channel: 'PJSIP/vivavox-00000001',
    dstchannel: 'PJSIP/201-00000002',
    duration: '70',
    billsec: '60',
    did: '0721123456',
  });
  calls += cdr({
    linkedid: 'r-miss',
    start: at(30),
    src: '0612345678',
    dst: '201',
    channel: 'PJSIP/vivavox-00000003',
    dstchannel: 'PJSIP/201-00000004',
    duration: '25',
    disposition: 'NO ANSWER',
    did: '0721123456',
  });
  calls += cdr({
    linkedid: 'r-out',
    start: at(40),
    src: '201',
    dst: '0698765432',
    dcontext: 'outrt-1',
    channel: 'PJSIP/201-00000005',
    dstchannel: 'PJSIP/vivavox-00000006',
    duration: '50',
    billsec: '45',
  });
  const spool = path.join(server.dataDir, 'asterisk', 'cdr-spool');
  fs.mkdirSync(spool, { recursive: true });
  fs.appendFileSync(path.join(spool, 'cdr.csv'), calls);
  // Queue 401: one caller answered by Alice after 8 s, one who hung up after 12 s.
  const epoch = Math.floor(base.getTime() / 1000);
  const queueLog = [
    `${epoch}|q1|401|NONE|ENTERQUEUE||3331234567|1`,
    `${epoch + 8}|q1|401|Alice Rossi|CONNECT|8|q1a|8`,
    `${epoch + 68}|q1|401|Alice Rossi|COMPLETECALLER|8|60|1`,
    `${epoch + 30}|q2|401|NONE|ENTERQUEUE||0612345678|1`,
    `${epoch + 42}|q2|401|NONE|ABANDON|1|1|12`,
  ];
  const queueSpool = path.join(server.dataDir, 'asterisk', 'queue-log-spool');
  fs.mkdirSync(queueSpool, { recursive: true });
  fs.appendFileSync(path.join(queueSpool, 'queue_log'), `${queueLog.join('\n')}\n`);
  await expect
    .poll(
      async () => {
        const report = (await apiAs(page, 'GET', '/api/calls/reports')).body;
        return [report?.totals?.calls, report?.queues?.[0]?.offered];
      },
      { timeout: 30_000 },
    )
    .toEqual([3, 2]);

  // Still in the first-run wizard here, which has no menu: the screen is opened from the history's link.
  await page.goto('/calls');
  await page.getByRole('link', { name: 'Reports and charts' }).click();
  await expect(page.getByRole('heading', { name: 'Call reports', level: 1 })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: '3 calls, 2 answered, 1 not answered' })).toBeVisible();

  // Each chart is drawn (a canvas with its text alternative) and its figures are in the table beside it.
  const section = (name: string) => page.getByRole('region', { name });
  const hours = section('Calls per hour of day');
  await expect(hours.getByRole('img', { name: /3 calls by hour of day.*busiest hour is 10:00/ })).toBeVisible();
  const ten = hours.getByRole('row', { name: /^10:00/ });
  await expect(ten.getByRole('cell')).toHaveText(['2', '1', '1', '1', '1', '0', '0', '0']);
  const drawn = await hours.locator('canvas').evaluate((canvas: HTMLCanvasElement) => {
    const ctx = canvas.getContext('2d');
    if (!ctx) return 0;
    const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
    const colours = new Set<number>();
    for (let i = 0; i < data.length; i += 16) {
      colours.add(((data[i] ?? 0) << 24) | ((data[i + 1] ?? 0) << 16) | ((data[i + 2] ?? 0) << 8) | (data[i + 3] ?? 0));
    }
    return colours.size;
  });
  // Grid, text and two series: more than a blank sheet's one colour.
  expect(drawn).toBeGreaterThan(4);

  const queues = section('Queues');
  const q401 = queues.getByRole('row', { name: /^401/ });
  // Answered, abandoned, timed out, offered, average wait (8 and 12 s), 90% at most, within 20 s.
  await expect(q401.getByRole('cell')).toHaveText(['1', '1', '0', '2', '0:10', '0:12', '50%']);
  await expect(
    section('Queue agents')
      .getByRole('row', { name: /^Alice Rossi/ })
      .getByRole('cell'),
  ).toHaveText(['1', '1:00', '0']);
  const trunk = section('Trunks').getByRole('row', { name: /^vivavox/ });
  // Inbound, outbound, calls, minutes (60 + 45 s), most at once (the three overlap).
  await expect(trunk.getByRole('cell')).toHaveText(['2', '1', '3', '1.8', '3']);
  expect(await seriousViolations(page, ['main'])).toEqual([]);

  /** The hour chart saved as PNG: the colour of its top-left pixel, decoded in the page. */
  const savedPng = async () => {
    const saved = page.waitForEvent('download');
    await hours.getByRole('button', { name: 'PNG' }).click();
    const file = await saved;
    expect(file.suggestedFilename()).toMatch(/^calls-by-hour-.*\.png$/);
    const bytes = fs.readFileSync(await file.path());
    expect(bytes.subarray(1, 4).toString()).toBe('PNG');
    return page.evaluate(async (base64) => {
      const data = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const image = await createImageBitmap(new Blob([data], { type: 'image/png' }));
      const sheet = new OffscreenCanvas(image.width, image.height);
      const ctx = sheet.getContext('2d') as OffscreenCanvasRenderingContext2D;
      ctx.drawImage(image, 0, 0);
      return [...ctx.getImageData(1, 1, 1, 1).data.slice(0, 3)];
    }, bytes.toString('base64'));
  };

  // The hour table as CSV, the chart as PNG (on the light card's white).
  let download = page.waitForEvent('download');
  await hours.getByRole('button', { name: 'CSV' }).click();
  const csv = fs
    .readFileSync(await (await download).path(), 'utf8')
    .trimEnd()
    .split('\n');
  expect(csv[0]).toBe(
    'Hour,Answered,Not answered,Inbound answered,Inbound not answered,Outbound answered,Outbound not answered,Internal answered,Internal not answered',
  );
  expect(csv).toHaveLength(25);
  expect(csv[11]).toBe('10:00,2,1,1,1,1,0,0,0');
  expect(await savedPng()).toEqual([255, 255, 255]);

  // Inbound only: into the URL, and the URL alone gives the same report.
  await page.getByRole('combobox', { name: 'Direction' }).click();
  await page.getByRole('option', { name: 'Inbound' }).click();
  await page.getByRole('button', { name: 'Show report' }).click();
  await expect(page).toHaveURL(/direction=inbound/);
  await expect(page.getByRole('status').filter({ hasText: '2 calls, 1 answered, 1 not answered' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('combobox', { name: 'Direction' })).toHaveValue('Inbound');
  await expect(page.getByRole('status').filter({ hasText: '2 calls, 1 answered, 1 not answered' })).toBeVisible();

  // The month as PDF, in Italian.
  await page.getByRole('combobox', { name: 'Language' }).click();
  await page.getByRole('option', { name: 'Italiano' }).click();
  download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download PDF' }).click();
  const pdf = await download;
  expect(pdf.suggestedFilename()).toMatch(/^report-chiamate-\d{4}-\d\d\.pdf$/);
  expect(
    fs
      .readFileSync(await pdf.path())
      .subarray(0, 5)
      .toString(),
  ).toBe('%PDF-');

  // The dark scheme: the charts are drawn again in its colours, and the page stays readable.
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await expect(hours.locator('canvas')).toHaveAttribute('data-scheme', 'dark');
  const [r, g, b] = await savedPng();
  // The image has the dark card behind its bars, not a white or transparent sheet.
  expect(Math.max(r as number, g as number, b as number)).toBeLessThan(80);
  expect(await seriousViolations(page, ['main'])).toEqual([]);
});
