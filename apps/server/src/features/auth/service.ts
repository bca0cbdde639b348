import { createHash, randomBytes } from 'node:crypto';
import type { AccountRole } from '@centralino/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { hashPassword, makeDecoyHash, randomPassword, verifyPassword } from './password.ts';
import { AuthRepository } from './repository.ts';
import { TwoFactor } from './two-factor.ts';

export const ADMIN_USERNAME = 'admin';
// Writing last_seen on every request would make each read a write; a minute is precise enough.
const TOUCH_INTERVAL_MS = 60_000;

/**
 * Per-account throttle: the first LOGIN_FREE_ATTEMPTS - 1 consecutive failures of a user name cost
 * nothing; from the LOGIN_FREE_ATTEMPTS-th attempt on, each attempt locks the name for a delay that
 * doubles (LOGIN_LOCK_BASE_MS, 2×, 4×, … up to LOGIN_LOCK_MAX_MS) and attempts while locked are refused
 * without checking the password. A success clears the count. Unknown names are throttled alike.
 */
export const LOGIN_FREE_ATTEMPTS = 5;
export const LOGIN_LOCK_BASE_MS = 30_000;
export const LOGIN_LOCK_MAX_MS = 15 * 60_000;
// Throttle rows of names nobody tried for a day are forgotten at start.
const THROTTLE_FORGET_MS = 24 * 60 * 60_000;

export function lockDelayMs(attempt: number): number {
  const steps = Math.max(0, attempt - LOGIN_FREE_ATTEMPTS);
  return steps >= 15 ? LOGIN_LOCK_MAX_MS : Math.min(LOGIN_LOCK_BASE_MS * 2 ** steps, LOGIN_LOCK_MAX_MS);
}

/** The key of a typed user name in the throttle table and in logs: never the name itself. */
export function accountHash(username: string): string {
  return createHash('sha256').update(`centralino-login:${username.trim().toLowerCase()}`).digest('hex');
}

export type LoginResult =
  | { ok: true; user: string; secretkey: string }
  /** The password was right and the account has a second factor: the code is due (POST /api/login/code). */
  | { ok: 'challenge'; user: string; challenge: string }
  /** A wrong second factor: the account is known (the password was right). */
  | { ok: false; reason: 'code'; account: string; user: string }
  /** The pending sign-in is unknown or older than CHALLENGE_TTL_MS: sign in again. */
  | { ok: false; reason: 'expired'; account: string }
  /** account: a short hash of the typed name, for logs. */
  | { ok: false; reason: 'failed'; account: string }
  | { ok: false; reason: 'locked'; account: string; retryAt: number };

/** Whether the caller proved to own the account (POST /api/users/admin/password). */
export type OwnerCheck =
  | { ok: true }
  | { ok: false; reason: 'missing' | 'wrong'; account: string }
  | { ok: false; reason: 'locked'; account: string; retryAt: number };

export interface SignedIn {
  username: string;
  role: AccountRole;
}

function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export class AuthService {
  private readonly repo: AuthRepository;
  readonly twoFactor: TwoFactor;
  /** Built at construction, so the first failed sign-in is not slower than the others. */
  private readonly decoy: Promise<string>;
  private decoyBuilt = false;
  private refusedCount = 0;

  constructor(
    db: Kysely<Database>,
    private readonly idleMs: number,
    private readonly now: () => number = Date.now,
  ) {
    this.repo = new AuthRepository(db);
    this.twoFactor = new TwoFactor(db, now);
    this.decoy = makeDecoyHash();
    this.decoy.then(
      () => {
        this.decoyBuilt = true;
      },
      () => {},
    );
  }

  /** Resolves once the decoy hash exists (the app waits for it before it is ready). */
  async warmUp(): Promise<void> {
    await this.decoy;
  }

  get decoyReady(): boolean {
    return this.decoyBuilt;
  }

  /** Sign-ins refused by the per-account throttle since this process started. */
  get lockedRefusals(): number {
    return this.refusedCount;
  }

  /** Creates the administrator on first start; returns the password when it was generated here. */
  async ensureAdmin(configuredPassword: string | undefined): Promise<{ created: boolean; generatedPassword?: string }> {
    if ((await this.repo.countAdmins()) > 0) return { created: false };
    const password = configuredPassword ?? randomPassword(16);
    // Two processes starting together both count none: one inserts, the other's password is not the one in use.
    if (!(await this.repo.insertAdmin(ADMIN_USERNAME, await hashPassword(password), this.now()))) {
      return { created: false };
    }
    return configuredPassword ? { created: true } : { created: true, generatedPassword: password };
  }

  /**
   * Checks the password and issues a new random key, within the per-account throttle. The answer is the
   * same whether the account exists or not.
   */
  async login(username: string, password: string): Promise<LoginResult> {
    const name = username.trim().toLowerCase();
    const key = accountHash(name);
    const account = key.slice(0, 16);
    const refused = await this.countAttempt(key, account);
    if (refused) return refused;
    const admin = await this.repo.findAdmin(name);
    const ok = await verifyPassword(password, admin?.password_hash ?? (await this.decoy));
    if (!admin || !ok) return { ok: false, reason: 'failed', account };
    // With a second factor the attempt count stays until the code is right: the throttle covers both steps.
    if (admin.totp_enabled_at !== null) {
      return { ok: 'challenge', user: admin.username, challenge: await this.twoFactor.challenge(admin.username) };
    }
    return this.signIn(key, admin.username);
  }

  /** The second step: a TOTP or recovery code for the pending sign-in named by `challenge`, throttled alike. */
  async secondFactor(challenge: string, code: string): Promise<LoginResult> {
    const user = await this.twoFactor.challengeUser(challenge);
    if (!user) return { ok: false, reason: 'expired', account: '' };
    const key = accountHash(user);
    const account = key.slice(0, 16);
    const refused = await this.countAttempt(key, account);
    if (refused) return refused;
    if (!(await this.twoFactor.verify(challenge, user, code))) return { ok: false, reason: 'code', account, user };
    return this.signIn(key, user);
  }

  /** Counts an attempt of a typed name within the throttle; the refusal when it is locked. */
  private async countAttempt(key: string, account: string): Promise<LoginResult | undefined> {
    const now = this.now();
    const refuse = (retryAt: number): LoginResult => {
      this.refusedCount++;
      return { ok: false, reason: 'locked', account, retryAt };
    };
    const throttle = await this.repo.findThrottle(key);
    if (throttle && Number(throttle.locked_until) > now) return refuse(Number(throttle.locked_until));
    // Counted before the password is checked, so parallel attempts cannot all slip under the limit.
    const attempt = await this.repo.countAttempt(key, now);
    if (attempt >= LOGIN_FREE_ATTEMPTS && !(await this.repo.claimLock(key, now + lockDelayMs(attempt), now))) {
      const current = await this.repo.findThrottle(key);
      return refuse(Number(current?.locked_until ?? now + lockDelayMs(attempt)));
    }
    return undefined;
  }

  private async signIn(key: string, user: string): Promise<LoginResult> {
    await this.repo.clearThrottle(key);
    const secretkey = randomBytes(32).toString('base64url');
    await this.repo.insertSession(hashKey(secretkey), user, this.now());
    return { ok: true, user, secretkey };
  }

  async accountExists(username: string): Promise<boolean> {
    return (await this.repo.findAdmin(username.trim().toLowerCase())) !== undefined;
  }

  /** Who may play and download call recordings: an admin always, a read-only account when its flag allows. */
  async mayListen(username: string, role: AccountRole | undefined): Promise<boolean> {
    if (role === 'admin') return true;
    return username !== '' && (await this.repo.listensRecordings(username));
  }

  /** The account a user/key pair belongs to with its role, or undefined when unknown or idle too long. */
  async authenticate(user: string | undefined, key: string | undefined): Promise<SignedIn | undefined> {
    if (!user || !key || key.length > 128) return undefined;
    const keyHash = hashKey(key);
    const session = await this.repo.findSession(keyHash);
    if (!session || session.username !== user.trim().toLowerCase()) return undefined;
    const now = this.now();
    if (now - session.last_seen_at > this.idleMs) {
      await this.repo.deleteSession(keyHash);
      return undefined;
    }
    // Touch well inside the idle window, or a short one (1 minute) would expire sessions that are in use.
    if (now - session.last_seen_at > Math.min(TOUCH_INTERVAL_MS, this.idleMs / 10)) {
      await this.repo.touchSession(keyHash, now);
    }
    return { username: session.username, role: session.role === 'admin' ? 'admin' : 'readonly' };
  }

  /**
   * Sets a new password for the administrator and signs out every other session of theirs; the
   * session of keepKey (the caller's) stays valid. The length rule is checked by the caller.
   */
  async changePassword(username: string, newPassword: string, keepKey: string): Promise<void> {
    const hash = await hashPassword(newPassword);
    await this.repo.changePassword(username.trim().toLowerCase(), hash, hashKey(keepKey), this.now());
  }

  /**
   * Proof that the signed-in caller owns the account before its password changes: the current password, or for
   * an account with a second factor a code from the app or a recovery code (spent). A wrong proof counts as a
   * failed sign-in of the account (the same throttle), so a stolen key cannot be used to guess the password.
   */
  async confirmOwner(username: string, proof: { current_password?: string; code?: string }): Promise<OwnerCheck> {
    const name = username.trim().toLowerCase();
    const key = accountHash(name);
    const account = key.slice(0, 16);
    const password = proof.current_password ?? '';
    const code = proof.code?.trim() ?? '';
    if (password === '' && code === '') return { ok: false, reason: 'missing', account };
    const refused = await this.countAttempt(key, account);
    if (refused?.ok === false && refused.reason === 'locked') return refused;
    let ok = false;
    if (password !== '') {
      const admin = await this.repo.findAdmin(name);
      ok = await verifyPassword(password, admin?.password_hash ?? (await this.decoy));
      ok &&= admin !== undefined;
    }
    if (!ok && code !== '') ok = await this.twoFactor.verifyCode(name, code);
    if (!ok) return { ok: false, reason: 'wrong', account };
    await this.repo.clearThrottle(key);
    return { ok: true };
  }

  /** Turns the caller's second factor on; every other session of the account ends, keepKey's stays. */
  async enableTwoFactor(username: string, code: string, keepKey: string): Promise<string[]> {
    return this.twoFactor.enable(username, code, hashKey(keepKey));
  }

  async logout(key: string): Promise<void> {
    await this.repo.deleteSession(hashKey(key));
  }

  async purgeIdleSessions(): Promise<void> {
    await this.repo.deleteSessionsIdleSince(this.now() - this.idleMs);
    await this.repo.deleteThrottlesIdleSince(this.now() - THROTTLE_FORGET_MS);
  }
}
