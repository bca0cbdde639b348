import { type Kysely, type Migration, sql } from 'kysely';

/** PBX engine: SIP secrets of main extensions and the state of the configuration apply. */
export const pbx: Migration = {
  async up(db: Kysely<unknown>) {
    // The main extension is a SIP account of its own (contract asterisk §1.2); devices keep theirs with them.
    await db.schema
      .createTable('pbx_secrets')
      .addColumn('extension', 'varchar(16)', (c) => c.primaryKey())
      .addColumn('secret', 'varchar(64)', (c) => c.notNull())
      .execute();
    // One row: generation counts changes, applied_generation the last one written; last_* the last apply.
    await db.schema
      .createTable('pbx_apply')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('generation', 'bigint', (c) => c.notNull())
      .addColumn('applied_generation', 'bigint', (c) => c.notNull())
      .addColumn('last', 'text')
      .execute();
    await sql`insert into pbx_apply (id, generation, applied_generation, last) values (1, 1, 0, null)`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('pbx_apply').execute();
    await db.schema.dropTable('pbx_secrets').execute();
  },
};
