import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';
import { countChanges } from './0031_table_versions.ts';

/**
 * Ring groups (issue 42, item 4): ext-group,<extension>,1 rings its members (users by id, so a user's new extension
 * follows; outside numbers as dialled) all at once or in turn, then goes to failover_dest. Both tables are read by the
 * PBX model, so they get change counters like the other call flows (0031).
 */
/** The tables this migration adds to those the PBX model is read from (0031's MODEL_TABLES). */
export const RING_GROUP_TABLES = ['ring_groups', 'ring_group_members'] as const;

export const ringGroups: Migration = {
  async up(db: Kysely<unknown>) {
    const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
    const serial = postgres ? sql`serial` : sql`integer`;
    await db.schema
      .createTable('ring_groups')
      .addColumn('id', serial, (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
      .addColumn('extension', 'varchar(20)', (c) => c.notNull().unique())
      .addColumn('name', 'varchar(80)', (c) => c.notNull().unique())
      .addColumn('strategy', 'varchar(20)', (c) => c.notNull())
      .addColumn('ring_time', 'integer', (c) => c.notNull())
      .addColumn('confirm_external', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('failover_dest', 'varchar(200)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('ring_groups_failover_dest').on('ring_groups').column('failover_dest').execute();
    await db.schema
      .createTable('ring_group_members')
      .addColumn('ring_group_id', 'integer', (c) => c.notNull().references('ring_groups.id').onDelete('cascade'))
      .addColumn('position', 'integer', (c) => c.notNull())
      // Exactly one of the two: a user (gone with the user) or an outside number.
      .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
      .addColumn('external', 'varchar(40)')
      .addPrimaryKeyConstraint('ring_group_members_pk', ['ring_group_id', 'position'])
      .execute();
    await db.schema.createIndex('ring_group_members_user').on('ring_group_members').column('user_id').execute();
    await countChanges(db, RING_GROUP_TABLES);
  },
  async down(db: Kysely<unknown>) {
    const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
    for (const table of [...RING_GROUP_TABLES].reverse()) {
      for (const event of ['insert', 'update', 'delete']) {
        await sql
          .raw(`drop trigger if exists table_versions_${table}_${event}${postgres ? ` on ${table}` : ''}`)
          .execute(db);
      }
      await sql`delete from table_versions where name = ${table}`.execute(db);
    }
    await db.schema.dropTable('ring_group_members').execute();
    await db.schema.dropTable('ring_groups').execute();
  },
};
