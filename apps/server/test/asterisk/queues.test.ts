// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${NAME} is how the Asterisk dialplan reads variables.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AsteriskLab, deviceSecrets, seedLocalUsers, skipReason, startAsteriskLab } from '../support/asterisk.ts';

/**
 * Queues and time conditions (issue 26) in a real Asterisk: app_queue reads the queue with its static member, the
 * dialplan has the queue, the agents' codes and the time condition, and the condition's override is AstDB state the
 * console sets without a reload.
 */

type Status = {
  state: string;
  last: { ok: boolean; error: string | null; startedAt: number; changed: string[] } | null;
};

describe.skipIf(skipReason !== '')('queues and time conditions in a real Asterisk', { timeout: 120_000 }, () => {
  let lab: AsteriskLab;
  let condition = 0;

  beforeAll(async () => {
    lab = await startAsteriskLab();
  }, 180_000);

  afterAll(async () => {
    await lab?.close();
  }, 60_000);

  const api = async <T = unknown>(method: string, url: string, body?: unknown) => {
    const res = await lab.api<T>(method, url, body);
    expect(res.status, `${method} ${url}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
    return res.body;
  };
  const applied = async (since: number) => {
    const status = await lab.until(
      'the apply',
      async () => {
        const s = (await lab.api<Status>('GET', '/api/pbx/apply')).body;
        return s.state === 'idle' && s.last && s.last.startedAt >= since ? s : undefined;
      },
      90_000,
    );
    expect(status.last?.ok, status.last?.error ?? '').toBe(true);
  };

  it('loads the queue with its member, the agent codes and the time condition', async () => {
    await seedLocalUsers(lab, [
      ['anna', '201'],
      ['bea', '202'],
    ]);
    await api('POST', '/api/queues', {
      extension: '500',
      name: 'Support',
      strategy: 'rrmemory',
      members: ['201'],
      agents: ['202'],
      max_wait: 60,
      failover_dest: 'app-blackhole,hangup,1',
    });
    const group = await api<{ id: number }>('POST', '/api/timegroups', {
      name: 'Office hours',
      ranges: [
        { hours: '08:30-12:30', weekdays: 'mon-fri' },
        { mdays: '25', months: 'dec' },
      ],
    });
    const since = Date.now();
    condition = (
      await api<{ id: number }>('POST', '/api/timeconditions', {
        name: 'Open',
        time_group_id: group.id,
        true_dest: 'ext-queues,500,1',
        false_dest: 'app-blackhole,hangup,1',
      })
    ).id;
    await applied(since);

    const queue = await lab.rx('queue show 500');
    expect(queue).toMatch(/^500 has 0 calls .* strategy/m);
    expect(queue).toContain('rrmemory');
    expect(queue).toContain('anna (Local/201@from-queue/n from hint:201@ext-local)');
    expect(await lab.rx('dialplan show 500@ext-queues')).toContain('Queue(500,t,,,60)');
    // Phones reach the queue and the agents' codes through their context's includes.
    expect(await lab.rx('dialplan show 500@from-internal')).toContain('Queue(500,t,,,60)');
    expect(await lab.rx('dialplan show *45500@from-internal')).toContain('Gosub(sub-queue-login,s,1(500,202))');
    const tc = await lab.rx(`dialplan show ${condition}@timeconditions`);
    expect(tc).toContain('GotoIfTime(08:30-12:30,mon-fri,*,*?inside)');
    expect(tc).toContain('GotoIfTime(*,*,25,dec?inside)');
    expect(tc).toContain('Goto(ext-queues,500,1)');
    expect(await lab.rx(`dialplan show *27${condition}@from-internal`)).toContain(`Set(DB(TC/${condition})=inside)`);

    const problems = lab
      .messages()
      .split('\n')
      .filter((l) => /\b(WARNING|ERROR)\[/.test(l) && /queues\.conf|app_queue|extensions\.flows\./.test(l));
    expect(problems).toEqual([]);
  });

  it('sets and clears the override in AstDB, which the console reads back', async () => {
    type Condition = { id: number; override: string };
    const override = async () =>
      (await api<Condition[]>('GET', '/api/timeconditions')).find((c) => c.id === condition)?.override;
    expect(await override()).toBe('auto');
    await api('POST', `/api/timeconditions/${condition}/override`, { override: 'outside' });
    expect(await lab.rx(`database get TC ${condition}`)).toContain('outside');
    expect(await override()).toBe('outside');
    await api('POST', `/api/timeconditions/${condition}/override`, { override: 'auto' });
    expect(await lab.rx(`database get TC ${condition}`)).toMatch(/not found/i);
    expect(await override()).toBe('auto');
  });

  it('a member added with its extension in one apply follows its phone, and still does after a restart', async () => {
    // The queue and anna's extension came in the same apply: app_queue must read the member after her hint exists.
    const member = async () =>
      /anna \(Local\/201@from-queue\/n from hint:201@ext-local\) \(ringinuse disabled\) \((.+?)\)/.exec(
        await lab.rx('queue show 500'),
      )?.[1];
    expect(await member()).toBe('Unavailable');
    const secrets = await deviceSecrets(lab, ['201']);
    const phone = lab.sipp({
      scenario: 'register.xml',
      ooc: 'phone-answer.xml',
      keep: true,
      args: ['-s', '201', '-au', '201', '-ap', secrets['201'] as string, '-m', '1'],
      remote: '127.0.0.1:5060',
    });
    try {
      await lab.until('anna free in the queue', async () => (await member()) === 'Not in use');
      const restarted = Date.now();
      await lab.rx('core restart now').catch(() => '');
      await lab.until(
        'the console back on AMI and the apply after the restart',
        async () => {
          const s = (await lab.api<Status & { engine?: string }>('GET', '/api/pbx/apply')).body;
          return s.engine === 'connected' && s.state === 'idle' && s.last && s.last.startedAt >= restarted
            ? s
            : undefined;
        },
        90_000,
      );
      // The registration is kept over the restart (Asterisk stores contacts in its database).
      await lab.until('anna free in the queue after the restart', async () => (await member()) === 'Not in use');
    } finally {
      phone.kill();
    }
  });
});
