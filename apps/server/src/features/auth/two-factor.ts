import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { newRecoveryCodes, newTotpSecret, normaliseRecoveryCode, otpauthUri, verifyTotp } from './totp.ts';

/** A pending second step lasts this long after the password was accepted. */
export const CHALLENGE_TTL_MS = 5 * 60_000;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * Second sign-in factor of console accounts: TOTP enrolment, recovery codes (stored hashed, each usable once),
 * the pending second step of a sign-in (in the database, so any server process can finish it) and resets.
 */
export class TwoFactor {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => number,
  ) {}

  async enabled(username: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('admins')
      .select('totp_enabled_at')
      .where('username', '=', username)
      .executeTakeFirst();
    return row?.totp_enabled_at !== null && row?.totp_enabled_at !== undefined;
  }

  /** Starts (or restarts) enrolment: a new secret, used only once a code from it is confirmed. */
  async setup(username: string): Promise<{ secret: string; uri: string }> {
    if (await this.enabled(username)) throw new AppError(409, 'second_factor_enabled');
    const secret = newTotpSecret();
    await this.db.updateTable('admins').set({ totp_secret: secret }).where('username', '=', username).execute();
    return { secret, uri: otpauthUri('Centralino', username, secret) };
  }

  /**
   * Confirms enrolment with a code from the app; returns the recovery codes, shown this once. Every other session
   * of the account ends in the same transaction (one signed in before, perhaps by someone who knew the password,
   * would otherwise keep its access); the caller's session (keepKeyHash) stays.
   */
  async enable(username: string, code: string, keepKeyHash: string): Promise<string[]> {
    const row = await this.db
      .selectFrom('admins')
      .select(['totp_secret', 'totp_enabled_at'])
      .where('username', '=', username)
      .executeTakeFirst();
    if (!row?.totp_secret || row.totp_enabled_at !== null) throw new AppError(409, 'second_factor_enabled');
    const step = verifyTotp(row.totp_secret, code.trim(), this.now());
    if (step === undefined) throw new AppError(400, 'second_factor_failed');
    const codes = newRecoveryCodes();
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('admins')
        .set({ totp_enabled_at: this.now(), totp_last_step: step })
        .where('username', '=', username)
        .execute();
      await trx.deleteFrom('admin_recovery_codes').where('username', '=', username).execute();
      await trx
        .insertInto('admin_recovery_codes')
        .values(codes.map((c) => ({ username, code_hash: sha256(normaliseRecoveryCode(c)) })))
        .execute();
      await trx.deleteFrom('sessions').where('username', '=', username).where('key_hash', '!=', keepKeyHash).execute();
    });
    return codes;
  }

  /** Turns the second factor off (another administrator's reset, or the command line); false when no account. */
  async reset(username: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable('admins')
        .set({ totp_secret: null, totp_enabled_at: null, totp_last_step: null })
        .where('username', '=', username)
        .executeTakeFirst();
      await trx.deleteFrom('admin_recovery_codes').where('username', '=', username).execute();
      await trx.deleteFrom('login_challenges').where('username', '=', username).execute();
      return Number(result.numUpdatedRows) > 0;
    });
  }

  /** After a right password: a one-time token naming the pending sign-in. */
  async challenge(username: string): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    const now = this.now();
    await this.db
      .deleteFrom('login_challenges')
      .where('created_at', '<', now - CHALLENGE_TTL_MS)
      .execute();
    await this.db
      .insertInto('login_challenges')
      .values({ token_hash: sha256(token), username, created_at: now })
      .execute();
    return token;
  }

  /** The account of a live challenge, or undefined. */
  async challengeUser(token: string): Promise<string | undefined> {
    if (token.length > 128) return undefined;
    const row = await this.db
      .selectFrom('login_challenges')
      .select(['username', 'created_at'])
      .where('token_hash', '=', sha256(token))
      .executeTakeFirst();
    if (!row || this.now() - Number(row.created_at) > CHALLENGE_TTL_MS) return undefined;
    return row.username;
  }

  /**
   * Checks a TOTP code (each time step accepted once: the update claims it, so two processes cannot both accept
   * one code) or a recovery code (deleted as it is used). On success the challenge is spent.
   */
  async verify(token: string, username: string, code: string): Promise<boolean> {
    const ok = await this.verifyCode(username, code);
    if (ok) await this.db.deleteFrom('login_challenges').where('token_hash', '=', sha256(token)).execute();
    return ok;
  }

  /**
   * A TOTP code or a recovery code of an account with a second factor, spent as at sign-in (also the proof of
   * ownership a password change accepts); false when the account has none.
   */
  async verifyCode(username: string, code: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('admins')
      .select(['totp_secret', 'totp_last_step', 'totp_enabled_at'])
      .where('username', '=', username)
      .executeTakeFirst();
    if (!row?.totp_secret || row.totp_enabled_at === null) return false;
    const step = verifyTotp(row.totp_secret, code.trim(), this.now(), Number(row.totp_last_step ?? -1));
    if (step !== undefined) {
      const claimed = await this.db
        .updateTable('admins')
        .set({ totp_last_step: step })
        .where('username', '=', username)
        .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
        .executeTakeFirst();
      return Number(claimed.numUpdatedRows) > 0;
    }
    const used = await this.db
      .deleteFrom('admin_recovery_codes')
      .where('username', '=', username)
      .where('code_hash', '=', sha256(normaliseRecoveryCode(code)))
      .executeTakeFirst();
    return Number(used.numDeletedRows) > 0;
  }
}
