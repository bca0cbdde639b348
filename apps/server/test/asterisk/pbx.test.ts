import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lookupId } from '../../src/config.ts';
import { renderConfiguration } from '../../src/pbx/render/index.ts';
import { referenceModel } from '../pbx/fixtures.ts';
import {
  type AsteriskLab,
  configuredPjsipObjects,
  listedPjsipObjects,
  type SippRun,
  seedLocalUsers,
  skipReason,
  startAsteriskLab,
  startProvider,
} from '../support/asterisk.ts';

/**
 * The console and a real Asterisk side by side (apps/server/test/support/asterisk.ts): what the
 * console writes must start cleanly, register phones, ring, route and report live state.
 */

type Status = {
  state: string;
  engine: string;
  last: { ok: boolean; error: string | null; warnings: string[]; restartRequired: boolean; reloaded: string[] } | null;
};

const PROVIDERS = ['sip.vivavox.it', 'sip.wicity.it'];
const YEALINK_UA = 'Yealink SIP-T54W 96.86.0.100 80:5e:c0:12:34:56';

describe.skipIf(skipReason !== '')('a real Asterisk configured by the console', { timeout: 60_000 }, () => {
  let lab: AsteriskLab;
  /** Messages logged by Asterisk up to the first full start. */
  let startLog = '';
  /** The desk phone's account and Alice's second device, with the passwords their phones are given. */
  const accounts = { desk: { user: '', password: '' }, second: { user: '', password: '' } };
  const secrets: Record<string, string> = {};

  const api = async <T = unknown>(method: string, url: string, body?: unknown, ok = [200, 201, 204]) => {
    const res = await lab.api<T>(method, url, body);
    if (!ok.includes(res.status)) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  /** Waits until the console has applied every change, and answers the last record. */
  const applied = async () => {
    const status = await lab.until(
      'the apply',
      async () => {
        const s = (await lab.api<Status>('GET', '/api/pbx/apply')).body;
        return s.state === 'idle' && s.last ? s : undefined;
      },
      90_000,
    );
    return status;
  };
  const registered = (account: string) =>
    lab.until(`${account} to be registered`, async () =>
      /Avail/.test(await lab.rx(`pjsip show contacts like ${account}`)),
    );

  /** A phone: registers, then rings (and answers, or waits to be cancelled) on the same port. */
  const phone = async (account: string, password: string, mode: 'answer' | 'ring') => {
    const run = lab.sipp({
      scenario: 'register.xml',
      ooc: `phone-${mode}.xml`,
      keep: true,
      args: ['-s', account, '-au', account, '-ap', password, '-m', '1'],
      remote: '127.0.0.1:5060',
    });
    await registered(account);
    await expect.poll(() => run.responses(), { timeout: 5000, interval: 50 }).toContain(200);
    return run;
  };

  let provider1: SippRun;
  let provider2: SippRun;
  /** The phones, registered by the ringing test and kept for the later ones. */
  const phones = {} as Record<'desk' | 'second' | 'bob' | 'carol', SippRun>;
  const count = (list: string[], what: string) => list.filter((x) => x === what).length;
  /**
   * Waits until a running sipp (phone, provider) has received `n` requests of a kind: its trace is
   * written through a buffer, so what it received shows up there a little later.
   */
  const seen = (run: SippRun, method: string, n: number) =>
    expect.poll(() => count(run.requests(), method), { timeout: 5000, interval: 50 }).toBe(n);
  /** bob (202) calls a number; answers the caller's sipp run once it ended. */
  const call = async (number: string, from = '202') => {
    const caller = lab.sipp({
      scenario: 'call.xml',
      args: [
        '-s',
        number,
        '-au',
        from,
        '-ap',
        secrets[from] as string,
        '-key',
        'from_user',
        from,
        '-m',
        '1',
        '-d',
        '500',
      ],
      remote: '127.0.0.1:5060',
    });
    const code = await caller.done;
    expect(code, caller.trace()).toBe(0);
    return caller;
  };
  const final = (run: SippRun) =>
    run
      .responses()
      .filter((c) => c >= 200 && c !== 401)
      .at(-1);

  beforeAll(async () => {
    lab = await startAsteriskLab({ providers: PROVIDERS });
    startLog = lab.messages();
    // The providers: the first refuses every call, the second answers.
    provider1 = startProvider(lab, PROVIDERS[0] as string, 'provider-refuse.xml');
    provider2 = startProvider(lab, PROVIDERS[1] as string, 'provider-answer.xml');
  }, 180_000);

  afterAll(async () => {
    await lab?.close();
  }, 60_000);

  it('starts cleanly from the generated files: no warning or error in the log', async () => {
    const problems = startLog.split('\n').filter((l) => /\b(WARNING|ERROR)\[/.test(l));
    expect(problems).toEqual([]);
    const status = await applied();
    expect(status.engine).toBe('connected');
    expect(status.last?.ok, status.last?.error ?? '').toBe(true);
    // A self-signed certificate was made: the TLS transport and the WSS listener are up.
    expect(status.last?.warnings).toEqual([]);
    const transports = await lab.rx('pjsip show transports');
    for (const t of ['transport-udp', 'transport-tcp', 'transport-tls', 'transport-wss'])
      expect(transports).toContain(t);
    expect(await lab.rx('http show status')).toMatch(/HTTPS Server Enabled and Bound to 0\.0\.0\.0:8089/);
  });

  it('runs Asterisk as the asterisk user and group, reading files the console wrote group-owned 0640', async () => {
    const pid = fs.readFileSync(path.join(lab.dirs.root, 'run', 'asterisk.pid'), 'utf8').trim();
    const proc = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const uid = Number(/^Uid:\s+(\d+)/m.exec(proc)?.[1]);
    const gid = Number(/^Gid:\s+(\d+)/m.exec(proc)?.[1]);
    expect(uid).toBe(lookupId('passwd', 'asterisk'));
    expect(gid).toBe(lookupId('group', 'asterisk'));
    // No supplementary group to fall back on: the files must be readable by the group itself.
    expect(['', String(gid)]).toContain(/^Groups:[ \t]*(.*)$/m.exec(proc)?.[1]?.trim());
    for (const name of ['asterisk.conf', 'pjsip.conf', 'manager.conf', 'keys']) {
      const st = fs.statSync(path.join(lab.dirs.etc, name));
      expect(st.gid, name).toBe(gid);
      expect(st.mode & 0o777, name).toBe(name === 'keys' ? 0o750 : 0o640);
    }
    expect(fs.statSync(path.join(lab.dirs.etc, 'keys', 'asterisk.key')).mode & 0o777).toBe(0o640);
    expect(fs.statSync(lab.dirs.etc).mode & 0o777).toBe(0o750);
  });

  it('sets up users, phones, trunks and routes through the API; Asterisk has every object', async () => {
    await seedLocalUsers(lab, [
      ['alice', '201', 'Alice Rossi'],
      ['bob', '202', 'Bob Bianchi'],
      ['carol', '203', 'Carol Verdi'],
    ]);
    // Alice has a desk phone known to the provisioning engine (the main number's account) and a second device.
    await api('POST', '/api/provisioning/v1/phones', { mac: '80-5E-C0-12-34-56', model: 'yealink-T46' });
    await api('POST', '/api/physicalextensions', { mac: '80-5e-c0-12-34-56', model: 'yealink-T46' });
    const linked = await api<{ extension: string }>('POST', '/api/physicalextensions', {
      mainextension: '201',
      mac: '80:5E:C0:12:34:56',
    });
    const second = await api<{ extension: string }>('POST', '/api/physicalextensions', { mainextension: '201' });
    accounts.desk = { user: linked.extension, password: '' };
    accounts.second = { user: second.extension, password: '' };

    const trunk1 = await api<{ trunkid: number }>('POST', '/api/trunks', {
      provider: 'vivavox',
      name: 'first',
      username: '0721000001',
      password: 'provider-1-secret',
      phone: '0721000001',
      codecs: ['alaw', 'ulaw'],
      forceCodec: true,
    });
    const trunk2 = await api<{ trunkid: number }>('POST', '/api/trunks', {
      provider: 'wicity',
      name: 'second',
      username: '0721000002',
      password: 'provider-2-secret',
      phone: '0721000002',
      codecs: ['alaw', 'ulaw'],
      forceCodec: true,
    });
    await api('POST', '/api/outboundroutes/route', {
      name: 'national',
      outcid: '0721000001',
      emergency: false,
      patterns: [{ prepend: '', prefix: '', match_pattern: '0ZXXXXX.', match_cid: '' }],
      trunks: [trunk1.trunkid, trunk2.trunkid],
    });
    await api('POST', '/api/inboundroutes', {
      extension: '0721405516',
      cidnum: '',
      description: 'Main number',
      destination: 'from-did-direct,201,1',
    });
    const status = await applied();
    expect(status.last?.ok, status.last?.error ?? '').toBe(true);

    // Every endpoint, aor, auth, identify and registration written is loaded: Asterisk drops an object
    // it cannot build with no more than a log line.
    const written = configuredPjsipObjects(lab.dirs.etc);
    expect([...(written.get('endpoint') ?? [])].sort()).toEqual(
      ['201', '202', '203', accounts.second.user, 'first', 'second'].sort(),
    );
    for (const [type, command, label] of [
      ['endpoint', 'endpoints', 'Endpoint'],
      ['aor', 'aors', 'Aor'],
      ['auth', 'auths', 'Auth'],
      ['identify', 'identifies', 'Identify'],
      ['registration', 'registrations', ''],
    ] as const) {
      const listed = listedPjsipObjects(await lab.rx(`pjsip show ${command}`), label);
      expect([...listed].sort(), type).toEqual([...(written.get(type) ?? [])].sort());
    }
    // Reloads log nothing wrong either.
    const problems = lab
      .messages()
      .split('\n')
      .filter((l) => /\b(WARNING|ERROR)\[/.test(l));
    expect(problems).toEqual([]);
  });

  it('has every application and function the generated dialplan uses (modules.conf loads them)', async () => {
    // The dialplan written here, and that of the reference system, which holds every kind of object the
    // console can create (IVR, queue, time condition, day/night, CQR, announcements, recordings, phone
    // recording, every destination kind): a module missing for any of them fails this. The modules
    // loaded do not depend on the model (modules.conf is the same file).
    const reference = renderConfiguration(referenceModel());
    expect(fs.readFileSync(path.join(lab.dirs.etc, 'modules.conf'), 'utf8')).toBe(reference.get('modules.conf'));
    const dialplan = [
      ...fs
        .readdirSync(lab.dirs.etc)
        .filter((f) => /^extensions.*\.conf$/.test(f))
        .map((f) => fs.readFileSync(path.join(lab.dirs.etc, f), 'utf8')),
      ...[...reference].filter(([name]) => /^extensions.*\.conf$/.test(name)).map(([, text]) => text),
    ].join('\n');
    // Applications start a priority (`exten => x,1,App(` / `same => n,App(`) or follow ExecIf's `?`;
    // functions are called inside ${...} or set with Set(NAME(...)=...).
    const apps = new Set<string>();
    for (const m of dialplan.matchAll(/^\s*(?:exten\s*=>\s*[^,]+,|same\s*=>\s*)[^,]+,([A-Za-z]+)\(/gm))
      apps.add(m[1] as string);
    for (const m of dialplan.matchAll(/\?([A-Z][A-Za-z]+)\(/g)) apps.add(m[1] as string);
    const functions = new Set<string>();
    for (const m of dialplan.matchAll(/\$\{([A-Z_]+)\(/g)) functions.add(m[1] as string);
    for (const m of dialplan.matchAll(/Set\(([A-Z_]+)\(/g)) functions.add(m[1] as string);
    expect(apps.size).toBeGreaterThan(10);
    const registeredApps = new Set(
      [...(await lab.rx('core show applications')).matchAll(/^\s*([A-Za-z]+):/gm)].map((m) =>
        (m[1] as string).toLowerCase(),
      ),
    );
    const registeredFunctions = new Set(
      [...(await lab.rx('core show functions')).matchAll(/^\s*([A-Z_]+)\s/gm)].map((m) => m[1] as string),
    );
    expect([...apps].filter((a) => !registeredApps.has(a.toLowerCase()))).toEqual([]);
    expect([...functions].filter((f) => !registeredFunctions.has(f))).toEqual([]);
  });

  it('registers a phone with the credentials of its provisioning file', async () => {
    const info = await api<{ tok1: string | null; tok2: string }>(
      'GET',
      '/api/provisioning/v1/phones/80-5E-C0-12-34-56',
    );
    const token = info.tok1 ?? info.tok2;
    const res = await fetch(`${lab.consoleUrl}/provisioning/${token}/805ec0123456.cfg`, {
      headers: { 'user-agent': YEALINK_UA },
    });
    expect(res.status).toBe(200);
    const file = await res.text();
    const user = /account\.1\.user_name = (\S+)/.exec(file)?.[1];
    const password = /account\.1\.password = (\S+)/.exec(file)?.[1];
    expect(user).toBe(accounts.desk.user);
    expect(password).toMatch(/^\S{8,}$/);
    accounts.desk.password = password as string;
    // The other accounts' secrets come from the console's written files, as a phone would be given them.
    for (const f of fs.readdirSync(lab.dirs.etc).filter((n) => n.startsWith('pjsip.users.'))) {
      const text = fs.readFileSync(path.join(lab.dirs.etc, f), 'utf8');
      for (const m of text.matchAll(/\[(\d+)-auth\]\(device-auth\)\nusername = \d+\npassword = (\S+)/g)) {
        secrets[m[1] as string] = m[2] as string;
      }
    }
    expect(secrets[accounts.desk.user]).toBe(password);
  });

  it('rings every device of a user on an internal call', async () => {
    phones.desk = await phone(accounts.desk.user, accounts.desk.password, 'answer');
    phones.second = await phone(accounts.second.user, secrets[accounts.second.user] as string, 'ring');
    phones.bob = await phone('202', secrets['202'] as string, 'answer');
    phones.carol = await phone('203', secrets['203'] as string, 'answer');
    const caller = await call('201');
    expect(final(caller)).toBe(200);
    await seen(phones.desk, 'INVITE', 1);
    await seen(phones.desk, 'BYE', 1);
    // The other device rang too, and was cancelled when the desk phone answered.
    await seen(phones.second, 'INVITE', 1);
    await seen(phones.second, 'CANCEL', 1);
  });

  it('keeps the record of that call, which the Last calls card shows for either number', async () => {
    const cards = await api<{ id: number; query: string }[]>('GET', '/api/cti/customer_card');
    const query = cards.find((c) => c.id === 2)?.query;
    const lastCalls = async (number: string) =>
      (
        await api<{ rows: Record<string, string>[] }>('POST', '/api/custcard/preview', {
          dbconn_id: 2,
          template: 'lastcalls',
          query,
          number,
        })
      ).rows;
    // Asterisk appends the record to the console's spool file once the call has ended (cdr_custom).
    const rows = await lab.until('the call record', async () => {
      const found = await lastCalls('202');
      return found.length > 0 ? found : undefined;
    });
    expect(rows[0]).toMatchObject({ src: '202', dst: '201', disposition: 'ANSWERED', direction: 'in' });
    expect((await lastCalls('201')).map((r) => r.src)).toContain('202');
  });

  it('reports registrations and trunks through the live-state API over AMI', async () => {
    const extensions = await api<Record<string, { status: string; ip: string; sipuseragent?: string }>>(
      'GET',
      '/api/astproxy/extensions',
    );
    console.log('live state of 201:', JSON.stringify(extensions['201']));
    expect(extensions['201']?.status).toBe('online');
    expect(extensions['201']?.ip).toBe('127.0.0.1');
    expect(extensions['203']?.status).toBe('online');
    expect(extensions[accounts.second.user]?.status).toBe('online');
    const one = await api<{ status: string }>('GET', '/api/astproxy/extension/202');
    expect(one.status).toBe('online');
    await lab.until('both trunks to register', async () => {
      const r = await lab.rx('pjsip show registrations');
      return (r.match(/Registered/g) ?? []).length >= 2;
    });
    // Asterisk announces the registration (a Registry event) as it happens; the API has it within 2 s.
    let trunks = await api<Record<string, { registration: string; status: string }>>('GET', '/api/astproxy/trunks');
    for (let i = 0; i < 40 && [trunks.first, trunks.second].some((t) => t?.registration !== 'registered'); i++) {
      await new Promise((r) => setTimeout(r, 50));
      trunks = await api('GET', '/api/astproxy/trunks');
    }
    console.log('live state of trunks:', JSON.stringify(trunks));
    expect(trunks.first?.registration).toBe('registered');
    expect(trunks.second?.registration).toBe('registered');
    // A provider that accepted the registration is reachable, qualified yet or not.
    expect([trunks.first?.status, trunks.second?.status]).toEqual(['online', 'online']);
    const users = await api<Record<string, { endpoints: Record<'extension' | 'mainextension', { id: string }[]> }>>(
      'GET',
      '/api/user/endpoints/all',
    );
    // The main number is the desk phone's account: listed as the main extension, the other device as an extension.
    expect(users.alice?.endpoints.mainextension.map((e) => e.id)).toEqual(['201']);
    expect(users.alice?.endpoints.extension.map((e) => e.id)).toContain(accounts.second.user);
    console.log('Asterisk contacts:', await lab.rx('pjsip show contacts'));
  });

  it('tries the route trunks in order: the first refuses (503), the second answers', async () => {
    const caller = await call('0612345678');
    expect(final(caller)).toBe(200);
    await seen(provider1, 'INVITE', 1);
    await seen(provider1, 'ACK', 1);
    await seen(provider2, 'INVITE', 1);
    await seen(provider2, 'BYE', 1);
    const invite =
      provider2
        .trace()
        .split(/-{20,}.*\n/)
        .find((b) => /received[\s\S]*\n\s*INVITE sip:/.test(b)) ?? '';
    expect(invite).toMatch(/^INVITE sip:0612345678@/m);
    // The route's caller ID reaches the provider in P-Asserted-Identity, From keeps the account.
    expect(invite).toMatch(/^P-Asserted-Identity:.*<sip:0721000001@/m);
    expect(invite).toMatch(/^From:.*<sip:0721000002@/m);
    // Bob's internal name stays inside: no display name in P-Asserted-Identity or From (issue 38).
    expect(invite).not.toContain('Bob Bianchi');
    expect(invite).toMatch(/^P-Asserted-Identity:\s*<sip:/m);
    // The trunk's codecs in its order (alaw, ulaw), not the calling phone's (ulaw first).
    expect(invite, invite).toMatch(/^m=audio \d+ RTP\/AVP 8 0( 101)?\s*$/m);
  });

  // The desk phone's calls so far: the internal call.
  it('takes a call to the DID to the user of its inbound route', async () => {
    const vivavox = lab.providers['sip.vivavox.it'] as string;
    const caller = lab.sipp({
      scenario: 'call-trunk.xml',
      args: ['-s', '0721405516', '-key', 'from_user', '0612345678', '-m', '1', '-d', '500'],
      remote: `${lab.pbxIp}:5060`,
      onHost: { ip: vivavox, port: 5070 },
    });
    expect(await caller.done, caller.trace()).toBe(0);
    expect(final(caller)).toBe(200);
    await seen(phones.desk, 'INVITE', 2);
  });

  it('does not ring a user in DND, and forwards their calls when asked', async () => {
    // The desk phone had two calls (internal, DID) and carol none; none of these may reach the desk phone
    // until DND and the forward are off (the refusals are checked on the caller's side too).
    const desk = () => count(phones.desk.requests(), 'INVITE');
    await seen(phones.desk, 'INVITE', 2);
    await api('POST', '/api/user/presence', { username: 'alice', status: 'dnd' });
    expect(await lab.rx('database show DND')).toMatch(/\/DND\/201\s*: YES/);
    const refused = await call('201');
    expect(final(refused)).toBe(486);
    expect(desk()).toBe(2);
    const dnd = await api<{ status: string; dnd: boolean }>('GET', '/api/astproxy/extension/201');
    expect(dnd.dnd).toBe(true);

    await api('POST', '/api/user/presence', { username: 'alice', status: 'callforward', to: '203' });
    const forwarded = await call('201');
    expect(final(forwarded)).toBe(200);
    await seen(phones.carol, 'INVITE', 1);
    expect(desk()).toBe(2);

    await api('POST', '/api/user/presence', { username: 'alice', status: 'online' });
    const answered = await call('201');
    expect(final(answered)).toBe(200);
    await seen(phones.desk, 'INVITE', 3);
  });

  it("sends a busy user's calls to the busy destination set in bulk, and rings them again once it is gone", async () => {
    // Bulk edit of alice (201): calls she cannot take (here: DND) go to carol (203).
    const carol = () => count(phones.carol.requests(), 'INVITE');
    const before = carol();
    await api('POST', '/api/bulk/201', { busydest: 'from-did-direct,203,1', ringtime: 20, callwaiting: false });
    expect((await applied()).last?.ok).toBe(true);
    expect(await lab.rx('dialplan show 201@ext-local')).toMatch(/Goto\(ext-local,203,1\)/);
    await api('POST', '/api/user/presence', { username: 'alice', status: 'dnd' });
    const diverted = await call('201');
    expect(final(diverted)).toBe(200);
    await seen(phones.carol, 'INVITE', before + 1);
    await api('POST', '/api/user/presence', { username: 'alice', status: 'online' });
    await api('POST', '/api/bulk/201', { busydest: '', ringtime: 0, callwaiting: true });
    expect((await applied()).last?.ok).toBe(true);
    await api('POST', '/api/user/presence', { username: 'alice', status: 'dnd' });
    expect(final(await call('201'))).toBe(486);
    expect(carol()).toBe(before + 1);
    await api('POST', '/api/user/presence', { username: 'alice', status: 'online' });
  });

  it('shows DND and a forward set from a phone with its feature codes on the dashboard within 2 seconds', async () => {
    type Page = { users: { username: string; presence: string; forwardTo: string }[] };
    const bob = async () =>
      (await api<Page>('GET', '/api/dashboard/users?search=bob')).users.find((u) => u.username === 'bob');
    const dial = async (code: string) => {
      const phone = lab.sipp({
        scenario: 'feature-code.xml',
        args: ['-s', code, '-au', '202', '-ap', secrets['202'] as string, '-key', 'from_user', '202', '-m', '1'],
        remote: '127.0.0.1:5060',
      });
      expect(await phone.done, phone.trace()).toBe(0);
      expect(final(phone)).toBe(200);
    };
    const within2s = async (want: Record<string, string>) => {
      const started = Date.now();
      for (;;) {
        const now = await bob();
        if (Object.entries(want).every(([k, v]) => now?.[k as keyof typeof now] === v)) break;
        if (Date.now() - started > 2000) expect(now).toMatchObject(want);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    expect((await bob())?.presence).toBe('online');
    await dial('*78');
    expect(await lab.rx('database show DND')).toMatch(/\/DND\/202\s*: YES/);
    await within2s({ presence: 'dnd' });
    await dial('*79');
    await within2s({ presence: 'online' });
    await dial('*72203');
    await within2s({ presence: 'callforward', forwardTo: '203' });
    await dial('*73');
    await within2s({ presence: 'online' });
  });

  it("refuses a number through a route the caller's CTI profile lacks, and reaches the trunk once allowed", async () => {
    const [bob] = await api<{ id: number }[]>('GET', '/api/users/false?search=bob');
    const permissions = await api<{ outbound_routes: { route_id: number; name: string }[] }>(
      'GET',
      '/api/cti/permissions',
    );
    const national = permissions.outbound_routes.find((r) => r.name === 'national');
    expect(national).toBeDefined();
    const base = await api<{ id: number; name: string; macro_permissions: unknown }>('GET', '/api/cti/profiles/1');
    const allow = (permission: boolean) =>
      api('POST', `/api/cti/profiles/${base.id}`, {
        name: base.name,
        macro_permissions: base.macro_permissions,
        outbound_routes_permissions: [{ route_id: national?.route_id, permission }],
      });
    await api('POST', `/api/cti/profiles/users/${bob?.id}`, { profile_id: base.id });
    await allow(false);
    expect((await applied()).last?.ok).toBe(true);
    const invites = () => [count(provider1.requests(), 'INVITE'), count(provider2.requests(), 'INVITE')];
    const before = invites();
    const refused = await call('0612345678');
    expect(final(refused)).toBeGreaterThanOrEqual(400);
    // Neither provider was offered the call.
    await new Promise((r) => setTimeout(r, 500));
    expect(invites()).toEqual(before);

    await allow(true);
    expect((await applied()).last?.ok).toBe(true);
    const allowed = await call('0612345678');
    expect(final(allowed)).toBe(200);
    await seen(provider2, 'INVITE', (before[1] ?? 0) + 1);
  });

  it('logged no warning or error in Asterisk during the whole run', () => {
    // The lab installs no sound files, so the refused call's announcement and the feature codes'
    // confirmations cannot be played; those are the only complaints allowed.
    const missingPrompt =
      /(cannot-complete-as-dialed|do-not-disturb|activated|de-activated|call-fwd-unconditional|is-set-to|digits\/|Playback failed|SayDigits)/;
    const problems = lab
      .messages()
      .split('\n')
      .filter((l) => /\b(WARNING|ERROR)\[/.test(l) && !missingPrompt.test(l));
    expect(problems).toEqual([]);
    // Reloads found every transport unchanged.
    expect(lab.messages()).not.toMatch(/is not fully reloadable/);
  });
});
