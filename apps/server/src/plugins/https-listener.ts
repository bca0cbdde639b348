import { execFile } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';

const run = promisify(execFile);

export interface TlsFiles {
  cert: Buffer;
  key: Buffer;
  certFile: string;
  /** True when this call made a self-signed certificate. */
  generated: boolean;
}

/**
 * The certificate for the HTTPS listener: the configured files, else a self-signed one kept in
 * DATA_DIR/tls (made once with Debian's openssl, valid 10 years, for this host's name and addresses),
 * so phones set to https provisioning can connect from the first start. Phones that check
 * certificates need a real one: set HTTPS_CERT and HTTPS_KEY.
 */
export async function tlsFiles(options: {
  certFile?: string;
  keyFile?: string;
  dataDir: string;
  hostName?: string;
}): Promise<TlsFiles> {
  if (options.certFile && options.keyFile) {
    return {
      cert: await fs.promises.readFile(options.certFile),
      key: await fs.promises.readFile(options.keyFile),
      certFile: options.certFile,
      generated: false,
    };
  }
  const dir = path.join(options.dataDir, 'tls');
  const certFile = path.join(dir, 'console.crt');
  const keyFile = path.join(dir, 'console.key');
  let generated = false;
  if (!fs.existsSync(certFile) || !fs.existsSync(keyFile)) {
    await fs.promises.mkdir(dir, { recursive: true, mode: 0o700 });
    const host = (options.hostName ?? os.hostname()).replace(/[^A-Za-z0-9.-]/g, '') || 'localhost';
    const addresses = Object.values(os.networkInterfaces())
      .flat()
      .filter((a) => a && a.family === 'IPv4')
      .map((a) => `IP:${a?.address}`);
    const names = [...new Set([`DNS:${host}`, 'DNS:localhost', 'IP:127.0.0.1', ...addresses])];
    // Written under temporary names and renamed, so a crash never leaves a key without its certificate.
    const tmpCert = `${certFile}.${process.pid}.tmp`;
    const tmpKey = `${keyFile}.${process.pid}.tmp`;
    try {
      await run('openssl', [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-sha256',
        '-days',
        '3650',
        '-subj',
        `/CN=${host}`,
        '-addext',
        `subjectAltName=${names.join(',')}`,
        '-keyout',
        tmpKey,
        '-out',
        tmpCert,
      ]);
    } catch (error) {
      throw new Error(
        `Could not make a self-signed certificate with openssl (${(error as Error).message}); set HTTPS_CERT and HTTPS_KEY`,
      );
    }
    await fs.promises.chmod(tmpKey, 0o600);
    await fs.promises.rename(tmpKey, keyFile);
    await fs.promises.rename(tmpCert, certFile);
    generated = true;
  }
  return {
    cert: await fs.promises.readFile(certFile),
    key: await fs.promises.readFile(keyFile),
    certFile,
    generated,
  };
}

/**
 * Serves the same application over TLS on a second port: requests go through Fastify's own router,
 * so every route, hook and the authentication behave exactly as on the plain listener. The caller
 * closes it (closeHttps) before closing the app.
 */
export async function listenHttps(
  app: FastifyInstance,
  options: { port: number; host: string; cert: Buffer; key: Buffer },
): Promise<https.Server> {
  await app.ready();
  const server = https.createServer({ cert: options.cert, key: options.key }, (req, res) => app.routing(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}

export async function closeHttps(server: https.Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

export function httpsPort(server: https.Server): number {
  return (server.address() as AddressInfo).port;
}
