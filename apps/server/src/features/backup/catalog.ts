import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * What the database holds, read from the database itself (not from the TypeScript schema), so a table added by a
 * later migration is in the next backup without anyone remembering to list it.
 */

export interface TableInfo {
  name: string;
  columns: { name: string; type: string; serial: boolean }[];
  primaryKey: string[];
  /** Tables this one points at with a foreign key. */
  parents: string[];
}

/**
 * Not in a backup, and left as they are by a restore: who may sign in, their second factors and sessions (so a
 * restore never locks out the administrator doing it), the audit log, per-process bookkeeping (jobs, throttles, migration state, scheduled runs) and
 * the change counters, which a restore moves forward instead of back.
 */
export const NOT_BACKED_UP = new Set([
  'kysely_migration',
  'kysely_migration_lock',
  'admins',
  'admin_recovery_codes',
  'login_challenges',
  'sessions',
  // The record of what was done, including the restore itself: a restore must not take it back.
  'audit_log',
  'login_throttle',
  'jobs',
  'pbx_apply',
  'prov_state',
  'users_version',
  'table_versions',
  'row_changes',
  'backup_runs',
]);

// biome-ignore lint/suspicious/noExplicitAny: tables are only known at run time here.
export type AnyDb = Kysely<any>;

export function isPostgres(db: AnyDb): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

async function sqliteCatalog(db: AnyDb): Promise<TableInfo[]> {
  const tables = await sql<{ name: string }>`
    select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name`.execute(db);
  const out: TableInfo[] = [];
  for (const { name } of tables.rows) {
    const columns = await sql<{ name: string; type: string; pk: number }>`
      select name, type, pk from pragma_table_info(${name}) order by cid`.execute(db);
    const parents = await sql<{ table: string }>`select "table" from pragma_foreign_key_list(${name})`.execute(db);
    out.push({
      name,
      columns: columns.rows.map((c) => ({ name: c.name, type: c.type.toLowerCase(), serial: false })),
      primaryKey: columns.rows
        .filter((c) => c.pk > 0)
        .sort((a, b) => a.pk - b.pk)
        .map((c) => c.name),
      parents: [...new Set(parents.rows.map((p) => p.table))],
    });
  }
  return out;
}

async function postgresCatalog(db: AnyDb): Promise<TableInfo[]> {
  const columns = await sql<{
    table_name: string;
    column_name: string;
    data_type: string;
    column_default: string | null;
  }>`
    select c.table_name, c.column_name, c.data_type, c.column_default
      from information_schema.columns c
      join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
     where c.table_schema = current_schema() and t.table_type = 'BASE TABLE'
     order by c.table_name, c.ordinal_position`.execute(db);
  const keys = await sql<{ table_name: string; column_name: string }>`
    select tc.table_name, kcu.column_name
      from information_schema.table_constraints tc
      join information_schema.key_column_usage kcu
        on kcu.constraint_name = tc.constraint_name and kcu.table_schema = tc.table_schema
     where tc.constraint_type = 'PRIMARY KEY' and tc.table_schema = current_schema()
     order by tc.table_name, kcu.ordinal_position`.execute(db);
  const links = await sql<{ child: string; parent: string }>`
    select distinct cl.relname as child, pl.relname as parent
      from pg_constraint k
      join pg_class cl on cl.oid = k.conrelid
      join pg_class pl on pl.oid = k.confrelid
      join pg_namespace n on n.oid = cl.relnamespace
     where k.contype = 'f' and n.nspname = current_schema()`.execute(db);
  const byName = new Map<string, TableInfo>();
  for (const c of columns.rows) {
    let table = byName.get(c.table_name);
    if (!table) {
      table = { name: c.table_name, columns: [], primaryKey: [], parents: [] };
      byName.set(c.table_name, table);
    }
    table.columns.push({
      name: c.column_name,
      type: c.data_type.toLowerCase(),
      serial: (c.column_default ?? '').startsWith('nextval('),
    });
  }
  for (const k of keys.rows) byName.get(k.table_name)?.primaryKey.push(k.column_name);
  for (const l of links.rows) byName.get(l.child)?.parents.push(l.parent);
  return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** The tables a backup holds, parents before the tables that point at them. */
export async function backedUpTables(db: AnyDb): Promise<TableInfo[]> {
  const all = isPostgres(db) ? await postgresCatalog(db) : await sqliteCatalog(db);
  return parentsFirst(all.filter((t) => !NOT_BACKED_UP.has(t.name)));
}

/** Topological order by foreign keys; a cycle (none today) keeps its tables in name order at the end. */
export function parentsFirst(tables: TableInfo[]): TableInfo[] {
  const names = new Set(tables.map((t) => t.name));
  const done = new Set<string>();
  const out: TableInfo[] = [];
  let progress = true;
  while (progress) {
    progress = false;
    for (const table of tables) {
      if (done.has(table.name)) continue;
      if (table.parents.every((p) => p === table.name || done.has(p) || !names.has(p))) {
        done.add(table.name);
        out.push(table);
        progress = true;
      }
    }
  }
  for (const table of tables) if (!done.has(table.name)) out.push(table);
  return out;
}
