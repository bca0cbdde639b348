import type { Kysely, Migration } from 'kysely';

/**
 * Per-account sign-in throttle: consecutive failed sign-ins per typed user name (stored as a SHA-256 of
 * the normalised name, so unknown names are throttled alike and no name is stored in clear) and the time
 * before which further attempts are refused. Shared by every server process using the database.
 */
export const loginThrottle: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('login_throttle')
      .addColumn('account_hash', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('failures', 'integer', (c) => c.notNull())
      .addColumn('locked_until', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('login_throttle').execute();
  },
};
