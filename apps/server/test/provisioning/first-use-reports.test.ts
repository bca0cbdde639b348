import dgram from 'node:dgram';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { listenForFirstUse } from '../../src/provisioning/first-use-reports.ts';
import { freeUdpPort } from '../support/nginx.ts';

const send = async (port: number, from: string, message: string) => {
  const socket = dgram.createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, from, resolve));
  await new Promise<void>((resolve, reject) =>
    socket.send(message, port, '127.0.0.1', (error) => (error ? reject(error) : resolve())),
  );
  socket.close();
};

describe("the front web server's reports of first steady-state fetches", () => {
  it('takes the token from an nginx syslog line sent from this host, and nothing else', async () => {
    const port = await freeUdpPort();
    const tokens: string[] = [];
    const reports = await listenForFirstUse(port, (t) => tokens.push(t), pino({ level: 'silent' }));
    try {
      const tok2 = '0123456789abcdef0123456789abcdef';
      // Another address (Linux answers all of 127/8): a report retires a token, so only the front server may send one.
      await send(port, '127.0.0.2', `<190>Nov 27 07:31:02 centralino: /provisioning-first/${tok2}/phone.cfg`);
      // Not a first fetch, and not a path at all.
      await send(port, '127.0.0.1', `<190>Nov 27 07:31:02 centralino: /provisioning/${tok2}/phone.cfg`);
      await send(port, '127.0.0.1', '<190>Nov 27 07:31:02 centralino: /provisioning-first/../x');
      await send(port, '127.0.0.1', `<190>Nov 27 07:31:03 centralino: /provisioning-first/${tok2}/phone.cfg`);
      for (let i = 0; i < 100 && tokens.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
      await new Promise((r) => setTimeout(r, 50));
      expect(tokens).toEqual([tok2]);
    } finally {
      await reports.close();
    }
  });
});
