import fs from 'node:fs';
import path from 'node:path';
import type { CallReport } from '@centralino/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AsteriskLab,
  deviceSecrets,
  type SippRun,
  seedLocalUsers,
  skipReason,
  startAsteriskLab,
} from '../support/asterisk.ts';

/**
 * The queue reports (issue 41) from a real Asterisk's queue log: logger.conf sends it to the console's spool file,
 * the console takes it in, and GET /api/calls/reports shows a queue call that was answered (Alice's phone answers
 * after half a second) and one the caller gave up on after three seconds of music on hold (Carol's phone only
 * rings), each with the wait the caller had.
 */

type Status = { state: string; last: { ok: boolean; error: string | null } | null };

/** How long the abandoned caller holds on, and how long the answered one talks, in ms. */
const HOLD_MS = 3000;
const TALK_MS = 3000;

describe.skipIf(skipReason !== '')('call reports from a real Asterisk', { timeout: 120_000 }, () => {
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
  const phone = async (account: string, mode: 'answer' | 'ring') => {
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
  };
  /**
   * Bob (202) calls a queue, which answers at once (music on hold). `call-listen.xml`: he hangs up `ms` after that;
   * `call-queue.xml`: he waits for an agent, talks `ms` and hangs up.
   */
  const call = async (queue: string, ms: number, scenario: 'call-listen.xml' | 'call-queue.xml') => {
    const caller = lab.sipp({
      scenario,
      args: [
        '-s',
        queue,
        '-au',
        '202',
        '-ap',
        secrets['202'] as string,
        '-key',
        'from_user',
        '202',
        '-key',
        'rtp_port',
        '29002',
        '-m',
        '1',
        '-d',
        String(ms),
      ],
      remote: '127.0.0.1:5060',
    });
    expect(await caller.done, caller.trace()).toBe(0);
  };
  const report = async (until: (r: CallReport) => boolean) => {
    let last: CallReport | undefined;
    await expect
      .poll(
        async () => {
          last = await api<CallReport>('GET', '/api/calls/reports');
          return until(last);
        },
        { timeout: 20_000, interval: 250 },
      )
      .toBe(true);
    console.log('queues:', JSON.stringify(last?.queues), '\nagents:', JSON.stringify(last?.agents));
    return last as CallReport;
  };

  beforeAll(async () => {
    lab = await startAsteriskLab();
    await seedLocalUsers(lab, [
      ['alice', '201', 'Alice Rossi'],
      ['bob', '202', 'Bob Bianchi'],
      ['carol', '203', 'Carol Verdi'],
    ]);
    for (const [extension, name, member] of [
      ['500', 'Sales', '201'],
      ['501', 'Support', '203'],
    ] as const) {
      await api('POST', '/api/queues', {
        extension,
        name,
        strategy: 'ringall',
        members: [member],
        agents: [],
        max_wait: 60,
        failover_dest: 'app-blackhole,hangup,1',
      });
    }
    await applied();
    secrets = await deviceSecrets(lab, ['201', '202', '203']);
    await phone('201', 'answer');
    await phone('203', 'ring');
  }, 240_000);

  afterAll(async () => {
    for (const p of phones) p.kill();
    await lab?.close();
  }, 60_000);

  it('writes the queue log into the console spool, as logger.conf says', async () => {
    // The logger opens it once Asterisk is fully booted, and says so in it.
    const live = path.join(lab.dirs.etc, 'queue-log-spool', 'queue_log');
    await lab.until(
      'the queue log',
      async () => fs.existsSync(live) && /\|QUEUESTART\|/.test(fs.readFileSync(live, 'utf8')),
    );
  });

  it('shows an answered queue call with its short wait, and the agent who took it with the talk time', async () => {
    // The console's own member (Local/201@from-queue/n, its state from Alice's hint) is free once her phone is
    // registered: made in the same apply as her extension, it once stayed Invalid and was never rung.
    await lab.until('Alice free in the queue', async () =>
      /Alice Rossi \(Local\/201@from-queue\/n from hint:201@ext-local\) \(ringinuse disabled\) \(Not in use\)/.test(
        await lab.rx('queue show 500'),
      ),
    );
    await call('500', TALK_MS, 'call-queue.xml');
    const r = await report((x) => x.agents.some((a) => a.queue === '500' && a.talk > 0));
    const sales = r.queues.find((q) => q.queue === '500');
    expect(sales).toMatchObject({ name: 'Sales', offered: 1, answered: 1, abandoned: 0, answeredWithin: 1 });
    // Alice's phone answers half a second after it rings.
    expect(sales?.avgAnswerWait).toBeLessThanOrEqual(2);
    expect(sales?.p90Wait).toBe(sales?.avgWait);
    const alice = r.agents.find((a) => a.queue === '500');
    expect(alice).toMatchObject({ agent: 'Alice Rossi', answered: 1 });
    expect(alice?.talk).toBeGreaterThanOrEqual(TALK_MS / 1000 - 2);
    expect(alice?.talk).toBeLessThanOrEqual(TALK_MS / 1000 + 1);
  });

  it('shows a queue call the caller gave up on, with the seconds they waited', async () => {
    await call('501', HOLD_MS, 'call-listen.xml');
    const r = await report((x) => (x.queues.find((q) => q.queue === '501')?.abandoned ?? 0) === 1);
    const support = r.queues.find((q) => q.queue === '501');
    expect(support).toMatchObject({ name: 'Support', offered: 1, answered: 0, abandoned: 1, answeredWithin: 0 });
    expect(support?.serviceLevel).toBe(0);
    // Asterisk counts whole seconds from the caller's entry to the hang-up.
    expect(support?.avgWait).toBeGreaterThanOrEqual(HOLD_MS / 1000 - 1);
    expect(support?.avgWait).toBeLessThanOrEqual(HOLD_MS / 1000 + 1);
    expect(support?.p90Wait).toBe(support?.avgWait);
    // Carol's phone rang, shorter than the queue's ring time: no agent answered or missed it.
    expect(r.agents.filter((a) => a.queue === '501' && a.answered > 0)).toEqual([]);
  });
});
