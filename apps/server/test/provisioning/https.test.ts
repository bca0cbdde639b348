import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { closeHttps, httpsPort, listenHttps, type TlsFiles, tlsFiles } from '../../src/plugins/https-listener.ts';
import { useTestApp } from '../helpers.ts';

const V1 = '/api/provisioning/v1';

/** A GET over TLS that checks the server certificate against `ca`, as a careful phone does. */
function get(port: number, ca: Buffer, urlPath: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = https.get({ host: '127.0.0.1', port, path: urlPath, ca, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
  });
}

describe('phone files and the console over HTTPS', () => {
  const t = useTestApp('sqlite', { env: { TFTP_PORT: '0' } });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'centralino-tls-'));
  let tls: TlsFiles;
  let server: Awaited<ReturnType<typeof listenHttps>> | undefined;
  let port = 0;
  afterAll(async () => {
    if (server) await closeHttps(server);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('makes a self-signed certificate once, with a private key only the owner reads', async () => {
    tls = await tlsFiles({ dataDir });
    expect(tls.generated).toBe(true);
    expect(tls.cert.toString()).toContain('BEGIN CERTIFICATE');
    expect(fs.statSync(path.join(dataDir, 'tls', 'console.key')).mode & 0o077).toBe(0);
    const again = await tlsFiles({ dataDir });
    expect(again.generated).toBe(false);
    expect(again.cert.equals(tls.cert)).toBe(true);
    server = await listenHttps(t.app, { port: 0, host: '127.0.0.1', cert: tls.cert, key: tls.key });
    port = httpsPort(server);
  });

  it('serves a phone its file with its account over TLS, and the API still asks for a login', async () => {
    const api = async (method: 'POST' | 'PATCH', url: string, payload: object) => {
      const res = await t.app.inject({ method, url, headers: t.headers, payload });
      expect(res.statusCode, res.body).toBeLessThan(300);
      return res.body ? res.json() : undefined;
    };
    await api('PATCH', `${V1}/defaults`, { hostname: 'pbx.example.com', ui_first_config: '' });
    const mac = '00-15-65-AA-BB-CD';
    const phone = await api('POST', `${V1}/phones`, { mac, model: 'yealink-T46' });
    await t.app.provisioning.setPhoneAccounts(mac, [
      { extension: '201', secret: 'Tls-Secret-201', displayName: 'Mario Rossi <201>', srtp: true, voicemail: '*97' },
    ]);
    const file = await get(port, tls.cert, `/provisioning/${phone.tok2}/001565aabbcd.cfg`, {
      'user-agent': 'Yealink SIP-T46S 66.86.0.15 00:15:65:aa:bb:cd',
    });
    expect(file.status).toBe(200);
    expect(file.body).toContain('account.1.user_name = 201');
    expect(file.body).toContain('account.1.password = Tls-Secret-201');

    expect((await get(port, tls.cert, '/api/health')).status).toBe(200);
    expect((await get(port, tls.cert, `${V1}/phones`)).status).toBe(401);
  });

  it('refuses a client that does not trust the certificate', async () => {
    await expect(get(port, Buffer.from(''), '/api/health')).rejects.toThrow();
  });
});
