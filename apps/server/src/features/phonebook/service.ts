import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  PHONEBOOK_FIELDS,
  PHONEBOOK_NUMBER_FIELDS,
  PHONEBOOK_PREVIEW_ROWS,
  type PhonebookConnection,
  type PhonebookContactPage,
  type PhonebookContactsQuery,
  type PhonebookField,
  type PhonebookSource,
  type PhonebookSourceWrite,
  type PhonebookTestResult,
  phonebookConnectionSchema,
  phonebookSourceWriteSchema,
} from '@centralino/contract';
import type { Kysely, Selectable } from 'kysely';
import type { Database, PhonebookSourcesTable } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { isPostgres } from '../../jobs/claim.ts';
import { contactsPage } from './contacts.ts';
import { readCsv, readMysql, type SourceData, SourceError, type SourceRow, YIELD_EVERY } from './readers.ts';
import { EXTENSIONS_SOURCE } from './visible.ts';

type SourceRowDb = Selectable<PhonebookSourcesTable>;
type Contact = Partial<Record<PhonebookField | 'type', string>>;

/** Rows per insert: 26 columns each stays well under both databases' parameter limits. */
const CHUNK = 400;
/** Rows per delete of a replaced sync. */
const DELETE_CHUNK = 2000;

export interface SyncOutcome {
  contacts: number;
  skipped: number;
}

interface StoredConfig {
  host?: string;
  port?: string;
  user?: string;
  dbname?: string;
  query?: string;
  url?: string;
}

/**
 * Phonebook sources (contract api-admin §9): MySQL/MariaDB queries and CSV files mapped onto the central
 * phonebook's fields and synced into it at their interval. A sync replaces the source's contacts in one
 * transaction, so a source that cannot be read keeps what it had.
 */
export class PhonebookService {
  private readonly running = new Map<string, Promise<SyncOutcome>>();
  private timer: NodeJS.Timeout | undefined;
  private readonly listeners: Array<() => void> = [];

  constructor(
    private readonly db: Kysely<Database>,
    private readonly dataDir: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** Called whenever the central phonebook's contacts changed (a sync, a deleted source, the PBX users). */
  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }

  /** Where uploaded CSV files live (private to the service, like all of DATA_DIR). */
  get uploads(): string {
    return path.join(this.dataDir, 'phonebook');
  }

  private toApi(row: SourceRowDb): PhonebookSource {
    const config = JSON.parse(row.config) as StoredConfig;
    return {
      dbtype: row.dbtype as 'mysql' | 'csv',
      ...config,
      mapping: JSON.parse(row.mapping) as Record<string, string>,
      type: row.type,
      interval: String(row.interval),
      enabled: Number(row.enabled) === 1,
      has_password: row.password !== null && row.password !== '',
      sync: {
        at: row.last_sync_at === null ? null : Number(row.last_sync_at),
        contacts: row.last_sync_count === null ? null : Number(row.last_sync_count),
        skipped: row.last_sync_skipped === null ? null : Number(row.last_sync_skipped),
        error: row.last_sync_error,
      },
    };
  }

  /** A page of the contacts the phones see, for the console's list (contacts.ts). */
  contacts(query: PhonebookContactsQuery): Promise<PhonebookContactPage> {
    return contactsPage(this.db, query);
  }

  async list(): Promise<Record<string, PhonebookSource>> {
    const rows = await this.db.selectFrom('phonebook_sources').selectAll().orderBy('created_at').execute();
    return Object.fromEntries(rows.map((r) => [r.id, this.toApi(r)]));
  }

  private async row(id: string): Promise<SourceRowDb> {
    const row = await this.db.selectFrom('phonebook_sources').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw new AppError(404, 'not_found');
    return row;
  }

  /** The one stored password, for the card's Show (a call of its own; lists never carry it). */
  async password(id: string): Promise<string> {
    return (await this.row(id)).password ?? '';
  }

  private stored(write: PhonebookSourceWrite) {
    const source = phonebookSourceWriteSchema.parse(write);
    const config: StoredConfig =
      source.dbtype === 'mysql'
        ? { host: source.host, port: source.port, user: source.user, dbname: source.dbname, query: source.query }
        : { url: source.url };
    return {
      source,
      values: {
        dbtype: source.dbtype,
        config: JSON.stringify(config),
        mapping: JSON.stringify(source.mapping),
        interval: source.interval,
        enabled: source.enabled ? 1 : 0,
        file: source.dbtype === 'csv' ? this.uploadedFile(source.url) : null,
      },
    };
  }

  /** The uploaded file a file:/// uri names, or null for a remote URL. */
  private uploadedFile(url: string): string | null {
    if (!url.startsWith('file:///')) return null;
    const file = decodeURIComponent(new URL(url).pathname);
    return path.dirname(path.resolve(file)) === path.resolve(this.uploads) ? path.basename(file) : null;
  }

  async create(write: PhonebookSourceWrite): Promise<string> {
    const { source, values } = this.stored(write);
    return this.db.transaction().execute(async (trx) => {
      const ids = new Set((await trx.selectFrom('phonebook_sources').select('id').execute()).map((r) => r.id));
      let n = 1;
      while (ids.has(`custom_${n}`)) n++;
      const id = `custom_${n}`;
      await trx
        .insertInto('phonebook_sources')
        .values({
          id,
          ...values,
          type: source.type || id,
          password: source.dbtype === 'mysql' ? (source.password ?? '') : null,
          created_at: this.now(),
        })
        .execute();
      return id;
    });
  }

  async update(id: string, write: PhonebookSourceWrite): Promise<void> {
    const current = await this.row(id);
    const { source, values } = this.stored(write);
    await this.db
      .updateTable('phonebook_sources')
      .set({
        ...values,
        type: source.type || id,
        // A password left out keeps the stored one (the list never hands it to the console).
        password: source.dbtype === 'mysql' ? (source.password ?? current.password ?? '') : null,
      })
      .where('id', '=', id)
      .execute();
    if (current.file && current.file !== values.file) await this.removeUpload(current.file);
  }

  /** Deletes the source, its contacts and its uploaded file. */
  async remove(id: string): Promise<void> {
    const row = await this.row(id);
    await this.db.deleteFrom('phonebook_sources').where('id', '=', id).execute();
    this.changed();
    if (row.contacts_key) await this.dropContacts(row.contacts_key);
    if (row.file) await this.removeUpload(row.file);
  }

  private async removeUpload(name: string) {
    await fs.rm(path.join(this.uploads, path.basename(name)), { force: true });
  }

  /** Stores an uploaded CSV under a generated name; answers the uri a source's url takes. */
  async upload(bytes: Buffer): Promise<string> {
    await fs.mkdir(this.uploads, { recursive: true, mode: 0o700 });
    const file = path.join(this.uploads, `${randomBytes(12).toString('hex')}.csv`);
    await fs.writeFile(file, bytes, { mode: 0o600 });
    return pathToFileURL(file).href;
  }

  private async read(connection: PhonebookConnection, storedPassword?: string | null): Promise<SourceData> {
    const c = phonebookConnectionSchema.parse(connection);
    if (c.dbtype === 'mysql') return readMysql({ ...c, password: c.password ?? storedPassword ?? '' });
    return readCsv(c.url, this.uploads);
  }

  /**
   * The connection check of the modal: up to 3 rows keyed by column (a query without rows gives its columns
   * with empty values), or why the source cannot be read. `id` lets a modified source use its stored password.
   */
  async test(connection: PhonebookConnection, id?: string): Promise<PhonebookTestResult> {
    const stored = id ? (await this.row(id)).password : undefined;
    try {
      const data = await this.read(connection, stored);
      if (data.rows.length === 0) return [Object.fromEntries(data.columns.map((c) => [c, '']))];
      return data.rows.slice(0, PHONEBOOK_PREVIEW_ROWS);
    } catch (error) {
      if (error instanceof SourceError) return { status: false, error: error.message };
      throw error;
    }
  }

  /** Syncs one source now; a second request while it runs waits for the same sync. */
  sync(id: string): Promise<SyncOutcome> {
    const current = this.running.get(id);
    if (current) return current;
    const run = this.runSync(id).finally(() => this.running.delete(id));
    this.running.set(id, run);
    return run;
  }

  private async runSync(id: string): Promise<SyncOutcome> {
    const row = await this.row(id);
    const config = JSON.parse(row.config) as StoredConfig;
    const mapping = JSON.parse(row.mapping) as Record<string, PhonebookField>;
    let data: SourceData;
    try {
      data = await this.read({ dbtype: row.dbtype, ...config } as PhonebookConnection, row.password);
    } catch (error) {
      const message = error instanceof SourceError ? error.message : 'The source could not be read';
      await this.db
        .updateTable('phonebook_sources')
        .set({ last_sync_at: this.now(), last_sync_error: message })
        .where('id', '=', id)
        .execute();
      throw new AppError(502, 'phonebook_source_failed', (lang) =>
        lang === 'it'
          ? `Sincronizzazione non riuscita: ${message}. I contatti precedenti restano.`
          : `Sync failed: ${message}. The previous contacts are kept.`,
      );
    }
    const contacts: Contact[] = [];
    let skipped = 0;
    for (let i = 0; i < data.rows.length; i += YIELD_EVERY) {
      const part = mapRows(data.rows.slice(i, i + YIELD_EVERY), mapping, row.type);
      contacts.push(...part.contacts);
      skipped += part.skipped;
      await new Promise((r) => setImmediate(r));
    }
    // The new contacts go in under a key of their own, a chunk at a time with a turn of the event loop in
    // between, so the API and the phones' searches go on meanwhile; then one row switches the source to them.
    // A sync that fails halfway leaves the old contacts in place.
    const key = `${id}@${this.now()}-${randomBytes(3).toString('hex')}`;
    try {
      for (let i = 0; i < contacts.length; i += CHUNK) {
        await this.db
          .insertInto('phonebook_contacts')
          .values(contacts.slice(i, i + CHUNK).map((c) => ({ source_id: key, ...c })))
          .execute();
        await new Promise((r) => setImmediate(r));
      }
    } catch (error) {
      await this.dropContacts(key);
      throw error;
    }
    const old = await this.db.transaction().execute(async (trx) => {
      const current = await trx
        .selectFrom('phonebook_sources')
        .select('contacts_key')
        .where('id', '=', id)
        .executeTakeFirst();
      await trx
        .updateTable('phonebook_sources')
        .set({
          contacts_key: key,
          last_sync_at: this.now(),
          last_sync_count: contacts.length,
          last_sync_skipped: skipped,
          last_sync_error: null,
        })
        .where('id', '=', id)
        .execute();
      return current ? current.contacts_key : key; // deleted meanwhile: its new contacts go too
    });
    this.changed();
    if (old) await this.dropContacts(old);
    return { contacts: contacts.length, skipped };
  }

  /** Deletes the contacts of a key a chunk at a time, giving the event loop a turn between chunks. */
  private async dropContacts(key: string): Promise<void> {
    for (;;) {
      const result = await this.db
        .deleteFrom('phonebook_contacts')
        .where('id', 'in', (eb) =>
          eb.selectFrom('phonebook_contacts').select('id').where('source_id', '=', key).limit(DELETE_CHUNK),
        )
        .executeTakeFirst();
      if (Number(result.numDeletedRows) === 0) return;
      await new Promise((r) => setImmediate(r));
    }
  }

  /** Enabled sources whose interval has passed since their last sync (or that never synced). */
  async due(): Promise<string[]> {
    const rows = await this.db
      .selectFrom('phonebook_sources')
      .select(['id', 'interval', 'last_sync_at'])
      .where('enabled', '=', 1)
      .orderBy('created_at')
      .execute();
    const now = this.now();
    return rows
      .filter((r) => r.last_sync_at === null || now - Number(r.last_sync_at) >= Number(r.interval) * 60_000)
      .map((r) => r.id);
  }

  private extensionsSeen: string | undefined;

  /**
   * The PBX users with their extensions, the built-in source of the central phonebook (`extensions`):
   * rewritten when the users changed since the last look (their count and latest change), so a minute after
   * a new user gets a number, phones find them.
   */
  async syncExtensions(): Promise<number | undefined> {
    const mark = await this.db
      .selectFrom('users')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.max('updated_at').as('latest')])
      .executeTakeFirstOrThrow();
    const seen = `${mark.n}/${mark.latest}`;
    if (seen === this.extensionsSeen) return undefined;
    const users = await this.db
      .selectFrom('users')
      .select(['username', 'displayname', 'default_extension', 'mobile', 'email'])
      .where('default_extension', 'is not', null)
      .orderBy('extension_order')
      .execute();
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('phonebook_contacts').where('source_id', '=', EXTENSIONS_SOURCE).execute();
      for (let i = 0; i < users.length; i += CHUNK) {
        await trx
          .insertInto('phonebook_contacts')
          .values(
            users.slice(i, i + CHUNK).map((u) => ({
              source_id: EXTENSIONS_SOURCE,
              type: 'extension',
              owner_id: u.username,
              name: u.displayname,
              workphone: u.default_extension,
              cellphone: u.mobile,
              workemail: u.email,
            })),
          )
          .execute();
      }
    });
    this.extensionsSeen = seen;
    this.changed();
    return users.length;
  }

  /** One round of the scheduler: the extensions, then every due source in turn; a failing one is recorded. */
  async tick(): Promise<void> {
    await this.syncExtensions().catch(() => {});
    for (const id of await this.due()) {
      if (await this.claimScheduled(id).catch(() => false)) await this.sync(id).catch(() => {});
    }
  }

  /**
   * Takes a due source's scheduled sync for this process (jobs/claim.ts): its row is locked, skipping it when another
   * process holds it, and marked taken in the same transaction, so with several processes it runs once.
   */
  async claimScheduled(id: string): Promise<boolean> {
    const now = this.now();
    return this.db.transaction().execute(async (trx) => {
      const query = trx
        .selectFrom('phonebook_sources')
        .select(['interval', 'last_sync_at', 'sync_claimed_at'])
        .where('id', '=', id)
        .where('enabled', '=', 1);
      const row = await (isPostgres(trx) ? query.forUpdate().skipLocked() : query).executeTakeFirst();
      if (!row) return false;
      const every = Number(row.interval) * 60_000;
      const since = (at: number | null) => (at === null ? Number.POSITIVE_INFINITY : now - Number(at));
      if (since(row.last_sync_at) < every || since(row.sync_claimed_at) < every) return false;
      await trx.updateTable('phonebook_sources').set({ sync_claimed_at: now }).where('id', '=', id).execute();
      return true;
    });
  }

  /** Checks once a minute for due sources, and fills the extensions at once. */
  start(): void {
    void this.syncExtensions().catch(() => {});
    this.timer ??= setInterval(() => void this.tick().catch(() => {}), 60_000);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await Promise.allSettled([...this.running.values()]);
  }
}

/** Source rows → contacts by the mapping; a row without a name or without any number is skipped. */
export function mapRows(
  rows: SourceRow[],
  mapping: Record<string, PhonebookField>,
  type: string,
): { contacts: Contact[]; skipped: number } {
  const contacts: Contact[] = [];
  let skipped = 0;
  const pairs = Object.entries(mapping).filter(([, field]) => (PHONEBOOK_FIELDS as readonly string[]).includes(field));
  for (const row of rows) {
    const contact: Contact = { type };
    for (const [column, field] of pairs) {
      const value = (row[column] ?? '').slice(0, 255);
      if (value !== '') contact[field] = contact[field] ? `${contact[field]} ${value}` : value;
    }
    if (!contact.name || !PHONEBOOK_NUMBER_FIELDS.some((f) => contact[f])) {
      skipped++;
      continue;
    }
    contacts.push(contact);
  }
  return { contacts, skipped };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The phonebook sources and their scheduler (tests drive its tick with their own clock). */
    phonebook: PhonebookService;
  }
}
