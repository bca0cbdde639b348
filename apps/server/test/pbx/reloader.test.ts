import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { AmiClient } from '../../src/pbx/ami/client.ts';
import { AmiParser, field } from '../../src/pbx/ami/framing.ts';
import { AmiReloader } from '../../src/pbx/engine.ts';
import { amiPeer } from '../support/ami-peer.ts';

/** The CLI answers of an Asterisk whose TLS transport and HTTPS listener did not load. */
const TRANSPORTS_WITHOUT_TLS = [
  'Transport:  <TransportId........>  <Type>  <cos>  <tos>  <BindAddress....................>',
  '==========================================================================================',
  '',
  'Transport:  transport-tcp             tcp      3     96  0.0.0.0:5060',
  'Transport:  transport-udp             udp      3     96  0.0.0.0:5060',
  'Transport:  transport-wss             wss      0      0  0.0.0.0:5060',
  '',
  'Objects found: 3',
];
const HTTP_WITHOUT_TLS = ['HTTP Server Status:', 'Prefix: ', 'Server Enabled and Bound to 127.0.0.1:8088', ''];

/** A second connection to the same peer as `ami`. */
function client(ami: AmiClient): AmiClient {
  const { port } = (ami as unknown as { options: { port: number } }).options;
  return new AmiClient({ host: '127.0.0.1', port, username: 'centralino', secret: 'right-secret' });
}

async function connected(command: (c: string) => string[]) {
  const peer = amiPeer({ secret: 'right-secret', command });
  const port = await peer.listen();
  const ami = new AmiClient({ host: '127.0.0.1', port, username: 'centralino', secret: 'right-secret' });
  ami.start();
  await new Promise<void>((resolve) => ami.once('ready', () => resolve()));
  return { peer, ami };
}

describe('AMI reloader: what Asterisk really runs after an apply', () => {
  it('names each transport and the WSS listener Asterisk did not create', async () => {
    const { peer, ami } = await connected((c) =>
      c === 'pjsip show transports' ? TRANSPORTS_WITHOUT_TLS : c === 'http show status' ? HTTP_WITHOUT_TLS : [],
    );
    try {
      const warnings = await new AmiReloader(ami, undefined, { wssPort: 8089 }).check();
      expect(warnings.map((w) => w('en'))).toEqual([
        expect.stringMatching(/^Asterisk did not create the SIP transport transport-tls: check that its certificate/),
        "Asterisk's HTTPS listener for web phones (WSS, port 8089) is not running: check its certificate and key (see its log)",
      ]);
      // An Italian console reads the same facts in Italian.
      expect(warnings.map((w) => w('it'))).toEqual([
        expect.stringMatching(/^Asterisk non ha creato il trasporto SIP transport-tls: controlla che il certificato/),
        'Il servizio HTTPS di Asterisk per i telefoni web (WSS, porta 8089) non è attivo: controlla il certificato e la chiave (vedi il suo log)',
      ]);
      expect(peer.commands()).toEqual(['pjsip show transports', 'http show status']);
    } finally {
      await ami.stop();
      await peer.close();
    }
  });

  it('names a trunk whose identify Asterisk dropped (its host did not resolve)', async () => {
    const { peer, ami } = await connected((c) =>
      c === 'pjsip show transports'
        ? [...TRANSPORTS_WITHOUT_TLS, 'Transport:  transport-tls             tls      3     96  0.0.0.0:5061']
        : c === 'http show status'
          ? [...HTTP_WITHOUT_TLS, 'HTTPS Server Enabled and Bound to 0.0.0.0:8089']
          : c === 'pjsip show identifies'
            ? [
                '',
                'Identify:  <Identify/Endpoint...........................................................>',
                '      Match:  <criteria.........................>',
                '==========================================================================================',
                '',
                'Identify:  first/first',
                '      Match: 10.228.172.11/32',
                '',
                'Objects found: 1',
              ]
            : [],
    );
    try {
      const reloader = new AmiReloader(ami, undefined, { wssPort: 8089 });
      const warnings = await reloader.check({
        identifies: [
          { trunk: 'first', host: 'sip.first.example' },
          { trunk: 'second', host: 'sip.nowhere.example' },
        ],
      });
      expect(warnings.map((w) => w('en'))).toEqual([
        'Asterisk did not load how it recognises calls from trunk second: check that its host sip.nowhere.example resolves (see its log); incoming calls from this provider are refused meanwhile',
      ]);
    } finally {
      await ami.stop();
      await peer.close();
    }
  });

  it('reports a restart request Asterisk answered instead of restarting', async () => {
    const { peer, ami } = await connected((c) =>
      c === 'pjsip show transports'
        ? [...TRANSPORTS_WITHOUT_TLS, 'Transport:  transport-tls             tls      3     96  0.0.0.0:5061']
        : c === 'http show status'
          ? [...HTTP_WITHOUT_TLS, 'HTTPS Server Enabled and Bound to 0.0.0.0:8089']
          : c === 'core show uptime seconds'
            ? ['System uptime: 3600']
            : ['No such command'],
    );
    try {
      const reloader = new AmiReloader(ami, undefined, { wssPort: 8089, connect: () => client(ami) });
      expect(await reloader.reload(['res_pjsip.so'], true)).toEqual(['res_pjsip.so']);
      expect(peer.commands()).toContain('core restart when convenient');
      expect((await reloader.check()).map((w) => w('en'))).toEqual([
        'Asterisk answered the restart request without restarting: No such command',
      ]);
    } finally {
      await ami.stop();
      await peer.close();
    }
  });

  it('lets Asterisk wait for the calls to end on a connection of its own, and sees the restart later', async () => {
    let uptime = 3600;
    const { peer, ami } = await connected((c) =>
      c === 'pjsip show transports'
        ? [...TRANSPORTS_WITHOUT_TLS, 'Transport:  transport-tls             tls      3     96  0.0.0.0:5061']
        : c === 'http show status'
          ? [...HTTP_WITHOUT_TLS, 'HTTPS Server Enabled and Bound to 0.0.0.0:8089']
          : [`System uptime: ${uptime}`, 'Last reload: 1'],
    );
    // Like Asterisk with calls up: logs in, and never answers the restart request.
    const commands: string[] = [];
    const sockets = new Set<net.Socket>();
    const blocked = net.createServer((socket) => {
      sockets.add(socket);
      socket.write('Asterisk Call Manager/9.0.0\r\n');
      const parser = new AmiParser();
      // The parser reads a banner first, as a client does; this side receives none.
      parser.feed('client\r\n');
      socket.on('data', (chunk) => {
        for (const m of parser.feed(chunk.toString())) {
          if (field(m, 'action')?.toLowerCase() === 'login') {
            socket.write(
              `Response: Success\r\nActionID: ${field(m, 'actionid')}\r\nMessage: Authentication accepted\r\n\r\n`,
            );
          } else commands.push(field(m, 'command') ?? '');
        }
      });
    });
    await new Promise<void>((resolve) => blocked.listen(0, '127.0.0.1', () => resolve()));
    const port = (blocked.address() as net.AddressInfo).port;
    const control = new AmiClient({ host: '127.0.0.1', port, username: 'centralino', secret: 'right-secret' });
    try {
      const reloader = new AmiReloader(ami, undefined, { wssPort: 8089, connect: () => control, restartStartMs: 100 });
      expect(await reloader.reload([], true)).toEqual([]);
      expect(commands).toEqual(['core restart when convenient']);
      // The main connection stays free for live state meanwhile.
      expect(await ami.command('core show uptime seconds')).toEqual(['System uptime: 3600', 'Last reload: 1']);
      expect((await reloader.check()).map((w) => w('en'))).toEqual([
        "Asterisk restarts once no call is up: changes to transports, modules or the web phones' listener wait for it",
      ]);
      // Another change needing a restart meanwhile: the request already waiting covers it.
      await reloader.reload([], true);
      expect(commands).toEqual(['core restart when convenient']);
      // The last call ended and Asterisk restarted: up for less time than since the restart was asked.
      uptime = 0;
      expect(await reloader.check()).toEqual([]);
      expect(peer.commands()).not.toContain('core restart when convenient');
    } finally {
      // The blocked session would not answer a Logoff either.
      for (const socket of sockets) socket.destroy();
      await control.stop();
      await ami.stop();
      await peer.close();
      await new Promise<void>((resolve) => blocked.close(() => resolve()));
    }
  });
});
