import type { Kysely, Migration } from 'kysely';

/**
 * Scheduled backups (issue 28): one row per day's slot, inserted by the process that takes it. The primary key is
 * the claim: a second process (or a second timer tick) inserting the same slot fails and does nothing.
 */
export const backup: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('backup_runs')
      .addColumn('slot', 'varchar(32)', (c) => c.primaryKey())
      .addColumn('started_at', 'bigint', (c) => c.notNull())
      .addColumn('finished_at', 'bigint')
      .addColumn('file', 'varchar(255)')
      .addColumn('error', 'text')
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('backup_runs').execute();
  },
};
