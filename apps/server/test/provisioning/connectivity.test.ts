import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectivityCheck } from '../../src/provisioning/connectivity.ts';

/** A real HTTPS server with a fresh self-signed certificate for "localhost". */
describe('connectivity check', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'centralino-tls-'));
  let server: https.Server;
  let silent: net.Server;
  let port = 0;
  let silentPort = 0;
  let cert = '';
  const pinged: string[] = [];
  const sockets: net.Socket[] = [];

  beforeAll(async () => {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost',
        '-keyout',
        path.join(dir, 'key.pem'),
        '-out',
        path.join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    cert = fs.readFileSync(path.join(dir, 'cert.pem'), 'utf8');
    server = https.createServer({ key: fs.readFileSync(path.join(dir, 'key.pem')), cert }, (req, res) => {
      pinged.push(req.url ?? '');
      res.end('1700000000');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as net.AddressInfo).port;
    // Accepts connections and never answers: the check must give up on its own.
    silent = net.createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    silentPort = (silent.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent?.close(resolve));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('reaches the host and trusts a valid certificate for its name', async () => {
    const result = await connectivityCheck('localhost', 'https', { port, ca: cert, timeoutMs: 2000 });
    expect(result).toEqual({ is_reachable: true, valid_certificate: true, host_type: 'FQDN' });
    expect(pinged).toContain('/provisioning/check/ping');
  });

  it('reports an untrusted certificate as reachable but invalid', async () => {
    expect(await connectivityCheck('localhost', 'https', { port, timeoutMs: 2000 })).toEqual({
      is_reachable: true,
      valid_certificate: false,
      host_type: 'FQDN',
    });
    // The certificate names localhost, not the address.
    expect(await connectivityCheck('127.0.0.1', 'https', { port, ca: cert, timeoutMs: 2000 })).toEqual({
      is_reachable: true,
      valid_certificate: false,
      host_type: 'IP',
    });
  });

  it('reports closed ports, silent servers and unknown names as unreachable, quickly', async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as net.AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    expect(await connectivityCheck('127.0.0.1', 'https', { port: closedPort, timeoutMs: 1000 })).toMatchObject({
      is_reachable: false,
    });
    const started = Date.now();
    expect(await connectivityCheck('127.0.0.1', 'https', { port: silentPort, timeoutMs: 500 })).toMatchObject({
      is_reachable: false,
    });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(await connectivityCheck('no-such-host.invalid', 'https', { timeoutMs: 1000 })).toMatchObject({
      is_reachable: false,
    });
  });

  it('refuses what is neither an IPv4 address nor a host name', async () => {
    for (const host of ['', 'a b', 'http://x', '::1', 'x'.repeat(64)]) {
      await expect(connectivityCheck(host, 'https'), host).rejects.toMatchObject({
        statusCode: 400,
        code: 'prov_invalid_host',
      });
    }
  });
});
