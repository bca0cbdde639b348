import { z } from 'zod';

/**
 * IPv4/IPv6 addresses and networks (CIDR) without node:net, so that the console checks a list with the very
 * schema the server applies.
 */
export interface IpAddress {
  family: 4 | 6;
  /** 4 or 16 bytes, network order. */
  bytes: number[];
}

export interface IpNetwork extends IpAddress {
  /** Prefix length: 0–32 for IPv4, 0–128 for IPv6. */
  prefix: number;
}

const OCTET = /^(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

function parseIpv4(text: string): number[] | undefined {
  const parts = text.split('.');
  if (parts.length !== 4 || !parts.every((part) => OCTET.test(part))) return undefined;
  return parts.map(Number);
}

function parseIpv6(text: string): number[] | undefined {
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const groups = (half: string): number[] | undefined => {
    if (half === '') return [];
    const out: number[] = [];
    const parts = half.split(':');
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i] as string;
      // An IPv4 tail (::ffff:192.0.2.1) stands for the last two groups.
      if (i === parts.length - 1 && part.includes('.')) {
        const v4 = parseIpv4(part);
        if (!v4) return undefined;
        out.push(((v4[0] as number) << 8) | (v4[1] as number), ((v4[2] as number) << 8) | (v4[3] as number));
      } else if (/^[0-9a-f]{1,4}$/i.test(part)) out.push(Number.parseInt(part, 16));
      else return undefined;
    }
    return out;
  };
  const head = groups(halves[0] as string);
  const tail = halves.length === 2 ? groups(halves[1] as string) : [];
  if (!head || !tail) return undefined;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  const all = [...head, ...new Array<number>(missing).fill(0), ...tail];
  return all.flatMap((group) => [group >> 8, group & 0xff]);
}

/** An address as written (a zone such as `%eth0` is dropped); undefined when it is none. */
export function parseIpAddress(input: string): IpAddress | undefined {
  const text = input.trim().replace(/%[^%]*$/, '');
  const v4 = parseIpv4(text);
  if (v4) return { family: 4, bytes: v4 };
  const v6 = text.includes(':') ? parseIpv6(text) : undefined;
  return v6 ? { family: 6, bytes: v6 } : undefined;
}

/** `192.168.1.0/24`, `2001:db8::/32`, or one address (a /32 or /128); undefined when it is none. */
export function parseIpNetwork(input: string): IpNetwork | undefined {
  const [address = '', prefix, extra] = input.trim().split('/');
  if (extra !== undefined || address.includes('%')) return undefined;
  const parsed = parseIpAddress(address);
  if (!parsed) return undefined;
  const max = parsed.family === 4 ? 32 : 128;
  if (prefix === undefined) return { ...parsed, prefix: max };
  if (!/^\d{1,3}$/.test(prefix) || Number(prefix) > max) return undefined;
  return { ...parsed, prefix: Number(prefix) };
}

/** The entries of a comma-separated list, blanks left out. */
export function networkEntries(value: string): string[] {
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}

/** At most this many networks in one list. */
export const MAX_NETWORKS = 50;

/**
 * A comma-separated list of IPv4/IPv6 networks (CIDR, or single addresses); empty means none. The issue of an
 * invalid list carries the first bad entry in `params.entry` (the console words it in the reader's language).
 */
export const networkListSchema = z.string().superRefine((value, ctx) => {
  const entries = networkEntries(value);
  if (entries.length > MAX_NETWORKS) {
    ctx.addIssue({ code: 'custom', message: `at most ${MAX_NETWORKS} networks`, params: { tooMany: true } });
    return;
  }
  const bad = entries.find((entry) => !parseIpNetwork(entry));
  if (bad !== undefined) {
    ctx.addIssue({
      code: 'custom',
      message: `not an IPv4/IPv6 address or network (CIDR): ${bad}`,
      params: { entry: bad },
    });
  }
});

/** What is wrong with a network list, for a message: the first bad entry, or too many entries. */
export function networkListProblem(value: string): { entry: string } | { tooMany: true } | undefined {
  const result = networkListSchema.safeParse(value);
  if (result.success) return undefined;
  const params = (result.error.issues[0] as { params?: { entry?: string; tooMany?: boolean } } | undefined)?.params;
  return params?.tooMany ? { tooMany: true } : { entry: params?.entry ?? value };
}

/**
 * Defaults variable (default settings only): the networks from which a token-less request
 * (`/provisioning/{file}`) gets the phone's first-access file URL. Empty (the default): from nowhere, and the
 * token-less route answers every phone as an unknown one.
 */
export const TOKENLESS_NETWORKS_VARIABLE = 'provisioning_tokenless_networks';
