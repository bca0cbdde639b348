import type { Variables } from './scopes.ts';

/** Where the PBX listens for phones (SIP_PORT, SIP_TLS_PORT): the transports the console writes for Asterisk. */
export interface SipPorts {
  sip: number;
  tls: number;
}

/** The defaults that name those ports, and which port each follows. */
const FOLLOWING = { sip_udp_port: 'sip', sip_tls_port: 'tls' } as const satisfies Record<string, keyof SipPorts>;

const follows = (stored: Variables, name: string) => (stored[name] ?? '') === '';

/**
 * The defaults as phones get them: a port the administrator has not set is the one the PBX listens on. Not stored
 * at first start (a copy would keep telling phones 5060 after SIP_PORT changes), filled in on every read instead.
 * An empty value follows too: it would otherwise render as 5060, whatever the PBX listens on.
 */
export function withSipPorts(stored: Variables, ports: SipPorts): Variables {
  const variables = { ...stored };
  for (const [name, port] of Object.entries(FOLLOWING)) {
    if (follows(stored, name)) variables[name] = String(ports[port]);
  }
  return variables;
}

/**
 * What to store after a change of the defaults: a port still following the setting that comes back unchanged (the
 * console saves whole forms) stays unstored, so it goes on following. Any other value is the administrator's, and
 * wins until removed (null).
 */
export function keepFollowing(stored: Variables, next: Variables, ports: SipPorts): Variables {
  const kept = { ...next };
  for (const [name, port] of Object.entries(FOLLOWING)) {
    if (follows(stored, name) && kept[name] === String(ports[port])) delete kept[name];
  }
  return kept;
}

/** The first-start defaults without the ports, which follow the setting from then on. */
export function withoutSipPorts(variables: Variables): Variables {
  const rest = { ...variables };
  for (const name of Object.keys(FOLLOWING)) delete rest[name];
  return rest;
}
