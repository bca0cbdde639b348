import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';

export class AccountsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  list() {
    return this.db
      .selectFrom('admins')
      .select(['username', 'role', 'totp_enabled_at', 'created_at', 'listen_recordings'])
      .orderBy('username')
      .execute();
  }

  find(username: string) {
    return this.db
      .selectFrom('admins')
      .select(['username', 'role', 'totp_enabled_at'])
      .where('username', '=', username)
      .executeTakeFirst();
  }

  /** Inserts unless the name exists; true when inserted. */
  async insert(username: string, passwordHash: string, role: string, listen: boolean, now: number): Promise<boolean> {
    const result = await this.db
      .insertInto('admins')
      .values({
        username,
        password_hash: passwordHash,
        role,
        listen_recordings: listen ? 1 : 0,
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) => oc.column('username').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /**
   * Keeps at least one `admin`: the statement itself checks that another administrator remains, so two
   * processes removing the last two administrators at once cannot both win on SQLite (one writer), and on
   * PostgreSQL the row locks of the update/delete serialise them on the rows they touch.
   */
  private otherAdminExists(username: string) {
    return sql<boolean>`exists (select 1 from admins a2 where a2.role = 'admin' and a2.username <> ${username})`;
  }

  /** Changes the role; 'last' when it would leave no administrator, 'missing' when there is no such account. */
  async setRole(username: string, role: string, now: number): Promise<'ok' | 'last' | 'missing'> {
    return this.db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable('admins')
        .set({ role, updated_at: now })
        .where('username', '=', username)
        .where((eb) => eb.or([eb(sql.lit(role), '=', 'admin'), this.otherAdminExists(username)]))
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) > 0) return 'ok';
      const exists = await trx
        .selectFrom('admins')
        .select('username')
        .where('username', '=', username)
        .executeTakeFirst();
      return exists ? 'last' : 'missing';
    });
  }

  /** Whether the account may listen to call recordings; false when there is no such account. */
  async setListen(username: string, listen: boolean, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('admins')
      .set({ listen_recordings: listen ? 1 : 0, updated_at: now })
      .where('username', '=', username)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Removes the account with its keys, codes and pending sign-ins, unless it is the last administrator. */
  async remove(username: string): Promise<'ok' | 'last' | 'missing'> {
    return this.db.transaction().execute(async (trx) => {
      const result = await trx
        .deleteFrom('admins')
        .where('username', '=', username)
        .where((eb) => eb.or([eb('role', '<>', 'admin'), this.otherAdminExists(username)]))
        .executeTakeFirst();
      if (Number(result.numDeletedRows) === 0) {
        const exists = await trx
          .selectFrom('admins')
          .select('username')
          .where('username', '=', username)
          .executeTakeFirst();
        return exists ? 'last' : 'missing';
      }
      await trx.deleteFrom('sessions').where('username', '=', username).execute();
      await trx.deleteFrom('admin_recovery_codes').where('username', '=', username).execute();
      await trx.deleteFrom('login_challenges').where('username', '=', username).execute();
      return 'ok';
    });
  }

  /** Sets a new password and signs the account out everywhere; false when there is no such account. */
  async resetPassword(username: string, passwordHash: string, now: number): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable('admins')
        .set({ password_hash: passwordHash, updated_at: now })
        .where('username', '=', username)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return false;
      await trx.deleteFrom('sessions').where('username', '=', username).execute();
      return true;
    });
  }
}
