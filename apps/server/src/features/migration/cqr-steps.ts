import {
  CARD_SOURCE_TYPES,
  type CardSourceType,
  CQR_MAX_TIMEOUT_SECONDS,
  cardSourceCreateSchema,
  cardSourceDefaultPort,
  cqrWriteSchema,
} from '@centralino/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { SettingsStore } from '../../db/settings-store.ts';
import { writeCqr } from '../flows/cqr.ts';
import { DestinationCheck, IDS_KEY, kindsAfter } from './destinations.ts';
import { describe, type Message, msg, schemaRefusal } from './messages.ts';
import { addPending, linkPending, type PendingLink } from './pending.ts';
import type { LegacySource } from './source.ts';
import type { StepLog } from './state.ts';

type Trx = Kysely<Database>;

/** The old module's database types (PDO driver names) as card-source types here. */
const SOURCE_TYPES: Record<string, CardSourceType> = { mysql: 'mysql', pgsql: 'postgres', mssql: 'mssql:7_4' };

/**
 * The old query with the caller's number where it said `%CID%` (the old module replaced the text), as card queries
 * bind `$NUMBER` — also inside a quoted literal such as `'%%CID%'`. Null when it uses another variable (the date,
 * a customer code) that has no equivalent here.
 */
export function cqrQueryOf(old: string): string | null {
  const query = old.replace(/%CID%/g, '$NUMBER');
  return /%(DATE|CUSTOMERCODE|CODCLI)%/.test(query) ? null : query;
}

interface OldCqr {
  id_cqr: number;
  name: string;
  announcement: number | null;
  use_code: number;
  db_type: string;
  db_url: string;
  db_name: string;
  db_user: string;
  db_pass: string;
  query: string;
  default_destination: string;
}

/**
 * NethVoice's caller query routing (`nethcqr_details`, `nethcqr_entries`) → CQRs here. Each old database becomes a
 * customer-card source (one per database name, reused when one with the same connection is there), saved without the
 * connection check the console makes — the old customer database may not answer from here yet, which the report
 * says. A CQR that looked up a customer code first (`use_code`), or whose query needs more than the caller's number,
 * has no equivalent and is reported, never half made.
 */
export async function migrateCqrs(trx: Trx, source: LegacySource, log: StepLog): Promise<void> {
  if (!(await source.hasTable('pbx', 'nethcqr_details'))) {
    log.infos.push(msg('cqr_none'));
    return;
  }
  const cqrs = await source.query<OldCqr>(
    `SELECT id_cqr, name, announcement, use_code, db_type, db_url, db_name, db_user, db_pass, query, default_destination
       FROM ${source.table('pbx', 'nethcqr_details')} ORDER BY id_cqr`,
  );
  if (cqrs.length === 0) {
    log.infos.push(msg('cqr_none'));
    return;
  }
  const entries = await source.query<{ id_cqr: number; position: number; condition: string; destination: string }>(
    `SELECT id_cqr, position, \`condition\`, destination FROM ${source.table('pbx', 'nethcqr_entries')}
       ORDER BY id_cqr, position, id_dest`,
  );
  const check = await DestinationCheck.load(trx);
  const names = new Set((await trx.selectFrom('cqrs').select('name').execute()).map((c) => c.name));
  const pending: PendingLink[] = [];
  for (const old of cqrs) {
    const name = (old.name || `CQR ${old.id_cqr}`).slice(0, 80);
    const label = msg('cqr_label', { name });
    if (names.has(name)) {
      log.warnings.push(msg('label_exists', { label }));
      continue;
    }
    if (Number(old.use_code) === 1) {
      log.warnings.push(msg('cqr_customer_code', { label }));
      continue;
    }
    const query = cqrQueryOf(old.query ?? '');
    if (!query || query.trim() === '') {
      log.warnings.push(msg('cqr_query_values', { label }));
      continue;
    }
    const sourceId = await sourceFor(trx, old, label, log);
    if (sourceId === null) continue;
    const waits: Omit<PendingLink, 'id'>[] = [];
    const dest = (value: string, table: 'cqrs' | 'cqr_entries', selection: string | null) =>
      check.check(value, log, {
        kinds: ['cqr', ...kindsAfter('cqr')],
        later: (o) => waits.push({ table, selection, column: table === 'cqrs' ? 'default_dest' : 'dest', old: o }),
      });
    const own = entries.filter((e) => Number(e.id_cqr) === Number(old.id_cqr));
    const kept = own.filter((e) => (e.condition ?? '').trim() !== '');
    if (kept.length < own.length) log.warnings.push(msg('cqr_empty_entry', { label }));
    const body = cqrWriteSchema.safeParse({
      name,
      source_id: sourceId,
      query,
      timeout: CQR_MAX_TIMEOUT_SECONDS,
      default_dest: dest(old.default_destination, 'cqrs', null),
      entries: kept.slice(0, 100).map((e, i) => ({
        value: e.condition.trim().slice(0, 200),
        destination: dest(e.destination, 'cqr_entries', String(i)),
      })),
    });
    if (!body.success) {
      log.errors.push(msg('with_reason', { subject: label, reason: schemaRefusal(body.error) }));
      continue;
    }
    try {
      const id = await writeCqr(trx, null, body.data);
      check.ids.cqr[String(old.id_cqr)] = id;
      pending.push(...waits.map((w) => ({ ...w, id })));
    } catch (error) {
      log.errors.push(msg('with_reason', { subject: label, reason: describe(error) }));
      continue;
    }
    if (old.announcement) log.warnings.push(msg('cqr_announcement', { label }));
    names.add(name);
    log.infos.push(msg('label_migrated', { label }));
  }
  await new SettingsStore(trx).set(IDS_KEY, check.ids, trx);
  await addPending(trx, pending);
  // IVR keys and queue failovers leading to a CQR were waiting for this step.
  await linkPending(trx, log, kindsAfter('cqr'));
}

/** The card source of an old CQR's database: an existing one with the same connection, or a new one. */
async function sourceFor(trx: Trx, old: OldCqr, label: Message, log: StepLog): Promise<number | null> {
  const type = SOURCE_TYPES[(old.db_type ?? 'mysql').trim()];
  if (!type) {
    log.warnings.push(msg('cqr_db_type', { label, type: old.db_type ?? '' }));
    return null;
  }
  const [host = '', port] = (old.db_url ?? '').trim().split(':');
  const parsed = cardSourceCreateSchema.safeParse({
    type,
    // The old module's 'localhost' was the old server itself: here it would be this one.
    host,
    port: port || cardSourceDefaultPort(type),
    user: old.db_user ?? '',
    pass: old.db_pass ?? '',
    name: old.db_name ?? '',
  });
  if (!parsed.success) {
    log.warnings.push(msg('cqr_db_invalid', { label, reason: parsed.error.issues.map((i) => i.message).join('; ') }));
    return null;
  }
  const s = parsed.data;
  const same = await trx.selectFrom('card_sources').selectAll().where('name', '=', s.name).executeTakeFirst();
  if (same) {
    if (same.type === s.type && same.host === s.host && Number(same.port) === s.port && same.user === s.user) {
      return Number(same.id);
    }
    log.warnings.push(msg('cqr_source_clash', { label, name: s.name }));
    return null;
  }
  const row = await trx
    .insertInto('card_sources')
    .values({
      name: s.name,
      type: s.type,
      host: s.host,
      port: s.port,
      user: s.user,
      password: s.pass ?? '',
      builtin: 0,
      created_at: Date.now(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  log.warnings.push(msg('cqr_source_created', { label, name: s.name, host: s.host, type: CARD_SOURCE_TYPES[s.type] }));
  if (['localhost', '127.0.0.1', '::1'].includes(s.host)) {
    log.warnings.push(msg('cqr_source_local', { label, host: s.host }));
  }
  return Number(row.id);
}
