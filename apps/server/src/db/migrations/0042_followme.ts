import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';
import { countChanges } from './0031_table_versions.ts';

/**
 * Follow-me (issue 42 item 5): one row per user who has one, and its list in ring order. A colleague in the list is
 * kept by user id (a new extension follows, a deleted user drops out), an outside number as typed. Both tables are
 * read by the PBX model, so they get change counters (0031).
 */
export const FOLLOWME_MODEL_TABLES = ['followme', 'followme_legs'] as const;

export const followMe: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('followme')
      .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
      .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('pre_ring', 'integer', (c) => c.notNull())
      .addColumn('strategy', 'varchar(20)', (c) => c.notNull())
      .addColumn('confirm_external', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .createTable('followme_legs')
      .addColumn('user_id', 'integer', (c) => c.notNull().references('followme.user_id').onDelete('cascade'))
      .addColumn('position', 'integer', (c) => c.notNull())
      // Exactly one of the two.
      .addColumn('target_user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
      .addColumn('external', 'varchar(40)')
      .addColumn('ring_time', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('followme_legs_pk', ['user_id', 'position'])
      .execute();
    await db.schema.createIndex('followme_legs_target').on('followme_legs').column('target_user_id').execute();
    await countChanges(db, FOLLOWME_MODEL_TABLES);
  },
  async down(db: Kysely<unknown>) {
    const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
    for (const table of [...FOLLOWME_MODEL_TABLES].reverse()) {
      for (const event of ['insert', 'update', 'delete']) {
        await sql
          .raw(`drop trigger if exists table_versions_${table}_${event}${postgres ? ` on ${table}` : ''}`)
          .execute(db);
      }
      await sql`delete from table_versions where name = ${table}`.execute(db);
    }
    await db.schema.dropTable('followme_legs').execute();
    await db.schema.dropTable('followme').execute();
  },
};
