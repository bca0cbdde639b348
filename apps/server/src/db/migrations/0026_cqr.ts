import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';

/**
 * Caller query routing (issue 26): a query on a customer-card source with the caller's number bound, whose first
 * value picks an entry's destination (nethcqr,<id>,1), else the default. Entries are ordered as entered.
 */
export const cqr: Migration = {
  async up(db: Kysely<unknown>) {
    const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
    const serial = isPostgres ? sql`serial` : sql`integer`;
    await db.schema
      .createTable('cqrs')
      .addColumn('id', serial, (c) => (isPostgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
      .addColumn('name', 'varchar(80)', (c) => c.notNull().unique())
      .addColumn('source_id', 'integer', (c) => c.notNull().references('card_sources.id'))
      .addColumn('query', 'text', (c) => c.notNull())
      .addColumn('timeout', 'integer', (c) => c.notNull())
      .addColumn('default_dest', 'varchar(200)', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('cqr_entries')
      .addColumn('cqr_id', 'integer', (c) => c.notNull().references('cqrs.id'))
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('value', 'varchar(200)', (c) => c.notNull())
      .addColumn('dest', 'varchar(200)', (c) => c.notNull())
      .addPrimaryKeyConstraint('cqr_entries_pk', ['cqr_id', 'position'])
      .execute();
    await db.schema.createIndex('cqr_entries_dest').on('cqr_entries').column('dest').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('cqr_entries').execute();
    await db.schema.dropTable('cqrs').execute();
  },
};
