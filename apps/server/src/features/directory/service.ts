import {
  type DirectoryMode,
  type DirectoryUser,
  domainOfBaseDn,
  isSystemAccount,
  type LdapSettings,
  type LdapTestResult,
  type Task,
  type UserProvider,
} from '@centralino/contract';
import type { Kysely } from 'kysely';
import { refreshStatistics } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { SettingsStore } from '../../db/settings-store.ts';
import { AppError } from '../../errors.ts';
import { type JobRunner, JobRunningError } from '../../jobs/runner.ts';
import { releaseDevicesOfUsers } from '../devices/release.ts';
import { extensionColumns, searchKey } from '../users/repository.ts';
import { LdapFailure, readLdapUsers, testLdap } from './ldap.ts';

const PROVIDER_KEY = 'directory.provider';
const MODE_KEY = 'directory.mode';
export const INSTALL_JOB = 'directory-install';
export const SYNC_JOB = 'directory-sync';

export type StoredProvider = { kind: 'local' } | { kind: 'ldap'; settings: LdapSettings };

/** LDAP problems become API errors with the directory codes; anything else stays a 500. */
export function asAppError(error: unknown): unknown {
  if (error instanceof LdapFailure) {
    const { italian, message } = error;
    return new AppError(422, error.code, (lang) => (lang === 'it' && italian ? italian : message));
  }
  return error;
}

/** Where users come from: the built-in directory or an external LDAP / Active Directory. */
export class DirectoryService {
  private readonly store: SettingsStore;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly jobs: JobRunner,
    private readonly localDomain: string,
    /** Told when a sync changed users (the PBX configuration follows them). */
    private readonly onSynced: () => void = () => {},
    /** Told which phones went back to the inventory because their user left the directory. */
    private readonly phonesReleased: (macs: string[]) => Promise<void> = async () => {},
  ) {
    this.store = new SettingsStore(db);
  }

  provider(): Promise<StoredProvider | undefined> {
    return this.store.get<StoredProvider>(PROVIDER_KEY);
  }

  async isLocal(): Promise<boolean> {
    return (await this.provider())?.kind === 'local';
  }

  async userProvider(): Promise<UserProvider> {
    const provider = await this.provider();
    if (!provider) return { configured: 0 };
    if (provider.kind === 'local') return { configured: 1, type: 'ldap', local: 1, domain: this.localDomain };
    return {
      configured: 1,
      type: provider.settings.kind,
      local: 0,
      domain: domainOfBaseDn(provider.settings.baseDn),
    };
  }

  async mode(): Promise<'legacy' | 'uc' | 'unknown'> {
    return (await this.store.get<DirectoryMode>(MODE_KEY)) ?? 'unknown';
  }

  /** A provider may change only while there are no users, or users of one kind would end up in the other. */
  private async assertCanChangeTo(kind: StoredProvider['kind']): Promise<void> {
    const current = await this.provider();
    if (!current || current.kind === kind) return;
    const any = await this.db.selectFrom('users').select('id').limit(1).executeTakeFirst();
    if (any) {
      throw new AppError(
        409,
        'validation',
        'The user directory already has users; remove them before choosing another directory.',
      );
    }
  }

  /** 'legacy' installs the built-in directory as a job (its id is the result); 'uc' only records the choice. */
  async setMode(mode: DirectoryMode): Promise<string> {
    if (mode === 'uc') {
      await this.store.set(MODE_KEY, 'uc');
      return 'success';
    }
    await this.assertCanChangeTo('local');
    try {
      return await this.jobs.start(INSTALL_JOB, 'Preparing the local directory', (ctx) => this.installLocal(ctx), {
        exclusive: true,
      });
    } catch (error) {
      if (error instanceof JobRunningError) {
        const running = await this.jobs.latest(INSTALL_JOB);
        if (running) return running.id;
      }
      throw error;
    }
  }

  private async installLocal(ctx: { progress(p: number, action?: string): Promise<void> }) {
    await ctx.progress(10, 'Checking the user store');
    await this.db.selectFrom('users').select('id').limit(1).execute();
    await ctx.progress(50, 'Enabling the local directory');
    await this.db.transaction().execute(async (trx) => {
      await this.store.set(PROVIDER_KEY, { kind: 'local' } satisfies StoredProvider, trx);
      await this.store.set(MODE_KEY, 'legacy', trx);
    });
    await ctx.progress(90, 'Local directory ready');
    return { domain: this.localDomain };
  }

  async task(id: string): Promise<Task | undefined> {
    const job = await this.jobs.get(id);
    if (!job) return undefined;
    return {
      task: job.id,
      action: job.action,
      progress: job.progress,
      ...(job.error ? { error: job.error } : {}),
    };
  }

  /** Stored LDAP settings with the bind password blanked (it is write-only). */
  async ldapSettings(): Promise<LdapSettings | undefined> {
    const provider = await this.provider();
    if (provider?.kind !== 'ldap') return undefined;
    return { ...provider.settings, bindPassword: '' };
  }

  /** An empty password on a form means "keep the stored one". */
  private async withStoredPassword(settings: LdapSettings): Promise<LdapSettings> {
    if (settings.bindPassword) return settings;
    const provider = await this.provider();
    return provider?.kind === 'ldap' ? { ...settings, bindPassword: provider.settings.bindPassword } : settings;
  }

  async test(settings: LdapSettings, username?: string): Promise<LdapTestResult> {
    try {
      return await testLdap(await this.withStoredPassword(settings), username);
    } catch (error) {
      throw asAppError(error);
    }
  }

  /** Saves an external directory after checking it answers, then mirrors its users. */
  async saveLdap(settings: LdapSettings): Promise<void> {
    await this.assertCanChangeTo('ldap');
    const full = await this.withStoredPassword(settings);
    await this.test(full);
    await this.db.transaction().execute(async (trx) => {
      await this.store.set(PROVIDER_KEY, { kind: 'ldap', settings: full } satisfies StoredProvider, trx);
      await this.store.set(MODE_KEY, 'uc', trx);
    });
    await this.startSync();
  }

  /** Starts mirroring the external directory unless a sync runs already; nothing to do for the local one. */
  async startSync(): Promise<boolean> {
    const provider = await this.provider();
    if (provider?.kind !== 'ldap') return false;
    try {
      await this.jobs.start(SYNC_JOB, 'Reading the directory', () => this.sync(provider.settings), {
        exclusive: true,
      });
    } catch (error) {
      if (!(error instanceof JobRunningError)) throw error;
    }
    return true;
  }

  syncing(): Promise<boolean> {
    return this.jobs.isRunning(SYNC_JOB);
  }

  /** Adds new directory users, updates changed names, removes users that left the directory. */
  async sync(settings: LdapSettings): Promise<{ added: number; updated: number; removed: number; skipped: number }> {
    const { users, skipped } = await readLdapUsers(settings);
    const wanted = new Map<string, DirectoryUser>();
    for (const user of users) if (!isSystemAccount(user.username)) wanted.set(user.username, user);

    const existing = await this.db
      .selectFrom('users')
      .select(['id', 'username', 'displayname', 'fname', 'lname', 'email', 'default_extension', 'source'])
      .execute();
    const byName = new Map(existing.map((row) => [row.username, row]));
    const now = Date.now();
    const toInsert = [...wanted.values()].filter((u) => !byName.has(u.username));
    const toUpdate = [...wanted.values()].filter((u) => {
      const row = byName.get(u.username);
      return (
        row &&
        (row.displayname !== u.displayname || row.fname !== u.fname || row.lname !== u.lname || row.email !== u.email)
      );
    });
    const toRemove = existing.filter((row) => row.source === 'ldap' && !wanted.has(row.username)).map((r) => r.id);

    const released = await this.db.transaction().execute(async (trx) => {
      const macs = toRemove.length > 0 ? await releaseDevicesOfUsers(trx, toRemove.map(Number)) : [];
      for (let i = 0; i < toInsert.length; i += 500) {
        await trx
          .insertInto('users')
          .values(
            toInsert.slice(i, i + 500).map((u) => ({
              username: u.username,
              displayname: u.displayname,
              fname: u.fname,
              lname: u.lname,
              email: u.email,
              source: 'ldap' as const,
              password_hash: null,
              password_clear: null,
              ...extensionColumns(null),
              outboundcid: null,
              mobile: null,
              voicemail_pin: null,
              profile_id: null,
              search_key: searchKey(u.username, u.displayname, null),
              created_at: now,
              updated_at: now,
            })),
          )
          .execute();
      }
      for (const u of toUpdate) {
        const row = byName.get(u.username);
        await trx
          .updateTable('users')
          .set({
            displayname: u.displayname,
            fname: u.fname,
            lname: u.lname,
            email: u.email,
            search_key: searchKey(u.username, u.displayname, row?.default_extension ?? null),
            updated_at: now,
          })
          .where('username', '=', u.username)
          .execute();
      }
      for (let i = 0; i < toRemove.length; i += 500) {
        await trx
          .deleteFrom('users')
          .where('id', 'in', toRemove.slice(i, i + 500))
          .execute();
      }
      return macs;
    });
    await this.phonesReleased(released);
    if (toInsert.length + toRemove.length > 0) await refreshStatistics(this.db, 'users');
    if (toInsert.length + toUpdate.length + toRemove.length > 0) this.onSynced();
    return { added: toInsert.length, updated: toUpdate.length, removed: toRemove.length, skipped };
  }
}
