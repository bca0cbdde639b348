import type { Kysely, Migration } from 'kysely';

/** Delayed phone reboots (contract api-core §13.3): one pending time per phone, dropped once it fires. */
export const phoneReboots: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('phone_reboots')
      .addColumn('mac', 'varchar(17)', (c) => c.primaryKey())
      .addColumn('hours', 'integer', (c) => c.notNull())
      .addColumn('minutes', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('phone_reboots').execute();
  },
};
