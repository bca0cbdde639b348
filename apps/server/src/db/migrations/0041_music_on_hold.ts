import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';
import { countChanges } from './0031_table_versions.ts';

/**
 * Music on hold (issue 42 item 6): classes of uploaded audio (converted like recordings and kept in the database, so
 * every server process can write the files out), and the class queues' callers, inbound routes' callers (instead of
 * ringing; null: ringing), trunks' calls on hold and conference rooms play. Classes are chosen by name, which is
 * their musiconhold.conf section; `default` is the distribution's music and has no row.
 */
export const MUSIC_MODEL_TABLES = ['music_classes', 'music_files'] as const;

export const musicOnHold: Migration = {
  async up(db: Kysely<unknown>) {
    const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
    const serial = postgres ? sql`serial` : sql`integer`;
    await db.schema
      .createTable('music_classes')
      .addColumn('id', serial, (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
      .addColumn('name', 'varchar(40)', (c) => c.notNull().unique())
      .addColumn('play_order', 'varchar(10)', (c) => c.notNull().defaultTo('alpha'))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('music_files')
      .addColumn('id', serial, (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
      .addColumn('class_id', 'integer', (c) => c.notNull().references('music_classes.id').onDelete('cascade'))
      .addColumn('name', 'varchar(60)', (c) => c.notNull())
      .addColumn('audio', postgres ? 'bytea' : 'blob', (c) => c.notNull())
      .addColumn('duration_ms', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addUniqueConstraint('music_files_class_name', ['class_id', 'name'])
      .execute();
    await db.schema.alterTable('inbound_routes').addColumn('music', 'varchar(40)').execute();
    await db.schema
      .alterTable('trunks')
      .addColumn('music', 'varchar(40)', (c) => c.notNull().defaultTo('default'))
      .execute();
    await db.schema
      .alterTable('conferences')
      .addColumn('music_class', 'varchar(40)', (c) => c.notNull().defaultTo('default'))
      .execute();
    await countChanges(db, MUSIC_MODEL_TABLES);
  },
  async down(db: Kysely<unknown>) {
    const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
    for (const table of MUSIC_MODEL_TABLES) {
      for (const event of ['insert', 'update', 'delete'])
        await sql
          .raw(`drop trigger if exists table_versions_${table}_${event}${postgres ? ` on ${table}` : ''}`)
          .execute(db);
      await sql`delete from table_versions where name = ${table}`.execute(db);
    }
    await db.schema.alterTable('conferences').dropColumn('music_class').execute();
    await db.schema.alterTable('trunks').dropColumn('music').execute();
    await db.schema.alterTable('inbound_routes').dropColumn('music').execute();
    await db.schema.dropTable('music_files').execute();
    await db.schema.dropTable('music_classes').execute();
  },
};
