import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';
import { countChanges } from './0031_table_versions.ts';

/**
 * Conference rooms (issue 42 item 1): a ConfBridge room dialled at its number (ext-meetme,<extension>,1), with a
 * user PIN and an admin PIN (null: none), a member limit (0: none) and its sound and recording options. The table
 * gets a change counter like the other tables the PBX configuration is read from (0031).
 */
/** The tables of the PBX configuration this migration adds, with their change counters (0031's list is frozen). */
export const CONFERENCE_MODEL_TABLES = ['conferences'] as const;

export const conferences: Migration = {
  async up(db: Kysely<unknown>) {
    const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
    const serial = postgres ? sql`serial` : sql`integer`;
    await db.schema
      .createTable('conferences')
      .addColumn('id', serial, (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
      .addColumn('extension', 'varchar(20)', (c) => c.notNull().unique())
      .addColumn('name', 'varchar(80)', (c) => c.notNull().unique())
      .addColumn('user_pin', 'varchar(12)')
      .addColumn('admin_pin', 'varchar(12)')
      .addColumn('max_members', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('music_when_alone', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('announce_join_leave', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('record', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await countChanges(db, CONFERENCE_MODEL_TABLES);
  },
  async down(db: Kysely<unknown>) {
    const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
    for (const event of ['insert', 'update', 'delete'])
      await sql
        .raw(`drop trigger if exists table_versions_conferences_${event}${postgres ? ' on conferences' : ''}`)
        .execute(db);
    await sql`delete from table_versions where name = 'conferences'`.execute(db);
    await db.schema.dropTable('conferences').execute();
  },
};
