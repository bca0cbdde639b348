import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { field } from '../src/pbx/ami/framing.ts';
import { useTestApp } from './helpers.ts';
import { type AmiPeer, amiPeer } from './support/ami-peer.ts';
import { PATTON_GATEWAY } from './support/gateway.ts';

/** The dashboard over a real AMI connection to a loopback peer that keeps an AstDB and sends events. */
const astdb = new Map<string, string>([['DND/202', 'YES']]);
const peerOptions: NonNullable<Parameters<typeof amiPeer>[0]> = {
  secret: 'dash-secret',
  endpoints: [
    { name: '201', state: 'Not in use' },
    { name: '91201', state: 'Unavailable' },
    { name: '202', state: 'In use' },
    { name: '203', state: 'Unavailable' },
    { name: 'vivavox', state: 'Not in use' },
  ],
  contacts: [{ aor: '201', via: '192.0.2.44:5062', userAgent: 'Yealink SIP-T46S 66.86.0.15' }],
  registrations: [{ name: 'vivavox', status: 'Registered' }],
  astdb,
};
const peer: AmiPeer = amiPeer(peerOptions);
const port = await peer.listen();
afterAll(() => peer.close());

const listActions = (name: string) => peer.actions.filter((a) => field(a, 'action') === name).length;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface UsersPage {
  pbx: { connected: boolean; since: string | null };
  total: number;
  users: {
    username: string;
    presence: string;
    forwardTo: string;
    extensions: { id: string; type: string; status: string; headset: boolean }[];
  }[];
}

describe('dashboard', () => {
  const t = useTestApp('sqlite', {
    env: { AMI_HOST: '127.0.0.1', AMI_PORT: String(port), AMI_USERNAME: 'centralino', AMI_SECRET: 'dash-secret' },
  });
  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: t.headers, ...(payload ? { payload } : {}) });
  const users = async (query = '') => {
    const res = await call('GET', `/api/dashboard/users${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as UsersPage;
  };
  const user = async (username: string) =>
    (await users(`?search=${username}`)).users.find((u) => u.username === username);

  beforeAll(async () => {
    expect((await call('POST', '/api/configuration/mode', { mode: 'legacy' })).statusCode).toBe(200);
    for (let i = 0; i < 100 && (await call('GET', '/api/configuration/userprovider')).json().configured !== 1; i++) {
      await sleep(20);
    }
    for (const [username, fullname, extension] of [
      ['alice', 'Alice Rossi', '201'],
      ['bob', 'Bob Bianchi', '202'],
      ['carol', 'Carol Verdi', '203'],
    ] as const) {
      await call('POST', '/api/users', { username, fullname });
      await call('POST', '/api/mainextensions', { username, extension });
    }
    await call('POST', '/api/users', { username: 'dave', fullname: 'Dave Neri' });
    await call('POST', '/api/mobileapp', { mainextension: '201' });
    await call('POST', '/api/webrtc', { extension: '201' });
    const trunk = await call('POST', '/api/trunks', {
      provider: 'vivavox',
      name: 'vivavox',
      username: 'u',
      password: 'p',
      phone: '0721000000',
      codecs: ['alaw'],
      forceCodec: true,
    });
    expect(trunk.statusCode, trunk.body).toBe(200);
    for (let i = 0; i < 200 && !(await users()).pbx.connected; i++) await sleep(20);
  });

  it('lists users with an extension, their presence and the status of every extension, paged and searchable', async () => {
    const page = await users();
    expect(page.pbx.connected).toBe(true);
    expect(page.pbx.since).not.toBeNull();
    expect(page.users.map((u) => u.username)).toEqual(['alice', 'bob', 'carol']);
    expect(page.total).toBe(3);
    const alice = page.users[0];
    expect(alice?.presence).toBe('online');
    const byId = Object.fromEntries((alice?.extensions ?? []).map((e) => [e.id, e]));
    expect(byId['201']).toMatchObject({ status: 'online', headset: false });
    const webrtc = alice?.extensions.find((e) => e.type === 'webrtc');
    expect(webrtc?.headset).toBe(true);
    expect(page.users[1]).toMatchObject({ username: 'bob', presence: 'dnd' });
    expect(page.users[1]?.extensions[0]?.status).toBe('busy');
    expect(page.users[2]?.extensions[0]?.status).toBe('offline');

    expect((await users('?search=verdi')).users.map((u) => u.username)).toEqual(['carol']);
    expect((await users('?search=202')).users.map((u) => u.username)).toEqual(['bob']);
    const second = await users('?offset=1&limit=1');
    expect(second.total).toBe(3);
    expect(second.users.map((u) => u.username)).toEqual(['bob']);
  });

  it('serves every client from one snapshot: many requests, one read of the PBX', async () => {
    const before = listActions('PJSIPShowEndpoints');
    await Promise.all(Array.from({ length: 20 }, () => users()));
    await Promise.all(Array.from({ length: 5 }, () => call('GET', '/api/astproxy/extensions')));
    expect(listActions('PJSIPShowEndpoints')).toBe(before);
  });

  it('resets a user in DND to online: the AstDB keys go, the device state is announced, the card says online', async () => {
    expect((await user('bob'))?.presence).toBe('dnd');
    const res = await call('POST', '/api/user/presence', { username: 'bob', status: 'online' });
    expect(res.statusCode, res.body).toBe(200);
    expect(astdb.has('DND/202')).toBe(false);
    expect(peer.commands()).toContain('devstate change Custom:DND202 NOT_INUSE');
    expect(peer.commands()).toContain('presencestate change CustomPresence:202 AVAILABLE');
    expect((await user('bob'))?.presence).toBe('online');

    // A forward to the mobile is shown as such, and reset the same way.
    await call('POST', '/api/users', { username: 'erin', fullname: 'Erin Gallo' });
    await call('POST', '/api/mainextensions', { username: 'erin', extension: '205' });
    expect(
      (await call('POST', '/api/user/presence', { username: 'alice', status: 'callforward', to: '0612345678' }))
        .statusCode,
    ).toBe(200);
    expect(astdb.get('CF/201')).toBe('0612345678');
    expect(await user('alice')).toMatchObject({ presence: 'callforward', forwardTo: '0612345678' });
    await call('POST', '/api/user/presence', { username: 'alice', status: 'online' });
    expect([...astdb.keys()].filter((k) => k.startsWith('CF/'))).toEqual([]);
    expect((await user('alice'))?.presence).toBe('online');
    // The user added meanwhile is listed (the accounts are read again after a change).
    expect((await user('erin'))?.extensions.map((e) => e.id)).toEqual(['205']);
  });

  it('follows AMI events: a phone going busy, DND and a forward set with feature codes', async () => {
    peer.event({ Event: 'DeviceStateChange', Device: 'PJSIP/203', State: 'RINGING' });
    await expect.poll(async () => (await user('carol'))?.extensions[0]?.status).toBe('ringing');
    // *78 on a phone: the dialplan writes the key (Newexten of Set(DB(...))) and sets the custom device state.
    peer.event({ Event: 'Newexten', Context: 'app-dnd-on', AppData: 'DB(DND/203)=YES', Application: 'Set' });
    await expect.poll(async () => (await user('carol'))?.presence).toBe('dnd');
    peer.event({ Event: 'Newexten', Context: 'sub-set-all', AppData: 'Deleting: DND/203 YES', Application: 'NoOp' });
    peer.event({ Event: 'Newexten', Context: 'sub-set-all', AppData: 'DB(CF/203)=vmu203', Application: 'Set' });
    await expect.poll(async () => user('carol')).toMatchObject({ presence: 'voicemail', forwardTo: '203' });
  });

  it('pushes changes to open dashboards as server-sent events, within 2 seconds', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const abort = new AbortController();
    const res = await fetch(`${address}/api/dashboard/events`, {
      headers: { user: t.headers.user, secretkey: t.headers.secretkey },
      signal: abort.signal,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = '';
    const until = async (pattern: RegExp, within = 2000) => {
      const deadline = Date.now() + within;
      while (!pattern.test(text)) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no ${pattern} in ${JSON.stringify(text)}`);
        const chunk = await Promise.race([reader.read(), sleep(left).then(() => undefined)]);
        if (chunk?.value) text += decoder.decode(chunk.value, { stream: true });
      }
    };
    await until(/event: pbx\ndata: \{"connected":true/);
    const sent = Date.now();
    peer.event({ Event: 'DeviceStateChange', Device: 'PJSIP/202', State: 'NOT_INUSE' });
    await until(/event: users\n/);
    expect(Date.now() - sent).toBeLessThan(2000);
    // Without a valid key there is no stream.
    const refused = await fetch(`${address}/api/dashboard/events`);
    expect(refused.status).toBe(401);

    // The connection drops: the stream says so, the lists stay with their state unknown.
    text = '';
    peer.dropAll();
    await until(/event: pbx\ndata: \{"connected":false,"since":"[^"]+"\}/);
    const down = await users();
    expect(down.pbx.connected).toBe(false);
    expect(down.users.map((u) => u.presence)).toEqual(['unknown', 'unknown', 'unknown', 'unknown']);
    expect(down.users.flatMap((u) => u.extensions.map((e) => e.status))).not.toContain('online');
    const trunks = (await call('GET', '/api/dashboard/trunks')).json();
    expect(trunks.trunks[0]).toMatchObject({ name: 'vivavox', status: 'unknown', registration: 'unknown' });
    // The client connects again by itself (after half a second, then longer); the stream says that too.
    text = '';
    await until(/event: pbx\ndata: \{"connected":true/, 10_000);
    await expect.poll(async () => (await users()).users[0]?.presence, { timeout: 5000 }).toBe('online');
    abort.abort();
  });

  it('lists trunks with their registration and status', async () => {
    await expect
      .poll(async () => (await call('GET', '/api/dashboard/trunks')).json().trunks[0]?.registration, { timeout: 5000 })
      .toBe('registered');
    const body = (await call('GET', '/api/dashboard/trunks?search=viva')).json();
    expect(body.total).toBe(1);
    expect(body.trunks[0]).toMatchObject({ name: 'vivavox', kind: 'voip', status: 'online', codecs: ['alaw'] });
    expect((await call('GET', '/api/dashboard/trunks?search=nothing')).json().total).toBe(0);
    // A gateway's lines are trunks too; Asterisk monitors no registration for them.
    const gateway = await call('POST', '/api/devices/gateways', {
      ...PATTON_GATEWAY,
      isConfigured: false,
      manufacturer: 'Patton',
    });
    expect(gateway.statusCode, gateway.body).toBeLessThan(300);
    const all = (await call('GET', '/api/dashboard/trunks')).json();
    const line = all.trunks.find((t: { kind: string }) => t.kind === 'gateway');
    expect(line).toMatchObject({ registration: 'unmonitored', chanType: 'pjsip' });
  });

  it('shows a trunk added, changed or removed at the next request (the trunks are read once per change)', async () => {
    // The VoIP trunks (the gateway's lines of the test before stay as they are).
    const names = async () =>
      (await call('GET', '/api/dashboard/trunks'))
        .json()
        .trunks.filter((x: { kind: string }) => x.kind === 'voip')
        .map((x: { name: string; codecs: string[] }) => [x.name, ...x.codecs].join(' '));
    expect(await names()).toEqual(['vivavox alaw']);
    const created = await call('POST', '/api/trunks', {
      provider: 'vivavox',
      name: 'second',
      username: 'u2',
      password: 'p2',
      phone: '0721000001',
      codecs: ['alaw'],
      forceCodec: true,
    });
    expect(created.statusCode, created.body).toBe(200);
    expect(await names()).toEqual(['vivavox alaw', 'second alaw']);
    const id = created.json().trunkid;
    expect((await call('PATCH', `/api/trunks/${id}`, { codecs: ['ulaw', 'alaw'] })).statusCode).toBe(204);
    expect(await names()).toEqual(['vivavox alaw', 'second ulaw alaw']);
    expect((await call('DELETE', `/api/trunks/${id}`)).statusCode).toBe(200);
    expect(await names()).toEqual(['vivavox alaw']);
  });
});

describe('dashboard without a PBX connection', () => {
  const t = useTestApp('sqlite');
  it('still lists users, with nothing claimed about their state', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/dashboard/users', headers: t.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ pbx: { connected: false, since: null }, total: 0, users: [] });
  });
});
