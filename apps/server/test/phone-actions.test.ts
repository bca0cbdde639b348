import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostsOf, isLocal, localAddresses, parseNeighbours, rangeOf } from '../src/features/phone-actions/network.ts';
import { delayUntil, RebootService, type Timers } from '../src/features/phone-actions/reboot.ts';
import { AmiClient } from '../src/pbx/ami/client.ts';
import { field } from '../src/pbx/ami/framing.ts';
import { sendNotify } from '../src/pbx/notify.ts';
import {
  type AuthHeaders,
  DB_KINDS,
  expectError,
  login,
  startApp,
  type TestApp,
  useTestApp,
  useTestDatabase,
} from './helpers.ts';
import { type AmiPeer, amiPeer } from './support/ami-peer.ts';
import { createNetLab, type NetLab } from './support/netlab.ts';

const md5 = (text: string) => createHash('md5').update(text).digest('hex');
const waitFor = async (check: () => boolean, ms = 5000) => {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('neighbour table and network arithmetic', () => {
  it('reads complete entries of /proc/net/arp and skips incomplete ones', () => {
    // Verbatim layout of the kernel file (fixed-width columns, header first).
    const text = [
      'IP address       HW type     Flags       HW address            Mask     Device',
      '192.168.5.33     0x1         0x2         80:5e:c0:12:34:56     *        eth0',
      '192.168.5.40     0x1         0x0         00:00:00:00:00:00     *        eth0',
      '192.168.5.41     0x1         0x6         00:15:65:aa:bb:cc     *        eth0',
      '10.0.0.7         0x1         0x2         00:00:00:00:00:00     *        br0',
      '',
    ].join('\n');
    const table = parseNeighbours(text);
    expect([...table.entries()]).toEqual([
      ['192.168.5.33', { mac: '80:5E:C0:12:34:56', iface: 'eth0' }],
      ['192.168.5.41', { mac: '00:15:65:AA:BB:CC', iface: 'eth0' }],
    ]);
  });

  it('lists host addresses without network, broadcast and own addresses', () => {
    expect(hostsOf(rangeOf('192.168.1.10', 29), new Set(['192.168.1.10']))).toEqual([
      '192.168.1.9',
      '192.168.1.11',
      '192.168.1.12',
      '192.168.1.13',
      '192.168.1.14',
    ]);
    expect(hostsOf(rangeOf('192.168.1.10', 32), new Set())).toEqual(['192.168.1.10']);
    expect(hostsOf(rangeOf('10.0.0.1', 22), new Set())).toHaveLength(1022);
  });

  it('knows which networks are the server’s own', () => {
    const locals = localAddresses({
      eth0: [
        {
          family: 'IPv4',
          address: '192.168.5.14',
          netmask: '255.255.255.0',
          internal: false,
          mac: '02:00:00:00:00:01',
          cidr: '192.168.5.14/24',
        },
      ],
    });
    expect(isLocal(rangeOf('192.168.5.200', 24), locals)).toBe(true);
    expect(isLocal(rangeOf('192.168.4.1', 22), locals)).toBe(true);
    expect(isLocal(rangeOf('192.168.6.1', 24), locals)).toBe(false);
    expect(isLocal(rangeOf('8.8.8.8', 32), locals)).toBe(false);
  });

  it('schedules at the next HH:MM of local time', () => {
    const now = new Date(2026, 0, 10, 23, 0, 30);
    expect(delayUntil(now, 23, 30)).toBe(29 * 60_000 + 30_000);
    // Already past today: tomorrow.
    expect(delayUntil(now, 7, 0)).toBe((8 * 60 - 0.5) * 60_000);
    expect(delayUntil(now, 23, 0)).toBe(24 * 3600_000 - 30_000);
  });
});

describe('sendNotify over AMI', () => {
  let peer: AmiPeer;
  let ami: AmiClient;
  beforeAll(async () => {
    peer = amiPeer({
      command: (c) => (c.includes('endpoint 299') ? ['Unable to retrieve endpoint 299'] : ['Sending NOTIFY']),
    });
    const port = await peer.listen();
    ami = new AmiClient({ host: '127.0.0.1', port, username: 'centralino', secret: 'right-secret' });
    ami.start();
    await waitFor(() => ami.state === 'connected');
  });
  afterAll(async () => {
    await ami.stop();
    await peer.close();
  });

  it('sends the configured kinds with the CLI and vendor kinds as PJSIPNotify', async () => {
    expect(await sendNotify(ami, '201', 'generic-reload')).toEqual({ ok: true });
    expect(peer.commands()).toContain('pjsip send notify generic-reload endpoint 201');
    expect(await sendNotify(ami, '202', 'cisco-reboot')).toEqual({ ok: true });
    const notify = peer.actions.find((a) => field(a, 'action') === 'PJSIPNotify');
    expect(notify && field(notify, 'endpoint')).toBe('202');
    expect(notify && field(notify, 'variable')).toBe('Event=reboot_now');
  });

  it('reports what Asterisk refused and a missing link, without throwing', async () => {
    expect(await sendNotify(ami, '299', 'generic-reboot')).toMatchObject({ ok: false, reason: 'failed' });
    expect(await sendNotify(undefined, '201', 'generic-reboot')).toMatchObject({ ok: false, reason: 'not_connected' });
    // Not an endpoint name: nothing is sent.
    const before = peer.actions.length;
    expect(await sendNotify(ami, '201 endpoint 202', 'generic-reboot')).toMatchObject({ ok: false });
    expect(peer.actions.length).toBe(before);
  });
});

/** The redirect service stand-in: records each request and answers the status the test sets. */
function rpsStandIn() {
  const seen: { method: string; url: string; auth: string | undefined; body: string }[] = [];
  let status = 200;
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', auth: req.headers.authorization, body });
      res.statusCode = status;
      res.end(status === 200 ? '{"result":"ok"}' : '');
    });
  });
  return {
    seen,
    answer: (s: number) => {
      status = s;
    },
    listen: () =>
      new Promise<number>((resolve) =>
        server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
      ),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe.each(DB_KINDS)('phone actions (%s)', (kind) => {
  const db = useTestDatabase(kind);
  const peer = amiPeer({
    command: (c) => (c.includes('endpoint 91202') ? ['Unable to retrieve endpoint 91202'] : ['Sending NOTIFY']),
  });
  const rps = rpsStandIn();
  let t: TestApp;
  let headers: AuthHeaders;
  let env: Record<string, string>;
  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown) =>
    t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });

  beforeAll(async () => {
    const [amiPort, rpsPort] = await Promise.all([peer.listen(), rps.listen()]);
    env = {
      AMI_HOST: '127.0.0.1',
      AMI_PORT: String(amiPort),
      AMI_USERNAME: 'centralino',
      AMI_SECRET: 'right-secret',
      RPS_URL: `http://127.0.0.1:${rpsPort}/rps/`,
      RPS_SYSTEM_ID: 'system-42',
      RPS_SECRET: 'rps-secret',
    };
    t = await startApp(db.current, { env });
    headers = await login(t.app);
  });
  afterAll(async () => {
    await t?.close();
    await peer.close();
    await rps.close();
  });

  it('sets up alice (201) with a Yealink, a Snom and a Grandstream phone, and an unlinked Fanvil', async () => {
    expect((await call('POST', '/api/configuration/mode', { mode: 'legacy' })).statusCode).toBe(200);
    for (let i = 0; i < 100 && (await call('GET', '/api/configuration/userprovider')).json().configured !== 1; i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    expect((await call('POST', '/api/users', { username: 'alice', fullname: 'Alice Rossi' })).statusCode).toBe(201);
    expect((await call('POST', '/api/users', { username: 'bob', fullname: 'Bob Bianchi' })).statusCode).toBe(201);
    expect((await call('POST', '/api/mainextensions', { username: 'alice', extension: '201' })).statusCode).toBe(201);
    expect((await call('POST', '/api/mainextensions', { username: 'bob', extension: '202' })).statusCode).toBe(201);
    const link = async (mainextension: string, mac: string) => {
      const res = await call('POST', '/api/physicalextensions', { mainextension, mac });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().extension as string;
    };
    expect(await link('201', '80-5E-C0-12-34-56')).toBe('201');
    expect(await link('202', '00-04-13-AA-00-01')).toBe('202');
    expect(await link('202', 'C0-74-AD-00-00-01')).toBe('91202');
    expect((await call('POST', '/api/physicalextensions', { mac: '0C-38-3E-00-00-09' })).statusCode).toBe(200);
    await waitFor(() => peer.logins() > 0);
  });

  it('reboots now with the vendor’s NOTIFY, each phone answered on its own', async () => {
    const res = await call('POST', '/api/phones/reboot', {
      '80-5E-C0-12-34-56': {},
      '00-04-13-AA-00-01': {},
      'C0-74-AD-00-00-01': {},
      '0C-38-3E-00-00-09': {},
      '00-15-65-00-00-99': {},
      'not-a-mac': {},
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body['80-5E-C0-12-34-56']).toEqual({ code: 204 });
    expect(peer.commands()).toContain('pjsip send notify generic-reboot endpoint 201');
    expect(body['00-04-13-AA-00-01']).toEqual({ code: 204 });
    const snom = peer.actions.find((a) => field(a, 'action') === 'PJSIPNotify' && field(a, 'endpoint') === '202');
    expect(snom && field(snom, 'variable')).toBe('Event=check-sync;reboot=true');
    expect(body['C0-74-AD-00-00-01']).toMatchObject({ code: 400, error: 'reboot_unsupported' });
    expect(body['0C-38-3E-00-00-09']).toMatchObject({ code: 400, error: 'phone_not_linked' });
    expect(body['00-15-65-00-00-99']).toMatchObject({ code: 404, error: 'not_found' });
    expect(body['not-a-mac']).toMatchObject({ code: 400, title: 'Malformed MAC address' });
  });

  it('reports a NOTIFY Asterisk refused as a failure of that phone', async () => {
    // Give the Grandstream's extension to a Yealink-style phone instead, which Asterisk does not know.
    expect((await call('DELETE', '/api/physicalextensions/91202')).statusCode).toBe(200);
    expect(
      (await call('POST', '/api/physicalextensions', { mainextension: '202', mac: '80-5E-C0-00-00-02' })).json(),
    ).toEqual({ extension: '91202' });
    const res = await call('POST', '/api/phones/reboot', { '80-5E-C0-00-00-02': {} });
    expect(res.json()['80-5E-C0-00-00-02']).toMatchObject({ code: 500, error: 'notify_failed' });
    expect(res.json()['80-5E-C0-00-00-02'].detail).toContain('Unable to retrieve endpoint 91202');
  });

  it('stores a delayed reboot, lists it, keeps it across a restart, and cancels it', async () => {
    const res = await call('POST', '/api/phones/reboot', {
      '80-5E-C0-12-34-56': { hours: '23', minutes: '30' },
      '00-04-13-AA-00-01': { hours: 24, minutes: 0 },
      '0C-38-3E-00-00-09': { hours: '7', minutes: '05' },
    });
    expect(res.json()).toMatchObject({
      '80-5E-C0-12-34-56': { code: 204 },
      '00-04-13-AA-00-01': { code: 400, title: 'Malformed time' },
      '0C-38-3E-00-00-09': { code: 204 },
    });
    const expected = {
      '0C-38-3E-00-00-09': { hours: '07', minutes: '05' },
      '80-5E-C0-12-34-56': { hours: '23', minutes: '30' },
    };
    expect((await call('GET', '/api/phones/reboot')).json()).toEqual(expected);
    expect((await call('GET', '/api/phones/reboot/80:5e:c0:12:34:56')).json()).toEqual({
      '80-5E-C0-12-34-56': expected['80-5E-C0-12-34-56'],
    });
    await t.close();
    t = await startApp(db.current, { env });
    headers = await login(t.app);
    expect((await call('GET', '/api/phones/reboot')).json()).toEqual(expected);
    const cancel = await t.app.inject({
      method: 'DELETE',
      url: '/api/phones/reboot',
      headers,
      payload: ['80-5E-C0-12-34-56', 'bad'],
    });
    expect(cancel.json()).toMatchObject({ '80-5E-C0-12-34-56': { code: 202 }, bad: { code: 400 } });
    expect((await call('GET', '/api/phones/reboot')).json()).toEqual({
      '0C-38-3E-00-00-09': { hours: '07', minutes: '05' },
    });
    expectError(await call('POST', '/api/phones/reboot', ['80-5E-C0-12-34-56']), 400, 'validation');
  });

  it('fires a delayed reboot once at its time and forgets it', async () => {
    await waitFor(() => peer.logins() >= 2);
    const ami = new AmiClient({
      host: '127.0.0.1',
      port: Number(env.AMI_PORT),
      username: 'centralino',
      secret: 'right-secret',
    });
    ami.start();
    await waitFor(() => ami.state === 'connected');
    const armed: { fn: () => void; ms: number }[] = [];
    const timers: Timers = {
      set: (fn, ms) => armed.push({ fn, ms }),
      clear: () => {},
    };
    const now = new Date(2026, 5, 1, 23, 29, 0);
    const service = new RebootService(t.database.db, { ami: () => ami, now: () => now, timers });
    try {
      const res = await service.request({ '80-5E-C0-12-34-56': { hours: '23', minutes: '30' } }, 'en');
      expect(res['80-5E-C0-12-34-56']).toEqual({ code: 204 });
      expect(armed.at(-1)?.ms).toBe(60_000);
      const before = peer.commands().length;
      armed.at(-1)?.fn();
      // Other commands (an apply's checks) may interleave: look for the NOTIFY among those sent since.
      const reboot = 'pjsip send notify generic-reboot endpoint 201';
      await waitFor(() => peer.commands().slice(before).includes(reboot));
      expect(
        peer
          .commands()
          .slice(before)
          .filter((c) => c === reboot),
      ).toHaveLength(1);
      const left = await service.list('80:5E:C0:12:34:56');
      expect(left).toEqual({});
    } finally {
      service.close();
      await ami.stop();
    }
  });

  it('registers a phone with the redirect service: PUT, provider path, basic auth, url body', async () => {
    const url = 'https://pbx.example.com/provisioning/abc123/{mac}.cfg';
    const res = await call('POST', '/api/phones/rps/80:5e:c0:12:34:56', { url });
    expect(res.statusCode, res.body).toBe(200);
    expect(rps.seen.at(-1)).toEqual({
      method: 'PUT',
      url: '/rps/providers/yealink/80-5E-C0-12-34-56',
      auth: `Basic ${Buffer.from('system-42:rps-secret').toString('base64')}`,
      body: JSON.stringify({ url }),
    });
    await call('POST', '/api/phones/rps/E0-E6-56-01-00-07', { url });
    expect(rps.seen.at(-1)?.url).toBe('/rps/providers/fanvil/E0-E6-56-01-00-07');
  });

  it('relays the service’s refusal, and refuses missing url and unsupported vendors without calling it', async () => {
    const url = 'https://pbx.example.com/provisioning/abc123/';
    rps.answer(404);
    expectError(await call('POST', '/api/phones/rps/80-5E-C0-12-34-56', { url }), 404, 'rps_rejected');
    rps.answer(401);
    expectError(await call('POST', '/api/phones/rps/80-5E-C0-12-34-56', { url }), 502, 'rps_rejected');
    rps.answer(200);
    const count = rps.seen.length;
    expectError(await call('POST', '/api/phones/rps/80-5E-C0-12-34-56', {}), 400, 'validation');
    expectError(await call('POST', '/api/phones/rps/C0-74-AD-00-00-01', { url }), 400, 'rps_unsupported_vendor');
    expectError(await call('POST', '/api/phones/rps/xyz', { url }), 400, 'validation');
    expect(rps.seen.length).toBe(count);
  });

  it('scan: refuses wide, foreign and malformed networks', async () => {
    expectError(await call('POST', '/api/devices/scan', { network: '127.0.0.1/21' }), 400, 'scan_too_wide');
    expectError(await call('POST', '/api/devices/scan', { network: '203.0.113.10/24' }), 400, 'scan_not_local');
    expectError(await call('POST', '/api/devices/scan', { network: '300.1.1.1/24' }), 400, 'validation');
    expectError(await call('POST', '/api/devices/scan', {}), 400, 'validation');
    expectError(await call('GET', `/api/devices/phones/list/${md5('10.9.9.9/24')}`), 404, 'not_found');
    expectError(await call('DELETE', `/api/devices/scan/${md5('nothing')}`), 404, 'not_found');
  });

  it('scan of loopback: hosts answer but have no MAC, so no phone is listed', async () => {
    const network = '127.0.0.1/29';
    const started = await call('POST', '/api/devices/scan', { network });
    expect(started.statusCode, started.body).toBe(200);
    const task = await finished(started.json().result);
    expect(task.progress).toBe(100);
    const list = await call('GET', `/api/devices/phones/list/${md5(network)}`);
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual([]);
  });

  async function finished(id: string) {
    let task = { progress: 0 } as { progress: number; error?: string };
    for (let i = 0; i < 600 && task.progress >= 0 && task.progress < 100; i++) {
      await new Promise((r) => setTimeout(r, 50));
      task = (await call('GET', `/api/tasks/${id}`)).json();
    }
    return task;
  }

  describe('on a test network of namespaces', () => {
    let lab: NetLab | undefined;
    beforeAll(() => {
      const made = createNetLab([
        { suffix: 2, mac: '80:5e:c0:aa:bb:01' },
        { suffix: 3, mac: 'e0:e6:56:01:00:07' },
        { suffix: 4, mac: '02:12:34:56:78:9a' },
        { suffix: 5, mac: '00:a0:ba:0b:1c:2d' },
      ]);
      if ('skipped' in made) console.warn(`network scan over MACs not tested: ${made.skipped}`);
      else lab = made;
    });
    afterAll(() => lab?.destroy());

    it('finds the phones by MAC, with the provider-brand model, and leaves the rest out', async (ctx) => {
      if (!lab) return ctx.skip();
      const network = `${lab.hostIp}/24`;
      const started = await call('POST', '/api/devices/scan', { network });
      expect(started.statusCode, started.body).toBe(200);
      // One scan at a time.
      expectError(await call('POST', '/api/devices/scan', { network }), 409, 'scan_running');
      expect(started.json().hash).toBe(md5(network));
      const task = await finished(started.json().result);
      expect(task).toMatchObject({ progress: 100 });
      const list = (await call('GET', `/api/devices/phones/list/${md5(network)}`)).json();
      expect(list).toEqual([
        { mac: '80:5E:C0:AA:BB:01', ipv4: `${lab.prefix24}.2`, manufacturer: 'Yealink/Dreamwave', type: 'phone' },
        {
          mac: 'E0:E6:56:01:00:07',
          ipv4: `${lab.prefix24}.3`,
          manufacturer: 'Nethesis',
          type: 'phone',
          model: 'nethesis-NPX5',
        },
      ]);
    });

    it('stops a scan on request: the task ends at once with progress -1', async (ctx) => {
      if (!lab) return ctx.skip();
      // A /22 where almost nobody answers takes many seconds of probe timeouts.
      const started = await call('POST', '/api/devices/scan', { network: `${lab.hostIp}/22` });
      expect(started.statusCode, started.body).toBe(200);
      const id = started.json().result as string;
      await new Promise((r) => setTimeout(r, 300));
      const t0 = Date.now();
      expect((await call('DELETE', `/api/devices/scan/${id}`)).json()).toEqual({ stopped: true });
      const task = await finished(id);
      expect(task).toMatchObject({ progress: -1, error: 'Scan stopped' });
      expect(Date.now() - t0).toBeLessThan(3000);
      expectError(await call('GET', `/api/devices/phones/list/${md5(`${lab.hostIp}/22`)}`), 404, 'not_found');
    });
  });
});

describe.each(DB_KINDS)('phone reboot without AMI (%s)', (kind) => {
  const t = useTestApp(kind);

  it('answers pbx_not_connected per phone instead of a success', async () => {
    const call = (method: 'POST', url: string, payload: unknown) =>
      t.app.inject({ method, url, headers: t.headers, payload: payload as object });
    expect((await call('POST', '/api/configuration/mode', { mode: 'legacy' })).statusCode).toBe(200);
    for (let i = 0; i < 100; i++) {
      const res = await t.app.inject({ method: 'GET', url: '/api/configuration/userprovider', headers: t.headers });
      if (res.json().configured === 1) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect((await call('POST', '/api/users', { username: 'carol', fullname: 'Carol Verdi' })).statusCode).toBe(201);
    expect((await call('POST', '/api/mainextensions', { username: 'carol', extension: '203' })).statusCode).toBe(201);
    await call('POST', '/api/physicalextensions', { mainextension: '203', mac: '80-5E-C0-00-00-03' });
    const res = await call('POST', '/api/phones/reboot', { '80-5E-C0-00-00-03': {} });
    expect(res.json()['80-5E-C0-00-00-03']).toMatchObject({ code: 503, error: 'pbx_not_connected' });
  });
});
