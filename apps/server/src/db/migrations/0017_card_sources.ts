import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';

/**
 * Customer-card sources (contract api-admin §6.1): database connections a card's query runs on. Two built-in
 * rows point at Centralino's own database, read-only to cards: the central phonebook (`phonebook`, id 1) and the
 * call records (`asteriskcdrdb`, id 2), as the original's default data numbers them. The password is stored for
 * connecting and never answered.
 */
export const cardSources: Migration = {
  async up(db: Kysely<unknown>) {
    const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
    await db.schema
      .createTable('card_sources')
      .addColumn('id', isPostgres ? sql`serial` : sql`integer`, (c) =>
        isPostgres ? c.primaryKey() : c.primaryKey().autoIncrement(),
      )
      /** The database name; unique among all sources, so a card's source select is never ambiguous. */
      .addColumn('name', 'varchar(255)', (c) => c.notNull().unique())
      /** A key of CARD_SOURCE_TYPES, or 'centralino' for the built-in rows. */
      .addColumn('type', 'varchar(32)', (c) => c.notNull())
      .addColumn('host', 'varchar(255)')
      .addColumn('port', 'integer')
      .addColumn('user', 'varchar(255)')
      .addColumn('password', 'text')
      .addColumn('builtin', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    const now = Date.now();
    // Inserted in this order into the fresh table, so they get ids 1 and 2 on both databases.
    for (const name of ['phonebook', 'asteriskcdrdb']) {
      await sql`insert into card_sources (name, type, builtin, created_at) values (${name}, 'centralino', 1, ${now})`.execute(
        db,
      );
    }
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('card_sources').execute();
  },
};
