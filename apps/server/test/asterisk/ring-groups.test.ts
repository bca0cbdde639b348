// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${NAME} is how the Asterisk dialplan reads variables.

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DISTRIBUTION_SOUNDS } from '../../src/pbx/managed/installation.ts';
import {
  type AsteriskLab,
  deviceSecrets,
  type SippRun,
  seedLocalUsers,
  skipReason,
  startAsteriskLab,
} from '../support/asterisk.ts';

/**
 * Ring groups (issue 42, item 4) in a real Asterisk, with sipp phones, one group per strategy: who rings when is read
 * from the phones' own traces (the time each INVITE and CANCEL reached them). 201 and 202 ring until cancelled, 204
 * answers: it is where unanswered calls go, so a caller that hears 200 from 204 went through the whole group first.
 */

type Status = { state: string; last: { ok: boolean; error: string | null; startedAt: number } | null };

/** Seconds each member (hunt) or the group (ringall) rings. */
const RING = 4;

describe.skipIf(skipReason !== '')('ring groups in a real Asterisk', { timeout: 120_000 }, () => {
  let lab: AsteriskLab;
  let secrets: Record<string, string> = {};
  const phones = {} as Record<'201' | '202' | '204', SippRun>;

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
  const phone = async (account: '201' | '202' | '204', mode: 'answer' | 'ring') => {
    const run = lab.sipp({
      scenario: 'register.xml',
      ooc: `phone-${mode}.xml`,
      keep: true,
      args: ['-s', account, '-au', account, '-ap', secrets[account] as string, '-m', '1'],
      remote: '127.0.0.1:5060',
    });
    phones[account] = run;
    await lab.until(`${account} to be registered`, async () =>
      /Avail/.test(await lab.rx(`pjsip show contacts like ${account}`)),
    );
  };
  /** The requests a phone received after `from` characters of its trace, each with the time sipp wrote above it. */
  const received = (run: SippRun, from: number) => {
    const out: { method: string; at: number }[] = [];
    for (const m of run
      .trace()
      .slice(from)
      .matchAll(
        /-{20,} (\d{4}-\d\d-\d\d\s+\d\d:\d\d:\d\d(?:\.\d+)?)\s*\n[^\n]*message received[^\n]*\n\s*\n?([A-Z]+) /g,
      )) {
      out.push({ method: m[2] as string, at: new Date((m[1] as string).replace(/\s+/, 'T')).getTime() });
    }
    return out;
  };
  const first = (list: { method: string; at: number }[], method: string) => {
    const found = list.find((r) => r.method === method);
    if (!found) throw new Error(`no ${method} in ${JSON.stringify(list)}`);
    return found.at;
  };
  /** 203 calls `number`; answers what each phone received meanwhile, once the caller's sipp ended. */
  const call = async (number: string) => {
    const marks = Object.fromEntries(Object.entries(phones).map(([k, run]) => [k, run.trace().length]));
    const caller = lab.sipp({
      scenario: 'call.xml',
      args: ['-s', number, '-au', '203', '-ap', secrets['203'] as string, '-key', 'from_user', '203', '-m', '1'],
      remote: '127.0.0.1:5060',
    });
    expect(await caller.done, caller.trace()).toBe(0);
    const final = caller
      .responses()
      .filter((c) => c >= 200 && c !== 401)
      .at(-1);
    // The trace is written through a buffer: wait until the answering phone's BYE is in.
    await expect
      .poll(() => received(phones['204'], marks['204'] as number).some((r) => r.method === 'BYE'), {
        timeout: 5000,
        interval: 50,
      })
      .toBe(true);
    const got = (k: '201' | '202' | '204') => received(phones[k], marks[k] as number);
    return { final, r201: got('201'), r202: got('202'), r204: got('204') };
  };

  beforeAll(async () => {
    lab = await startAsteriskLab();
    await seedLocalUsers(lab, [
      ['alice', '201', 'Alice Rossi'],
      ['bob', '202', 'Bob Bianchi'],
      ['carol', '203', 'Carol Verdi'],
      ['dave', '204', 'Dave Neri'],
    ]);
    const since = Date.now();
    const members = [
      { type: 'extension', number: '201' },
      { type: 'extension', number: '202' },
    ];
    for (const [extension, strategy] of [
      ['600', 'ringall'],
      ['601', 'hunt'],
      ['602', 'memoryhunt'],
      ['603', 'random'],
    ]) {
      await api('POST', '/api/ringgroups', {
        extension,
        name: `Group ${strategy}`,
        strategy,
        ring_time: RING,
        members,
        failover_dest: 'from-did-direct,204,1',
      });
    }
    // An outside member asked to press 1: only loaded here (no provider answers it).
    await api('POST', '/api/ringgroups', {
      extension: '609',
      name: 'With mobile',
      strategy: 'ringall',
      ring_time: RING,
      members: [...members, { type: 'external', number: '+393331234567' }],
      confirm_external: true,
      failover_dest: 'from-did-direct,204,1',
    });
    await applied(since);
    secrets = await deviceSecrets(lab, ['201', '202', '203', '204']);
    await phone('201', 'ring');
    await phone('202', 'ring');
    await phone('204', 'answer');
  }, 240_000);

  afterAll(async () => {
    for (const p of Object.values(phones)) p.kill();
    await lab?.close();
  }, 60_000);

  it('loads the groups: phones reach them at their numbers, ext-group at the destination', async () => {
    const shown = await lab.rx('dialplan show 600@from-internal');
    expect(shown).toContain('Dial(Local/201@from-ringgroup&Local/202@from-ringgroup,4,${DIAL_OPTIONS})');
    expect(await lab.rx('dialplan show 601@ext-group')).toContain('Dial(Local/202@from-ringgroup,4,${DIAL_OPTIONS})');
    expect(await lab.rx('dialplan show 609@ext-group')).toContain('Local/+393331234567@from-ringgroup-confirm');
    expect(await lab.rx('dialplan show s@sub-ringgroup-confirm')).toContain('Read(RGKEY,vm-press&digits/1,1,,1,5)');
    // The prompt exists in both languages of the console, in the distribution's prompts the managed PBX links to.
    for (const lang of ['en', 'it']) {
      for (const sound of ['vm-press', 'digits/1']) {
        const dir = path.join(DISTRIBUTION_SOUNDS, lang, path.dirname(sound));
        expect(fs.readdirSync(dir), `${lang}/${sound}`).toContainEqual(
          expect.stringMatching(new RegExp(`^${path.basename(sound)}\\.`)),
        );
      }
    }
    // RAND() for the random strategy is loaded.
    expect(await lab.rx('core show function RAND')).not.toMatch(/no function/i);
    const problems = lab
      .messages()
      .split('\n')
      .filter((l) => /\b(WARNING|ERROR)\[/.test(l) && /extensions\.ringgroups|ext-ringgroups|from-ringgroup/.test(l));
    expect(problems).toEqual([]);
  });

  it('ringall rings both phones at once, then the unanswered call goes to its destination', async () => {
    const { final, r201, r202, r204 } = await call('600');
    const at201 = first(r201, 'INVITE');
    const at202 = first(r202, 'INVITE');
    const answered = first(r204, 'INVITE');
    console.log('ringall: 201 at 0 ms, 202 at', at202 - at201, 'ms, 204 (failover) at', answered - at201, 'ms');
    expect(Math.abs(at202 - at201)).toBeLessThan(1000);
    // Both stop when the group's time is up, and only then does the destination ring.
    for (const r of [r201, r202]) expect(r.map((x) => x.method)).toContain('CANCEL');
    expect(answered - Math.max(at201, at202)).toBeGreaterThanOrEqual((RING - 1) * 1000);
    expect(final).toBe(200);
  });

  it('hunt rings the first, and the second only after the ring time; then the destination', async () => {
    const { final, r201, r202, r204 } = await call('601');
    const at201 = first(r201, 'INVITE');
    const cancel201 = first(r201, 'CANCEL');
    const at202 = first(r202, 'INVITE');
    const answered = first(r204, 'INVITE');
    console.log('hunt: 201 at 0 ms, 202 at', at202 - at201, 'ms, 204 (failover) at', answered - at201, 'ms');
    expect(at202 - at201).toBeGreaterThanOrEqual((RING - 1) * 1000);
    // One at a time: the first stopped ringing before the second started.
    expect(cancel201).toBeLessThanOrEqual(at202);
    expect(answered - at202).toBeGreaterThanOrEqual((RING - 1) * 1000);
    expect(final).toBe(200);
  });

  it('memoryhunt rings the first, then the first two together; then the destination', async () => {
    const { final, r201, r202, r204 } = await call('602');
    const invites201 = r201.filter((r) => r.method === 'INVITE').map((r) => r.at);
    const at202 = first(r202, 'INVITE');
    const answered = first(r204, 'INVITE');
    const [a, b] = invites201 as [number, number];
    console.log('memoryhunt: 201 at 0 ms, 201 again at', b - a, 'ms, 202 at', at202 - a, 'ms, 204 at', answered - a);
    expect(invites201).toHaveLength(2);
    expect(at202 - a).toBeGreaterThanOrEqual((RING - 1) * 1000);
    expect(Math.abs(b - at202)).toBeLessThan(1000);
    expect(answered - at202).toBeGreaterThanOrEqual((RING - 1) * 1000);
    expect(final).toBe(200);
  });

  it('random rings one member at a time, each once, then the destination', async () => {
    const { final, r201, r202, r204 } = await call('603');
    const times = [first(r201, 'INVITE'), first(r202, 'INVITE')].sort((x, y) => x - y) as [number, number];
    console.log('random: second member', times[1] - times[0], 'ms after the first');
    expect(r201.filter((r) => r.method === 'INVITE')).toHaveLength(1);
    expect(r202.filter((r) => r.method === 'INVITE')).toHaveLength(1);
    expect(times[1] - times[0]).toBeGreaterThanOrEqual((RING - 1) * 1000);
    expect(first(r204, 'INVITE') - times[1]).toBeGreaterThanOrEqual((RING - 1) * 1000);
    expect(final).toBe(200);
  });

  it('skips a member in do-not-disturb at once, as a direct call would', async () => {
    await lab.rx('database put DND 201 YES');
    try {
      const started = Date.now();
      const { final, r201, r202, r204 } = await call('601');
      expect(r201.map((x) => x.method)).not.toContain('INVITE');
      const at202 = first(r202, 'INVITE');
      console.log('hunt with 201 in DND: 202 rang', at202 - started, 'ms after the call was placed');
      expect(at202 - started).toBeLessThan((RING - 1) * 1000);
      expect(first(r204, 'INVITE') - at202).toBeGreaterThanOrEqual((RING - 1) * 1000);
      expect(final).toBe(200);
    } finally {
      await lab.rx('database del DND 201');
    }
  });
});
