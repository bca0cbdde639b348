import fs from 'node:fs/promises';
import os from 'node:os';
import { errorBodySchema } from '@centralino/contract';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database } from '../db/schema.ts';
import { SettingsStore } from '../db/settings-store.ts';
import { AppError } from '../errors.ts';

/**
 * Network / NAT settings of the PBX (contract api-core §5): the public address and the local networks
 * are written into the PJSIP transports (external_*_address, local_net) by the next apply, which every
 * successful POST asks for (dirty-hook.ts).
 */

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const HOSTNAME =
  /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

/** A prefix length (0–32) or a dotted netmask whose ones are contiguous. */
export function validMask(mask: string): boolean {
  if (/^\d{1,2}$/.test(mask)) return Number(mask) <= 32;
  if (!IPV4.test(mask)) return false;
  const bits = mask
    .split('.')
    .map((p) => Number(p).toString(2).padStart(8, '0'))
    .join('');
  return /^1*0*$/.test(bits);
}

const ipv4 = z.string().trim().regex(IPV4, 'must be a dotted IPv4 address such as 192.168.1.0');
export const localNetworkSchema = z.object({
  net: ipv4,
  mask: z.string().trim().refine(validMask, 'must be a prefix length (0-32) or a netmask such as 255.255.255.0'),
});
export type LocalNetwork = z.infer<typeof localNetworkSchema>;

const networkSchema = z.object({ network: z.string(), ip: z.string(), netmask: z.string(), gateway: z.string() });

function networkAddress(ip: string, netmask: string): string {
  const a = ip.split('.').map(Number);
  const m = netmask.split('.').map(Number);
  return a.map((v, i) => v & (m[i] ?? 0)).join('.');
}

/** Default gateways by interface, from the kernel routing table (Linux); none elsewhere. */
async function defaultGateways(): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  let text: string;
  try {
    text = await fs.readFile('/proc/net/route', 'utf8');
  } catch {
    return out;
  }
  for (const line of text.split('\n').slice(1)) {
    const [iface, destination, gateway] = line.trim().split(/\s+/);
    if (!iface || destination !== '00000000' || !gateway || gateway === '00000000') continue;
    // Little-endian hex: 0101A8C0 → 192.168.1.1.
    const bytes = (gateway.match(/../g) ?? []).map((h) => Number.parseInt(h, 16)).reverse();
    if (bytes.length === 4) out.set(iface, bytes.join('.'));
  }
  return out;
}

/** The host's IPv4 networks, one entry per address of a non-loopback interface ([ns8] shape). */
export async function hostNetworks(): Promise<z.infer<typeof networkSchema>[]> {
  const gateways = await defaultGateways();
  const list: z.infer<typeof networkSchema>[] = [];
  for (const [name, addresses] of Object.entries(os.networkInterfaces())) {
    for (const a of addresses ?? []) {
      if (a.family !== 'IPv4' || a.internal) continue;
      list.push({
        network: networkAddress(a.address, a.netmask),
        ip: a.address,
        netmask: a.netmask,
        gateway: gateways.get(name) ?? '',
      });
    }
  }
  return list.sort((x, y) => (x.ip < y.ip ? -1 : x.ip > y.ip ? 1 : 0));
}

/** A JSON string body ("…"), as the contract answers; Fastify would send a bare string as text. */
function jsonString(reply: FastifyReply, value: string): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(JSON.stringify(value));
}

/** The public address lookup failed (502): why, and what to do instead, in the caller's language. */
function lookupFailed(service: string, en: (where: string) => string, it: (where: string) => string): AppError {
  return new AppError(502, 'public_ip_lookup_failed', (lang) =>
    lang === 'it'
      ? `${it(service)} Inserisci tu l'indirizzo pubblico.`
      : `${en(service)} Type the public address yourself.`,
  );
}

export interface NetworkRouteOptions {
  /** Where the public address is asked (a plain-text answer); tests point it at a local server. */
  publicIpUrl?: string;
  publicIpTimeoutMs?: number;
}

export const networkRoutes =
  (db: Kysely<Database>, options: NetworkRouteOptions = {}): FastifyPluginAsyncZod =>
  async (app) => {
    const store = new SettingsStore(db);
    const tags = ['configuration'];
    const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema, 500: errorBodySchema };

    app.get(
      '/api/configuration/networks',
      {
        schema: {
          tags,
          summary: "The host's IPv4 networks (network, ip, netmask, gateway)",
          response: { 200: z.array(networkSchema), ...errors },
        },
      },
      () => hostNetworks(),
    );

    app.get(
      '/api/configuration/externalip',
      {
        schema: {
          tags,
          summary: 'Public address of the PBX for NAT ("" when not set)',
          response: { 200: z.string(), ...errors },
        },
      },
      async (_request, reply) => jsonString(reply, (await store.get<string>('pbx.externalip')) ?? ''),
    );

    app.post(
      '/api/configuration/externalip/:ip',
      {
        schema: {
          tags,
          summary: 'Sets the public address of the PBX (IPv4 or host name); applied to the SIP transports',
          params: z.object({
            ip: z
              .string()
              .trim()
              .refine(
                (v) => IPV4.test(v) || (HOSTNAME.test(v) && !/^[\d.]+$/.test(v)),
                'must be an IPv4 address or a host name',
              ),
          }),
          response: { 200: z.literal('').describe('empty'), ...errors },
        },
      },
      async (request, reply) => {
        await store.set('pbx.externalip', request.params.ip.toLowerCase());
        return reply.code(200).send('');
      },
    );

    app.get(
      '/api/configuration/suggestedip',
      {
        schema: {
          tags,
          summary:
            'Public IPv4 address of the host, as an outside service sees it (administrators only: the server calls out; 502 when the service fails)',
          response: { 200: z.string(), ...errors, 403: errorBodySchema, 502: errorBodySchema },
        },
      },
      async (request, reply) => {
        // A read only account reads settings; it does not make the server call out to the Internet.
        if (request.role !== 'admin') throw new AppError(403, 'read_only');
        const url = options.publicIpUrl ?? 'http://ifconfig.io/ip';
        const service = new URL(url).host;
        let answer: string;
        try {
          const res = await fetch(url, {
            signal: AbortSignal.timeout(options.publicIpTimeoutMs ?? 4000),
            redirect: 'error',
          });
          if (!res.ok) throw new Error(`HTTP ${res.status}`);
          answer = (await res.text()).slice(0, 100).trim();
        } catch (error) {
          request.log.warn({ err: error, url }, 'public address lookup failed');
          throw lookupFailed(
            service,
            (where) => `The outside service ${where} could not be reached from this server, or did not answer.`,
            (where) => `Il servizio esterno ${where} non è raggiungibile da questo server, o non ha risposto.`,
          );
        }
        if (!IPV4.test(answer)) {
          request.log.warn({ url }, 'public address lookup gave no IPv4 address');
          throw lookupFailed(
            service,
            (where) => `The outside service ${where} answered, but not with an IPv4 address.`,
            (where) => `Il servizio esterno ${where} ha risposto, ma non con un indirizzo IPv4.`,
          );
        }
        return jsonString(reply, answer);
      },
    );

    app.get(
      '/api/configuration/localnetworks',
      {
        schema: {
          tags,
          summary: 'Networks the PBX reaches without NAT (false when not set)',
          response: { 200: z.union([z.array(localNetworkSchema), z.literal(false)]), ...errors },
        },
      },
      async () => (await store.get<LocalNetwork[]>('pbx.localnetworks')) ?? false,
    );

    app.post(
      '/api/configuration/localnetworks',
      {
        schema: {
          tags,
          summary: 'Sets the networks the PBX reaches without NAT; applied to the SIP transports',
          body: z.array(localNetworkSchema).max(100),
          response: { 200: z.literal('').describe('empty'), ...errors },
        },
      },
      async (request, reply) => {
        // The same network twice would only repeat a local_net line.
        const seen = new Set<string>();
        const list = request.body.filter((n) => {
          const key = `${n.net}/${n.mask}`;
          if (seen.has(key)) return false;
          seen.add(key);
          return true;
        });
        await store.set('pbx.localnetworks', list);
        return reply.code(200).send('');
      },
    );

    app.get(
      '/api/configuration/allowexternalsips',
      {
        schema: {
          tags,
          summary: 'Whether SIP and TLS are meant to be reachable from outside ("enabled" or "disabled")',
          response: { 200: z.enum(['enabled', 'disabled']), ...errors },
        },
      },
      async (_request, reply) =>
        jsonString(reply, (await store.get<'enabled' | 'disabled'>('pbx.allowexternalsips')) ?? 'enabled'),
    );

    app.post(
      '/api/configuration/allowexternalsips/:value',
      {
        schema: {
          tags,
          summary: 'Records whether SIP and TLS are meant to be reachable from outside (no firewall is changed)',
          params: z.object({ value: z.string() }),
          response: { 200: z.literal('').describe('empty'), ...errors },
        },
      },
      async (request, reply) => {
        const { value } = request.params;
        if (value !== 'enabled' && value !== 'disabled') throw new AppError(404, 'not_found');
        await store.set('pbx.allowexternalsips', value);
        return reply.code(200).send('');
      },
    );
  };
