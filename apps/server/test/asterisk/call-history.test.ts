import type { Call, CallDetail } from '@centralino/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AsteriskLab,
  deviceSecrets,
  type SippRun,
  seedLocalUsers,
  skipReason,
  startAsteriskLab,
  startProvider,
} from '../support/asterisk.ts';

/**
 * The call history (issue 41) from a real Asterisk's records: calls placed by sipp phones and a sipp provider
 * against what the console configured through its API each show in GET /api/calls as one row, summed from the legs
 * Asterisk wrote (cdr_custom spool, joined by linkedid), and GET /api/calls/:id lists those legs.
 *
 * Not here: a call refused before any Dial, such as one to a user in DND (sub-dial-user's Busy()). With cdr.conf's
 * default `unanswered = no` Asterisk 22 writes no record of it at all, so it is missing from the history; with
 * `unanswered = yes` it writes one (lastapp Busy, no dstchannel, disposition BUSY) that the summary reads as busy.
 */

type Status = { state: string; last: { ok: boolean; error: string | null } | null };

const PROVIDER = 'sip.vivavox.it';
const DID = '0721405516';
/** How long the answered calls stay up once answered, in ms. */
const TALK_MS = 4000;

describe.skipIf(skipReason !== '')('call history from a real Asterisk', { timeout: 120_000 }, () => {
  let lab: AsteriskLab;
  let secrets: Record<string, string> = {};
  const phones: SippRun[] = [];

  const api = async <T = unknown>(method: string, url: string, body?: unknown) => {
    const res = await lab.api<T>(method, url, body);
    if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const applied = async () => {
    const s = await lab.until(
      'the apply',
      async () => {
        const status = (await lab.api<Status>('GET', '/api/pbx/apply')).body;
        return status.state === 'idle' && status.last ? status : undefined;
      },
      90_000,
    );
    expect(s.last?.ok, s.last?.error ?? '').toBe(true);
  };
  const phone = async (account: string, mode: 'answer' | 'ring' | 'busy') => {
    const run = lab.sipp({
      scenario: 'register.xml',
      ooc: `phone-${mode}.xml`,
      keep: true,
      args: ['-s', account, '-au', account, '-ap', secrets[account] as string, '-m', '1'],
      remote: '127.0.0.1:5060',
    });
    phones.push(run);
    await lab.until(`${account} to be registered`, async () =>
      /Avail/.test(await lab.rx(`pjsip show contacts like ${account}`)),
    );
    return run;
  };
  /** The final answer a caller's sipp received (not the 401 challenge). */
  const final = (run: SippRun) =>
    run
      .responses()
      .filter((c) => c >= 200 && c !== 401)
      .at(-1);
  /**
   * Seconds from the 200 OK the caller received to the 200 OK of its BYE, from the timestamps sipp writes above
   * each message of its trace: the conversation as the caller had it.
   */
  const talkSeconds = (run: SippRun) => {
    const stamps: { at: number; first: string }[] = [];
    for (const m of run
      .trace()
      .matchAll(
        /-{20,} (\d{4}-\d\d-\d\d\s+\d\d:\d\d:\d\d(?:\.\d+)?)\s*\n[^\n]*message received[^\n]*\n\s*\n?([^\n]*)/g,
      )) {
      stamps.push({ at: new Date((m[1] as string).replace(/\s+/, 'T')).getTime(), first: (m[2] as string).trim() });
    }
    const ok = stamps.filter((s) => /^SIP\/2\.0 200/.test(s.first));
    const answered = ok.at(0)?.at;
    const ended = ok.at(-1)?.at;
    if (answered === undefined || ended === undefined || ok.length < 2) throw new Error(run.trace());
    const seconds = (ended - answered) / 1000;
    console.log(`the caller talked ${seconds} s`);
    return seconds;
  };
  /** The ids of the rows listed so far: a call placed later is the row that was not there. */
  const listed = async () =>
    new Set((await api<{ rows: Call[] }>('GET', '/api/calls?limit=100')).rows.map((c) => c.id));
  /** The row of the call placed after `before` was read, once every one of its legs is in (legs ≥ `legs`). */
  const newCall = async (before: Set<number>, legs: number) => {
    let detail: CallDetail | undefined;
    await expect
      .poll(
        async () => {
          const fresh = (await api<{ rows: Call[] }>('GET', '/api/calls?limit=20')).rows.filter(
            (c) => !before.has(c.id),
          );
          if (fresh.length !== 1) return fresh.length;
          detail = await api<CallDetail>('GET', `/api/calls/${fresh[0]?.id}`);
          return detail.legs.length >= legs ? 1 : 0;
        },
        { timeout: 20_000, interval: 200 },
      )
      .toBe(1);
    const d = detail as CallDetail;
    console.log(
      'history row:',
      JSON.stringify(d.call),
      '\nlegs:',
      JSON.stringify(d.legs, null, 1),
      '\npath:',
      JSON.stringify(d.path),
    );
    return d;
  };

  beforeAll(async () => {
    lab = await startAsteriskLab({ providers: [PROVIDER] });
    startProvider(lab, PROVIDER, 'provider-answer.xml');
    await seedLocalUsers(lab, [
      ['alice', '201', 'Alice Rossi'],
      ['bob', '202', 'Bob Bianchi'],
      ['carol', '203', 'Carol Verdi'],
      ['dave', '204', 'Dave Neri'],
    ]);
    await api('POST', '/api/trunks', {
      provider: 'vivavox',
      name: 'vivavox',
      username: '0721000001',
      password: 'provider-1-secret',
      phone: '0721000001',
      codecs: ['alaw', 'ulaw'],
      forceCodec: true,
    });
    await api('POST', '/api/inboundroutes', {
      extension: DID,
      cidnum: '',
      description: 'Main number',
      destination: 'from-did-direct,201,1',
    });
    // Carol's phone rings three seconds, then the call gives up (she has no voicemail).
    await api('POST', '/api/bulk/203', { ringtime: 3 });
    await applied();
    secrets = await deviceSecrets(lab, ['201', '202', '203', '204']);
    await phone('201', 'answer');
    await phone('203', 'ring');
    // Dave is on the phone: his refuses every call with 486 Busy Here.
    await phone('204', 'busy');
  }, 240_000);

  afterAll(async () => {
    for (const p of phones) p.kill();
    await lab?.close();
  }, 60_000);

  /** bob (202) calls a number; the call stays up `talkMs` once answered. Resolves once sipp ended. */
  const call = async (number: string, talkMs = TALK_MS) => {
    const caller = lab.sipp({
      scenario: 'call-listen.xml',
      args: [
        '-s',
        number,
        '-au',
        '202',
        '-ap',
        secrets['202'] as string,
        '-key',
        'from_user',
        '202',
        // Nothing listens there: Asterisk's audio for the caller goes nowhere, which changes nothing here.
        '-key',
        'rtp_port',
        '29000',
        '-m',
        '1',
        '-d',
        String(talkMs),
      ],
      remote: '127.0.0.1:5060',
    });
    expect(await caller.done, caller.trace()).toBe(0);
    return caller;
  };

  it('shows an answered internal call as one row: internal, 202 to 201, answered by 201, its talk time', async () => {
    const before = await listed();
    const caller = await call('201');
    expect(final(caller)).toBe(200);
    const talked = talkSeconds(caller);
    const { call: c, legs } = await newCall(before, 1);
    expect(c).toMatchObject({
      direction: 'internal',
      caller: '202',
      callerName: 'Bob Bianchi',
      called: '201',
      calledName: 'Alice Rossi',
      answeredBy: '201',
      answeredByName: 'Alice Rossi',
      result: 'answered',
      trunk: '',
    });
    expect(Math.abs(c.talk - talked), `talk ${c.talk} s, the caller talked ${talked} s`).toBeLessThanOrEqual(1.5);
    expect(c.wait).toBeLessThanOrEqual(2);
    // The leg Asterisk wrote for bob's phone dialling alice's.
    expect(legs).toContainEqual(
      expect.objectContaining({ from: '202', to: '201', disposition: 'ANSWERED', app: 'Dial' }),
    );
    expect(legs.find((l) => l.disposition === 'ANSWERED')?.channel).toMatch(/^PJSIP\/202-/);
    expect(legs.find((l) => l.disposition === 'ANSWERED')?.dstchannel).toMatch(/^PJSIP\/201-/);
  });

  it('shows an internal call nobody answers as missed, with no talk time', async () => {
    const before = await listed();
    const caller = await call('203');
    // Carol's phone rang its three seconds; Congestion() refuses the call then.
    expect(final(caller)).toBeGreaterThanOrEqual(400);
    const { call: c, legs } = await newCall(before, 1);
    expect(c).toMatchObject({
      direction: 'internal',
      caller: '202',
      called: '203',
      calledName: 'Carol Verdi',
      answeredBy: '',
      result: 'missed',
      talk: 0,
    });
    // The caller waited the ring time.
    expect(c.wait).toBeGreaterThanOrEqual(2);
    expect(c.wait).toBeLessThanOrEqual(6);
    expect(legs.some((l) => l.dstchannel.startsWith('PJSIP/203-'))).toBe(true);
  });

  it('shows an internal call to a phone that is busy as busy', async () => {
    const before = await listed();
    const caller = await call('204');
    expect(final(caller)).toBe(486);
    const { call: c, legs } = await newCall(before, 1);
    expect(c).toMatchObject({
      direction: 'internal',
      caller: '202',
      called: '204',
      calledName: 'Dave Neri',
      answeredBy: '',
      result: 'busy',
      talk: 0,
    });
    expect(legs).toContainEqual(expect.objectContaining({ to: '204', disposition: 'BUSY' }));
  });

  it('shows a call forwarded to another user as answered by the one who took it, its talk time once', async () => {
    // Dave forwards his calls to alice: Asterisk dials her through a Local channel (from-forward), whose two
    // halves each write a leg of the same call.
    await api('POST', '/api/user/presence', { username: 'dave', status: 'callforward', to: '201' });
    try {
      const before = await listed();
      const caller = await call('204');
      expect(final(caller)).toBe(200);
      const talked = talkSeconds(caller);
      const { call: c, legs } = await newCall(before, 2);
      expect(c).toMatchObject({
        direction: 'internal',
        caller: '202',
        called: '204',
        answeredBy: '201',
        answeredByName: 'Alice Rossi',
        result: 'answered',
      });
      expect(Math.abs(c.talk - talked), `talk ${c.talk} s, the caller talked ${talked} s`).toBeLessThanOrEqual(1.5);
      expect(legs.some((l) => l.dstchannel.startsWith('Local/201@from-forward'))).toBe(true);
      expect(legs.some((l) => l.dstchannel.startsWith('PJSIP/201-'))).toBe(true);
    } finally {
      await api('POST', '/api/user/presence', { username: 'dave', status: 'online' });
    }
  });

  it('shows a call from the provider to the DID as inbound, to the DID, answered by the user of its route', async () => {
    const before = await listed();
    const caller = lab.sipp({
      scenario: 'call-trunk.xml',
      args: ['-s', DID, '-key', 'from_user', '0612345678', '-m', '1', '-d', String(TALK_MS)],
      remote: `${lab.pbxIp}:5060`,
      onHost: { ip: lab.providers[PROVIDER] as string, port: 5070 },
    });
    expect(await caller.done, caller.trace()).toBe(0);
    expect(final(caller)).toBe(200);
    const talked = talkSeconds(caller);
    const { call: c, legs } = await newCall(before, 1);
    expect(c).toMatchObject({
      direction: 'inbound',
      caller: '0612345678',
      called: DID,
      answeredBy: '201',
      answeredByName: 'Alice Rossi',
      trunk: 'vivavox',
      result: 'answered',
    });
    expect(Math.abs(c.talk - talked), `talk ${c.talk} s, the caller talked ${talked} s`).toBeLessThanOrEqual(1.5);
    expect(legs.find((l) => l.disposition === 'ANSWERED')?.dstchannel).toMatch(/^PJSIP\/201-/);
  });
});
