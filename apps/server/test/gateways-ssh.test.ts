import dgram from 'node:dgram';
import net from 'node:net';
import ssh2 from 'ssh2';
import tftp from 'tftp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DB_KINDS, expectError, useTestApp } from './helpers.ts';

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

/** The Conf parameters this fake unit knows (DGW names); anything else is an unknown parameter. */
const CONF_PARAMETERS = [
  'scriptSpecificFileName',
  'scriptGenericFileName',
  'scriptsLocation',
  'scriptsTransferProtocol',
  'scriptsTransferSrvHostname',
  'scriptsAllowRepeatedExecution',
  'scriptsTransferOnRestartEnable',
];

/**
 * The far side of a Mediatrix push: an SSH server (throwaway host key) with the factory login and
 * an interactive CLI that echoes like a terminal, records the lines typed and, on `reboot`, hangs
 * up and then does what a restarting unit does with its settings: fetch the script over TFTP.
 */
/**
 * A host key for the test server. ssh2 now and then writes an ed25519 key its own parser then refuses
 * ("Malformed OpenSSH private key"), so a key is only used once it parses.
 */
function hostKey(): string {
  for (let attempt = 0; attempt < 20; attempt++) {
    const key = ssh2.utils.generateKeyPairSync('ed25519').private;
    if (!(ssh2.utils.parseKey(key) instanceof Error)) return key;
  }
  throw new Error('no usable ed25519 host key after 20 attempts');
}

function fakeMediatrix() {
  const options = {
    password: 'administrator',
    /** Only keyboard-interactive authentication, as some firmware offers. */
    keyboardOnly: false,
    /** A parameter this unit does not know (older firmware). */
    unknown: undefined as string | undefined,
  };
  const state = {
    logins: [] as { method: string; username: string; password: string }[],
    lines: [] as string[],
    settings: new Map<string, string>(),
    pty: false,
    fetched: [] as { host: string; port: number; file: string; body: Buffer }[],
    open: 0,
    /** Resolves when the last reboot's transfer ended (its error as a value). */
    restarted: Promise.resolve() as Promise<unknown>,
  };
  const connections = new Set<ssh2.Connection>();
  const restart = async () => {
    const setting = (name: string) => state.settings.get(`conf.${name}`) ?? '';
    if (setting('scriptsTransferOnRestartEnable') !== 'enable') return;
    if (setting('scriptsTransferProtocol') !== 'tftp') throw new Error('not tftp');
    const [host = '', port = '69'] = setting('scriptsTransferSrvHostname').split(':');
    const location = setting('scriptsLocation');
    const file = `${location ? `${location.replace(/\/$/, '')}/` : ''}${setting('scriptSpecificFileName')}`;
    const body = await tftpGet(host, Number(port), file);
    state.fetched.push({ host, port: Number(port), file, body });
  };

  const server = new ssh2.Server({ hostKeys: [hostKey()] }, (client: ssh2.Connection) => {
    connections.add(client);
    state.open += 1;
    client.on('close', () => {
      connections.delete(client);
      state.open -= 1;
    });
    client.on('error', () => {});
    client.on('authentication', (ctx) => {
      if (ctx.method === 'password' && !options.keyboardOnly) {
        state.logins.push({ method: ctx.method, username: ctx.username, password: ctx.password });
        if (ctx.username === 'admin' && ctx.password === options.password) ctx.accept();
        else ctx.reject();
      } else if (ctx.method === 'keyboard-interactive' && options.keyboardOnly) {
        ctx.prompt([{ prompt: 'Password: ', echo: false }], (answers) => {
          state.logins.push({ method: ctx.method, username: ctx.username, password: answers[0] ?? '' });
          if (ctx.username === 'admin' && answers[0] === options.password) ctx.accept();
          else ctx.reject();
        });
      } else {
        ctx.reject(options.keyboardOnly ? ['keyboard-interactive'] : ['password']);
      }
    });
    client.on('ready', () => {
      client.on('session', (acceptSession) => {
        const session = acceptSession();
        session.on('pty', (accept) => {
          state.pty = true;
          accept?.();
        });
        session.on('shell', (accept) => {
          const stream = accept();
          const prompt = () => stream.write('\r\nadmin@M4402> ');
          stream.write('\r\nMediatrix 4402 Plus\r\nDGW v2.0\r\n');
          prompt();
          let buffer = '';
          const handle = (line: string) => {
            state.lines.push(line);
            const set = /^(conf\.(\w+))="(.*)"$/.exec(line);
            if (set && CONF_PARAMETERS.includes(set[2] as string) && set[2] !== options.unknown) {
              state.settings.set(set[1] as string, set[3] as string);
              prompt();
            } else if (set) {
              stream.write(`\r\nError: unknown parameter ${set[1]}`);
              prompt();
            } else if (line === 'reboot') {
              stream.write('\r\nRestarting the unit...\r\n');
              stream.exit(0);
              stream.end();
              client.end();
              state.restarted = restart().catch((error: unknown) => error);
            } else {
              stream.write('\r\nError: unknown command');
              prompt();
            }
          };
          stream.on('data', (chunk: Buffer) => {
            const text = chunk.toString('latin1');
            stream.write(text.replaceAll('\r', '\r\n')); // the terminal's echo
            buffer += text;
            let end = buffer.search(/\r\n?|\n/);
            while (end >= 0) {
              const line = buffer.slice(0, end);
              buffer = buffer.slice(end + (buffer.startsWith('\r\n', end) ? 2 : 1));
              handle(line);
              end = buffer.search(/\r\n?|\n/);
            }
          });
        });
      });
    });
  });
  return {
    options,
    state,
    listen: (port: number) => new Promise<void>((r) => server.listen(port, '127.0.0.1', () => r())),
    close: () =>
      new Promise<void>((r) => {
        for (const c of connections) c.end();
        server.close(() => r());
      }),
  };
}

const mediatrix = {
  model: 66, // M4402, 2 ISDN ports
  mac: '00:90:f8:01:02:03',
  ipv4: '127.0.0.1',
  ipv4_new: '127.0.0.1',
  netmask_green: '255.0.0.0',
  gateway: '127.0.0.254',
  ipv4_green: '127.0.0.1',
  trunks_isdn: [{ type: 'pp' }, { type: 'pmp' }],
};

describe.each(DB_KINDS)('gateway push over SSH and TFTP (%s)', (kind) => {
  const ports = { ssh: 0, tftp: 0 };
  const peer = fakeMediatrix();
  const env: Record<string, string> = {};
  beforeAll(async () => {
    ports.ssh = await freeTcpPort();
    ports.tftp = await freeUdpPort();
    env.GATEWAY_CONTROL_PORT = String(ports.ssh);
    env.TFTP_PORT = String(ports.tftp);
    await peer.listen(ports.ssh);
  });
  afterAll(() => peer.close());
  const t = useTestApp(kind, { env });
  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: t.headers });
  const push = (lang = 'en') =>
    t.app.inject({
      method: 'POST',
      url: '/api/devices/gateways/push',
      headers: { ...t.headers, 'accept-language': lang },
      payload: { name: 'Mediatrix-4402 ISDN 2 Porte', mac: mediatrix.mac },
    });
  const file = '0090F8010203.cfg';
  const expectedLines = () => [
    `conf.scriptSpecificFileName="${file}"`,
    `conf.scriptGenericFileName="${file}"`,
    'conf.scriptsLocation=""',
    'conf.scriptsTransferProtocol="tftp"',
    `conf.scriptsTransferSrvHostname="127.0.0.1:${ports.tftp}"`,
    'conf.scriptsAllowRepeatedExecution="disable"',
    'conf.scriptsTransferOnRestartEnable="enable"',
    'reboot',
  ];
  const withoutDate = (s: string) => s.replace(/Generated by Centralino on .*/, '');
  const download = async (id: number) =>
    Buffer.from((await get(`/api/devices/gateways/download/${id}`)).json(), 'base64').toString();
  /** Every SSH connection the push opened is closed again. */
  const allClosed = () => vi.waitFor(() => expect(peer.state.open).toBe(0), { timeout: 3000 });

  it('logs in as admin, sets the script transfer and reboots; the unit then fetches exactly its file', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/devices/gateways',
      headers: t.headers,
      payload: mediatrix,
    });
    expect(created.statusCode, created.body).toBe(200);
    const [gw] = (await get('/api/devices/gateways/list')).json();
    expect(gw).toMatchObject({ manufacturer: 'Mediatrix', isConfigured: true, isConnected: true, canPush: true });

    const res = await push();
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ status: true });
    expect(peer.state.logins).toEqual([{ method: 'password', username: 'admin', password: 'administrator' }]);
    expect(peer.state.pty).toBe(true);
    expect(peer.state.lines).toEqual(expectedLines());

    expect(await peer.state.restarted).toBeUndefined();
    expect(peer.state.fetched).toHaveLength(1);
    expect(peer.state.fetched[0]).toMatchObject({ host: '127.0.0.1', port: ports.tftp, file });
    const received = peer.state.fetched[0]?.body.toString() ?? '';
    expect(withoutDate(received)).toEqual(withoutDate(await download(gw.id)));
    expect(received).toContain('SipEp.UserAgent[EpId=Bri2].UserName="Mediatrix_010203_isdn_2"');
    expect(received).toContain('ConnectionType="PointToMultiPoint"');
    await allClosed();
  });

  it('answers a keyboard-interactive password prompt as well', async () => {
    peer.options.keyboardOnly = true;
    peer.state.lines = [];
    peer.state.logins = [];
    try {
      const res = await push();
      expect(res.statusCode, res.body).toBe(200);
      expect(peer.state.logins).toEqual([
        { method: 'keyboard-interactive', username: 'admin', password: 'administrator' },
      ]);
      expect(peer.state.lines).toEqual(expectedLines());
      expect(await peer.state.restarted).toBeUndefined();
      expect(peer.state.fetched).toHaveLength(2);
    } finally {
      peer.options.keyboardOnly = false;
    }
    await allClosed();
  });

  it('stops at a line the unit refuses: configuration error, no reboot, connection closed', async () => {
    peer.options.unknown = 'scriptsAllowRepeatedExecution';
    peer.state.lines = [];
    try {
      const body = expectError(await push(), 502, 'gateway_push_failed');
      expect(body.title).toBe('Configuration error');
      expect(body.detail).toContain('unknown parameter conf.scriptsAllowRepeatedExecution');
      expect(peer.state.lines).toEqual(expectedLines().slice(0, 6));
      expect(peer.state.fetched).toHaveLength(2);
    } finally {
      peer.options.unknown = undefined;
    }
    await allClosed();
  });

  it('says so when the unit refuses the factory login', async () => {
    peer.options.password = 'changed-by-the-installer';
    peer.state.lines = [];
    try {
      const en = expectError(await push(), 502, 'gateway_login_failed');
      expect(en.title).toBe('Gateway login refused');
      expect(en.detail).toContain('admin / administrator');
      const it = expectError(await push('it'), 502, 'gateway_login_failed');
      expect(it.title).toBe('Accesso al gateway rifiutato');
      expect(peer.state.lines).toEqual([]);
    } finally {
      peer.options.password = 'administrator';
    }
    await allClosed();
  });

  it('reports an unreachable unit as not connected', async () => {
    await peer.close();
    expectError(await push(), 409, 'gateway_not_connected');
    const [gw] = (await get('/api/devices/gateways/list')).json();
    expect(gw).toMatchObject({ isConnected: false, canPush: true });
  });
});
