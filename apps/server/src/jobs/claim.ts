import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { type Kysely, PostgresAdapter, sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * The one claim rule for background work when several server processes share a PostgreSQL database.
 *
 * - Work that runs names its process (`owner`) and refreshes `heartbeat_at` every HEARTBEAT_MS while it runs.
 * - Work whose owner has not beaten for STALE_MS is abandoned: its process died (kill -9, power, network). Any
 *   process may take it, once, by locking its row with `FOR UPDATE SKIP LOCKED` and writing itself as owner in
 *   the same transaction; a second process looking at the same moment skips the locked row.
 * - Scheduled work (a due phonebook sync) is taken the same way: the row is locked and marked taken in one
 *   transaction, so it runs exactly once.
 * With SQLite there is one process (the file is not shared): whatever another owner left running is abandoned.
 */

/** How often a process says that the work it runs is alive. */
export const HEARTBEAT_MS = 10_000;
/** Silence after which work is abandoned: three missed beats, so a busy event loop is not taken for a dead one. */
export const STALE_MS = 30_000;
/** How often a PostgreSQL process looks for abandoned work. */
export const SWEEP_MS = 15_000;

/** A name for one owner of work: the host, the process and a random part (a restarted process is another owner). */
export function newOwnerId(): string {
  return `${os.hostname().slice(0, 30)}:${process.pid}:${randomBytes(4).toString('hex')}`;
}

export function isPostgres(db: Kysely<Database> | Transaction<Database>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** Heartbeats older than this are abandoned now (every other owner's on SQLite, where one process runs). */
export function staleCutoff(db: Kysely<Database>, now: number, staleMs?: number): number {
  return now - (staleMs ?? (isPostgres(db) ? STALE_MS : 0));
}

/** `FOR UPDATE SKIP LOCKED` on PostgreSQL; nothing on SQLite, whose one writer already serialises transactions. */
export function skipLocked(db: Kysely<Database> | Transaction<Database>) {
  return isPostgres(db) ? sql` for update skip locked` : sql``;
}

/**
 * Serialises, across processes, what a transaction does under `name` (PostgreSQL transaction advisory lock; SQLite
 * transactions are serialised already). Used where there is no row to lock yet, e.g. starting a job of a kind.
 */
export async function lockName(trx: Transaction<Database>, name: string): Promise<void> {
  if (isPostgres(trx)) await sql`select pg_advisory_xact_lock(hashtext(${`centralino:${name}`}))`.execute(trx);
}

type LeasedTable = 'jobs' | 'migration_cdr';

/**
 * Takes the running rows of `table` whose owner stopped beating: each is locked (skipping rows another process is
 * taking), given to `owner` with a fresh heartbeat, and answered. `where` narrows the rows (a kind).
 */
export async function claimAbandoned(
  db: Kysely<Database>,
  table: LeasedTable,
  owner: string,
  options: { staleMs?: number; now?: number; before?: number } = {},
): Promise<{ id: string | number; owner: string | null }[]> {
  const now = options.now ?? Date.now();
  // `before`: silent means "not heard from since then" (SQLite: since this process started; a claim made meanwhile by
  // another runner of this process is not taken again).
  const cutoff = options.before ?? staleCutoff(db, now, options.staleMs);
  const state = sql.ref(table === 'jobs' ? 'status' : 'state');
  return db.transaction().execute(async (trx) => {
    const found = await sql<{ id: string | number; owner: string | null }>`
      select id, owner from ${sql.table(table)}
       where ${state} = 'running' and (owner is null or owner <> ${owner})
         and (heartbeat_at is null or heartbeat_at < ${cutoff})${skipLocked(trx)}`.execute(trx);
    if (found.rows.length === 0) return [];
    await sql`update ${sql.table(table)} set owner = ${owner}, heartbeat_at = ${now}
       where id in (${sql.join(found.rows.map((r) => r.id))})`.execute(trx);
    return found.rows;
  });
}

/** Refreshes the heartbeat of the rows `owner` runs (those another process took over are no longer its). */
export async function beat(
  db: Kysely<Database>,
  table: LeasedTable,
  owner: string,
  ids: readonly (string | number)[],
): Promise<void> {
  if (ids.length === 0) return;
  await sql`update ${sql.table(table)} set heartbeat_at = ${Date.now()}
     where owner = ${owner} and id in (${sql.join([...ids])})`.execute(db);
}
