import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';
import { countChanges } from './0031_table_versions.ts';

/**
 * Blocked callers and outbound call permissions (issue 42, item 7). A blocked caller (an exact number, a prefix, or
 * a caller without a number) is turned away on every inbound route, or only on those listed in
 * blocked_caller_routes (all_routes 0); what it hears is `response` (busy, not_available, a recording, a
 * destination). A user's call_permission is null (the CTI profile's, today: every class) or the allowed outbound
 * classes joined by ',' ('' internal calls only). The class prefixes are the settings row `pbx.callclasses`.
 */
export const BLOCKING_MODEL_TABLES = ['blocked_callers', 'blocked_caller_routes'] as const;

export const blocking: Migration = {
  async up(db: Kysely<unknown>) {
    const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
    const serial = postgres ? sql`serial` : sql`integer`;
    await db.schema
      .createTable('blocked_callers')
      .addColumn('id', serial, (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
      .addColumn('match', 'varchar(10)', (c) => c.notNull())
      .addColumn('number', 'varchar(33)', (c) => c.notNull())
      .addColumn('description', 'varchar(80)', (c) => c.notNull().defaultTo(''))
      .addColumn('response', 'varchar(16)', (c) => c.notNull())
      // A recording removed since: the caller hears "not in service" instead (render/blocking.ts).
      .addColumn('recording_id', 'integer', (c) => c.references('recordings.id').onDelete('set null'))
      .addColumn('destination', 'varchar(200)')
      .addColumn('all_routes', 'integer', (c) => c.notNull().defaultTo(1))
      .addUniqueConstraint('blocked_callers_match_number', ['match', 'number'])
      .execute();
    await db.schema.createIndex('blocked_callers_destination').on('blocked_callers').column('destination').execute();
    await db.schema
      .createTable('blocked_caller_routes')
      .addColumn('blocked_id', 'integer', (c) => c.notNull().references('blocked_callers.id').onDelete('cascade'))
      // An inbound route deleted takes its scoping along; an entry left with none applies nowhere.
      .addColumn('route_id', 'integer', (c) => c.notNull().references('inbound_routes.id').onDelete('cascade'))
      .addPrimaryKeyConstraint('blocked_caller_routes_pk', ['blocked_id', 'route_id'])
      .execute();
    await db.schema.alterTable('users').addColumn('call_permission', 'varchar(80)').execute();
    await countChanges(db, BLOCKING_MODEL_TABLES);
  },
  async down(db: Kysely<unknown>) {
    const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
    for (const table of [...BLOCKING_MODEL_TABLES].reverse()) {
      for (const event of ['insert', 'update', 'delete']) {
        await sql
          .raw(`drop trigger if exists table_versions_${table}_${event}${postgres ? ` on ${table}` : ''}`)
          .execute(db);
      }
      await sql`delete from table_versions where name = ${table}`.execute(db);
    }
    await db.schema.alterTable('users').dropColumn('call_permission').execute();
    await db.schema.dropTable('blocked_caller_routes').execute();
    await db.schema.dropTable('blocked_callers').execute();
  },
};
