import { randomInt } from 'node:crypto';
import {
  type CreatedUser,
  type FinalReportRow,
  NEW_USER_PASSWORD_LENGTH,
  NO_EXTENSION,
  type User,
  type UserLimits,
  type UserListQuery,
} from '@centralino/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { describeReferences, destinationsOfExtension, referencesTo } from '../destinations/catalogue.ts';
import { releaseDevicesOfUsers } from '../devices/release.ts';
import { type DeviceRow, type DevicesService, toDevice } from '../devices/service.ts';
import { directoryPasswordHash } from '../directory/password.ts';
import type { DirectoryService } from '../directory/service.ts';
import { assertMainExtensionFree } from '../numbering/allocate.ts';
import { extensionColumns, searchKey, toUser, UsersRepository } from './repository.ts';

/**
 * Users read per query when the unpaged list is made (unpaged.ts): on SQLite a read of 1,000 by id holds the event
 * loop for a few milliseconds, and PostgreSQL is asked half as many round trips as with 500.
 */
export const UNPAGED_CHUNK = 1_000;

const LETTERS_AND_DIGITS = 'abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** Random password of letters and digits with at least one of each (spec §5: 8 characters). */
export function randomUserPassword(length = NEW_USER_PASSWORD_LENGTH): string {
  for (;;) {
    let out = '';
    for (let i = 0; i < length; i++) out += LETTERS_AND_DIGITS[randomInt(LETTERS_AND_DIGITS.length)];
    if (/[0-9]/.test(out) && /[a-zA-Z]/.test(out)) return out;
  }
}

/** A unique-constraint violation on either database. */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || /UNIQUE constraint/.test(e?.message ?? '');
}

export class UsersService {
  readonly repo: UsersRepository;

  constructor(
    private readonly db: Kysely<Database>,
    readonly directory: DirectoryService,
    private readonly extensionLimit: number | undefined,
    private readonly devices?: DevicesService,
    /** Accounts registered right now, from the PBX's live state (empty when not connected). */
    private readonly registered: () => Promise<Set<string>> = async () => new Set(),
  ) {
    this.repo = new UsersRepository(db);
  }

  /**
   * Every user the query selects, a page at a time (the unpaged list of older clients): the caller writes
   * each page out before the next is read, so 5,000 users never sit in memory as one answer.
   */
  async *allPages(query: UserListQuery, pageSize = UNPAGED_CHUNK): AsyncGenerator<User[]> {
    for (let offset = 0; ; offset += pageSize) {
      const { users } = await this.list({ ...query, offset, limit: pageSize }, false);
      if (users.length > 0) yield users;
      if (users.length < pageSize) return;
    }
  }

  /** Accounts registered right now (what each listed device's `registered` says). */
  registeredAccounts(): Promise<Set<string>> {
    return this.registered();
  }

  async list(query: UserListQuery, withTotal = true): Promise<{ users: User[]; total: number }> {
    const { rows, total } = await this.repo.list(query, withTotal);
    const [devices, registered] = await Promise.all([
      this.devices?.byUser(rows.map((r) => Number(r.id))) ?? new Map<number, DeviceRow[]>(),
      this.registered(),
    ]);
    return {
      users: rows.map((row) => ({
        ...toUser(row),
        devices: (devices.get(Number(row.id)) ?? []).map((d) =>
          toDevice(d, d.extension !== null && registered.has(d.extension)),
        ),
      })),
      total,
    };
  }

  private async requireLocal(): Promise<void> {
    const provider = await this.directory.provider();
    if (!provider) throw new AppError(409, 'directory_not_configured');
    if (provider.kind !== 'local') throw new AppError(409, 'directory_read_only');
  }

  /** Adds a user to the built-in directory with a random password (returned once, kept for the report). */
  async create(username: string, fullname: string): Promise<CreatedUser> {
    await this.requireLocal();
    const password = randomUserPassword();
    const now = Date.now();
    try {
      const row = await this.db
        .insertInto('users')
        .values({
          username,
          displayname: fullname,
          ...splitName(fullname),
          email: null,
          source: 'local',
          password_hash: directoryPasswordHash(password),
          password_clear: password,
          ...extensionColumns(null),
          outboundcid: null,
          mobile: null,
          voicemail_pin: null,
          profile_id: null,
          search_key: searchKey(username, fullname, null),
          created_at: now,
          updated_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return { ...toUser(row), password };
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError(409, 'user_exists', undefined, { username: 'exists' });
      throw error;
    }
  }

  async setPassword(username: string, password: string): Promise<void> {
    await this.requireLocal();
    const result = await this.db
      .updateTable('users')
      .set({ password_hash: directoryPasswordHash(password), password_clear: password, updated_at: Date.now() })
      .where('username', '=', username)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) throw new AppError(404, 'user_not_found');
  }

  async storedPassword(username: string): Promise<string | null> {
    const user = await this.repo.findByUsername(username);
    if (!user) throw new AppError(404, 'user_not_found');
    return user.password_clear;
  }

  async limits(): Promise<UserLimits> {
    const configured = await this.repo.countConfigured();
    if (this.extensionLimit === undefined) return { configured, limit: false, configurable: false };
    return { configured, limit: this.extensionLimit, configurable: this.extensionLimit - configured };
  }

  /**
   * Assigns, changes or removes a user's main extension. Unlike the original, the new number is
   * checked before anything changes, so a failed renumbering leaves the old number in place, and
   * re-sending the current number changes nothing.
   */
  async setMainExtension(
    username: string,
    extension: string,
    outboundcid: string | undefined,
  ): Promise<'created' | 'removed' | 'unchanged'> {
    const remove = extension === '' || extension === NO_EXTENSION;
    let released: string[] = [];
    const outcome = await this.db.transaction().execute(async (trx) => {
      const user = await this.repo.findByUsername(username, trx);
      if (!user) throw new AppError(404, 'user_not_found');
      if (remove) {
        if (user.default_extension === null) return 'unchanged';
        await assertNotRouted(trx, user.default_extension, Number(user.id));
        released = await releaseDevicesOfUsers(trx, [Number(user.id)]);
        await trx
          .updateTable('users')
          .set({
            ...extensionColumns(null),
            search_key: searchKey(user.username, user.displayname, null),
            updated_at: Date.now(),
          })
          .where('id', '=', user.id)
          .execute();
        return 'removed';
      }
      if (user.default_extension === extension) {
        if (outboundcid !== undefined && outboundcid !== (user.outboundcid ?? '')) {
          await trx
            .updateTable('users')
            .set({ outboundcid: outboundcid || null, updated_at: Date.now() })
            .where('id', '=', user.id)
            .execute();
        }
        return 'unchanged';
      }
      // The licence counts configured users: renumbering one does not take another unit.
      if (user.default_extension === null && this.extensionLimit !== undefined) {
        const configured = await new UsersRepository(trx).countConfigured();
        if (configured >= this.extensionLimit) throw new AppError(403, 'licence_exhausted');
      }
      await assertMainExtensionFree(trx, extension, Number(user.id));
      if (user.default_extension !== null) await assertNotRouted(trx, user.default_extension, Number(user.id));
      // Device numbers derive from the main number: a new number starts without devices (contract §10.1).
      if (user.default_extension !== null) released = await releaseDevicesOfUsers(trx, [Number(user.id)]);
      try {
        await trx
          .updateTable('users')
          .set({
            ...extensionColumns(extension),
            outboundcid: outboundcid === undefined ? user.outboundcid : outboundcid || null,
            search_key: searchKey(user.username, user.displayname, extension),
            updated_at: Date.now(),
          })
          .where('id', '=', user.id)
          .execute();
      } catch (error) {
        // Two administrators racing for one number: the unique index decides.
        if (isUniqueViolation(error)) throw extensionInUse(extension);
        throw error;
      }
      return 'created';
    });
    await this.devices?.syncPhones(released);
    return outcome;
  }

  finalReport(): Promise<FinalReportRow[]> {
    return this.repo.finalReport();
  }
}

/**
 * Refuses to take away an extension that inbound routes or other users' busy / no-answer / unreachable
 * destinations still send calls to, naming them; the user's own destinations to it are cleared.
 */
async function assertNotRouted(db: Kysely<Database>, extension: string, userId: number): Promise<void> {
  const targets = destinationsOfExtension(extension);
  const refs = await referencesTo(db, targets, userId);
  if (refs.length > 0) {
    throw new AppError(409, 'extension_routed', (lang) =>
      lang === 'it'
        ? `Inviano chiamate all'interno ${extension}: ${describeReferences(refs, lang)}. Assegna loro prima un'altra destinazione.`
        : `Calls go to extension ${extension} from: ${describeReferences(refs, lang)}. Give them another destination first.`,
    );
  }
  for (const column of ['busy_dest', 'noanswer_dest', 'unavailable_dest'] as const) {
    await db
      .updateTable('users')
      .set({ [column]: null })
      .where('id', '=', userId)
      .where(column, 'in', targets)
      .execute();
  }
}

export function extensionInUse(number: string): AppError {
  return new AppError(
    422,
    'extension_in_use',
    (lang) => (lang === 'it' ? `Interno ${number} già in uso` : `Extension ${number} already in use`),
    { extension: number },
  );
}

/** 'Alice Rossi' → first name Alice, last name Rossi (best effort for the local directory). */
export function splitName(fullname: string): { fname: string | null; lname: string | null } {
  const parts = fullname.trim().split(/\s+/);
  if (parts.length < 2) return { fname: parts[0] ?? null, lname: null };
  return { fname: parts.slice(0, -1).join(' '), lname: parts.at(-1) ?? null };
}
