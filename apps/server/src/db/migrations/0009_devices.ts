import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';

/** Devices of users (desk phones, custom SIP devices, web phone, mobile app, desktop client) and the phone inventory. */
export const devices: Migration = {
  async up(db: Kysely<unknown>) {
    const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
    await db.schema
      .createTable('devices')
      .addColumn('id', isPostgres ? sql`serial` : sql`integer`, (c) =>
        isPostgres ? c.primaryKey() : c.primaryKey().autoIncrement(),
      )
      .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('mac', 'varchar(17)', (c) => c.unique())
      .addColumn('vendor', 'varchar(64)')
      .addColumn('model', 'varchar(64)')
      .addColumn('line', 'integer', (c) => c.notNull())
      .addColumn('extension', 'varchar(16)', (c) => c.unique())
      .addColumn('secret', 'varchar(64)')
      .addColumn('web_user', 'varchar(128)')
      .addColumn('web_password', 'varchar(128)')
      .addColumn('type', 'varchar(32)', (c) => c.notNull())
      .addColumn('srtp', 'integer')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('devices_user').on('devices').column('user_id').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('devices').execute();
  },
};
