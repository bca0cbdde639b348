import type { Insertable } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { CdrTable } from '../src/db/schema.ts';
import { callAs, DB_KINDS, useTestApp } from './helpers.ts';

/**
 * Call history: the call records of a call's legs (as Asterisk's spool or the migration write them into `cdr`) become
 * one row of /api/calls each, with its direction, who answered, the wait and the result; filters combine, pages
 * follow each other without a gap or a repeat, and the CSV holds every matching call. The real Asterisk writes such
 * records in test/asterisk/call-history.test.ts.
 */

type Leg = Partial<Insertable<CdrTable>> & { calldate: string; linkedid: string };

const leg = (l: Leg) => ({
  clid: '',
  src: '',
  dst: '',
  dcontext: 'from-internal',
  channel: '',
  dstchannel: '',
  lastapp: 'Dial',
  lastdata: '',
  duration: 0,
  billsec: 0,
  disposition: 'ANSWERED',
  amaflags: 3,
  accountcode: '',
  uniqueid: `${l.linkedid}-${Math.random().toString(36).slice(2, 8)}`,
  userfield: '',
  sequence: 1,
  did: '',
  recordingfile: '',
  ...l,
});

/** A day of a small office: every kind of call once. */
const OFFICE: Leg[] = [
  // Internal: Bob (202) calls Alice (201), who talks 102 s after 3 s of ringing.
  {
    linkedid: 'int-1',
    calldate: '2026-11-27 09:15:02',
    clid: '"Bob Bianchi" <202>',
    src: '202',
    dst: '201',
    channel: 'PJSIP/202-00000001',
    dstchannel: 'PJSIP/201-00000002',
    lastdata: 'PJSIP/201,30',
    duration: 105,
    billsec: 102,
  },
  // Inbound on the provider's DID, through queue 401, answered by Alice through the queue's Local channel.
  {
    linkedid: 'in-1',
    calldate: '2026-11-27 10:00:00',
    clid: '"3331234567" <3331234567>',
    src: '3331234567',
    dst: '401',
    dcontext: 'ext-queues',
    channel: 'PJSIP/vivavox-00000003',
    dstchannel: 'Local/201@from-queue-00000001;1',
    lastapp: 'Queue',
    lastdata: '401,t,,,300',
    duration: 80,
    billsec: 60,
    did: '0721123456',
  },
  {
    linkedid: 'in-1',
    calldate: '2026-11-27 10:00:15',
    src: '3331234567',
    dst: '201',
    dcontext: 'from-queue',
    channel: 'Local/201@from-queue-00000001;2',
    dstchannel: 'PJSIP/201-00000004',
    duration: 65,
    billsec: 60,
    sequence: 2,
  },
  // Inbound that nobody took: it rang 201 for 20 s, then voicemail took a message.
  {
    linkedid: 'in-2',
    calldate: '2026-11-27 11:30:00',
    src: '0612345678',
    dst: '201',
    channel: 'PJSIP/vivavox-00000005',
    dstchannel: 'PJSIP/201-00000006',
    duration: 20,
    billsec: 0,
    disposition: 'NO ANSWER',
    did: '0721123456',
  },
  {
    linkedid: 'in-2',
    calldate: '2026-11-27 11:30:20',
    src: '0612345678',
    dst: 'vmu201',
    channel: 'PJSIP/vivavox-00000005',
    lastapp: 'VoiceMail',
    lastdata: '201@default,u',
    duration: 30,
    billsec: 30,
    did: '0721123456',
    sequence: 2,
  },
  // Outbound: Alice calls a customer through the provider, who is busy.
  {
    linkedid: 'out-1',
    calldate: '2026-11-28 16:45:00',
    clid: '"Alice Rossi" <201>',
    src: '201',
    dst: '0698765432',
    dcontext: 'outrt-1',
    channel: 'PJSIP/201-00000007',
    dstchannel: 'PJSIP/vivavox-00000008',
    duration: 6,
    billsec: 0,
    disposition: 'BUSY',
  },
];

describe.each(DB_KINDS)('call history (%s)', (kind) => {
  const t = useTestApp(kind);
  const call = callAs(t);
  const ok = async (url: string) => {
    const res = await call('GET', url);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  /** Writes records as the spool would and waits until the history has taken them in. */
  const record = async (legs: Leg[]) => {
    await t.database.db.insertInto('cdr').values(legs.map(leg)).execute();
    await expect.poll(async () => (await ok('/api/calls/backlog')).records, { timeout: 10_000 }).toBe(0);
  };

  it('shows each call once, with its direction, who answered, the wait and the result, newest first', async () => {
    // The local directory, where users are made.
    const task = (await call('POST', '/api/configuration/mode', { mode: 'legacy' })).json().result as string;
    await expect.poll(async () => (await ok(`/api/tasks/${task}`)).progress, { timeout: 10_000 }).toBe(100);
    for (const [username, fullname, extension] of [
      ['alice', 'Alice Rossi', '201'],
      ['bob', 'Bob Bianchi', '202'],
    ] as const) {
      expect((await call('POST', '/api/users', { username, fullname })).statusCode).toBeLessThan(300);
      expect((await call('POST', '/api/mainextensions', { username, extension })).statusCode).toBeLessThan(300);
    }
    await record(OFFICE);
    const page = await ok('/api/calls');
    expect(page.next).toBeNull();
    const byCaller = Object.fromEntries(page.rows.map((r: { caller: string }) => [r.caller, r]));
    expect(page.rows.map((r: { caller: string }) => r.caller)).toEqual(['201', '0612345678', '3331234567', '202']);
    expect(byCaller['202']).toMatchObject({
      direction: 'internal',
      callerName: 'Bob Bianchi',
      called: '201',
      calledName: 'Alice Rossi',
      answeredBy: '201',
      answeredByName: 'Alice Rossi',
      wait: 3,
      talk: 102,
      result: 'answered',
      migrated: false,
    });
    expect(byCaller['3331234567']).toMatchObject({
      direction: 'inbound',
      called: '0721123456',
      trunk: 'vivavox',
      queue: '401',
      answeredBy: '201',
      wait: 20,
      talk: 60,
      result: 'answered',
    });
    expect(byCaller['0612345678']).toMatchObject({ direction: 'inbound', result: 'voicemail', wait: 20, talk: 0 });
    expect(byCaller['201']).toMatchObject({
      direction: 'outbound',
      called: '0698765432',
      trunk: 'vivavox',
      result: 'busy',
    });
  });

  it('combines filters: day range, direction, result, a user, a number fragment, trunk, queue', async () => {
    const callers = async (query: string) =>
      (await ok(`/api/calls?${query}`)).rows.map((r: { caller: string }) => r.caller);
    expect(await callers('direction=inbound')).toEqual(['0612345678', '3331234567']);
    expect(await callers('direction=inbound&result=answered')).toEqual(['3331234567']);
    expect(await callers('from=2026-11-28&to=2026-11-28')).toEqual(['201']);
    expect(await callers('to=2026-11-27')).toEqual(['0612345678', '3331234567', '202']);
    expect(await callers('extension=202')).toEqual(['202']);
    // Alice made one, got the internal one, answered the queue's, and the voicemail one rang her.
    expect(await callers('extension=201')).toEqual(['201', '0612345678', '3331234567', '202']);
    expect(await callers('number=98765')).toEqual(['201']);
    expect(await callers('queue=401')).toEqual(['3331234567']);
    expect(await callers('trunk=vivavox&direction=outbound')).toEqual(['201']);
    const bad = await call('GET', '/api/calls?direction=sideways', undefined, { 'accept-language': 'it' });
    expect(bad.statusCode).toBe(400);
  });

  it("opens a call's legs in order with the way it went", async () => {
    const queued = (await ok('/api/calls?queue=401')).rows[0];
    const detail = await ok(`/api/calls/${queued.id}`);
    expect(detail.legs.map((l: { app: string }) => l.app)).toEqual(['Queue', 'Dial']);
    expect(detail.path).toEqual([
      { kind: 'route', target: '0721123456', answered: false },
      { kind: 'queue', target: '401', answered: false },
      { kind: 'user', target: '201', answered: true },
    ]);
    expect((await call('GET', '/api/calls/999999')).statusCode).toBe(404);
  });

  it('takes in a leg that ends later (a transfer) into the call it belongs to', async () => {
    await record([
      {
        linkedid: 'int-1',
        calldate: '2026-11-27 09:16:40',
        src: '201',
        dst: '203',
        channel: 'PJSIP/201-00000009',
        dstchannel: 'PJSIP/203-0000000a',
        duration: 40,
        billsec: 38,
        sequence: 3,
      },
    ]);
    const rows = (await ok('/api/calls?extension=202')).rows;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ talk: 140, answeredBy: '201' });
  });

  it('pages a long history without a gap or a repeat, and exports every call of a filter as CSV', async () => {
    const many: Leg[] = [];
    for (let i = 0; i < 130; i++) {
      const second = String(i % 60).padStart(2, '0');
      many.push({
        linkedid: `bulk-${i}`,
        // Pairs of calls in the same second: the cursor must order ties too.
        calldate: `2026-10-01 08:${String(Math.floor(i / 2) % 60).padStart(2, '0')}:${second}`,
        src: '202',
        dst: '201',
        channel: 'PJSIP/202-1',
        dstchannel: 'PJSIP/201-2',
        duration: 10,
        billsec: 0,
        disposition: 'NO ANSWER',
      });
    }
    await record(many);
    const seen: number[] = [];
    let cursor: string | null = '';
    let pages = 0;
    while (cursor !== null) {
      const page = await ok(`/api/calls?from=2026-10-01&to=2026-10-01&limit=50${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...page.rows.map((r: { id: number }) => r.id));
      cursor = page.next;
      pages++;
    }
    expect(pages).toBe(3);
    expect(seen).toHaveLength(130);
    expect(new Set(seen).size).toBe(130);

    const csv = await call('GET', '/api/calls/export?from=2026-10-01&to=2026-10-01&result=missed');
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.body.trimEnd().split('\n');
    expect(lines[0]).toBe(
      'time,direction,caller,caller_name,called,called_name,answered_by,trunk,queue,wait_s,talk_s,result,recorded',
    );
    expect(lines).toHaveLength(131);
    expect(lines[1]).toContain(',internal,202,Bob Bianchi,201,Alice Rossi,,,,10,0,missed,no');
  });

  it('shows records copied from an older system, each a call of its own', async () => {
    await record([
      {
        linkedid: '',
        calldate: '2019-03-04 12:00:00',
        src: '0551234567',
        dst: '201',
        dcontext: 'from-trunk',
        channel: 'SIP/oldprovider-0000001',
        dstchannel: 'SIP/201-0000002',
        duration: 50,
        billsec: 45,
      },
    ]);
    const rows = (await ok('/api/calls?from=2019-03-04&to=2019-03-04')).rows;
    expect(rows).toEqual([
      expect.objectContaining({
        caller: '0551234567',
        direction: 'inbound',
        trunk: 'oldprovider',
        answeredBy: '201',
        result: 'answered',
        migrated: true,
      }),
    ]);
  });

  it('is for signed-in accounts only', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/calls' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/calls/export' })).statusCode).toBe(401);
  });
});
