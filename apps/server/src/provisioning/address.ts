import net from 'node:net';
import os from 'node:os';

/** Ports this console serves phone files on: the plain HTTP listener, and the HTTPS one when enabled. */
export interface Listeners {
  http: number;
  /** Null when HTTPS_PORT is 0 (no HTTPS listener). */
  https: number | null;
}

/** Where phones fetch their files: the scheme, host and port of a listener that serves them. */
export interface ProvisioningOrigin {
  scheme: 'http' | 'https';
  /** Host name or IPv4 address, without port: also the SIP server of the phones. */
  host: string;
  /** Null when it is the scheme's default (80, 443): the URL then names no port. */
  port: number | null;
  /** `scheme://host[:port]`. */
  origin: string;
  /** `host[:port]`, for phones that take the server and the path apart (Fanvil). */
  authority: string;
  /**
   * Encryption is on but this console has no HTTPS listener and the address names no port of a proxy in
   * front: phones are sent to the plain HTTP listener instead (the only one that serves the files).
   */
  httpsUnavailable: boolean;
}

const LABEL = '[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?';
const NAME = new RegExp(`^(?=.{1,253}$)${LABEL}(\\.${LABEL})*$`);

/**
 * Parses a PBX address: a host name or IPv4 address, optionally with `:port` (a reverse proxy in front of the
 * console). Null when it is neither (IPv6 addresses are not accepted, as in the original product).
 */
export function parseAddress(value: string): { host: string; port: number | null } | null {
  const match = /^(.*?)(?::(\d{1,5}))?$/.exec(value.trim());
  if (!match) return null;
  const host = match[1] ?? '';
  const port = match[2] === undefined ? null : Number(match[2]);
  if (port !== null && (port < 1 || port > 65535)) return null;
  const ip = net.isIP(host);
  if (ip === 6 || (ip === 0 && !NAME.test(host))) return null;
  return { host, port };
}

/** 127.0.0.0/8 (IPv4 only: PBX addresses are host names or IPv4). */
export function isLoopback(address: string): boolean {
  return net.isIPv4(address) && address.startsWith('127.');
}

/**
 * The address phones are given while the PBX address setting is empty: the address the console is bound to
 * (HOST) when it is a specific one phones can reach, else this machine's first non-loopback IPv4 address (a short
 * host name rarely resolves on the phones' network), else its host name. A loopback HOST is never given to
 * phones: the check then says that phones cannot reach a console listening only there.
 */
export function defaultServerHost(bindHost?: string): string {
  // Bound to one address (HOST): that is the only one that serves the files.
  if (bindHost && net.isIPv4(bindHost) && bindHost !== '0.0.0.0' && !isLoopback(bindHost)) return bindHost;
  for (const addresses of Object.values(os.networkInterfaces())) {
    for (const address of addresses ?? []) {
      if (address.family === 'IPv4' && !address.internal) return address.address;
    }
  }
  return os.hostname();
}

/**
 * The provisioning origin for a PBX address and encryption choice. Without a port in the address the port is
 * this console's own listener for the scheme; `https` without an HTTPS listener falls back to the plain one.
 * `address` must be empty (the server's own address) or valid for parseAddress; an invalid one is used as a
 * host name as it is.
 */
export function provisioningOrigin(
  address: string | undefined,
  encryption: string | undefined,
  serverHost: string,
  listeners: Listeners,
): ProvisioningOrigin {
  const parsed = address?.trim() ? (parseAddress(address) ?? { host: address.trim(), port: null }) : null;
  const host = parsed?.host ?? serverHost;
  let scheme: 'http' | 'https' = encryption === 'https' ? 'https' : 'http';
  let port: number | null;
  let httpsUnavailable = false;
  if (parsed?.port) port = parsed.port;
  else if (scheme === 'https' && listeners.https === null) {
    scheme = 'http';
    port = listeners.http;
    httpsUnavailable = true;
  } else port = scheme === 'https' ? listeners.https : listeners.http;
  if (port === (scheme === 'https' ? 443 : 80)) port = null;
  const authority = port === null ? host : `${host}:${port}`;
  return { scheme, host, port, origin: `${scheme}://${authority}`, authority, httpsUnavailable };
}
