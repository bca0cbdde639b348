import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';

const EVENTS = ['insert', 'update', 'delete'] as const;

/**
 * The tables the PBX configuration is read from (pbx/load.ts) at this migration. A table read later needs a migration
 * adding it here (`countChanges`); until then its reads are not kept between applies (pbx/model-rows.ts).
 */
export const MODEL_TABLES = [
  'users',
  'pbx_secrets',
  'devices',
  'cti_user_groups',
  'cti_groups',
  'cti_profiles',
  'cti_profile_permissions',
  'cti_profile_routes',
  'trunks',
  'gateway_ports',
  'announcements',
  'ivrs',
  'ivr_entries',
  'daynight',
  'queues',
  'queue_members',
  'time_conditions',
  'time_group_ranges',
  'cqrs',
  'outbound_routes',
  'outbound_route_patterns',
  'outbound_route_trunks',
  'inbound_routes',
] as const;

/** The trigger moving `table`'s counter on `event` (0032 puts it back when it is undone). */
export function counterTrigger(table: string, event: string, postgres: boolean): string {
  const trigger = `table_versions_${table}_${event}`;
  return postgres
    ? `create trigger ${trigger} after ${event} on ${table} for each statement execute function table_versions_bump()`
    : `create trigger ${trigger} after ${event} on ${table} begin update table_versions set n = n + 1 where name = '${table}'; end`;
}

/** Gives `tables` a change counter in `table_versions`, moved by the database itself in the writer's transaction. */
export async function countChanges(db: Kysely<unknown>, tables: readonly string[]): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const table of tables) {
    await sql`insert into table_versions (name, n) values (${table}, 0)`.execute(db);
    for (const event of EVENTS) await sql.raw(counterTrigger(table, event, postgres)).execute(db);
  }
}

/**
 * A change counter per table the PBX configuration is read from, like `users_version` (0016) for the users list:
 * the apply keeps what it read of a table while that table's counter has not moved, whoever wrote (a service, an
 * import, a restore, another process on the same PostgreSQL). Once per statement on PostgreSQL, per row on SQLite
 * (which has no statement triggers); either way in the writer's transaction.
 */
export const tableVersions: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('table_versions')
      .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('n', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
    if (db.getExecutor().adapter instanceof PostgresAdapter) {
      await sql`create function table_versions_bump() returns trigger language plpgsql as $$
        begin update table_versions set n = n + 1 where name = TG_TABLE_NAME; return null; end $$`.execute(db);
    }
    await countChanges(db, MODEL_TABLES);
  },
  async down(db: Kysely<unknown>) {
    const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
    for (const table of MODEL_TABLES)
      for (const event of EVENTS)
        await sql
          .raw(`drop trigger if exists table_versions_${table}_${event}${postgres ? ` on ${table}` : ''}`)
          .execute(db);
    if (postgres) await sql`drop function if exists table_versions_bump()`.execute(db);
    await db.schema.dropTable('table_versions').execute();
  },
};
