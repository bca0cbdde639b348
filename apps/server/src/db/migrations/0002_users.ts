import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';

/** Auto-increment integer key, spelled the way each database wants it. */
function idColumnType(db: Kysely<unknown>) {
  return db.getExecutor().adapter instanceof PostgresAdapter ? sql`serial` : sql`integer`;
}

export const users: Migration = {
  async up(db: Kysely<unknown>) {
    const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
    await db.schema
      .createTable('users')
      .addColumn('id', idColumnType(db), (c) => (isPostgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
      .addColumn('username', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('displayname', 'varchar(255)', (c) => c.notNull())
      .addColumn('fname', 'varchar(255)')
      .addColumn('lname', 'varchar(255)')
      .addColumn('email', 'varchar(255)')
      .addColumn('source', 'varchar(8)', (c) => c.notNull())
      .addColumn('password_hash', 'varchar(256)')
      .addColumn('password_clear', 'varchar(128)')
      .addColumn('default_extension', 'varchar(16)', (c) => c.unique())
      .addColumn('extension_order', 'bigint', (c) => c.notNull())
      .addColumn('outboundcid', 'varchar(32)')
      .addColumn('mobile', 'varchar(20)')
      .addColumn('voicemail_pin', 'varchar(16)')
      .addColumn('profile_id', 'integer')
      .addColumn('search_key', 'varchar(400)', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('users_search_key').on('users').column('search_key').execute();
    // Sorting by number and by name walks an index, so a page of 10,000 users reads only its rows.
    await db.schema.createIndex('users_extension_order').on('users').columns(['extension_order', 'username']).execute();
    await db.schema.createIndex('users_displayname').on('users').columns(['displayname', 'username']).execute();

    await db.schema
      .createTable('jobs')
      .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
      .addColumn('kind', 'varchar(32)', (c) => c.notNull())
      .addColumn('status', 'varchar(16)', (c) => c.notNull())
      .addColumn('progress', 'integer', (c) => c.notNull())
      .addColumn('action', 'varchar(255)', (c) => c.notNull())
      .addColumn('result', 'text')
      .addColumn('error', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('jobs_kind_created').on('jobs').columns(['kind', 'created_at']).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('jobs').execute();
    await db.schema.dropTable('users').execute();
  },
};
