import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { closeHttps, httpsPort, listenHttps, tlsFiles } from '../src/plugins/https-listener.ts';
import { useTestApp } from './helpers.ts';

/** The headers of a GET over TLS. */
function headersOverTls(port: number, ca: Buffer, urlPath: string) {
  return new Promise<Record<string, string | string[] | undefined>>((resolve, reject) => {
    https
      .get({ host: '127.0.0.1', port, path: urlPath, ca }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.headers));
      })
      .on('error', reject);
  });
}

describe('security headers', () => {
  const t = useTestApp('sqlite', { env: { TFTP_PORT: '0' } });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'centralino-headers-'));
  let server: Awaited<ReturnType<typeof listenHttps>> | undefined;
  afterAll(async () => {
    if (server) await closeHttps(server);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('forbids framing and sniffing on the console, the API, its errors and the phone files; no HSTS over plain HTTP', async () => {
    for (const [url, headers] of [
      ['/', {}],
      ['/api/health', {}],
      ['/api/users/false', {}],
      ['/api/users/false', t.headers],
      ['/provisioning/no-such-token/000000000000.cfg', {}],
    ] as const) {
      const res = await t.app.inject({ method: 'GET', url, headers });
      expect(res.headers['content-security-policy'], url).toContain("frame-ancestors 'none'");
      expect(res.headers['content-security-policy'], url).toContain("script-src 'self'");
      expect(res.headers['x-frame-options'], url).toBe('DENY');
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['referrer-policy'], url).toBe('no-referrer');
      expect(res.headers['strict-transport-security'], url).toBeUndefined();
    }
  });

  it('adds HSTS on the TLS listener', async () => {
    const tls = await tlsFiles({ dataDir });
    server = await listenHttps(t.app, { port: 0, host: '127.0.0.1', cert: tls.cert, key: tls.key });
    const headers = await headersOverTls(httpsPort(server), tls.cert, '/api/health');
    expect(headers['strict-transport-security']).toBe('max-age=31536000');
    expect(headers['x-frame-options']).toBe('DENY');
  });
});
