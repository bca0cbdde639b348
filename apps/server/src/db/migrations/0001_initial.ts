import type { Kysely, Migration } from 'kysely';

export const initial: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('admins')
      .addColumn('username', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('password_hash', 'varchar(256)', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('sessions')
      .addColumn('key_hash', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('username', 'varchar(64)', (c) => c.notNull().references('admins.username').onDelete('cascade'))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('sessions_last_seen').on('sessions').column('last_seen_at').execute();
    await db.schema
      .createTable('wizard')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('step', 'integer', (c) => c.notNull())
      .addColumn('status', 'varchar(8)', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('settings')
      .addColumn('key', 'varchar(128)', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    for (const table of ['settings', 'wizard', 'sessions', 'admins']) {
      await db.schema.dropTable(table).execute();
    }
  },
};
