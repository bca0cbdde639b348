import dns from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { ConnectivityCheckResult } from '@centralino/contract';
import { AppError } from '../errors.ts';

const FQDN =
  /^(?=.{1,253}$)([a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)(\.[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

export interface ConnectivityOptions {
  /** Whole-check budget per attempt in milliseconds. */
  timeoutMs?: number;
  /** Port to try instead of 443/80 (tests). */
  port?: number;
  /** Extra CA certificates to trust (tests). */
  ca?: string | Buffer;
}

function request(
  scheme: 'http' | 'https',
  address: string,
  servername: string | undefined,
  port: number,
  verify: boolean,
  options: ConnectivityOptions,
): Promise<{ ok: boolean; error?: string }> {
  return new Promise((resolve) => {
    const lib = scheme === 'https' ? https : http;
    const req = lib.request(
      {
        host: address,
        port,
        path: '/provisioning/check/ping',
        method: 'GET',
        timeout: options.timeoutMs ?? 4000,
        headers: { host: servername ?? address, 'user-agent': 'Centralino connectivity check' },
        ...(scheme === 'https'
          ? {
              rejectUnauthorized: verify,
              servername: servername && !net.isIP(servername) ? servername : undefined,
              ca: options.ca,
            }
          : {}),
        agent: false,
      },
      (res) => {
        res.resume();
        resolve({ ok: true });
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (error) => resolve({ ok: false, error: error.message }));
    req.end();
  });
}

/**
 * Can phones reach this PBX at `host`? Resolves the name, then asks for /provisioning/check/ping over the
 * scheme; any HTTP answer counts as reachable. For https the certificate is then checked for real (chain and
 * host name). The original product's current version always answered "reachable, valid".
 */
export async function connectivityCheck(
  host: string,
  scheme: 'http' | 'https',
  options: ConnectivityOptions = {},
): Promise<ConnectivityCheckResult> {
  const trimmed = host.trim();
  const ipVersion = net.isIP(trimmed);
  if (ipVersion === 6 || (ipVersion === 0 && !FQDN.test(trimmed))) {
    throw new AppError(400, 'prov_invalid_host', undefined, { host: 'not an IPv4 address or host name' });
  }
  const hostType = ipVersion === 4 ? 'IP' : 'FQDN';
  let address = trimmed;
  if (hostType === 'FQDN') {
    try {
      const lookup = dns.lookup(trimmed, { family: 4 });
      const timeout = new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error('timeout')), options.timeoutMs ?? 4000).unref(),
      );
      address = (await Promise.race([lookup, timeout])).address;
    } catch {
      return { is_reachable: false, valid_certificate: false, host_type: hostType };
    }
  }
  const port = options.port ?? (scheme === 'https' ? 443 : 80);
  const reachable = await request(scheme, address, trimmed, port, false, options);
  if (!reachable.ok) return { is_reachable: false, valid_certificate: false, host_type: hostType };
  if (scheme === 'http') return { is_reachable: true, valid_certificate: true, host_type: hostType };
  const verified = await request(scheme, address, trimmed, port, true, options);
  return { is_reachable: true, valid_certificate: verified.ok, host_type: hostType };
}
