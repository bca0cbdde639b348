import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultServerHost, parseAddress, provisioningOrigin } from '../../src/provisioning/address.ts';
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
      res.end(req.url === '/provisioning/check/ping' ? '1700000000' : 'no');
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

  const https443 = (address: string) => provisioningOrigin(address, 'https', 'srv', { http: 8080, https: port });

  it('asks exactly the URL phones get, and trusts a valid certificate for its name', async () => {
    const result = await connectivityCheck(https443(`localhost:${port}`), '1700000000', {
      allowLoopback: true,
      ca: cert,
      timeoutMs: 2000,
    });
    expect(result).toEqual({
      is_reachable: true,
      valid_certificate: true,
      host_type: 'FQDN',
      url: `https://localhost:${port}/provisioning/check/ping`,
      provisioning_url: `https://localhost:${port}/provisioning/`,
      https_unavailable: false,
    });
    expect(pinged).toContain('/provisioning/check/ping');
    // Without a port in the address the console's own HTTPS listener is asked, not 443.
    expect((await connectivityCheck(https443('localhost'), '1700000000', { allowLoopback: true, ca: cert })).url).toBe(
      `https://localhost:${port}/provisioning/check/ping`,
    );
  });

  it('reports an untrusted certificate as reachable but invalid', async () => {
    expect(
      await connectivityCheck(https443('localhost'), '1700000000', { allowLoopback: true, timeoutMs: 2000 }),
    ).toMatchObject({
      is_reachable: true,
      valid_certificate: false,
      host_type: 'FQDN',
    });
    // The certificate names localhost, not the address.
    expect(
      await connectivityCheck(https443('127.0.0.1'), '1700000000', { allowLoopback: true, ca: cert }),
    ).toMatchObject({
      is_reachable: true,
      valid_certificate: false,
      host_type: 'IP',
      url: `https://127.0.0.1:${port}/provisioning/check/ping`,
    });
  });

  it('does not take another server answering on that address for this console', async () => {
    expect(await connectivityCheck(https443('localhost'), '42', { allowLoopback: true, ca: cert })).toMatchObject({
      is_reachable: false,
      failure: 'other_server',
    });
  });

  it('reports closed ports, silent servers and unknown names as unreachable, quickly, with the reason', async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as net.AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    expect(
      await connectivityCheck(https443(`127.0.0.1:${closedPort}`), undefined, { allowLoopback: true, timeoutMs: 1000 }),
    ).toMatchObject({
      is_reachable: false,
      failure: 'refused',
      url: `https://127.0.0.1:${closedPort}/provisioning/check/ping`,
    });
    const started = Date.now();
    expect(
      await connectivityCheck(https443(`127.0.0.1:${silentPort}`), undefined, { allowLoopback: true, timeoutMs: 500 }),
    ).toMatchObject({
      is_reachable: false,
      failure: 'timeout',
    });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(
      await connectivityCheck(https443('no-such-host.invalid'), undefined, { allowLoopback: true, timeoutMs: 1000 }),
    ).toMatchObject({
      is_reachable: false,
      failure: 'dns',
    });
  });
});

describe('provisioning address', () => {
  it('never gives phones a loopback address while the PBX address is empty, also when bound to one', () => {
    expect(defaultServerHost('10.0.0.5')).toBe('10.0.0.5');
    for (const bound of ['127.0.0.1', '0.0.0.0', undefined]) {
      expect(defaultServerHost(bound), String(bound)).not.toMatch(/^127\./);
    }
  });

  it('refuses a loopback address without asking it (the console would answer itself there)', async () => {
    const where = provisioningOrigin('127.0.0.1:9', 'http', 'srv', { http: 8080, https: null });
    expect(await connectivityCheck(where, undefined, { timeoutMs: 1000 })).toMatchObject({
      is_reachable: false,
      failure: 'loopback',
      url: 'http://127.0.0.1:9/provisioning/check/ping',
    });
  });

  it('accepts a host name or IPv4 address with an optional port, nothing else', () => {
    expect(parseAddress('pbx.example.com')).toEqual({ host: 'pbx.example.com', port: null });
    expect(parseAddress(' 10.0.0.5:8443 ')).toEqual({ host: '10.0.0.5', port: 8443 });
    for (const bad of ['', 'a b', 'http://x', '::1', 'x'.repeat(64), 'pbx:0', 'pbx:70000', 'pbx:', 'pbx:80:81']) {
      expect(parseAddress(bad), bad).toBeNull();
    }
  });

  it("names the console's own listener for the scheme, and no port when it is the scheme's default", () => {
    const listeners = { http: 8080, https: 8443 };
    expect(provisioningOrigin('', 'http', '192.0.2.2', listeners)).toMatchObject({
      origin: 'http://192.0.2.2:8080',
      host: '192.0.2.2',
      httpsUnavailable: false,
    });
    expect(provisioningOrigin('pbx.example.com', 'https', 'srv', listeners)).toMatchObject({
      origin: 'https://pbx.example.com:8443',
      authority: 'pbx.example.com:8443',
      host: 'pbx.example.com',
    });
    expect(provisioningOrigin('pbx.example.com', 'http', 'srv', { http: 80, https: null }).origin).toBe(
      'http://pbx.example.com',
    );
    // A port in the address is a proxy in front of the console: used as it is, with the chosen scheme.
    expect(provisioningOrigin('pbx.example.com:443', 'https', 'srv', { http: 8080, https: null })).toMatchObject({
      origin: 'https://pbx.example.com',
      host: 'pbx.example.com',
      httpsUnavailable: false,
    });
  });

  it('sends phones to the plain listener when encryption is on but there is no HTTPS listener', () => {
    expect(provisioningOrigin('10.0.0.5', 'https', 'srv', { http: 8080, https: null })).toEqual({
      scheme: 'http',
      host: '10.0.0.5',
      port: 8080,
      origin: 'http://10.0.0.5:8080',
      authority: '10.0.0.5:8080',
      httpsUnavailable: true,
    });
  });
});
