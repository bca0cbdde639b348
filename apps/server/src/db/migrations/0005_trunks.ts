import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';

/** PBX trunks: VoIP providers and the ports of physical gateways share one table, as routes use both. */
export const trunks: Migration = {
  async up(db: Kysely<unknown>) {
    const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
    await db.schema
      .createTable('trunks')
      .addColumn('id', isPostgres ? sql`serial` : sql`integer`, (c) =>
        isPostgres ? c.primaryKey() : c.primaryKey().autoIncrement(),
      )
      .addColumn('name', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('kind', 'varchar(16)', (c) => c.notNull())
      .addColumn('provider', 'varchar(64)')
      .addColumn('username', 'varchar(128)')
      .addColumn('secret', 'varchar(128)')
      .addColumn('phone', 'varchar(32)')
      .addColumn('codecs', 'varchar(255)', (c) => c.notNull())
      .addColumn('force_codec', 'integer', (c) => c.notNull())
      .addColumn('settings', 'text', (c) => c.notNull())
      .addColumn('gateway_id', 'integer')
      .addColumn('port_type', 'varchar(8)')
      .addColumn('port', 'varchar(16)')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('trunks_gateway').on('trunks').column('gateway_id').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('trunks').execute();
  },
};
