import fs from 'node:fs';
import path from 'node:path';
import { fromBase64 } from '@centralino/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { callRecordSpoolDir, callRecordSpoolFile, parseCsvLine, splitRecords } from '../../src/pbx/call-records.ts';
import { DB_KINDS, login, startApp, type TestApp, useTestDatabase } from '../helpers.ts';

/**
 * Call records: Asterisk appends each finished call to a spool file (cdr_custom), whether the console runs or not;
 * the console takes the file in at start and every second, and the default Last calls card shows the records. Here
 * the lines are written as cdr_custom writes them (every field quoted, '"' doubled); the real Asterisk writes them in
 * test/asterisk/call-records.test.ts.
 */

/** One spool line as cdr_custom writes it from cdr_custom.conf (the fields of SPOOL_FIELDS). */
const line = (uniqueid: string, overrides: Record<string, string> = {}) => {
  const record: Record<string, string> = {
    start: '2026-11-27 09:15:02',
    end: '2026-11-27 09:16:47',
    clid: '"Bob Bianchi" <202>',
    src: '202',
    dst: '201',
    dcontext: 'from-internal',
    channel: 'PJSIP/202-00000001',
    dstchannel: 'PJSIP/201-00000002',
    lastapp: 'Dial',
    lastdata: 'PJSIP/201,30,tT',
    duration: '105',
    billsec: '102',
    disposition: 'ANSWERED',
    amaflags: 'DOCUMENTATION',
    accountcode: '',
    uniqueid,
    userfield: '',
    ...overrides,
  };
  return `${Object.values(record)
    .map((v) => `"${v.replaceAll('"', '""')}"`)
    .join(',')}\n`;
};

describe('the spool format', () => {
  it('splits complete records only, a newline inside quotes belonging to its value', () => {
    const bytes = Buffer.from(`"a","b\nc"\n"d","é"\n"e","unfinished`);
    const { records, consumed } = splitRecords(bytes);
    expect(records.map((r) => r.toString())).toEqual(['"a","b\nc"', '"d","é"']);
    expect(bytes.subarray(consumed).toString()).toBe('"e","unfinished');
    expect(parseCsvLine('"x, ""y""",,z')).toEqual(['x, "y"', '', 'z']);
    expect(parseCsvLine('"open')).toBeNull();
  });
});

describe.each(DB_KINDS)('call records (%s)', (kind) => {
  const testDb = useTestDatabase(kind);
  let t: (TestApp & { headers: Awaited<ReturnType<typeof login>> }) | undefined;
  afterAll(async () => {
    await t?.close();
  });
  const start = async () => {
    const app = await startApp(testDb.current);
    t = Object.assign(app, { headers: await login(app.app) });
    return t;
  };
  const stop = async () => {
    await t?.close();
    t = undefined;
  };
  const spoolFile = () => callRecordSpoolFile(path.join(testDb.current.dataDir, 'asterisk'));
  const spoolDir = () => callRecordSpoolDir(path.join(testDb.current.dataDir, 'asterisk'));
  /** As Asterisk appends: to the live file, made anew after the console took the last one aside. */
  const append = (text: string) => fs.appendFileSync(spoolFile(), text);
  const records = async () =>
    (await (t as TestApp).database.db.selectFrom('cdr').selectAll().orderBy('uniqueid').execute()).filter((r) =>
      r.uniqueid.startsWith(kind),
    );
  /** The Last calls card (id 2) as the console previews it for a caller number. */
  const lastCalls = async (number: string) => {
    const app = t as TestApp & { headers: Record<string, string> };
    const cards = (await app.app.inject({ method: 'GET', url: '/api/cti/customer_card', headers: app.headers })).json();
    const res = await app.app.inject({
      method: 'POST',
      url: '/api/custcard/preview',
      headers: app.headers,
      payload: {
        dbconn_id: 2,
        template: 'lastcalls',
        query: (cards as { id: number; query: string }[]).find((c) => c.id === 2)?.query,
        number,
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { rows: Record<string, string>[]; html: string };
  };

  it('takes in, exactly once, what Asterisk wrote while the console was stopped, odd characters and all', async () => {
    // A first start makes the spool folder and the tables; then the console is stopped.
    await start();
    await stop();
    append(line(`${kind}.1`));
    // Unanswered calls are kept but not shown by the default card, which lists answered ones.
    append(line(`${kind}.2`, { disposition: 'NO ANSWER', billsec: '0', src: '203' }));
    // Separators, quotes, a newline and characters beyond ASCII survive; an overlong value is cut to its column.
    append(
      line(`${kind}.3`, {
        src: '204',
        clid: '"Zoë “Ñandú”, 李" <204>',
        lastdata: 'x'.repeat(500),
        userfield: 'line one\nline "two", end',
      }),
    );
    // Asterisk in the middle of a record: not taken until its newline is there.
    const fourth = line(`${kind}.4`, { src: '205' });
    append(fourth.slice(0, 40));

    await start();
    await expect.poll(async () => (await records()).length, { timeout: 20_000 }).toBe(3);
    const rows = await records();
    expect(rows.map((r) => r.uniqueid)).toEqual([`${kind}.1`, `${kind}.2`, `${kind}.3`]);
    expect(rows[2]).toMatchObject({
      clid: '"Zoë “Ñandú”, 李" <204>',
      userfield: 'line one\nline "two", end',
      amaflags: 3,
      duration: 105,
      billsec: 102,
    });
    expect(rows[2]?.lastdata).toBe('x'.repeat(80));

    const card = await lastCalls('202');
    expect(card.rows).toHaveLength(1);
    expect(card.rows[0]).toMatchObject({
      date: '27/11/2026',
      time: '09:15:02',
      src: '202',
      dst: '201',
      duration: '105',
      billsec: '102',
      direction: 'in',
    });
    expect(fromBase64(card.html)).toContain('09:15:02');
    expect((await lastCalls('201')).rows.map((r) => r.src)).toContain('202');
    expect((await lastCalls('203')).rows).toEqual([]);

    // Asterisk finishes the record (into the file it had opened, now taken aside), and writes a new one.
    const taken = fs.readdirSync(spoolDir()).filter((n) => n.startsWith('taken-'));
    expect(taken).toHaveLength(1);
    fs.appendFileSync(path.join(spoolDir(), taken[0] as string), fourth.slice(40));
    append(line(`${kind}.5`, { src: '206' }));
    await expect
      .poll(async () => (await records()).map((r) => r.uniqueid), { timeout: 20_000 })
      .toEqual([`${kind}.1`, `${kind}.2`, `${kind}.3`, `${kind}.4`, `${kind}.5`]);
  });

  it('doubles nothing across a restart between two reads, and empties the folder once done', async () => {
    // Stopped before the files read were removed: their positions say how far they were read.
    await stop();
    expect(fs.readdirSync(spoolDir()).some((n) => n.startsWith('taken-'))).toBe(true);
    append(line(`${kind}.6`, { src: '207' }));
    await start();
    await expect.poll(async () => (await records()).length, { timeout: 20_000 }).toBe(6);
    // A crash after a file was removed and before its position was: the position goes at the next pass.
    await (t as TestApp).database.db
      .insertInto('cdr_spool')
      .values({ name: 'taken-1795700000000-000000.csv', file_id: '1:1', offset: 10 })
      .execute();
    await stop();
    await start();
    // The files are removed a few seconds after their last write, and their positions with them.
    await expect.poll(() => fs.readdirSync(spoolDir()), { timeout: 15_000, interval: 500 }).toEqual([]);
    await expect
      .poll(async () => (await (t as TestApp).database.db.selectFrom('cdr_spool').selectAll().execute()).length, {
        timeout: 5_000,
      })
      .toBe(0);
    expect((await records()).map((r) => r.uniqueid)).toEqual([1, 2, 3, 4, 5, 6].map((n) => `${kind}.${n}`));
    expect((await lastCalls('207')).rows).toHaveLength(1);
  });
});
