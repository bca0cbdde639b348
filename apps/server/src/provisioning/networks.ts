import { type IpAddress, type IpNetwork, networkEntries, parseIpAddress, parseIpNetwork } from '@centralino/contract';

/** An IPv4-mapped IPv6 address (`::ffff:192.0.2.1`, as a dual-stack socket reports IPv4 peers) as IPv4. */
function unmapped(address: IpAddress): IpAddress {
  const b = address.bytes;
  if (address.family === 6 && b.slice(0, 10).every((x) => x === 0) && b[10] === 0xff && b[11] === 0xff) {
    return { family: 4, bytes: b.slice(12) };
  }
  return address;
}

function contains(network: IpNetwork, address: IpAddress): boolean {
  if (network.family !== address.family) return false;
  let bits = network.prefix;
  for (let i = 0; bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if (((network.bytes[i] as number) & mask) !== ((address.bytes[i] as number) & mask)) return false;
  }
  return true;
}

/** A list of networks (the defaults' TOKENLESS_NETWORKS_VARIABLE), parsed once. */
export class NetworkList {
  private constructor(
    readonly source: string,
    private readonly networks: IpNetwork[],
  ) {}

  /** Entries that are not networks are left out (the API refuses them, so only an old value could hold one). */
  static parse(source: string): NetworkList {
    const networks = networkEntries(source)
      .map((entry) => parseIpNetwork(entry))
      .filter((network): network is IpNetwork => network !== undefined)
      .map((network) => {
        // ::ffff:192.0.2.0/120 is 192.0.2.0/24: client addresses are compared unmapped.
        const plain = network.prefix >= 96 ? unmapped(network) : network;
        return plain.family === network.family ? network : { ...plain, prefix: network.prefix - 96 };
      });
    return new NetworkList(source, networks);
  }

  get empty(): boolean {
    return this.networks.length === 0;
  }

  /** Whether the client address (Fastify's request.ip) is in one of the networks. */
  has(ip: string): boolean {
    if (this.networks.length === 0) return false;
    const parsed = parseIpAddress(ip);
    if (!parsed) return false;
    const address = unmapped(parsed);
    return this.networks.some((network) => contains(network, address));
  }
}

/**
 * Whom a client address counts as for throttling: the IPv4 address itself, an IPv6 client's /64 (one host
 * usually holds a whole /64, and would otherwise get a fresh allowance per address).
 */
export function clientKey(ip: string): string {
  const parsed = parseIpAddress(ip);
  if (!parsed) return ip;
  const address = unmapped(parsed);
  if (address.family === 4) return address.bytes.join('.');
  const hex = address.bytes.slice(0, 8).map((b) => b.toString(16).padStart(2, '0'));
  return `${hex.join('')}::/64`;
}
