import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

export class AuthRepository {
  constructor(private readonly db: Kysely<Database>) {}

  findAdmin(username: string) {
    return this.db.selectFrom('admins').selectAll().where('username', '=', username).executeTakeFirst();
  }

  async countAdmins(): Promise<number> {
    const row = await this.db
      .selectFrom('admins')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async insertAdmin(username: string, passwordHash: string, now: number) {
    await this.db
      .insertInto('admins')
      .values({ username, password_hash: passwordHash, created_at: now, updated_at: now })
      .execute();
  }

  async insertSession(keyHash: string, username: string, now: number) {
    await this.db
      .insertInto('sessions')
      .values({ key_hash: keyHash, username, created_at: now, last_seen_at: now })
      .execute();
  }

  findSession(keyHash: string) {
    return this.db.selectFrom('sessions').selectAll().where('key_hash', '=', keyHash).executeTakeFirst();
  }

  async touchSession(keyHash: string, now: number) {
    await this.db.updateTable('sessions').set({ last_seen_at: now }).where('key_hash', '=', keyHash).execute();
  }

  async deleteSession(keyHash: string) {
    await this.db.deleteFrom('sessions').where('key_hash', '=', keyHash).execute();
  }

  /** Stores the new hash and revokes every other key of the administrator, in one transaction. */
  async changePassword(username: string, passwordHash: string, keepKeyHash: string, now: number) {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('admins')
        .set({ password_hash: passwordHash, updated_at: now })
        .where('username', '=', username)
        .execute();
      await trx.deleteFrom('sessions').where('username', '=', username).where('key_hash', '!=', keepKeyHash).execute();
    });
  }

  async deleteSessionsIdleSince(cutoff: number) {
    await this.db.deleteFrom('sessions').where('last_seen_at', '<', cutoff).execute();
  }
}
