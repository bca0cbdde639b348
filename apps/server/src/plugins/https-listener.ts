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
  const pair = await selfSignedPair({
    dir: path.join(options.dataDir, 'tls'),
    name: 'console',
    hostName: options.hostName,
  }).catch((error: Error) => {
    throw new Error(`${error.message}; set HTTPS_CERT and HTTPS_KEY`);
  });
  return {
    cert: await fs.promises.readFile(pair.certFile),
    key: await fs.promises.readFile(pair.keyFile),
    certFile: pair.certFile,
    generated: pair.generated,
  };
}

/**
 * A self-signed certificate and key `<dir>/<name>.crt` and `.key`, made once with openssl (valid 10
 * years, for this host's name and addresses) and kept. Given a group id (the group Asterisk runs as),
 * the directory is 0750 and the key 0640, owned by that group; otherwise 0700 and 0600.
 */
export async function selfSignedPair(options: {
  dir: string;
  name: string;
  hostName?: string;
  gid?: number | null;
}): Promise<{ certFile: string; keyFile: string; generated: boolean }> {
  const { dir } = options;
  const gid = options.gid ?? null;
  const certFile = path.join(dir, `${options.name}.crt`);
  const keyFile = path.join(dir, `${options.name}.key`);
  let generated = false;
  if (!fs.existsSync(certFile) || !fs.existsSync(keyFile)) {
    await fs.promises.mkdir(dir, { recursive: true, mode: gid === null ? 0o700 : 0o750 });
    // Whatever the umask (the server's is 0077): Asterisk's group must read its keys folder.
    await fs.promises.chmod(dir, gid === null ? 0o700 : 0o750);
    if (gid !== null) await fs.promises.chown(dir, -1, gid);
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
      throw new Error(`Could not make a self-signed certificate with openssl (${(error as Error).message})`);
    }
    if (gid !== null) {
      await fs.promises.chown(tmpKey, -1, gid);
      await fs.promises.chown(tmpCert, -1, gid);
    }
    await fs.promises.chmod(tmpKey, gid === null ? 0o600 : 0o640);
    await fs.promises.chmod(tmpCert, 0o644);
    await fs.promises.rename(tmpKey, keyFile);
    await fs.promises.rename(tmpCert, certFile);
    generated = true;
  }
  return { certFile, keyFile, generated };
}

/**
 * Serves the same application over TLS on a second port: requests go through Fastify's own router
 * (after the phone files it answers from memory, as the plain listener does), so every route, hook
 * and the authentication behave exactly as on the plain listener. The caller
 * closes it (closeHttps) before closing the app.
 */
export async function listenHttps(
  app: FastifyInstance,
  options: { port: number; host: string; cert: Buffer; key: Buffer },
): Promise<https.Server> {
  await app.ready();
  const server = https.createServer({ cert: options.cert, key: options.key }, (req, res) => {
    if (!app.phoneFront(req, res)) app.routing(req, res);
  });
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
