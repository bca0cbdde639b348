import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';

/** The contact fields of the central phonebook (spec §3 "destination columns", contract api-admin §9.1). */
export const PHONEBOOK_FIELDS = [
  'owner_id',
  'type',
  'name',
  'company',
  'title',
  'notes',
  'cellphone',
  'workphone',
  'homephone',
  'fax',
  'workemail',
  'homeemail',
  'homestreet',
  'homepob',
  'homecity',
  'homeprovince',
  'homepostalcode',
  'homecountry',
  'workstreet',
  'workpob',
  'workcity',
  'workprovince',
  'workpostalcode',
  'workcountry',
  'url',
] as const;

/**
 * Phonebook sources (MySQL/MariaDB queries and CSV files, synced at their interval) and the central phonebook
 * they fill, which the phones' LDAP service answers from. A source's contacts are replaced in one transaction
 * per sync, so they carry the source's id.
 */
export const phonebook: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('phonebook_sources')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('dbtype', 'varchar(16)', (c) => c.notNull())
      /** Connection without the password: host, port, user, dbname, query (mysql) or url (csv). */
      .addColumn('config', 'text', (c) => c.notNull())
      .addColumn('password', 'text')
      /** Source column → destination field, JSON. */
      .addColumn('mapping', 'text', (c) => c.notNull())
      /** The label shown on the card and stored in each contact's type. */
      .addColumn('type', 'varchar(255)', (c) => c.notNull())
      .addColumn('interval', 'integer', (c) => c.notNull().defaultTo(1440))
      .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(0))
      /** An uploaded CSV (generated name under DATA_DIR/phonebook), deleted with the source. */
      .addColumn('file', 'varchar(255)')
      .addColumn('last_sync_at', 'bigint')
      .addColumn('last_sync_count', 'integer')
      .addColumn('last_sync_skipped', 'integer')
      .addColumn('last_sync_error', 'text')
      /** The source_id its current contacts carry: a sync writes new ones under a new key, then switches. */
      .addColumn('contacts_key', 'varchar(100)')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
    let contacts = db.schema
      .createTable('phonebook_contacts')
      .addColumn('id', isPostgres ? sql`serial` : sql`integer`, (c) =>
        isPostgres ? c.primaryKey() : c.primaryKey().autoIncrement(),
      )
      /** The contacts key of a source (phonebook_sources.contacts_key), or 'extensions' for the PBX users. */
      .addColumn('source_id', 'varchar(64)', (c) => c.notNull());
    for (const field of PHONEBOOK_FIELDS) contacts = contacts.addColumn(field, 'varchar(255)');
    await contacts.execute();
    await db.schema.createIndex('phonebook_contacts_source').on('phonebook_contacts').column('source_id').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('phonebook_contacts').execute();
    await db.schema.dropTable('phonebook_sources').execute();
  },
};
