import type { ParkedCall } from '@centralino/contract';
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
 * Call parking (issue 42 item 2) in a real Asterisk with sipp phones. A call is parked by dialling the lot (sipp
 * cannot send the REFER of a blind transfer mid-call here; the transfer's lookup of the lot number in the phone's
 * context is checked with the dialplan instead). 203 parks itself on lot 70 and lands in slot 71, which the console
 * lists over AMI; 202 dials 71 and takes it. A call parked on lot 80 (10 s) nobody picks up goes to its destination,
 * 204's phone. "Pick up on…" rings 204, which takes the call parked on 71.
 */

type Status = { state: string; last: { ok: boolean; error: string | null; startedAt: number } | null };

const TIMEOUT = 10;

describe.skipIf(skipReason !== '')('call parking in a real Asterisk', { timeout: 150_000 }, () => {
  let lab: AsteriskLab;
  let secrets: Record<string, string> = {};
  const runs: SippRun[] = [];
  let answering: SippRun;

  const api = async <T = unknown>(method: string, url: string, body?: unknown) => {
    const res = await lab.api<T>(method, url, body);
    if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const applied = async (since: number) => {
    const s = await lab.until(
      'the apply',
      async () => {
        const status = (await lab.api<Status>('GET', '/api/pbx/apply')).body;
        return status.state === 'idle' && status.last && status.last.startedAt >= since ? status : undefined;
      },
      90_000,
    );
    expect(s.last?.ok, s.last?.error ?? '').toBe(true);
  };
  /** `account` dials `number` and stays on the answered call for a minute. */
  const dial = (account: string, number: string, rtpPort: number) => {
    const run = lab.sipp({
      scenario: 'call-listen.xml',
      args: [
        '-s',
        number,
        '-au',
        account,
        '-ap',
        secrets[account] as string,
        '-key',
        'from_user',
        account,
        '-key',
        'rtp_port',
        String(rtpPort),
        '-m',
        '1',
        '-d',
        '40000',
      ],
      remote: '127.0.0.1:5060',
    });
    runs.push(run);
    return run;
  };
  const parked = () => api<ParkedCall[]>('GET', '/api/parking/calls');
  /** The concise channel lines (channel!context!exten!priority!state!application!data!…). */
  const channels = async () => (await lab.rx('core show channels concise')).split('\n').filter((l) => l.includes('!'));
  const invitesAt = (run: SippRun) => (run.trace().match(/message received[^\n]*\n\s*\n?INVITE /g) ?? []).length;

  beforeAll(async () => {
    lab = await startAsteriskLab();
    await seedLocalUsers(lab, [
      ['bob', '202', 'Bob Bianchi'],
      ['carol', '203', 'Carol Verdi'],
      ['dave', '204', 'Dave Neri'],
    ]);
    const since = Date.now();
    await api('POST', '/api/parking', { name: 'Reception', extension: '70', first_slot: '71', slots: 8 });
    await api('POST', '/api/parking', {
      name: 'Short',
      extension: '80',
      first_slot: '81',
      slots: 2,
      timeout: TIMEOUT,
      timeout_dest: 'from-did-direct,204,1',
    });
    await applied(since);
    secrets = await deviceSecrets(lab, ['202', '203', '204']);
    answering = lab.sipp({
      scenario: 'register.xml',
      ooc: 'phone-answer.xml',
      keep: true,
      args: ['-s', '204', '-au', '204', '-ap', secrets['204'] as string, '-m', '1'],
      remote: '127.0.0.1:5060',
    });
    runs.push(answering);
    await lab.until('204 to be registered', async () => /Avail/.test(await lab.rx('pjsip show contacts like 204')));
  }, 240_000);

  afterAll(async () => {
    for (const r of runs) r.kill();
    await lab?.close();
  }, 60_000);

  it('loads the lots into res_parking, with their numbers and slots reachable from every phone', async () => {
    expect(await lab.rx('module show like res_parking')).toContain('res_parking.so');
    const lots = await lab.rx('parking show');
    expect(lots).toMatch(/park-\d+/);
    // The lot number parks and each slot picks up, seen from a phone's own context (where a blind transfer looks).
    expect(await lab.rx('dialplan show 70@from-internal')).toMatch(/Park\(/);
    expect(await lab.rx('dialplan show 71@from-internal')).toMatch(/ParkedCall\(/);
    expect(await lab.rx('dialplan show 82@from-internal')).toMatch(/ParkedCall\(/);
    // Busy lamps: each slot has a hint.
    expect(await lab.rx('core show hints')).toMatch(/park:71@parkedcalls-\d+/);
    const problems = lab
      .messages()
      .split('\n')
      .filter((l) => /\b(WARNING|ERROR)\[/.test(l) && /parking|extensions\.parking/i.test(l));
    expect(problems).toEqual([]);
  });

  it('parks a call dialled to the lot in slot 71, lists it, and another phone dialling 71 takes it', async () => {
    dial('203', '70', 29_203);
    const [call] = await lab.until('203 parked', async () => {
      const list = await parked();
      return list.length === 1 ? list : undefined;
    });
    expect(call).toMatchObject({ slot: '71', caller_number: '203' });
    expect(call?.lot).toMatch(/^park-\d+$/);
    const picker = dial('202', '71', 29_202);
    await lab.until('the call picked up', async () => (await parked()).length === 0);
    // 202's leg runs ParkedCall() (it took the call); 203's is still up, not hung up or timed out.
    await lab.until('202 in ParkedCall', async () =>
      (await channels()).some((l) => l.startsWith('PJSIP/202-') && l.split('!')[5] === 'ParkedCall'),
    );
    expect((await channels()).some((l) => l.startsWith('PJSIP/203-'))).toBe(true);
    picker.kill();
    await lab.until('the picked-up call over', async () => !(await channels()).some((l) => l.startsWith('PJSIP/20')));
  });

  it('sends a call nobody picked up to the lot’s destination once its time is up', async () => {
    const before = invitesAt(answering);
    dial('203', '80', 29_213);
    const [call] = await lab.until('203 parked on 80', async () => {
      const list = await parked();
      return list.length === 1 ? list : undefined;
    });
    const parkedAt = Date.now();
    expect(call).toMatchObject({ slot: '81', caller_number: '203' });
    expect(call?.remaining).toBeLessThanOrEqual(TIMEOUT);
    await lab.until('204 rung by the timed-out call', async () => invitesAt(answering) > before, 40_000);
    const waited = Date.now() - parkedAt;
    console.log(`parking: timed out to 204 after ${waited} ms (timeout ${TIMEOUT} s)`);
    expect(waited).toBeGreaterThanOrEqual((TIMEOUT - 2) * 1000);
    await lab.until('the lot empty again', async () => (await parked()).length === 0);
    for (const r of runs.splice(1)) r.kill();
    await lab.until('the timed-out call over', async () => !(await channels()).some((l) => l.startsWith('PJSIP/203-')));
  });

  it('“Pick up on…” rings a user’s phone, which takes the parked call', async () => {
    const before = invitesAt(answering);
    dial('203', '70', 29_223);
    await lab.until('203 parked again', async () => ((await parked()).length === 1 ? true : undefined));
    await api('POST', '/api/parking/calls/pickup', { slot: '71', extension: '204' });
    await lab.until('204 rung', async () => invitesAt(answering) > before);
    await lab.until('the call picked up on 204', async () => (await parked()).length === 0);
    await lab.until('204 in ParkedCall', async () =>
      (await channels()).some((l) => l.startsWith('PJSIP/204-') && l.split('!')[5] === 'ParkedCall'),
    );
  });
});
