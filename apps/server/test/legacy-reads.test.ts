import { afterAll, describe, expect, it } from 'vitest';
import { DB_KINDS, expectError, useTestApp } from './helpers.ts';
import { amiPeer } from './support/ami-peer.ts';

/** The read calls of the original API that scripts use (contract api-core §18, api-admin §3.7, provisioning §5.5). */
describe.each(DB_KINDS)('read calls of the older API (%s)', (kind) => {
  const t = useTestApp(kind);
  const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: t.headers, ...(payload ? { payload } : {}) });
  const ok = async (method: 'GET' | 'POST', url: string, payload?: object) => {
    const res = await call(method, url, payload);
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
    return res;
  };

  it('sets up alice (201, a desk phone, voicemail, mobile) and bob (202, nothing else)', async () => {
    await ok('POST', '/api/configuration/mode', { mode: 'legacy' });
    for (let i = 0; i < 100 && (await call('GET', '/api/configuration/userprovider')).json().configured !== 1; i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    for (const [username, fullname, extension] of [
      ['alice', 'Alice Rossi', '201'],
      ['bob', 'Bob Bianchi', '202'],
      ['carla', 'Carla Verdi', undefined],
    ]) {
      await ok('POST', '/api/users', { username, fullname });
      if (extension) await ok('POST', '/api/mainextensions', { username, extension });
    }
    await ok('POST', '/api/physicalextensions', { mac: '00:15:65:AA:BB:CC', model: 'yealink-T46' });
    await ok('POST', '/api/physicalextensions', { mainextension: '201', mac: '00-15-65-AA-BB-CC' });
    await ok('POST', '/api/voicemails', { extension: '201', state: 'yes' });
    await ok('POST', '/api/mobiles', { username: 'alice', mobile: '+39 333 1234567' });
  });

  it('lists main extensions no device registers on, and answers one or 404', async () => {
    expect((await ok('GET', '/api/mainextensions')).json()).toEqual([
      { extension: '202', name: 'Bob Bianchi', username: 'bob' },
    ]);
    expect((await ok('GET', '/api/mainextensions/202')).json()).toEqual({
      extension: '202',
      name: 'Bob Bianchi',
      username: 'bob',
    });
    expectError(await call('GET', '/api/mainextensions/201'), 404, 'not_found');
    expectError(await call('GET', '/api/mainextensions/299'), 404, 'not_found');
    expectError(await call('GET', '/api/mainextensions/abc'), 400, 'validation');
    // The console's own call at the same path is still there.
    expect((await ok('GET', '/api/mainextensions/userlimits')).json()).toHaveProperty('configured');
  });

  it("lists every user's mobile number", async () => {
    expect((await ok('GET', '/api/mobiles')).json()).toEqual([
      { mobile: '+393331234567', username: 'alice' },
      { mobile: null, username: 'bob' },
      { mobile: null, username: 'carla' },
    ]);
  });

  it('lists mailboxes by number without their PINs; [] when there is none', async () => {
    const boxes = (await ok('GET', '/api/voicemails')).json();
    expect(boxes).toEqual({
      '201': {
        mailbox: '201',
        name: 'Alice Rossi',
        email: '',
        pager: '',
        options: { attach: 'yes', saycid: 'no', envelope: 'no', delete: 'no' },
      },
    });
    // The PIN is read per mailbox, as before.
    expect((await ok('GET', '/api/voicemails/201')).json().pwd).toMatch(/^\d{4}$/);
    await ok('POST', '/api/voicemails', { extension: '201', state: 'no' });
    expect((await ok('GET', '/api/voicemails')).json()).toEqual([]);
    await ok('POST', '/api/voicemails', { extension: '201', state: 'yes' });
  });

  it('answers one device by number in the inventory shape, or 404', async () => {
    const alice = (await ok('GET', '/api/users/false?search=alice')).json()[0];
    expect((await ok('GET', '/api/physicalextensions/201')).json()).toEqual({
      mac: '00:15:65:AA:BB:CC',
      vendor: 'Yealink/Dreamwave',
      model: 'yealink-T46',
      extension: '201',
      user_id: alice.id,
    });
    expectError(await call('GET', '/api/physicalextensions/202'), 404, 'not_found');
  });

  it("answers a MAC's vendor, or null", async () => {
    expect((await ok('GET', '/api/devices/00-15-65-12-34-56/brand')).json()).toBe('Yealink/Dreamwave');
    expect((await ok('GET', '/api/devices/0c:38:3e:00:00:01/brand')).json()).toBe('Fanvil');
    expect((await ok('GET', '/api/devices/12-34-56-00-00-01/brand')).json()).toBeNull();
    expect((await ok('GET', '/api/devices/not-a-mac/brand')).json()).toBeNull();
  });

  it('answers the account a phone is linked to, or {} for a phone that is not', async () => {
    const account = (await ok('GET', '/api/phones/account/001565aabbcc')).json();
    expect(account).toEqual({ extension: '201', secret: expect.any(String) });
    const credentials = (await ok('GET', '/api/extensions/201/credentials')).json();
    expect(account.secret).toBe(credentials.secret);
    await ok('POST', '/api/physicalextensions', { mac: '00:15:65:00:00:01', model: 'yealink-T46' });
    expect((await ok('GET', '/api/phones/account/00-15-65-00-00-01')).json()).toEqual({});
    expect((await ok('GET', '/api/phones/account/00-15-65-99-99-99')).json()).toEqual({});
    expectError(await call('GET', '/api/phones/account/xyz'), 400, 'validation');
  });

  it('answers 503 for extension states without a PBX connection', async () => {
    expectError(await call('GET', '/api/phones/state'), 503, 'pbx_not_connected');
  });

  it("serves the MAC vendor map at the original console's path, behind the key", async () => {
    const url = '/freepbx/rest/lib/macAddressMap.json';
    expectError(await t.app.inject({ method: 'GET', url }), 401, 'unauthorized');
    const map = (await ok('GET', url)).json() as Record<string, { start: string; end: string }[]>;
    expect(map['Yealink/Dreamwave']?.[0]).toEqual({ start: '00-15-65-00-00-00', end: '00-15-65-FF-FF-FF' });
    expect(map.Fanvil?.[0]).toEqual({ start: '00-A8-59-00-00-00', end: '00-A8-5A-FF-FF-FF' });
    expect(map.CloudTC).toEqual([{ start: '00-00-00-00-00-01', end: '00-00-00-FF-FF-FF' }]);
    // Vendors in the order they are matched.
    expect(Object.keys(map).slice(0, 3)).toEqual(['2N', 'Aastra', 'AG']);
  });
});

/** GET /api/phones/state over a real AMI connection to a loopback peer: device states as ExtensionState numbers. */
const peer = amiPeer({
  secret: 'state-secret',
  endpoints: [
    { name: '201', state: 'Not in use' },
    { name: '202', state: 'In use' },
    { name: '203', state: 'Busy' },
    { name: '204', state: 'Unavailable' },
    { name: '205', state: 'Ringing' },
    { name: '206', state: 'Ring+Inuse' },
    { name: '207', state: 'On Hold' },
    // 208 has no endpoint on the PBX; a trunk's endpoint is no account.
    { name: 'vivavox', state: 'Not in use' },
  ],
});
const port = await peer.listen();
afterAll(() => peer.close());

describe('extension states of the older API, with the PBX connected', () => {
  const t = useTestApp('sqlite', {
    env: { AMI_HOST: '127.0.0.1', AMI_PORT: String(port), AMI_USERNAME: 'centralino', AMI_SECRET: 'state-secret' },
  });
  const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: t.headers, ...(payload ? { payload } : {}) });
  const states = async () => {
    let res = await call('GET', '/api/phones/state');
    // The console connects to the PBX in the background after it starts.
    for (let i = 0; i < 200 && res.statusCode === 503; i++) {
      await new Promise((r) => setTimeout(r, 20));
      res = await call('GET', '/api/phones/state');
    }
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as Record<string, number>;
  };

  it('maps each account to the number AMI gives: 0 idle, 1 in use, 2 busy, 4 unavailable, 8 ringing…', async () => {
    expect((await call('POST', '/api/configuration/mode', { mode: 'legacy' })).statusCode).toBe(200);
    for (let i = 0; i < 100 && (await call('GET', '/api/configuration/userprovider')).json().configured !== 1; i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    for (const n of [201, 202, 203, 204, 205, 206, 207, 208]) {
      expect((await call('POST', '/api/users', { username: `u${n}`, fullname: `User ${n}` })).statusCode).toBe(201);
      expect((await call('POST', '/api/mainextensions', { username: `u${n}`, extension: String(n) })).statusCode).toBe(
        201,
      );
    }
    expect(await states()).toEqual({
      '201': 0,
      '202': 1,
      '203': 2,
      '204': 4,
      '205': 8,
      '206': 9,
      '207': 16,
      '208': -1,
    });
  });

  it('follows the device state changes AMI announces', async () => {
    peer.event({ Event: 'DeviceStateChange', Device: 'PJSIP/201', State: 'RINGING' });
    peer.event({ Event: 'DeviceStateChange', Device: 'PJSIP/202', State: 'NOT_INUSE' });
    await expect.poll(async () => (await states())['201']).toBe(8);
    expect((await states())['202']).toBe(0);
  });
});
