import type { Kysely, Migration } from 'kysely';

/**
 * Issue 28, part A, in one migration:
 * - administrator accounts get a role (`admin` may change things, `readonly` may only look) and the
 *   two-factor state (TOTP secret, enabled time) plus hashed recovery codes;
 * - a pending second sign-in step (`login_challenges`): the password was right, the code is still due; kept in
 *   the database so any server process can finish the sign-in;
 * - the audit log, written in the same transaction as the change it records.
 */
export const accountsAudit2fa: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('admins')
      .addColumn('role', 'varchar(16)', (c) => c.notNull().defaultTo('admin'))
      .execute();
    await db.schema.alterTable('admins').addColumn('totp_secret', 'varchar(64)').execute();
    await db.schema.alterTable('admins').addColumn('totp_enabled_at', 'bigint').execute();
    // The last time step accepted, so one code cannot be replayed inside its window.
    await db.schema.alterTable('admins').addColumn('totp_last_step', 'bigint').execute();
    await db.schema
      .createTable('admin_recovery_codes')
      .addColumn('username', 'varchar(64)', (c) => c.notNull())
      .addColumn('code_hash', 'varchar(64)', (c) => c.notNull())
      .addPrimaryKeyConstraint('admin_recovery_codes_pk', ['username', 'code_hash'])
      .execute();
    await db.schema
      .createTable('login_challenges')
      .addColumn('token_hash', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('username', 'varchar(64)', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('audit_log')
      .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('at', 'bigint', (c) => c.notNull())
      .addColumn('actor', 'varchar(64)', (c) => c.notNull())
      .addColumn('address', 'varchar(64)', (c) => c.notNull())
      .addColumn('action', 'varchar(32)', (c) => c.notNull())
      .addColumn('method', 'varchar(8)', (c) => c.notNull())
      .addColumn('path', 'varchar(400)', (c) => c.notNull())
      .addColumn('object', 'varchar(400)', (c) => c.notNull())
      .addColumn('status', 'integer', (c) => c.notNull())
      // JSON: { before, after } of the fields that changed (secrets redacted), or the request body when unknown.
      .addColumn('changes', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('audit_log_at').on('audit_log').columns(['at']).execute();
    await db.schema.createIndex('audit_log_actor_at').on('audit_log').columns(['actor', 'at']).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('audit_log').execute();
    await db.schema.dropTable('login_challenges').execute();
    await db.schema.dropTable('admin_recovery_codes').execute();
    for (const column of ['totp_last_step', 'totp_enabled_at', 'totp_secret', 'role']) {
      await db.schema.alterTable('admins').dropColumn(column).execute();
    }
  },
};
