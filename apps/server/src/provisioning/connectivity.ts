import dns from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { ConnectivityCheckResult, ConnectivityFailure, UiLanguage } from '@centralino/contract';
import { AppError } from '../errors.ts';
import { isLoopback, type ProvisioningOrigin } from './address.ts';

/** The path the check asks for under the provisioning URL (contract §4.1: answers this installation's mark). */
export const PING_PATH = '/provisioning/check/ping';

export interface ConnectivityOptions {
  /** Whole-check budget per attempt in milliseconds. */
  timeoutMs?: number;
  /** Extra CA certificates to trust (tests). */
  ca?: string | Buffer;
  /**
   * Try loopback addresses too (tests of the check itself). Otherwise a loopback address is refused without a
   * request: the console would answer itself there, but no phone can ever reach it.
   */
  allowLoopback?: boolean;
}

type Attempt = { ok: true; body: string; status: number } | { ok: false; reason: ConnectivityFailure };

function failure(error: NodeJS.ErrnoException): ConnectivityFailure {
  if (error.message === 'timeout' || error.code === 'ETIMEDOUT') return 'timeout';
  if (error.code === 'ECONNREFUSED') return 'refused';
  if (error.code === 'EHOSTUNREACH' || error.code === 'ENETUNREACH') return 'unreachable';
  if (error.code?.startsWith('ERR_SSL') || error.code?.startsWith('EPROTO') || /TLS|SSL/i.test(error.message)) {
    return 'tls';
  }
  return 'error';
}

function request(
  where: ProvisioningOrigin,
  address: string,
  verify: boolean,
  options: ConnectivityOptions,
): Promise<Attempt> {
  return new Promise((resolve) => {
    const lib = where.scheme === 'https' ? https : http;
    const req = lib.request(
      {
        host: address,
        port: where.port ?? (where.scheme === 'https' ? 443 : 80),
        path: PING_PATH,
        method: 'GET',
        timeout: options.timeoutMs ?? 4000,
        headers: { host: where.authority, 'user-agent': 'Centralino connectivity check' },
        ...(where.scheme === 'https'
          ? {
              rejectUnauthorized: verify,
              servername: net.isIP(where.host) ? undefined : where.host,
              ca: options.ca,
            }
          : {}),
        agent: false,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          if (body.length < 1024) body += chunk;
        });
        res.on('end', () => resolve({ ok: true, body: body.trim(), status: res.statusCode ?? 0 }));
        res.on('error', (error) => resolve({ ok: false, reason: failure(error) }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (error) => resolve({ ok: false, reason: failure(error) }));
    req.end();
  });
}

/**
 * Do phones reach this PBX at the provisioning URL they are given? Resolves the host, then asks for
 * /provisioning/check/ping on exactly that scheme, host and port. Only this installation's own answer
 * (`expected`, when given) counts as reachable, so another server on that address does not pass. For https
 * the certificate is then checked for real (chain and host name). The original product's current version
 * always answered "reachable, valid"; its older one tried ports 80/443 whatever the console listened on.
 */
export async function connectivityCheck(
  where: ProvisioningOrigin,
  expected: string | undefined,
  options: ConnectivityOptions = {},
): Promise<ConnectivityCheckResult> {
  const hostType = net.isIP(where.host) ? 'IP' : 'FQDN';
  const url = `${where.origin}${PING_PATH}`;
  const base = {
    host_type: hostType,
    url,
    provisioning_url: `${where.origin}/provisioning/`,
    https_unavailable: where.httpsUnavailable,
  } as const;
  const unreachable = (reason: ConnectivityFailure): ConnectivityCheckResult => ({
    ...base,
    is_reachable: false,
    valid_certificate: false,
    failure: reason,
  });
  let address = where.host;
  if (hostType === 'FQDN') {
    try {
      const lookup = dns.lookup(where.host, { family: 4 });
      const timeout = new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error('timeout')), options.timeoutMs ?? 4000).unref(),
      );
      address = (await Promise.race([lookup, timeout])).address;
    } catch {
      return unreachable('dns');
    }
  }
  if (isLoopback(address) && !options.allowLoopback) return unreachable('loopback');
  const reached = await request(where, address, false, options);
  if (!reached.ok) return unreachable(reached.reason);
  if (reached.status !== 200 || (expected !== undefined && reached.body !== expected)) {
    return unreachable('other_server');
  }
  if (where.scheme === 'http') return { ...base, is_reachable: true, valid_certificate: true };
  const verified = await request(where, address, true, options);
  return { ...base, is_reachable: true, valid_certificate: verified.ok };
}

const REASONS: Record<UiLanguage, Record<ConnectivityFailure, string>> = {
  en: {
    dns: 'the name does not resolve',
    refused: 'nothing listens on that port',
    timeout: 'no answer in time',
    unreachable: 'no route to that address',
    tls: 'the secure connection failed',
    other_server: 'something else answered there, not this console',
    error: 'the request failed',
    loopback: 'it is this machine’s loopback address, which no phone can reach',
  },
  it: {
    dns: 'il nome non si risolve',
    refused: 'nessun servizio in ascolto su quella porta',
    timeout: 'nessuna risposta in tempo',
    unreachable: 'nessun percorso verso quell’indirizzo',
    tls: 'la connessione sicura non è riuscita',
    other_server: 'ha risposto un altro servizio, non questa console',
    error: 'la richiesta non è riuscita',
    loopback: 'è l’indirizzo di loopback di questa macchina, che nessun telefono può raggiungere',
  },
};

/** The refusal of an address that failed the check, naming the URL tried and why (en + it). */
export function unreachableAddress(result: ConnectivityCheckResult): AppError {
  const reason = result.failure ?? 'error';
  return new AppError(
    400,
    'prov_unreachable_address',
    (lang) =>
      lang === 'it'
        ? `L'indirizzo del PBX non è raggiungibile: la prova su ${result.url} non è riuscita (${REASONS.it[reason]}). ` +
          `I telefoni scaricherebbero la configurazione da ${result.provisioning_url}.`
        : `The PBX address is not reachable: the test request to ${result.url} failed (${REASONS.en[reason]}). ` +
          `Phones would fetch their files from ${result.provisioning_url}.`,
    { hostname: result.url },
  );
}
