import dgram from 'node:dgram';
import net from 'node:net';
import tftp from 'tftp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS, expectError, useTestApp } from './helpers.ts';
import { PATTON_GATEWAY } from './support/gateway.ts';

function freeTcpPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}
function freeUdpPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = dgram.createSocket('udp4');
    socket.once('error', reject);
    socket.bind(0, '127.0.0.1', () => {
      const { port } = socket.address();
      socket.close(() => resolve(port));
    });
  });
}

/** Reads a file from a TFTP server with a real TFTP client; rejects with the server's error. */
function tftpGet(host: string, port: number, file: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    tftp
      .createClient({ host, port, retries: 2, timeout: 1000 })
      .createGetStream(file)
      .on('data', (c: Buffer) => chunks.push(c))
      .on('end', () => resolve(Buffer.concat(chunks)))
      .on('error', reject);
  });
}

/**
 * The far side of a push: a telnet console that talks like a Patton TRINITY (option negotiation,
 * login, prompts, reload questions) and, on `copy tftp://…`, really fetches the file over TFTP.
 */
function fakePatton(options: { failCopy?: boolean } = {}) {
  const state = { lines: [] as string[], fetched: [] as { url: string; body: Buffer }[], rebooted: false };
  const server = net.createServer((socket) => {
    let stage: 'login' | 'password' | 'user' | 'enabled' | 'store' | 'restart' = 'login';
    let buffer = '';
    const IAC = 255;
    socket.write(Buffer.from([IAC, 251, 1, IAC, 251, 3])); // WILL ECHO, WILL SUPPRESS-GO-AHEAD
    socket.write('\r\nTRINITY SN5300\r\nlogin: ');
    const prompt = () => socket.write(stage === 'enabled' ? '\r\nSN5300#' : '\r\nSN5300>');
    const handle = async (line: string) => {
      state.lines.push(line);
      if (stage === 'login') {
        stage = 'password';
        socket.write('password: ');
      } else if (stage === 'password') {
        stage = 'user';
        prompt();
      } else if (stage === 'user' && line === 'enable') {
        stage = 'enabled';
        prompt();
      } else if (stage === 'enabled' && line.startsWith('copy tftp://')) {
        const url = new URL(line.split(' ')[1] as string);
        socket.write(`\r\n${line}\r\nDownloading...`);
        try {
          if (options.failCopy) throw new Error('simulated');
          const body = await tftpGet(url.hostname, Number(url.port || 69), url.pathname.slice(1));
          state.fetched.push({ url: url.href, body });
          socket.write('\r\n100% done');
        } catch {
          socket.write('\r\n% TFTP transfer failed: file not found');
        }
        prompt();
      } else if (stage === 'enabled' && line.startsWith('copy config:')) {
        prompt();
      } else if (stage === 'enabled' && line === 'reload') {
        stage = 'store';
        socket.write(
          "\r\nRunning configuration has been changed.\r\nDo you want to copy the 'running-config' to the 'startup-config'?\r\nPress 'yes' to store, 'no' to drop changes : ",
        );
      } else if (stage === 'store') {
        stage = 'restart';
        socket.write("\r\nPress 'yes' to restart, 'no' to cancel : ");
      } else if (stage === 'restart' && line === 'yes') {
        state.rebooted = true;
        socket.end('\r\nThe system is going down\r\n');
      } else {
        socket.write('\r\n% Unknown command');
        prompt();
      }
    };
    let queue = Promise.resolve();
    socket.on('data', (chunk: Buffer) => {
      // Drop the client's answers to our option offers (3-byte IAC sequences).
      const bytes = [...chunk];
      const text: number[] = [];
      for (let i = 0; i < bytes.length; i++) {
        if (bytes[i] === IAC) i += 2;
        else text.push(bytes[i] as number);
      }
      buffer += Buffer.from(text).toString('latin1');
      let end = buffer.indexOf('\n');
      while (end >= 0) {
        const line = buffer.slice(0, end).replace(/\r$/, '');
        buffer = buffer.slice(end + 1);
        queue = queue.then(() => handle(line));
        end = buffer.indexOf('\n');
      }
    });
    socket.on('error', () => {});
  });
  return {
    state,
    listen: (port: number) => new Promise<void>((r) => server.listen(port, '127.0.0.1', () => r())),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const patton = PATTON_GATEWAY;

describe.each(DB_KINDS)('gateways API (%s)', (kind) => {
  // Nothing listens on this port: configured gateways count as not connected at once.
  const closedPort = 1;
  const t = useTestApp(kind, { env: { GATEWAY_CONTROL_PORT: String(closedPort), TFTP_PORT: '0' } });
  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: t.headers });
  const post = (url: string, payload: unknown, lang = 'en') =>
    t.app.inject({
      method: 'POST',
      url,
      headers: { ...t.headers, 'accept-language': lang },
      payload: payload as object,
    });
  const del = (url: string) => t.app.inject({ method: 'DELETE', url, headers: t.headers });
  const trunkNames = async () => ((await get('/api/trunks')).json() as { name: string }[]).map((x) => x.name);

  it('offers the whole catalogue by manufacturer, with the PBX address to pre-fill', async () => {
    const res = await get('/api/devices/gateways/manufacturers');
    expect(res.statusCode, res.body).toBe(200);
    const catalogue = res.json() as Record<string, { id: number; model: string; n_isdn_trunks: number }[]>;
    expect(Object.keys(catalogue).sort()).toEqual(['Grandstream', 'Mediatrix', 'Patton', 'Sangoma']);
    expect(Object.values(catalogue).flat()).toHaveLength(46);
    expect(catalogue.Patton?.find((m) => m.id === 17)).toMatchObject({
      model: 'TRI_ISDN_2',
      n_isdn_trunks: 2,
      description: 'TRINITY ISDN 2 Porte',
    });
    expect(catalogue.Grandstream?.[0]).toMatchObject({ ipv4_green: expect.stringMatching(/^\d+\.\d+\.\d+\.\d+$/) });
    expect((await get('/api/devices/gateways/list/any')).json()).toEqual([]);
  });

  it('saves a gateway with one trunk per port, named and numbered as the contract says', async () => {
    const res = await post('/api/devices/gateways', { ...patton, isConfigured: false, manufacturer: 'Patton' });
    expect(res.statusCode, res.body).toBe(200);
    const { id, status } = res.json();
    expect(status).toBe(true);
    const trunks = (await get('/api/trunks')).json() as { name: string; kind: string; gateway_id: number }[];
    expect(trunks.filter((x) => x.gateway_id === id).map((x) => [x.name, x.kind])).toEqual([
      ['Patton_0b1c2d_isdn_0', 'gateway'],
      ['Patton_0b1c2d_isdn_1', 'gateway'],
    ]);
    const list = (await get('/api/devices/gateways/list/x')).json();
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      id,
      name: 'Patton-TRINITY ISDN 2 Porte',
      manufacturer: 'Patton',
      mac: '00:A0:BA:0B:1C:2D',
      model: 17,
      isConfigured: true,
      isConnected: false,
      isGrandStream: false,
      ipv4_new: '192.168.1.250',
      trunks_isdn: [
        { name: 'Patton_0b1c2d_isdn_0', type: 'pp' },
        { name: 'Patton_0b1c2d_isdn_1', type: 'pmp' },
      ],
    });

    const file = Buffer.from((await get(`/api/devices/gateways/download/${id}`)).json(), 'base64').toString();
    // The header names the model in the reader's language; the stored configuration name stays the original's.
    expect(file).toMatch(/^#-+#\n# Patton-TRINITY ISDN 2 ports\n/);
    const italian = await t.app.inject({
      method: 'GET',
      url: `/api/devices/gateways/download/${id}`,
      headers: { ...t.headers, 'accept-language': 'it' },
    });
    expect(Buffer.from(italian.json(), 'base64').toString()).toMatch(/^#-+#\n# Patton-TRINITY ISDN 2 Porte\n/);
    expect(file).toContain('ipaddress 192.168.1.250 255.255.255.0');
    expect(file).toContain('route 0.0.0.0 0.0.0.0 192.168.1.1 0');
    expect(file).toContain('registrar 192.168.1.2 5061 transport tls');
    expect(file).toContain('      protocol pp\n');
    expect(file).toContain('      protocol pmp\n');
    expect(file).toMatch(/username Patton_0b1c2d_isdn_0 password [A-Za-z0-9]{16}\n/);
    // By configuration name and MAC, as the original console asks.
    const byName = await get(
      `/api/devices/gateways/download/${encodeURIComponent('Patton-TRINITY ISDN 2 Porte')}/00:A0:BA:0B:1C:2D`,
    );
    expect(Buffer.from(byName.json(), 'base64').toString()).toContain('Patton_0b1c2d_isdn_1');
    expectError(await get('/api/devices/gateways/download/999'), 404, 'not_found');
  });

  it('refuses a second gateway with the same MAC, and a trunk name already taken; nothing is stored', async () => {
    expectError(await post('/api/devices/gateways', patton), 409, 'gateway_exists');
    const voip = await post('/api/trunks', {
      provider: 'vivavox',
      name: 'Mediatrix_aabbcc_isdn_1',
      username: 'u1',
      password: 'secret1',
      phone: '0721000000',
      codecs: ['alaw'],
      forceCodec: true,
    });
    expect(voip.statusCode, voip.body).toBe(200);
    const before = await trunkNames();
    const clash = expectError(
      await post('/api/devices/gateways', {
        ...patton,
        model: 65,
        mac: '00:90:F8:AA:BB:CC',
        trunks_isdn: [{ type: 'pp' }],
      }),
      409,
      'trunk_exists',
    );
    expect(clash.detail).toContain('Mediatrix_aabbcc_isdn_1');
    expect(await trunkNames()).toEqual(before);
    expect((await get('/api/devices/gateways/list')).json()).toHaveLength(1);
  });

  it('says which fields are wrong: addresses, mask, MAC, port counts, line numbers, linked users', async () => {
    const bad = expectError(
      await post('/api/devices/gateways', {
        ...patton,
        mac: '00:11:22:AA:BB',
        ipv4_new: '192.168.1.256',
        netmask_green: '255.0.255.0',
        gateway: 'router',
      }),
      400,
      'validation',
    );
    expect(bad.fields).toMatchObject({
      mac: 'Enter a MAC address like 00:11:22:AA:BB:CC',
      ipv4_new: 'Enter a valid IPv4 address',
      netmask_green: 'Enter a valid netmask',
      gateway: 'Enter a valid IPv4 address',
    });
    const ports = expectError(
      await post('/api/devices/gateways', { ...patton, mac: '00:A0:BA:00:00:01', trunks_isdn: [{ type: 'pp' }] }),
      400,
      'validation',
    );
    expect(ports.fields).toEqual({ trunks_isdn: 'TRI_ISDN_2 has 2 ports of this type' });
    const line = expectError(
      await post('/api/devices/gateways', {
        ...patton,
        model: 11,
        mac: '00:A0:BA:00:00:02',
        trunks_isdn: [],
        trunks_fxo: [{ number: '0721;reload' }, { number: '' }],
      }),
      400,
      'validation',
    );
    expect(line.fields).toEqual({ 'trunks_fxo.0.number': 'Digits only' });
    const fxs = expectError(
      await post('/api/devices/gateways', {
        ...patton,
        model: 31,
        mac: '00:0B:82:00:00:03',
        trunks_isdn: [],
        trunks_fxs: [{ linked_extension: '299' }],
      }),
      400,
      'validation',
    );
    expect(fxs.fields).toEqual({ 'trunks_fxs.0.linked_extension': 'No user has this extension' });
    expect((await get('/api/devices/gateways/list')).json()).toHaveLength(1);
  });

  it('numbers ports from 1 for other vendors and links FXS ports to users with device numbers', async () => {
    const now = Date.now();
    await t.database.db
      .insertInto('users')
      .values({
        username: 'ada',
        displayname: 'Ada Lovelace',
        fname: null,
        lname: null,
        email: null,
        source: 'local',
        password_hash: null,
        password_clear: null,
        default_extension: '201',
        extension_order: 201,
        outboundcid: null,
        mobile: null,
        voicemail_pin: null,
        profile_id: null,
        search_key: 'ada ada lovelace 201',
        created_at: now,
        updated_at: now,
      })
      .execute();
    const vega = await post('/api/devices/gateways', {
      ...patton,
      model: 60,
      mac: '00:50:58:12:34:56',
      trunks_isdn: [],
      trunks_fxo: [{ number: '0721111111' }, { number: '' }, {}, {}],
    });
    expect(vega.statusCode, vega.body).toBe(200);
    expect((await trunkNames()).filter((n) => n.startsWith('Sangoma'))).toEqual([
      'Sangoma_123456_fxo_1',
      'Sangoma_123456_fxo_2',
      'Sangoma_123456_fxo_3',
      'Sangoma_123456_fxo_4',
    ]);
    const ht = await post('/api/devices/gateways', {
      ...patton,
      model: 34,
      mac: '00:0B:82:AB:CD:EF',
      ipv4_green: '',
      trunks_isdn: [],
      trunks_fxs: [{ linked_extension: '201' }, { linked_extension: '201' }],
    });
    expect(ht.statusCode, ht.body).toBe(200);
    const gw = (
      (await get('/api/devices/gateways/list')).json() as {
        id: number;
        trunks_fxs: unknown[];
        isGrandStream: boolean;
        canPush: boolean;
        ipv4_green: string;
      }[]
    ).find((g) => g.id === ht.json().id);
    expect(gw?.trunks_fxs).toEqual([
      { name: 'FXS 1', linked_extension: '201', physical_extension: '91201' },
      { name: 'FXS 2', linked_extension: '201', physical_extension: '92201' },
    ]);
    expect(gw).toMatchObject({ isGrandStream: true, canPush: false });
    // An empty PBX IP becomes the server's own address.
    expect(gw?.ipv4_green).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    const xml = Buffer.from((await get(`/api/devices/gateways/download/${ht.json().id}`)).json(), 'base64').toString();
    expect(xml).toContain('<mac>000B82ABCDEF</mac>');
    expect(xml).toContain('<P35>91201</P35>');
    expect(xml).toContain('<P735>92201</P735>');
    expect(xml).toContain(`<P47>${gw?.ipv4_green}:5061</P47>`);
    expectError(
      await post('/api/devices/gateways/push', { mac: '00:0B:82:AB:CD:EF' }),
      409,
      'gateway_push_unsupported',
    );
  });

  it('deletes a gateway with its trunks', async () => {
    const list = (await get('/api/devices/gateways/list')).json() as { id: number; manufacturer: string }[];
    const vega = list.find((g) => g.manufacturer === 'Sangoma');
    const res = await del(`/api/devices/gateways/${vega?.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ status: true });
    expect((await trunkNames()).some((n) => n.startsWith('Sangoma'))).toBe(false);
    expect((await get('/api/devices/gateways/list')).json()).toHaveLength(2);
    expectError(await del(`/api/devices/gateways/${vega?.id}`), 404, 'not_found');
  });
});

describe.each(DB_KINDS)('gateway push over telnet and TFTP (%s)', (kind) => {
  const ports = { telnet: 0, tftp: 0 };
  const peer = fakePatton();
  const failing = fakePatton({ failCopy: true });
  const env: Record<string, string> = {};
  beforeAll(async () => {
    ports.telnet = await freeTcpPort();
    ports.tftp = await freeUdpPort();
    env.GATEWAY_CONTROL_PORT = String(ports.telnet);
    env.TFTP_PORT = String(ports.tftp);
    await peer.listen(ports.telnet);
  });
  afterAll(() => peer.close());
  const t = useTestApp(kind, { env });
  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: t.headers });
  const post = (url: string, payload: unknown) =>
    t.app.inject({ method: 'POST', url, headers: t.headers, payload: payload as object });

  it('has the device fetch exactly its file over TFTP, then reload', async () => {
    const created = await post('/api/devices/gateways', {
      model: 12,
      mac: '00:A0:BA:01:02:03',
      ipv4: '127.0.0.1',
      ipv4_new: '127.0.0.1',
      netmask_green: '255.0.0.0',
      gateway: '127.0.0.254',
      ipv4_green: '127.0.0.1',
      trunks_fxo: [{ number: '0721100001' }, { number: '0721100002' }, { number: '' }, { number: '' }],
    });
    expect(created.statusCode, created.body).toBe(200);
    const [gw] = (await get('/api/devices/gateways/list')).json();
    expect(gw).toMatchObject({ isConfigured: true, isConnected: true, canPush: true });

    const res = await post('/api/devices/gateways/push', { name: gw.name, mac: '00:a0:ba:01:02:03' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ status: true });
    const file = `00A0BA010203.cfg`;
    expect(peer.state.lines).toEqual([
      '.',
      '',
      'enable',
      `copy tftp://127.0.0.1:${ports.tftp}/${file} config:tmp-config`,
      'copy config:tmp-config startup-config',
      'reload',
      'no',
      'yes',
    ]);
    expect(peer.state.rebooted).toBe(true);
    expect(peer.state.fetched).toHaveLength(1);
    const received = peer.state.fetched[0]?.body.toString() ?? '';
    // Pushed from an English console: the file names the model in English.
    expect(received).toMatch(/^#-+#\n# Patton-TRINITY Analog 4 FXO ports\n/);
    const download = Buffer.from((await get(`/api/devices/gateways/download/${gw.id}`)).json(), 'base64').toString();
    const withoutDate = (s: string) => s.replace(/Generated by Centralino on .*/, '');
    expect(withoutDate(received)).toEqual(withoutDate(download));
    expect(received).toContain('Patton_010203_fxo_3');
    expect(received).toContain('destination-number 0721100001');

    // The file goes only to the gateway's own address; other names are not served at all.
    const other = await post('/api/devices/gateways', {
      model: 12,
      mac: '00:A0:BA:09:09:09',
      ipv4_new: '192.0.2.10',
      netmask_green: '255.255.255.0',
      gateway: '192.0.2.1',
      ipv4_green: '192.0.2.2',
      trunks_fxo: [{}, {}, {}, {}],
    });
    expect(other.statusCode).toBe(200);
    await expect(tftpGet('127.0.0.1', ports.tftp, '00A0BA090909.cfg')).rejects.toThrow(/not found/i);
    await expect(tftpGet('127.0.0.1', ports.tftp, '../etc/passwd')).rejects.toThrow();
  });

  it('reports a failed download on the device as a configuration error', async () => {
    await peer.close();
    await failing.listen(ports.telnet);
    try {
      const res = await post('/api/devices/gateways/push', { mac: '00:A0:BA:01:02:03' });
      const body = expectError(res, 502, 'gateway_push_failed');
      expect(body.title).toBe('Configuration error');
      expect(body.detail).toContain('TFTP transfer failed');
      expect(failing.state.lines).not.toContain('reload');
    } finally {
      await failing.close();
    }
    // Nobody answers any more: not connected, and push says so.
    expectError(await post('/api/devices/gateways/push', { mac: '00:A0:BA:01:02:03' }), 409, 'gateway_not_connected');
  });
});
