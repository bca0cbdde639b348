import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Insertable } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { CallsTable } from '../src/db/schema.ts';
import { QueueLogSpool } from '../src/pbx/queue-log.ts';
import { callAs, DB_KINDS, useTestApp } from './helpers.ts';

/**
 * Call reports (issue 41, item 9): a known set of calls (the history's `calls` rows) and of queue-log lines (taken in
 * through the spool, as Asterisk writes them) give exact figures on both databases: calls per hour and day answered or
 * not by direction, per queue offered / answered / abandoned, average and 90th-percentile wait and the service
 * level, per agent answered calls and talk time, per trunk calls, minutes and peak concurrent calls. The real
 * Asterisk writes such lines in test/asterisk/call-reports.test.ts.
 */

const local = (text: string) => new Date(text).getTime();
const epoch = (text: string) => Math.floor(local(text) / 1000);

let serial = 0;
const callRow = (c: Partial<Insertable<CallsTable>> & { at: number }): Insertable<CallsTable> => ({
  call_key: `k-${serial++}`,
  direction: 'inbound',
  caller: '3331234567',
  caller_name: '',
  called: '0721123456',
  answered_by: '',
  trunk: '',
  queue: '',
  wait: 0,
  talk: 0,
  result: 'answered',
  recording: '',
  migrated: 0,
  legs: 1,
  ...c,
});

/** Two days of a small office; one call the day before the range. */
const CALLS = [
  // 09:10:00–09:11:45, 09:11:00–09:11:30 and 09:10:30–09:11:33 overlap: three at once on vivavox at 09:11:00.
  callRow({ at: local('2026-11-02T09:10:00'), trunk: 'vivavox', queue: '401', wait: 5, talk: 100 }),
  callRow({ at: local('2026-11-02T09:11:00'), trunk: 'vivavox', queue: '401', wait: 30, result: 'missed' }),
  callRow({ at: local('2026-11-02T09:10:30'), direction: 'outbound', trunk: 'vivavox', wait: 3, talk: 60 }),
  // Starts the very second the first one ends: not a fourth at once.
  callRow({ at: local('2026-11-02T09:11:45'), trunk: 'vivavox', wait: 1, talk: 10 }),
  callRow({ at: local('2026-11-02T14:00:00'), direction: 'internal', wait: 2, talk: 20 }),
  callRow({ at: local('2026-11-03T09:05:00'), trunk: 'vivavox', wait: 4, talk: 50 }),
  callRow({ at: local('2026-11-03T14:30:00'), direction: 'outbound', trunk: 'backup', wait: 10, result: 'busy' }),
  callRow({ at: local('2026-11-01T10:00:00'), trunk: 'vivavox', wait: 9, talk: 9 }),
];

/** Queue-log lines as app_queue writes them (queue 401: four callers; queue 402: one, transferred). */
const T = epoch('2026-11-02T09:10:00');
const QUEUE_LOG = [
  `${T - 100}|NONE|NONE|NONE|QUEUESTART|`,
  `${T}|a|401|NONE|ENTERQUEUE||3331234567|1`,
  `${T + 3}|a|401|Bob Bianchi|RINGNOANSWER|15000`,
  `${T + 5}|a|401|Alice Rossi|CONNECT|5|a-agent|2`,
  `${T + 105}|a|401|Alice Rossi|COMPLETECALLER|5|100|1`,
  `${T + 60}|b|401|NONE|ENTERQUEUE||0612345678|2`,
  `${T + 90}|b|401|NONE|ABANDON|1|2|30`,
  `${T + 120}|c|401|NONE|ENTERQUEUE||0698765432|1`,
  `${T + 145}|c|401|Alice Rossi|CONNECT|25|c-agent|4`,
  `${T + 185}|c|401|Alice Rossi|COMPLETEAGENT|25|40|1`,
  `${T + 200}|d|401|NONE|ENTERQUEUE||0611111111|1`,
  `${T + 260}|d|401|NONE|EXITWITHTIMEOUT|1|1|60`,
  `${T + 300}|NONE|NONE|NONE|CONFIGRELOAD|`,
  `${T + 400}|e|402|NONE|ENTERQUEUE||0622222222|1`,
  `${T + 402}|e|402|Bob Bianchi|CONNECT|2|e-agent|1`,
  `${T + 437}|e|402|Bob Bianchi|BLINDTRANSFER|300|from-internal|2|35|1`,
  // The next month: outside the range.
  `${epoch('2026-12-01T10:00:00')}|f|401|NONE|ENTERQUEUE||0633333333|1`,
];
/** The lines above the reports keep (not QUEUESTART, CONFIGRELOAD). */
const KEPT = QUEUE_LOG.length - 2;

const zero = { inbound: 0, outbound: 0, internal: 0 };

describe.each(DB_KINDS)('call reports (%s)', (kind) => {
  const t = useTestApp(kind);
  const call = callAs(t);
  const ok = async (url: string) => {
    const res = await call('GET', url);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cz-queue-log-'));
  const spool = (options: ConstructorParameters<typeof QueueLogSpool>[4] = {}) =>
    new QueueLogSpool(t.database.db, dir, null, undefined, { settleMs: 0, ...options });
  const count = async () =>
    Number(
      (
        await t.database.db
          .selectFrom('queue_log')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('takes the queue log in once, whichever of two processes reads it, and again after a restart only what is new', async () => {
    const live = path.join(dir, 'queue_log');
    // The last line is still being written.
    fs.writeFileSync(live, `${QUEUE_LOG.slice(0, 10).join('\n')}\n${QUEUE_LOG[10]?.slice(0, 8)}`);
    // The server's own reader, of its own (empty) folder, on the same database: it began before these lines.
    const elsewhere = new QueueLogSpool(t.database.db, fs.mkdtempSync(path.join(os.tmpdir(), 'cz-queue-log-')), null);
    await elsewhere.drain();
    const [one, two] = [spool(), spool()];
    await Promise.all([one.drain(), two.drain(), one.drain(), two.drain()]);
    expect(await count()).toBe(9);
    await Promise.all([one.close(), two.close()]);
    // Its next pass leaves their position alone (it once took the live file's row for a leftover of its own).
    await elsewhere.drain();
    await elsewhere.close();
    // Asterisk finishes the line and writes on while the console is stopped.
    fs.appendFileSync(live, `${QUEUE_LOG[10]?.slice(8)}\n${QUEUE_LOG.slice(11).join('\n')}\n`);
    const again = spool();
    await again.drain();
    await again.drain();
    await again.close();
    expect(await count()).toBe(KEPT);
    const rows = await t.database.db
      .selectFrom('queue_log')
      .selectAll()
      .where('callid', '=', 'c')
      .orderBy('at')
      .execute();
    expect(rows.map((r) => [r.event, r.agent, r.wait, r.talk])).toEqual([
      ['ENTERQUEUE', 'NONE', 0, 0],
      ['CONNECT', 'Alice Rossi', 25, 0],
      ['COMPLETEAGENT', 'Alice Rossi', 0, 40],
    ]);
  });

  it('takes a full file aside, asks Asterisk to reopen, reads what Asterisk still writes there, then removes it', async () => {
    const live = path.join(dir, 'queue_log');
    let reopened = 0;
    const rotating = spool({ rotateBytes: 1, reopen: async () => reopened++ });
    // Asterisk's open file: the rename does not move its writes.
    const fd = fs.openSync(live, 'a');
    fs.writeSync(fd, `${T + 500}|g|402|NONE|ENTERQUEUE||0644444444|1\n`);
    await rotating.drain();
    expect(reopened).toBe(1);
    expect(fs.existsSync(live)).toBe(false);
    fs.writeSync(fd, `${T + 510}|g|402|NONE|ABANDON|1|1|10\n`);
    fs.closeSync(fd);
    // The logger's new file after `logger reload`.
    fs.writeFileSync(live, `${T + 600}|NONE|NONE|NONE|CONFIGRELOAD|\n`);
    await rotating.drain();
    await rotating.drain();
    await rotating.close();
    expect(await count()).toBe(KEPT + 2);
    expect(fs.readdirSync(dir).filter((n) => n.startsWith('taken-'))).toEqual([]);
    // Not counted in the figures below.
    await t.database.db.deleteFrom('queue_log').where('callid', '=', 'g').execute();
  });

  it('reports calls per hour and day, answered or not by direction, and per trunk its calls, minutes and peak', async () => {
    await t.database.db.insertInto('calls').values(CALLS).execute();
    const report = await ok('/api/calls/reports?from=2026-11-02&to=2026-11-03');
    expect(report).toMatchObject({ from: '2026-11-02', to: '2026-11-03', serviceLevel: 20 });
    expect(report.totals).toEqual({ calls: 7, answered: 5, missed: 2 });
    expect(report.hours).toHaveLength(24);
    expect(report.hours[9]).toEqual({
      hour: 9,
      answered: { inbound: 3, outbound: 1, internal: 0 },
      missed: { inbound: 1, outbound: 0, internal: 0 },
    });
    expect(report.hours[14]).toEqual({
      hour: 14,
      answered: { ...zero, internal: 1 },
      missed: { ...zero, outbound: 1 },
    });
    expect(report.hours.filter((h: { hour: number }) => h.hour !== 9 && h.hour !== 14)).toEqual(
      Array.from({ length: 24 }, (_, hour) => ({ hour, answered: zero, missed: zero })).filter(
        (h) => h.hour !== 9 && h.hour !== 14,
      ),
    );
    expect(report.days).toEqual([
      { day: '2026-11-02', answered: { inbound: 2, outbound: 1, internal: 1 }, missed: { ...zero, inbound: 1 } },
      { day: '2026-11-03', answered: { ...zero, inbound: 1 }, missed: { ...zero, outbound: 1 } },
    ]);
    expect(report.trunks).toEqual([
      { trunk: 'vivavox', calls: 5, inbound: 4, outbound: 1, talk: 220, peak: 3 },
      { trunk: 'backup', calls: 1, inbound: 0, outbound: 1, talk: 0, peak: 1 },
    ]);

    const inbound = await ok('/api/calls/reports?from=2026-11-02&to=2026-11-03&direction=inbound');
    expect(inbound.totals).toEqual({ calls: 4, answered: 3, missed: 1 });
    expect(inbound.trunks).toEqual([{ trunk: 'vivavox', calls: 4, inbound: 4, outbound: 0, talk: 160, peak: 2 }]);
  });

  it('reports per queue the callers, what became of them, their waits and the service level, and per agent', async () => {
    const report = await ok('/api/calls/reports?from=2026-11-02&to=2026-11-03');
    expect(report.queues).toEqual([
      {
        queue: '401',
        name: '',
        offered: 4,
        answered: 2,
        abandoned: 1,
        timedOut: 1,
        left: 0,
        // Waits 5, 25, 30 and 60 s.
        avgWait: 30,
        p90Wait: 60,
        avgAnswerWait: 15,
        answeredWithin: 1,
        serviceLevel: 0.25,
      },
      {
        queue: '402',
        name: '',
        offered: 1,
        answered: 1,
        abandoned: 0,
        timedOut: 0,
        left: 0,
        avgWait: 2,
        p90Wait: 2,
        avgAnswerWait: 2,
        answeredWithin: 1,
        serviceLevel: 1,
      },
    ]);
    expect(report.agents).toEqual([
      { queue: '401', agent: 'Alice Rossi', answered: 2, talk: 140, ringNoAnswer: 0 },
      { queue: '401', agent: 'Bob Bianchi', answered: 0, talk: 0, ringNoAnswer: 1 },
      { queue: '402', agent: 'Bob Bianchi', answered: 1, talk: 35, ringNoAnswer: 0 },
    ]);
    const slower = await ok('/api/calls/reports?from=2026-11-02&to=2026-11-03&serviceLevel=30');
    expect(slower.queues[0]).toMatchObject({ answeredWithin: 2, serviceLevel: 0.5 });
  });

  it('defaults to the last 30 days and refuses a range it cannot cover', async () => {
    const report = await ok('/api/calls/reports');
    expect(report.days).toHaveLength(30);
    expect(report.days[29].day).toBe(report.to);
    const reversed = await call('GET', '/api/calls/reports?from=2026-11-03&to=2026-11-02');
    expect(reversed.statusCode).toBe(400);
    const long = await call('GET', '/api/calls/reports?from=2024-01-01&to=2026-01-01', undefined, {
      'accept-language': 'it',
    });
    expect(long.statusCode).toBe(400);
    expect(long.body).toContain('366 giorni');
    expect((await t.app.inject({ method: 'GET', url: '/api/calls/reports' })).statusCode).toBe(401);
  });

  it("makes a month's report as a PDF in English and Italian", async () => {
    for (const [lang, name, words] of [
      ['en', 'call-report-2026-11.pdf', 'Call report'],
      ['it', 'report-chiamate-2026-11.pdf', 'Report chiamate'],
    ] as const) {
      const res = await call('GET', `/api/calls/reports/pdf?month=2026-11&lang=${lang}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.headers['content-disposition']).toContain(name);
      expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
      // The document's title is kept in its info dictionary as text.
      expect(res.rawPayload.toString('latin1')).toContain(words);
    }
    expect((await call('GET', '/api/calls/reports/pdf?month=2026-13')).statusCode).toBe(400);
  });
});
