import { type Account, type AccountCreate, type AccountRole, accountCreateSchema } from '@centralino/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { hashPassword } from '../auth/password.ts';
import { TwoFactor } from '../auth/two-factor.ts';
import { AccountsRepository } from './repository.ts';

/** Console accounts: who may sign in, with which role. The rules (names, last administrator) live here. */
export class AccountsService {
  private readonly repo: AccountsRepository;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => number = Date.now,
  ) {
    this.repo = new AccountsRepository(db);
  }

  async list(): Promise<Account[]> {
    const rows = await this.repo.list();
    return rows.map((row) => ({
      username: row.username,
      role: row.role === 'admin' ? 'admin' : 'readonly',
      two_factor: row.totp_enabled_at !== null,
      listen_recordings: Number(row.listen_recordings) === 1,
      created_at: Number(row.created_at),
    }));
  }

  async create(body: AccountCreate): Promise<void> {
    const input = accountCreateSchema.parse(body);
    const hash = await hashPassword(input.password);
    const inserted = await this.repo.insert(input.username, hash, input.role, input.listen_recordings, this.now());
    if (!inserted) throw new AppError(409, 'account_exists');
  }

  async setRole(username: string, role: AccountRole): Promise<void> {
    this.check(await this.repo.setRole(username, role, this.now()));
  }

  async setListen(username: string, listen: boolean): Promise<void> {
    if (!(await this.repo.setListen(username, listen, this.now()))) throw new AppError(404, 'account_not_found');
  }

  async remove(username: string): Promise<void> {
    this.check(await this.repo.remove(username));
  }

  async resetPassword(username: string, password: string): Promise<void> {
    if (!(await this.repo.resetPassword(username, await hashPassword(password), this.now()))) {
      throw new AppError(404, 'account_not_found');
    }
  }

  async resetTwoFactor(username: string): Promise<void> {
    if (!(await new TwoFactor(this.db, this.now).reset(username))) throw new AppError(404, 'account_not_found');
  }

  private check(outcome: 'ok' | 'last' | 'missing') {
    if (outcome === 'last') throw new AppError(409, 'last_admin');
    if (outcome === 'missing') throw new AppError(404, 'account_not_found');
  }
}
