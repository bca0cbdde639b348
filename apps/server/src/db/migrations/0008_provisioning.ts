import { type Kysely, type Migration, sql } from 'kysely';

/**
 * Provisioning engine: writable scopes (defaults and models; shipped models live in the code and are copied
 * here on first write), phones with their tokens, uploaded files, and a generation counter that lets every
 * server process drop its rendered-file cache after a change.
 */
export const provisioning: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('prov_scopes')
      .addColumn('id', 'varchar(100)', (c) => c.primaryKey())
      .addColumn('scope_type', 'varchar(16)', (c) => c.notNull())
      .addColumn('display_name', 'varchar(200)')
      .addColumn('variables', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('prov_phones')
      .addColumn('mac', 'varchar(17)', (c) => c.primaryKey())
      .addColumn('model', 'varchar(100)')
      .addColumn('display_name', 'varchar(200)', (c) => c.notNull())
      .addColumn('variables', 'text', (c) => c.notNull())
      .addColumn('accounts', 'text', (c) => c.notNull())
      .addColumn('tok1', 'varchar(64)', (c) => c.unique())
      .addColumn('tok2', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('prov_phones_model').on('prov_phones').column('model').execute();
    await db.schema
      .createTable('prov_files')
      .addColumn('collection', 'varchar(16)', (c) => c.notNull())
      .addColumn('name', 'varchar(200)', (c) => c.notNull())
      .addColumn('stored_name', 'varchar(64)', (c) => c.notNull())
      .addColumn('size', 'bigint', (c) => c.notNull())
      .addColumn('mtime', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('prov_files_pk', ['collection', 'name'])
      .execute();
    await db.schema
      .createTable('prov_state')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('generation', 'bigint', (c) => c.notNull())
      .execute();
    await sql`insert into prov_state (id, generation) values (1, 0)`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    for (const table of ['prov_state', 'prov_files', 'prov_phones', 'prov_scopes']) {
      await db.schema.dropTable(table).execute();
    }
  },
};
