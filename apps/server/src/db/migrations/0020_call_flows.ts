import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';

/**
 * Call flows (issue 26): recordings (the converted audio is kept in the database, so every server process can
 * write it out for Asterisk), announcements (a recording, then a destination) and IVRs with their key entries.
 * Destinations are dialplan strings 'context,exten,priority' (contract asterisk §5.1).
 */
export const callFlows: Migration = {
  async up(db: Kysely<unknown>) {
    const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
    const serial = isPostgres ? sql`serial` : sql`integer`;
    await db.schema
      .createTable('recordings')
      .addColumn('id', serial, (c) => (isPostgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
      .addColumn('displayname', 'varchar(80)', (c) => c.notNull().unique())
      .addColumn('description', 'varchar(200)', (c) => c.notNull().defaultTo(''))
      /** 8 kHz mono 16-bit WAV, as Asterisk plays it. */
      .addColumn('audio', isPostgres ? 'bytea' : 'blob', (c) => c.notNull())
      .addColumn('duration_ms', 'integer', (c) => c.notNull())
      /** Feature code recording (the original's fcode / fcode_pass), kept for the migration. */
      .addColumn('fcode', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('fcode_pass', 'varchar(20)', (c) => c.notNull().defaultTo(''))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('announcements')
      .addColumn('id', serial, (c) => (isPostgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
      .addColumn('description', 'varchar(80)', (c) => c.notNull().unique())
      .addColumn('recording_id', 'integer', (c) => c.references('recordings.id'))
      .addColumn('allow_skip', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('post_dest', 'varchar(200)', (c) => c.notNull())
      .addColumn('return_ivr', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('noanswer', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('repeat_msg', 'varchar(1)', (c) => c.notNull().defaultTo(''))
      .execute();
    await db.schema.createIndex('announcements_recording').on('announcements').column('recording_id').execute();
    await db.schema.createIndex('announcements_post_dest').on('announcements').column('post_dest').execute();

    await db.schema
      .createTable('ivrs')
      .addColumn('id', serial, (c) => (isPostgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
      .addColumn('name', 'varchar(80)', (c) => c.notNull().unique())
      .addColumn('description', 'varchar(200)', (c) => c.notNull().defaultTo(''))
      .addColumn('announcement', 'integer', (c) => c.references('recordings.id'))
      .addColumn('directdial', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('timeout_time', 'integer', (c) => c.notNull().defaultTo(10))
      .addColumn('invalid_loops', 'integer', (c) => c.notNull().defaultTo(3))
      .addColumn('invalid_destination', 'varchar(200)', (c) => c.notNull())
      .addColumn('timeout_loops', 'integer', (c) => c.notNull().defaultTo(3))
      .addColumn('timeout_destination', 'varchar(200)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('ivrs_announcement').on('ivrs').column('announcement').execute();

    await db.schema
      .createTable('ivr_entries')
      .addColumn('ivr_id', 'integer', (c) => c.notNull().references('ivrs.id').onDelete('cascade'))
      .addColumn('selection', 'varchar(1)', (c) => c.notNull())
      .addColumn('dest', 'varchar(200)', (c) => c.notNull())
      .addPrimaryKeyConstraint('ivr_entries_pk', ['ivr_id', 'selection'])
      .execute();
    await db.schema.createIndex('ivr_entries_dest').on('ivr_entries').column('dest').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('ivr_entries').execute();
    await db.schema.dropTable('ivrs').execute();
    await db.schema.dropTable('announcements').execute();
    await db.schema.dropTable('recordings').execute();
  },
};
