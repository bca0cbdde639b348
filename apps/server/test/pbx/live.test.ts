import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, useTestApp } from '../helpers.ts';
import { type AmiPeer, amiPeer } from '../support/ami-peer.ts';

/** Live state and phone actions through a real AMI connection to a loopback peer speaking the protocol. */
const peerOptions: Parameters<typeof amiPeer>[0] = {
  secret: 'live-test-secret',
  endpoints: [{ name: '201', state: 'Not in use' }, { name: '91201', state: 'Unavailable' }, { name: '202' }],
  contacts: [{ aor: '201', via: '192.0.2.44:5062', userAgent: 'Yealink SIP-T46S 66.86.0.15' }],
  registrations: [{ name: 'vivavox', status: 'Registered' }],
  command: (command) => {
    if (command === 'pjsip send notify generic-reload endpoint 201')
      return ["Sending NOTIFY of type 'generic-reload' to '201'"];
    if (command.startsWith('pjsip send notify')) return ['Unable to retrieve endpoint 91201'];
    return ['0 results found.'];
  },
};
const peer: AmiPeer = amiPeer(peerOptions);
const port = await peer.listen();
afterAll(() => peer.close());
// Asterisk with nothing registered: PJSIPShowContacts answers an error.
const idle = amiPeer({ secret: 'idle-secret', endpoints: [{ name: '301', state: 'Unavailable' }], contacts: [] });
const idlePort = await idle.listen();

describe('live state over AMI', () => {
  const t = useTestApp('sqlite', {
    env: { AMI_HOST: '127.0.0.1', AMI_PORT: String(port), AMI_USERNAME: 'centralino', AMI_SECRET: 'live-test-secret' },
  });
  const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: t.headers, ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    expect((await call('POST', '/api/configuration/mode', { mode: 'legacy' })).statusCode).toBe(200);
    for (let i = 0; i < 100 && (await call('GET', '/api/configuration/userprovider')).json().configured !== 1; i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    await call('POST', '/api/users', { username: 'alice', fullname: 'Alice Rossi' });
    await call('POST', '/api/mainextensions', { username: 'alice', extension: '201' });
    await call('POST', '/api/physicalextensions', { mac: '00-15-65-AA-BB-01' });
    await call('POST', '/api/physicalextensions', { mainextension: '201', mac: '00-15-65-AA-BB-01' });
    await call('POST', '/api/mobileapp', { mainextension: '201' });
    for (let i = 0; i < 200 && (await call('GET', '/api/astproxy/extensions')).statusCode !== 200; i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
  });

  it('shows the registration, contact and user agent of each account, devices included', async () => {
    const res = await call('GET', '/api/astproxy/extensions');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body['201']).toMatchObject({
      exten: '201',
      username: 'alice',
      status: 'online',
      ip: '192.0.2.44',
      port: '5062',
      sipuseragent: 'Yealink SIP-T46S 66.86.0.15',
    });
    expect(body['91201']).toMatchObject({ exten: '91201', username: 'alice', status: 'offline', ip: '' });
  });

  it('reads a trunk registration from the registration events, not from the AuthDetail that follows', async () => {
    const trunk = await call('POST', '/api/trunks', {
      provider: 'vivavox',
      name: 'vivavox',
      username: '0721123456',
      password: 's3cr3t!',
      phone: '0721123456',
      codecs: ['alaw', 'ulaw'],
      forceCodec: true,
    });
    expect(trunk.statusCode, trunk.body).toBe(200);
    const res = await call('GET', '/api/astproxy/trunks');
    expect(res.statusCode, res.body).toBe(200);
    // Registered, so reachable, though Asterisk has not qualified the contact yet (no device state).
    expect(res.json().vivavox).toMatchObject({ registration: 'registered', status: 'online' });
  });

  it('marks registered devices in the users list', async () => {
    const alice = (await call('GET', '/api/users/false?search=alice')).json()[0];
    const byExtension = Object.fromEntries(
      alice.devices.map((d: { extension: string; registered: boolean }) => [d.extension, d.registered]),
    );
    expect(byExtension).toEqual({ '201': true, '91201': false });
  });

  it('reconfigures a registered phone with a SIP NOTIFY, and reports a failure Asterisk reports', async () => {
    const ok = await call('POST', '/api/phones/reconfigure', { extension: '201' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(peer.commands()).toContain('pjsip send notify generic-reload endpoint 201');
    const failed = await call('POST', '/api/phones/reconfigure', { extension: '91201' });
    expectError(failed, 502, 'phone_not_reconfigured');
    expectError(await call('POST', '/api/phones/reconfigure', { extension: '201;reboot' }), 400, 'validation');
    // Reconfiguring changes no configuration, so no apply follows.
    expect(peer.commands().filter((c) => c.includes('201;'))).toEqual([]);
  });
});

describe('live state of a PBX with no phone registered', () => {
  afterAll(() => idle.close());
  const t = useTestApp('sqlite', {
    env: { AMI_HOST: '127.0.0.1', AMI_PORT: String(idlePort), AMI_USERNAME: 'centralino', AMI_SECRET: 'idle-secret' },
  });
  const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: t.headers, ...(payload ? { payload } : {}) });

  it('lists every account offline instead of failing, and a web phone on the main number as a web phone', async () => {
    expect((await call('POST', '/api/configuration/mode', { mode: 'legacy' })).statusCode).toBe(200);
    for (let i = 0; i < 100 && (await call('GET', '/api/configuration/userprovider')).json().configured !== 1; i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    await call('POST', '/api/users', { username: 'carol', fullname: 'Carol Verdi' });
    await call('POST', '/api/mainextensions', { username: 'carol', extension: '301' });
    expect((await call('POST', '/api/webrtc', { extension: '301' })).json().extension).toBe('301');
    let res = await call('GET', '/api/astproxy/extensions');
    for (let i = 0; i < 200 && res.statusCode === 503; i++) {
      await new Promise((r) => setTimeout(r, 20));
      res = await call('GET', '/api/astproxy/extensions');
    }
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()['301']).toMatchObject({
      status: 'offline',
      ip: '',
      useWebsocket: true,
      codecs: ['opus', 'ulaw', 'alaw', 'vp8'],
    });
    const carol = (await call('GET', '/api/users/false?search=carol')).json()[0];
    expect(carol.devices.map((d: { registered: boolean }) => d.registered)).toEqual([false]);
  });
});

describe('phone actions without an AMI connection', () => {
  const t = useTestApp('sqlite');
  it('answers that the PBX engine is not connected instead of pretending', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/phones/reconfigure',
      headers: t.headers,
      payload: { extension: '201' },
    });
    expectError(res, 503, 'pbx_not_connected');
    const users = await t.app.inject({ method: 'GET', url: '/api/users/false', headers: t.headers });
    expect(users.statusCode).toBe(200);
  });
});
