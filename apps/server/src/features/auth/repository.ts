import { type Kysely, sql } from 'kysely';
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

  /** False when the account exists already (another server process starting at the same time made it). */
  async insertAdmin(username: string, passwordHash: string, now: number): Promise<boolean> {
    const result = await this.db
      .insertInto('admins')
      .values({ username, password_hash: passwordHash, created_at: now, updated_at: now })
      .onConflict((oc) => oc.column('username').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
  }

  async insertSession(keyHash: string, username: string, now: number) {
    await this.db
      .insertInto('sessions')
      .values({ key_hash: keyHash, username, created_at: now, last_seen_at: now })
      .execute();
  }

  /** The session with its account's role; a removed account's keys find nothing. */
  findSession(keyHash: string) {
    return this.db
      .selectFrom('sessions')
      .innerJoin('admins', 'admins.username', 'sessions.username')
      .select(['sessions.username', 'sessions.last_seen_at', 'admins.role'])
      .where('sessions.key_hash', '=', keyHash)
      .executeTakeFirst();
  }

  /** Whether the account's listen-to-recordings flag is set (migration 0035). */
  async listensRecordings(username: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('admins')
      .select('listen_recordings')
      .where('username', '=', username)
      .executeTakeFirst();
    return Number(row?.listen_recordings ?? 0) === 1;
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

  findThrottle(accountHash: string) {
    return this.db
      .selectFrom('login_throttle')
      .select(['failures', 'locked_until'])
      .where('account_hash', '=', accountHash)
      .executeTakeFirst();
  }

  /** Counts one more attempt in a single statement (atomic across processes); returns the new count. */
  async countAttempt(accountHash: string, now: number): Promise<number> {
    const row = await this.db
      .insertInto('login_throttle')
      .values({ account_hash: accountHash, failures: 1, locked_until: 0, updated_at: now })
      .onConflict((oc) =>
        oc.column('account_hash').doUpdateSet({ failures: sql<number>`login_throttle.failures + 1`, updated_at: now }),
      )
      .returning('failures')
      .executeTakeFirstOrThrow();
    return Number(row.failures);
  }

  /** Locks the account until lockedUntil unless another attempt locked it first; true when this one did. */
  async claimLock(accountHash: string, lockedUntil: number, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('login_throttle')
      .set({ locked_until: lockedUntil })
      .where('account_hash', '=', accountHash)
      .where('locked_until', '<=', now)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async clearThrottle(accountHash: string) {
    await this.db.deleteFrom('login_throttle').where('account_hash', '=', accountHash).execute();
  }

  /** Forgets throttle rows untouched since cutoff whose lock has ended. */
  async deleteThrottlesIdleSince(cutoff: number) {
    await this.db
      .deleteFrom('login_throttle')
      .where('updated_at', '<', cutoff)
      .where('locked_until', '<', cutoff)
      .execute();
  }
}
