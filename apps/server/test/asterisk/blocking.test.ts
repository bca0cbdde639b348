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
 * Blocked callers and outbound call permissions (issue 42 item 7) in a real Asterisk. A sipp provider calls the
 * main number from a blocked number, a blocked prefix and without a number: each hears its refusal and alice's phone
 * (the route's destination) never gets an INVITE; an ordinary caller reaches her. Outbound, bob may call national
 * and mobile numbers only and dave internal numbers only: their call abroad never reaches the provider and they hear
 * the prompt (early media, then a refusal); carol, unrestricted, reaches it; 112 goes out for everyone.
 */

type Status = { state: string; last: { ok: boolean; error: string | null; startedAt: number } | null };

const PROVIDER = 'sip.vivavox.it';
const DID = '0612345100';

describe.skipIf(skipReason !== '')(
  'blocked callers and call permissions in a real Asterisk',
  { timeout: 120_000 },
  () => {
    let lab: AsteriskLab;
    let provider: SippRun;
    let alice: SippRun;
    let secrets: Record<string, string> = {};
    const phones: SippRun[] = [];

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
      return run;
    };
    const final = (run: SippRun) =>
      run
        .responses()
        .filter((c) => c >= 200 && c !== 401)
        .at(-1);
    const invites = (run: SippRun) => run.requests().filter((r) => r === 'INVITE').length;

    /** The provider calls the main number as `from`; answers the caller's sipp and the INVITEs alice got meanwhile. */
    const callIn = async (from: string) => {
      const before = invites(alice);
      const started = Date.now();
      const caller = lab.sipp({
        scenario: 'call-trunk.xml',
        args: ['-s', DID, '-key', 'from_user', from, '-m', '1', '-d', '500'],
        remote: `${lab.pbxIp}:5060`,
        onHost: { ip: lab.providers[PROVIDER] as string, port: 5070 },
      });
      expect(await caller.done, caller.trace()).toBe(0);
      return { caller, rang: invites(alice) - before, ms: Date.now() - started };
    };

    /** A user's phone dials `number`; answers its sipp and the INVITEs the provider got meanwhile. */
    const callOut = async (account: string, number: string) => {
      const before = invites(provider);
      const started = Date.now();
      const caller = lab.sipp({
        scenario: 'call.xml',
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
          '-m',
          '1',
        ],
        remote: '127.0.0.1:5060',
      });
      expect(await caller.done, caller.trace()).toBe(0);
      return { caller, reached: invites(provider) - before, ms: Date.now() - started };
    };

    beforeAll(async () => {
      lab = await startAsteriskLab({ providers: [PROVIDER] });
      // The lab's Asterisk has no prompts of its own: the distribution's, as the managed PBX links them.
      fs.symlinkSync(DISTRIBUTION_SOUNDS, path.join(lab.dirs.root, 'astdata', 'sounds'));
      provider = startProvider(lab, PROVIDER, 'provider-answer.xml');
      await seedLocalUsers(lab, [
        ['alice', '201', 'Alice Rossi'],
        ['bob', '202', 'Bob Bianchi'],
        ['carol', '203', 'Carol Verdi'],
        ['dave', '204', 'Dave Neri'],
      ]);
      const since = Date.now();
      const trunk = await api<{ trunkid: number }>('POST', '/api/trunks', {
        provider: 'vivavox',
        name: 'vivavox',
        username: '0721000001',
        password: 'provider-1-secret',
        phone: '0721000001',
        codecs: ['alaw', 'ulaw'],
        forceCodec: true,
      });
      await api('POST', '/api/outboundroutes/route', {
        name: 'everything',
        outcid: '0721000001',
        emergency: false,
        patterns: [
          { prepend: '', prefix: '', match_pattern: '00X.', match_cid: '' },
          { prepend: '', prefix: '', match_pattern: '0ZX.', match_cid: '' },
          { prepend: '', prefix: '', match_pattern: '3XXXXXXXX.', match_cid: '' },
          { prepend: '', prefix: '', match_pattern: '112', match_cid: '' },
        ],
        trunks: [trunk.trunkid],
      });
      await api('POST', '/api/inboundroutes', {
        extension: DID,
        cidnum: '',
        description: 'Main number',
        destination: 'from-did-direct,201,1',
      });
      const { routes } = await api<{ routes: { id: number; extension: string }[] }>('GET', '/api/inboundroutes');
      const main = routes.find((r) => r.extension === DID);
      await api('POST', '/api/blocklist', { match: 'number', number: '0298765432', response: 'busy' });
      await api('POST', '/api/blocklist', {
        match: 'prefix',
        number: '0544',
        response: 'not_available',
        routes: main ? [main.id] : [],
      });
      await api('POST', '/api/blocklist', { match: 'anonymous', response: 'not_available' });
      await api('POST', '/api/bulk/202', { callpermission: 'national,mobile' });
      await api('POST', '/api/bulk/204', { callpermission: '' });
      await applied(since);
      await lab.until(
        'the trunk to register',
        async () => /Registered/.test(await lab.rx('pjsip show registrations')),
        60_000,
      );
      secrets = await deviceSecrets(lab, ['201', '202', '203', '204']);
      alice = await phone('201', 'answer');
    }, 240_000);

    afterAll(async () => {
      for (const p of phones) p.kill();
      await lab?.close();
    }, 60_000);

    it('loads the checks: func_dialplan, the blocklist, the endpoints’ permissions, the prompt in both languages', async () => {
      expect(await lab.rx('core show function DIALPLAN_EXISTS')).not.toMatch(/no function/i);
      expect(await lab.rx('dialplan show blocklist-all')).toContain('0298765432');
      expect(await lab.rx('pjsip show endpoint 202')).toMatch(/CALLOK_mobile\s*: yes/);
      for (const lang of ['en', 'it']) {
        for (const sound of ['cannot-complete-as-dialed', 'ss-noservice']) {
          expect(fs.readdirSync(path.join(DISTRIBUTION_SOUNDS, lang)), `${lang}/${sound}`).toContainEqual(
            expect.stringMatching(new RegExp(`^${sound}\\.`)),
          );
        }
      }
      const problems = lab
        .messages()
        .split('\n')
        .filter((l) => /\b(WARNING|ERROR)\[/.test(l) && /extensions\.blocking|blocklist|sub-call-permission/.test(l));
      expect(problems).toEqual([]);
    });

    it('an ordinary caller reaches alice', async () => {
      const { caller, rang } = await callIn('0611111111');
      expect(final(caller)).toBe(200);
      expect(rang).toBe(1);
    });

    it('a blocked number hears busy and never rings a phone', async () => {
      const { caller, rang } = await callIn('0298765432');
      expect(final(caller)).toBe(486);
      expect(rang).toBe(0);
    });

    /** No prompt failed to play (a missing sound is only a warning to Asterisk). */
    const played = () => expect(lab.messages()).not.toMatch(/Playback failed/);

    it('a blocked prefix hears "not in service" (early media) and never rings a phone', async () => {
      const { caller, rang, ms } = await callIn('0544123456');
      expect(caller.responses()).toContain(183);
      // ss-noservice lasts about 5 s: the refusal came after it.
      expect(ms).toBeGreaterThan(3000);
      played();
      expect(final(caller)).toBe(404);
      expect(rang).toBe(0);
    });

    it('an anonymous caller is blocked', async () => {
      const { caller, rang, ms } = await callIn('anonymous');
      expect(caller.responses()).toContain(183);
      expect(ms).toBeGreaterThan(3000);
      expect(final(caller)).toBe(404);
      expect(rang).toBe(0);
    });

    it('a user without international permission cannot call abroad: the provider sees nothing, the caller hears the prompt', async () => {
      for (const account of ['202', '204']) {
        const { caller, reached, ms } = await callOut(account, '00441234567890');
        expect(reached, account).toBe(0);
        expect(caller.responses(), account).toContain(183);
        // cannot-complete-as-dialed lasts about 2.6 s.
        expect(ms, account).toBeGreaterThan(2000);
        expect(final(caller), account).not.toBe(200);
      }
      expect(lab.messages()).toMatch(/Outbound call to 00441234567890 \(international\) refused to 202/);
      played();
    });

    it('bob may call a mobile, carol abroad; dave only internal numbers', async () => {
      expect((await callOut('202', '3331234567')).reached).toBe(1);
      expect((await callOut('203', '00441234567890')).reached).toBe(1);
      expect((await callOut('204', '0612345678')).reached).toBe(0);
    });

    it('112 always goes out, even for a user with internal calls only', async () => {
      for (const account of ['204', '202']) expect((await callOut(account, '112')).reached, account).toBe(1);
    });
  },
);
