import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';

/**
 * Migration from the older system (issue 27): the report of what each step could not migrate, the call-record copy's
 * persisted position (so a restart resumes it without copying a row twice), and the caller columns the old
 * `userfield` (`cnum|cnam|ccompany`) is split into. The status itself is the settings row `migration_status`.
 */
export const migrationFromLegacy: Migration = {
  async up(db: Kysely<unknown>) {
    const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
    const serial = isPostgres ? sql`serial` : sql`integer`;
    await db.schema
      .createTable('migration_report')
      .addColumn('id', serial, (c) => (isPostgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
      .addColumn('step', 'varchar(40)', (c) => c.notNull())
      .addColumn('type', 'varchar(10)', (c) => c.notNull())
      .addColumn('message', 'varchar(1000)', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('migration_cdr')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      /** Key (`id`) of the last old record copied: the next batch starts after it. */
      .addColumn('last_id', 'bigint', (c) => c.notNull())
      .addColumn('copied', 'bigint', (c) => c.notNull())
      .addColumn('total', 'bigint', (c) => c.notNull())
      /** running, done or failed. */
      .addColumn('state', 'varchar(10)', (c) => c.notNull())
      .addColumn('error', 'varchar(1000)')
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    for (const column of ['cnum', 'cnam', 'ccompany']) {
      await db.schema
        .alterTable('cdr')
        .addColumn(column, 'varchar(80)', (c) => c.notNull().defaultTo(''))
        .execute();
    }
  },
  async down(db: Kysely<unknown>) {
    for (const column of ['cnum', 'cnam', 'ccompany']) await db.schema.alterTable('cdr').dropColumn(column).execute();
    await db.schema.dropTable('migration_cdr').execute();
    await db.schema.dropTable('migration_report').execute();
  },
};
