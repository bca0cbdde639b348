import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';

/**
 * Configured physical gateways and their ports. ISDN, PRI and FXO ports point at their trunk (table
 * trunks, kind 'gateway'); FXS ports carry the user's main extension and the device number made for it.
 */
export const gateways: Migration = {
  async up(db: Kysely<unknown>) {
    const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
    await db.schema
      .createTable('gateways')
      .addColumn('id', isPostgres ? sql`serial` : sql`integer`, (c) =>
        isPostgres ? c.primaryKey() : c.primaryKey().autoIncrement(),
      )
      .addColumn('model_id', 'integer', (c) => c.notNull())
      .addColumn('name', 'varchar(255)', (c) => c.notNull())
      .addColumn('manufacturer', 'varchar(64)', (c) => c.notNull())
      .addColumn('mac', 'varchar(17)', (c) => c.notNull().unique())
      .addColumn('ipv4', 'varchar(15)', (c) => c.notNull())
      .addColumn('ipv4_new', 'varchar(15)', (c) => c.notNull())
      .addColumn('gateway', 'varchar(15)', (c) => c.notNull())
      .addColumn('ipv4_green', 'varchar(255)', (c) => c.notNull())
      .addColumn('netmask_green', 'varchar(15)', (c) => c.notNull())
      .addColumn('proxy', 'varchar(255)', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('gateway_ports')
      .addColumn('gateway_id', 'integer', (c) => c.notNull().references('gateways.id').onDelete('cascade'))
      .addColumn('port_type', 'varchar(8)', (c) => c.notNull())
      /** 0-based position among the ports of the same type. */
      .addColumn('port_index', 'integer', (c) => c.notNull())
      .addColumn('trunk_id', 'integer')
      .addColumn('trunk_number', 'varchar(16)')
      .addColumn('protocol', 'varchar(8)')
      .addColumn('number', 'varchar(32)')
      .addColumn('extension', 'varchar(16)')
      .addColumn('physical_extension', 'varchar(16)')
      .addColumn('secret', 'varchar(64)')
      .addPrimaryKeyConstraint('gateway_ports_pk', ['gateway_id', 'port_type', 'port_index'])
      .execute();
    await db.schema
      .createIndex('gateway_ports_physical_extension')
      .unique()
      .on('gateway_ports')
      .column('physical_extension')
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('gateway_ports').execute();
    await db.schema.dropTable('gateways').execute();
  },
};
