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
  startProvider,
} from '../support/asterisk.ts';

/**
 * Follow-me (issue 42 item 5) in a real Asterisk: Alice (201) is called by Carol (203); her desk phone rings for its
 * time, then her list: Bob's phone (202), then her mobile behind a provider. Her mobile's provider answers and presses
 * 1 (provider-press1.xml); a second provider answers and never presses 1, as a voicemail would. Who rang when is read
 * from the phones' and providers' own traces.
 */

type Status = { state: string; last: { ok: boolean; error: string | null; startedAt: number } | null };

/** Seconds of Alice's own phone, then of each colleague. */
const RING = 4;
const PROVIDERS = ['sip.vivavox.it', 'sip.wicity.it'];
const MOBILE = '3331234567';
/** Behind the provider that answers and never presses 1. */
const VOICEMAIL_LIKE = '3341234567';

describe.skipIf(skipReason !== '')('follow-me in a real Asterisk', { timeout: 120_000 }, () => {
  let lab: AsteriskLab;
  let secrets: Record<string, string> = {};
  const phones = {} as Record<'201' | '202', SippRun>;
  let mobile: SippRun;
  let other: SippRun;

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
  const phone = async (account: '201' | '202') => {
    const run = lab.sipp({
      scenario: 'register.xml',
      ooc: 'phone-ring.xml',
      keep: true,
      args: ['-s', account, '-au', account, '-ap', secrets[account] as string, '-m', '1'],
      remote: '127.0.0.1:5060',
    });
    phones[account] = run;
    await lab.until(`${account} to be registered`, async () =>
      /Avail/.test(await lab.rx(`pjsip show contacts like ${account}`)),
    );
  };
  /** The requests a sipp received after `from` characters of its trace, each with the time sipp wrote above it. */
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
  /** Carol calls Alice; answers what each phone and provider received meanwhile, once the caller's sipp ended. */
  const callAlice = async (otherToo = false) => {
    const runs = { r201: phones['201'], r202: phones['202'], mobile, other };
    const marks = Object.fromEntries(Object.entries(runs).map(([k, run]) => [k, run.trace().length]));
    const caller = lab.sipp({
      scenario: 'call.xml',
      args: ['-s', '201', '-au', '203', '-ap', secrets['203'] as string, '-key', 'from_user', '203', '-m', '1'],
      remote: '127.0.0.1:5060',
    });
    expect(await caller.done, caller.trace()).toBe(0);
    const final = caller
      .responses()
      .filter((c) => c >= 200 && c !== 401)
      .at(-1);
    // The trace is written through a buffer: wait until the mobile's BYE (the caller hanging up) is in.
    for (const run of otherToo ? [mobile, other] : [mobile]) {
      const mark = marks[run === mobile ? 'mobile' : 'other'] as number;
      await expect
        // The leg that never presses 1 is dropped only once its prompts are over (three tries, about 20 s): the
        // confirm subroutine runs on it until then, whoever answered meanwhile.
        .poll(() => received(run, mark).some((r) => r.method === 'BYE'), { timeout: 40_000, interval: 200 })
        .toBe(true);
    }
    const got = (k: keyof typeof runs) => received(runs[k], marks[k] as number);
    return { final, r201: got('r201'), r202: got('r202'), mobile: got('mobile'), other: got('other') };
  };
  const followMe = (body: unknown) => api('PUT', '/api/users/alice/followme', body);

  beforeAll(async () => {
    lab = await startAsteriskLab({ providers: PROVIDERS });
    // "Press 1" is a distribution prompt, which the managed PBX links to (render/ring-groups.ts); so does this lab.
    fs.symlinkSync(DISTRIBUTION_SOUNDS, path.join(lab.dirs.root, 'astdata', 'sounds'));
    mobile = startProvider(lab, PROVIDERS[0] as string, 'provider-press1.xml');
    other = startProvider(lab, PROVIDERS[1] as string, 'provider-answer.xml');
    await seedLocalUsers(lab, [
      ['alice', '201', 'Alice Rossi'],
      ['bob', '202', 'Bob Bianchi'],
      ['carol', '203', 'Carol Verdi'],
    ]);
    const since = Date.now();
    // One trunk and one route for each provider.
    for (const [provider, name, account, prefix] of [
      ['vivavox', 'mobiles', '0721000001', '333'],
      ['wicity', 'others', '0721000002', '334'],
    ] as const) {
      const trunk = await api<{ trunkid: number }>('POST', '/api/trunks', {
        provider,
        name,
        username: account,
        password: `${name}-secret`,
        phone: account,
        codecs: ['alaw', 'ulaw'],
        forceCodec: true,
      });
      await api('POST', '/api/outboundroutes/route', {
        name,
        outcid: account,
        emergency: false,
        patterns: [{ prepend: '', prefix: '', match_pattern: `${prefix}XXXXXXX`, match_cid: '' }],
        trunks: [trunk.trunkid],
      });
    }
    await followMe({
      enabled: true,
      pre_ring: RING,
      strategy: 'hunt',
      confirm_external: true,
      legs: [
        { type: 'extension', number: '202', ring_time: RING },
        { type: 'external', number: MOBILE, ring_time: 20 },
      ],
    });
    await applied(since);
    await lab.until(
      'both trunks to register',
      async () => ((await lab.rx('pjsip show registrations')).match(/Registered/g) ?? []).length >= 2,
    );
    secrets = await deviceSecrets(lab, ['201', '202', '203']);
    await phone('201');
    await phone('202');
  }, 240_000);

  afterAll(async () => {
    for (const p of Object.values(phones)) p.kill();
    await lab?.close();
  }, 60_000);

  it('loads the list after the desk phone', async () => {
    const shown = await lab.rx('dialplan show 201@ext-local');
    expect(shown).toContain('Gosub(sub-dial-user,s,1(201,201,4,201,');
    expect(shown).toContain('Dial(Local/202@from-ringgroup,4,${DIAL_OPTIONS})');
    expect(shown).toContain(`Dial(Local/${MOBILE}@from-ringgroup-confirm,20,\${DIAL_OPTIONS})`);
  });

  it('rings the desk phone, then the colleague after its time, then the mobile, which presses 1 and gets the call', async () => {
    const { final, r201, r202, mobile: m } = await callAlice();
    const desk = first(r201, 'INVITE');
    const colleague = first(r202, 'INVITE');
    const reached = first(m, 'INVITE');
    console.log('follow-me: desk at 0 ms, colleague at', colleague - desk, 'ms, mobile at', reached - desk, 'ms');
    expect(r201.map((r) => r.method)).toContain('CANCEL');
    expect(colleague - desk).toBeGreaterThanOrEqual((RING - 1) * 1000);
    expect(first(r201, 'CANCEL')).toBeLessThanOrEqual(colleague);
    expect(r202.map((r) => r.method)).toContain('CANCEL');
    expect(reached - colleague).toBeGreaterThanOrEqual((RING - 1) * 1000);
    // Answered by the mobile once it pressed 1: the caller got 200 and its hang-up reached the mobile.
    expect(final).toBe(200);
  });

  it('rings two outside numbers together: the one that presses 1 gets the call, the other is dropped', async () => {
    const since = Date.now();
    await followMe({
      enabled: true,
      pre_ring: RING,
      strategy: 'ringall',
      confirm_external: true,
      legs: [
        { type: 'external', number: VOICEMAIL_LIKE, ring_time: 20 },
        { type: 'external', number: MOBILE, ring_time: 20 },
      ],
    });
    await applied(since);
    const { final, mobile: m, other: o } = await callAlice(true);
    const both = [first(m, 'INVITE'), first(o, 'INVITE')];
    console.log('ringall: the two outside legs', Math.abs((both[0] as number) - (both[1] as number)), 'ms apart');
    expect(Math.abs((both[0] as number) - (both[1] as number))).toBeLessThan(1000);
    // Only the mobile can have been put through: the other leg never pressed 1.
    expect(final).toBe(200);
    console.log(
      'ringall: the leg that never pressed 1 was dropped',
      first(o, 'BYE') - first(o, 'INVITE'),
      'ms after it rang',
    );
  });
});
