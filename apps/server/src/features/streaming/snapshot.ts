import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import os from 'node:os';
import type { UiLanguage } from '@centralino/contract';

/**
 * The streaming sources' Check (contract api-admin §7.5, with §12 #32 fixed): fetches one snapshot from a
 * camera through the server, safely. Only http(s); one overall deadline; at most `maxBytes`; no redirect
 * followed; the answer must say it is an image and its first bytes must be a JPEG, PNG, GIF, WebP or BMP.
 * The server's own addresses (loopback, its interfaces), unspecified, link-local (which holds the clouds'
 * metadata service), multicast and the known metadata addresses are refused unless the URL's host, or the
 * address it resolves to, is in `allowedHosts`: cameras on the LAN (private addresses) need no entry. The
 * address checked is the address connected to (the lookup is ours), so a name cannot resolve to an allowed
 * address for the check and to another for the connection.
 */

export type SnapshotFailure =
  | 'refused'
  | 'resolve'
  | 'connect'
  | 'timeout'
  | 'status'
  | 'redirect'
  | 'not_image'
  | 'too_large'
  | 'tls';

export class SnapshotError extends Error {
  constructor(
    readonly kind: SnapshotFailure,
    readonly detail = '',
  ) {
    super(`${kind}${detail ? `: ${detail}` : ''}`);
  }

  reason(lang: UiLanguage): string {
    const it = lang === 'it';
    switch (this.kind) {
      case 'refused':
        return it
          ? `L'indirizzo ${this.detail} è del server stesso, link-local o di un servizio di metadati: il server non lo legge (un amministratore può consentire l'host con STREAMING_ALLOWED_HOSTS).`
          : `The address ${this.detail} is the server's own, link-local or a metadata service: the server does not fetch from it (an administrator may allow the host with STREAMING_ALLOWED_HOSTS).`;
      case 'resolve':
        return it
          ? `Il nome ${this.detail} non si risolve in un indirizzo.`
          : `The name ${this.detail} does not resolve.`;
      case 'connect':
        return it ? `La sorgente non risponde (${this.detail}).` : `The source does not answer (${this.detail}).`;
      case 'timeout':
        return it
          ? `La sorgente non ha mandato l'immagine entro ${this.detail} secondi.`
          : `The source did not send the image within ${this.detail} seconds.`;
      case 'status':
        return it
          ? `La sorgente ha risposto con lo stato HTTP ${this.detail}.`
          : `The source answered HTTP status ${this.detail}.`;
      case 'redirect':
        return it
          ? `La sorgente rimanda a un altro indirizzo (${this.detail}): usa direttamente quello dell'immagine.`
          : `The source redirects elsewhere (${this.detail}): use the image's own address.`;
      case 'not_image':
        return it
          ? `La sorgente non ha mandato un'immagine JPEG, PNG, GIF, WebP o BMP (${this.detail}).`
          : `The source did not send a JPEG, PNG, GIF, WebP or BMP image (${this.detail}).`;
      case 'too_large':
        return it
          ? `L'immagine supera il limite di ${this.detail} MB.`
          : `The image is larger than the limit of ${this.detail} MB.`;
      case 'tls':
        return it
          ? `La connessione sicura non è riuscita (${this.detail}).`
          : `The secure connection failed (${this.detail}).`;
    }
  }
}

const refusedRanges = new net.BlockList();
refusedRanges.addSubnet('0.0.0.0', 8, 'ipv4');
refusedRanges.addSubnet('127.0.0.0', 8, 'ipv4');
refusedRanges.addSubnet('169.254.0.0', 16, 'ipv4');
refusedRanges.addSubnet('224.0.0.0', 4, 'ipv4');
refusedRanges.addSubnet('240.0.0.0', 4, 'ipv4');
refusedRanges.addAddress('100.100.100.200', 'ipv4'); // Alibaba Cloud's metadata service
refusedRanges.addAddress('::', 'ipv6');
refusedRanges.addAddress('::1', 'ipv6');
refusedRanges.addSubnet('fe80::', 10, 'ipv6');
refusedRanges.addSubnet('ff00::', 8, 'ipv6');
refusedRanges.addAddress('fd00:ec2::254', 'ipv6'); // AWS's metadata service over IPv6

/** An IPv4 address inside an IPv4-mapped IPv6 one (::ffff:127.0.0.1), else the address itself. */
function unmapped(address: string): string {
  const match = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return match?.[1] ?? address;
}

function ownAddresses(): Set<string> {
  const out = new Set<string>();
  for (const list of Object.values(os.networkInterfaces())) {
    for (const entry of list ?? []) out.add(entry.address.toLowerCase().replace(/%.*$/, ''));
  }
  return out;
}

/** True when the server must not connect to this address (see the module's comment). */
export function isRefusedAddress(address: string): boolean {
  const plain = unmapped(address.toLowerCase().replace(/%.*$/, ''));
  const family = net.isIP(plain);
  if (family === 0) return true;
  if (refusedRanges.check(plain, family === 4 ? 'ipv4' : 'ipv6')) return true;
  return ownAddresses().has(plain);
}

type Image = { contentType: string; bytes: Buffer };

/** The image type of the first bytes, or undefined when they are none of the accepted ones. */
export function sniffImage(bytes: Buffer): string | undefined {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'image/png';
  if (bytes.length >= 6 && /^GIF8[79]a$/.test(bytes.subarray(0, 6).toString('latin1'))) return 'image/gif';
  if (
    bytes.length >= 12 &&
    bytes.subarray(0, 4).toString('latin1') === 'RIFF' &&
    bytes.subarray(8, 12).toString('latin1') === 'WEBP'
  )
    return 'image/webp';
  if (bytes.length >= 2 && bytes.subarray(0, 2).toString('latin1') === 'BM') return 'image/bmp';
  return undefined;
}

export interface SnapshotOptions {
  timeoutMs: number;
  maxBytes: number;
  /** Lower-case host names or addresses that may be reached although refused by address. */
  allowedHosts: readonly string[];
}

/** Fetches the image at `rawUrl` (already checked to be an http(s) URL) under the rules above. */
export function fetchSnapshot(rawUrl: string, options: SnapshotOptions): Promise<Image> {
  const url = new URL(rawUrl);
  const host = url.hostname.toLowerCase().replace(/^\[|\]$/g, '');
  const allowed = new Set(options.allowedHosts);
  const hostAllowed = allowed.has(host);
  const check = (address: string) => !hostAllowed && !allowed.has(unmapped(address)) && isRefusedAddress(address);

  if (net.isIP(host) !== 0 && check(host)) return Promise.reject(new SnapshotError('refused', host));

  const lookup: net.LookupFunction = (hostname, lookupOptions, callback) => {
    dns.lookup(hostname, { all: true }, (error, addresses) => {
      if (error || addresses.length === 0) {
        callback(new SnapshotError('resolve', hostname), '', 4);
        return;
      }
      const refused = addresses.find((a) => check(a.address));
      if (refused) {
        callback(new SnapshotError('refused', refused.address), '', 4);
        return;
      }
      if ((lookupOptions as { all?: boolean }).all) {
        (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, addresses);
      } else {
        const first = addresses[0] as dns.LookupAddress;
        callback(null, first.address, first.family);
      }
    });
  };

  return new Promise<Image>((resolve, reject) => {
    let settled = false;
    const finish = (error: Error | undefined, image?: Image) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) reject(error);
      else resolve(image as Image);
    };
    const client = url.protocol === 'https:' ? https : http;
    const request = client.request(
      url,
      {
        method: 'GET',
        lookup,
        headers: { accept: 'image/*', 'user-agent': 'Centralino snapshot check' },
        ...(url.username ? { auth: `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}` } : {}),
      },
      (response) => {
        const status = response.statusCode ?? 0;
        if (status >= 300 && status < 400) {
          response.resume();
          finish(new SnapshotError('redirect', String(response.headers.location ?? status)));
          return;
        }
        if (status !== 200) {
          response.resume();
          finish(new SnapshotError('status', String(status)));
          return;
        }
        const declared = String(response.headers['content-type'] ?? '').toLowerCase();
        if (!declared.startsWith('image/')) {
          response.destroy();
          finish(new SnapshotError('not_image', declared || 'no content type'));
          return;
        }
        const length = Number(response.headers['content-length'] ?? 0);
        const limitMb = String(Math.round(options.maxBytes / 1024 / 1024));
        if (length > options.maxBytes) {
          response.destroy();
          finish(new SnapshotError('too_large', limitMb));
          return;
        }
        const chunks: Buffer[] = [];
        let total = 0;
        response.on('data', (chunk: Buffer) => {
          total += chunk.length;
          if (total > options.maxBytes) {
            response.destroy();
            finish(new SnapshotError('too_large', limitMb));
            return;
          }
          chunks.push(chunk);
        });
        response.on('error', (error) => finish(new SnapshotError('connect', error.message)));
        response.on('end', () => {
          const bytes = Buffer.concat(chunks);
          const contentType = sniffImage(bytes);
          if (!contentType) finish(new SnapshotError('not_image', declared));
          else finish(undefined, { contentType, bytes });
        });
      },
    );
    const timer = setTimeout(() => {
      finish(new SnapshotError('timeout', String(Math.round(options.timeoutMs / 1000))));
      request.destroy();
    }, options.timeoutMs);
    request.on('error', (error: Error & { code?: string }) => {
      if (error instanceof SnapshotError) finish(error);
      else if (error.code && /CERT|SSL|TLS|SELF_SIGNED/i.test(error.code)) finish(new SnapshotError('tls', error.code));
      else finish(new SnapshotError('connect', error.code ?? error.message));
    });
    request.end();
  });
}
