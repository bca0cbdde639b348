import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';

export const routes: Migration = {
  async up(db: Kysely<unknown>) {
    const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
    const id = isPostgres ? sql`serial` : sql`integer`;
    await db.schema
      .createTable('outbound_routes')
      .addColumn('id', id, (c) => (isPostgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
      .addColumn('name', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('seq', 'integer', (c) => c.notNull())
      .addColumn('outcid', 'varchar(32)', (c) => c.notNull())
      .addColumn('emergency', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('outbound_route_patterns')
      .addColumn('route_id', 'integer', (c) => c.notNull().references('outbound_routes.id').onDelete('cascade'))
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('prepend', 'varchar(32)', (c) => c.notNull())
      .addColumn('prefix', 'varchar(32)', (c) => c.notNull())
      .addColumn('pattern', 'varchar(64)', (c) => c.notNull())
      .addColumn('cid', 'varchar(32)', (c) => c.notNull())
      .addPrimaryKeyConstraint('outbound_route_patterns_pk', ['route_id', 'position'])
      .execute();
    // Deleting a trunk takes it out of every route (the original did the same by hand).
    await db.schema
      .createTable('outbound_route_trunks')
      .addColumn('route_id', 'integer', (c) => c.notNull().references('outbound_routes.id').onDelete('cascade'))
      .addColumn('trunk_id', 'integer', (c) => c.notNull().references('trunks.id').onDelete('cascade'))
      .addColumn('position', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('outbound_route_trunks_pk', ['route_id', 'trunk_id'])
      .execute();
    await db.schema
      .createTable('inbound_routes')
      .addColumn('id', id, (c) => (isPostgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
      .addColumn('did', 'varchar(64)', (c) => c.notNull())
      .addColumn('cid', 'varchar(64)', (c) => c.notNull())
      .addColumn('description', 'varchar(255)', (c) => c.notNull())
      .addColumn('destination', 'varchar(128)', (c) => c.notNull())
      .addUniqueConstraint('inbound_routes_did_cid', ['did', 'cid'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    for (const table of ['inbound_routes', 'outbound_route_trunks', 'outbound_route_patterns', 'outbound_routes']) {
      await db.schema.dropTable(table).execute();
    }
  },
};
