import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { decoyHash, hashPassword, randomPassword, verifyPassword } from './password.ts';
import { AuthRepository } from './repository.ts';

export const ADMIN_USERNAME = 'admin';
// Writing last_seen on every request would make each read a write; a minute is precise enough.
const TOUCH_INTERVAL_MS = 60_000;

function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export class AuthService {
  private readonly repo: AuthRepository;

  constructor(
    db: Kysely<Database>,
    private readonly idleMs: number,
    private readonly now: () => number = Date.now,
  ) {
    this.repo = new AuthRepository(db);
  }

  /** Creates the administrator on first start; returns the password when it was generated here. */
  async ensureAdmin(configuredPassword: string | undefined): Promise<{ created: boolean; generatedPassword?: string }> {
    if ((await this.repo.countAdmins()) > 0) return { created: false };
    const password = configuredPassword ?? randomPassword(16);
    await this.repo.insertAdmin(ADMIN_USERNAME, await hashPassword(password), this.now());
    return configuredPassword ? { created: true } : { created: true, generatedPassword: password };
  }

  /** Checks the password and issues a new random key; undefined when the credentials are wrong. */
  async login(username: string, password: string): Promise<{ user: string; secretkey: string } | undefined> {
    const admin = await this.repo.findAdmin(username.trim().toLowerCase());
    const ok = await verifyPassword(password, admin?.password_hash ?? (await decoyHash()));
    if (!admin || !ok) return undefined;
    const secretkey = randomBytes(32).toString('base64url');
    await this.repo.insertSession(hashKey(secretkey), admin.username, this.now());
    return { user: admin.username, secretkey };
  }

  /** The administrator a user/key pair belongs to, or undefined when unknown or idle too long. */
  async authenticate(user: string | undefined, key: string | undefined): Promise<string | undefined> {
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
    return session.username;
  }

  /**
   * Sets a new password for the administrator and signs out every other session of theirs; the
   * session of keepKey (the caller's) stays valid. The length rule is checked by the caller.
   */
  async changePassword(username: string, newPassword: string, keepKey: string): Promise<void> {
    const hash = await hashPassword(newPassword);
    await this.repo.changePassword(username.trim().toLowerCase(), hash, hashKey(keepKey), this.now());
  }

  async logout(key: string): Promise<void> {
    await this.repo.deleteSession(hashKey(key));
  }

  async purgeIdleSessions(): Promise<void> {
    await this.repo.deleteSessionsIdleSince(this.now() - this.idleMs);
  }
}
