import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AsteriskLab, skipReason, startAsteriskLab } from '../support/asterisk.ts';

/**
 * Caller query routing (issue 26) in a real Asterisk: a call whose caller number the query knows goes, through
 * nethcqr's CURL() to the console, to a queue (seen waiting there); an unknown caller goes to the default (hang-up).
 */

type Status = { state: string; last: { ok: boolean; error: string | null } | null };

describe.skipIf(skipReason !== '')('caller query routing in a real Asterisk', { timeout: 120_000 }, () => {
  let lab: AsteriskLab;

  beforeAll(async () => {
    lab = await startAsteriskLab();
  }, 180_000);

  afterAll(async () => {
    await lab?.close();
  }, 60_000);

  it('asks the console at call time and goes where the answer says, else to the default', async () => {
    const queue = await lab.api('POST', '/api/queues', {
      extension: '500',
      name: 'Customers',
      members: [],
      failover_dest: 'app-blackhole,hangup,1',
      max_wait: 0,
    });
    expect(queue.status, JSON.stringify(queue.body)).toBe(200);
    const created = await lab.api<{ id: number }>('POST', '/api/cqr', {
      name: 'Known callers',
      source_id: 1,
      query: "SELECT CASE WHEN '$NUMBER' = '0721555123' THEN 'company' ELSE 'other' END AS kind",
      timeout: 3,
      entries: [{ value: 'company', destination: 'ext-queues,500,1' }],
      default_dest: 'app-blackhole,hangup,1',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.id;
    await lab.until(
      'the apply',
      async () => {
        const s = (await lab.api<Status>('GET', '/api/pbx/apply')).body;
        return s.state === 'idle' && s.last?.ok && (await lab.rx(`dialplan show ${id}@nethcqr`)).includes('CURL')
          ? s
          : undefined;
      },
      90_000,
    );
    // The "phone": a caller number, then the CQR; the other half just waits.
    await lab.rx('dialplan add extension s,1,Wait,20 into test-hold');
    for (const line of [`k,1,Set(CALLERID(num)=0721555123)`, `k,2,Goto(nethcqr,${id},1)`]) {
      await lab.rx(`dialplan add extension ${line} into test-caller`);
    }
    for (const line of [`u,1,Set(CALLERID(num)=0612345678)`, `u,2,Goto(nethcqr,${id},1)`]) {
      await lab.rx(`dialplan add extension ${line} into test-caller`);
    }
    await lab.rx('module load res_clioriginate.so');
    await lab.rx('channel originate Local/k@test-caller extension s@test-hold');
    const waiting = await lab
      .until(
        'the known caller in the queue',
        async () => {
          const text = await lab.rx('queue show 500');
          return /1 caller|Callers:\s*\n\s*1\./.test(text) ? text : undefined;
        },
        20_000,
      )
      .catch((e) => {
        // What Asterisk said about the call, so a failure tells why.
        throw new Error(
          `${e}\n${lab
            .messages()
            .split('\n')
            .filter((l) => /cqr|curl|nethcqr|test-caller|WARNING|ERROR/i.test(l))
            .slice(-30)
            .join('\n')}`,
        );
      });
    expect(waiting).toContain('500');
    await lab.rx('channel request hangup all');
    // An unknown caller: the default, a hang-up; nothing waits in the queue.
    await lab.rx('channel originate Local/u@test-caller extension s@test-hold');
    await new Promise((r) => setTimeout(r, 3000));
    expect(await lab.rx('queue show 500')).not.toMatch(/1 caller|Callers:\s*\n\s*1\./);
    const problems = lab
      .messages()
      .split('\n')
      .filter((l) => /\b(WARNING|ERROR)\[/.test(l) && /curl|regex|nethcqr|pbx_functions/i.test(l));
    expect(problems).toEqual([]);
  });
});
