import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';

/**
 * The Apps area (issue 25): parameterised URLs (contract api-admin §8) and streaming sources (§7).
 *
 * A parameterised URL is a row of its own with the profiles linked to it (at most one URL per profile, the
 * primary key of the link), instead of the original's one row per profile grouped by URL text: changing the
 * text can then never leave rows of removed profiles behind (§12 #34), and deleting a profile drops its link
 * (§12 #26). A streaming source's visibility is its `vs_*` permission of the streaming macro, held by profiles
 * as rows of cti_profile_permissions like every other permission.
 */
export const apps: Migration = {
  async up(db: Kysely<unknown>) {
    const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
    const serial = isPostgres ? sql`serial` : sql`integer`;
    await db.schema
      .createTable('paramurls')
      .addColumn('id', serial, (c) => (isPostgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
      .addColumn('url', 'varchar(2000)', (c) => c.notNull().unique())
      .addColumn('only_queues', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('paramurl_profiles')
      /** One URL per profile. */
      .addColumn('profile_id', 'integer', (c) => c.primaryKey().references('cti_profiles.id').onDelete('cascade'))
      .addColumn('paramurl_id', 'integer', (c) => c.notNull().references('paramurls.id').onDelete('cascade'))
      .execute();
    await db.schema.createIndex('paramurl_profiles_url').on('paramurl_profiles').column('paramurl_id').execute();

    await db.schema
      .createTable('streaming_sources')
      .addColumn('id', serial, (c) => (isPostgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
      .addColumn('descr', 'varchar(50)', (c) => c.notNull().unique())
      /** vs_<normalised descr>, fixed at creation, so profiles keep it across a rename. */
      .addColumn('permission', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('exten', 'varchar(20)', (c) => c.notNull().defaultTo(''))
      .addColumn('open', 'varchar(10)', (c) => c.notNull().defaultTo(''))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('streaming_sources').execute();
    await db.schema.dropTable('paramurl_profiles').execute();
    await db.schema.dropTable('paramurls').execute();
  },
};
