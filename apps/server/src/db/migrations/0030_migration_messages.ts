import type { Kysely, Migration } from 'kysely';

/**
 * The migration report in the reader's language (issue 27): each row keeps the catalogue key of its line and its
 * parameters, rendered when the report is read. Rows written before keep only their English `message`, still shown.
 */
export const migrationMessages: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('migration_report').addColumn('message_key', 'varchar(60)').execute();
    await db.schema.alterTable('migration_report').addColumn('params', 'text').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('migration_report').dropColumn('params').execute();
    await db.schema.alterTable('migration_report').dropColumn('message_key').execute();
  },
};
