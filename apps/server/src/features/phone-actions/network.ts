import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';

/** IPv4 arithmetic, the server's own networks, the kernel neighbour table and a bounded TCP probe. */

export function ipToInt(ip: string): number {
  return ip.split('.').reduce((acc, part) => acc * 256 + Number(part), 0);
}

export function intToIp(value: number): string {
  return [value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255].join('.');
}

export interface Range {
  first: number;
  last: number;
}

/** The block `ip/prefix` belongs to (network and broadcast addresses included). */
export function rangeOf(ip: string, prefix: number): Range {
  const size = 2 ** (32 - prefix);
  const first = Math.floor(ipToInt(ip) / size) * size;
  return { first, last: first + size - 1 };
}

function prefixOfMask(netmask: string): number {
  return ipToInt(netmask).toString(2).replace(/0+$/, '').length;
}

export interface LocalAddress {
  iface: string;
  address: string;
  range: Range;
}

/** Every IPv4 address of the server with the block of its interface (loopback included). */
export function localAddresses(
  interfaces: NodeJS.Dict<os.NetworkInterfaceInfo[]> = os.networkInterfaces(),
): LocalAddress[] {
  const out: LocalAddress[] = [];
  for (const [iface, list] of Object.entries(interfaces)) {
    for (const a of list ?? []) {
      if (a.family !== 'IPv4') continue;
      out.push({ iface, address: a.address, range: rangeOf(a.address, prefixOfMask(a.netmask)) });
    }
  }
  return out;
}

/** Whether a range overlaps the block of one of the server's interfaces. */
export function isLocal(range: Range, locals: readonly LocalAddress[]): boolean {
  return locals.some((l) => l.range.first <= range.last && range.first <= l.range.last);
}

/**
 * Addresses worth probing: every host address of the block, without the network and broadcast
 * addresses (blocks of /31 and /32 have none) and without the server's own addresses.
 */
export function hostsOf(range: Range, own: ReadonlySet<string>): string[] {
  const size = range.last - range.first + 1;
  const first = size > 2 ? range.first + 1 : range.first;
  const last = size > 2 ? range.last - 1 : range.last;
  const out: string[] = [];
  for (let v = first; v <= last; v++) {
    const ip = intToIp(v);
    if (!own.has(ip)) out.push(ip);
  }
  return out;
}

/** ATF_COM of the kernel: the entry holds a resolved hardware address. */
const ATF_COM = 0x2;

/**
 * Parses the kernel neighbour table as /proc/net/arp prints it:
 * `IP address  HW type  Flags  HW address  Mask  Device`. Answers IPv4 → upper-case colon MAC for the
 * complete entries only; incomplete ones (a host that never answered) carry an all-zero address.
 */
export function parseNeighbours(text: string): Map<string, { mac: string; iface: string }> {
  const out = new Map<string, { mac: string; iface: string }>();
  for (const line of text.split('\n').slice(1)) {
    const [ip, , flags, mac, , iface] = line.trim().split(/\s+/);
    if (!ip || !flags || !mac || !iface) continue;
    if ((Number.parseInt(flags, 16) & ATF_COM) === 0) continue;
    if (!/^[0-9a-f]{2}(:[0-9a-f]{2}){5}$/i.test(mac) || /^(00:){5}00$/.test(mac)) continue;
    out.set(ip, { mac: mac.toUpperCase(), iface });
  }
  return out;
}

export async function readNeighbours(file = '/proc/net/arp'): Promise<Map<string, { mac: string; iface: string }>> {
  try {
    return parseNeighbours(await fs.readFile(file, 'utf8'));
  } catch {
    // Not Linux (or no procfs): no MACs can be told, so no device is found.
    return new Map();
  }
}

/**
 * Opens a TCP connection to `ip:port` and gives up after `timeoutMs`. Answers true when the host
 * answered at all (accepted or refused). Either way the attempt makes the kernel resolve the host's
 * MAC on a local segment, which is what the scan reads afterwards.
 */
export function probe(ip: string, port: number, timeoutMs: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve(false);
      return;
    }
    const socket = net.connect({ host: ip, port });
    const done = (answered: boolean) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      socket.destroy();
      resolve(answered);
    };
    const onAbort = () => done(false);
    const timer = setTimeout(() => done(false), timeoutMs);
    signal.addEventListener('abort', onAbort, { once: true });
    socket.once('connect', () => done(true));
    socket.once('error', (error: NodeJS.ErrnoException) => done(error.code === 'ECONNREFUSED'));
  });
}

/** Runs `work` on every item with at most `limit` at a time; stops starting new ones once aborted. */
export async function eachLimited<T>(
  items: readonly T[],
  limit: number,
  signal: AbortSignal,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length && !signal.aborted) {
      const item = items[next++] as T;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
