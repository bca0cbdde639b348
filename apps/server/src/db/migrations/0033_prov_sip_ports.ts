import { type Kysely, type Migration, sql } from 'kysely';

/** What every first start stored before the defaults' SIP ports followed SIP_PORT and SIP_TLS_PORT. */
const FIRST_START_PORTS = { sip_udp_port: '5060', sip_tls_port: '5061' } as const;

/**
 * The provisioning defaults' variables without the SIP ports a first start copied in, so that they follow the PBX's
 * settings (provisioning/sip-ports.ts). A port the administrator changed stays. One set to 5060 on purpose cannot be
 * told from the copy and follows too: with SIP_PORT left at 5060, as nearly always, phones see no difference.
 */
export function dropFirstStartPorts(variables: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(variables);
  } catch {
    return variables;
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return variables;
  const rest = { ...(parsed as Record<string, unknown>) };
  for (const [name, value] of Object.entries(FIRST_START_PORTS)) if (rest[name] === value) delete rest[name];
  return JSON.stringify(rest);
}

export const provSipPorts: Migration = {
  async up(db: Kysely<unknown>) {
    const { rows } = await sql<{ variables: string }>`select variables from prov_scopes where id = 'defaults'`.execute(
      db,
    );
    const row = rows[0];
    if (!row) return;
    const variables = dropFirstStartPorts(row.variables);
    if (variables !== row.variables) {
      await sql`update prov_scopes set variables = ${variables} where id = 'defaults'`.execute(db);
    }
  },
  // Nothing to undo: a console from before reads the missing ports as 5060 and 5061 anyway (its render's fallback).
  async down() {},
};
