import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { BackupRestoreResult, BackupSchedule, BackupStatus, BackupSummary } from '@centralino/contract';
import { type Kysely, sql } from 'kysely';
import { migrations } from '../../db/migrations/index.ts';
import type { Database } from '../../db/schema.ts';
import { SettingsStore } from '../../db/settings-store.ts';
import { AppError } from '../../errors.ts';
import {
  ArchiveInvalid,
  ArchiveTooLarge,
  compareVersions,
  dataFiles,
  FILE_AREAS,
  type Manifest,
  unpackArchive,
  writeArchive,
} from './archive.ts';
import { type AnyDb, backedUpTables, isPostgres } from './catalog.ts';
import { dumpTable, inspectDump, loadTable } from './dump.ts';
import { COMMITTED, claimWork, ownWork } from './leftovers.ts';
import { upgradesFor } from './upgrades.ts';

const SCHEDULE_KEY = 'backup.schedule';
const DEFAULT_SCHEDULE: BackupSchedule = { enabled: false, time: '02:30', keep: 7 };
const STORED = /^centralino-backup-\d{8}-\d{6}\.tar\.gz$/;
const MIGRATION_NAMES = Object.keys(migrations).sort();
export const CURRENT_MIGRATION = MIGRATION_NAMES[MIGRATION_NAMES.length - 1] ?? '';

export interface BackupOptions {
  db: Kysely<Database>;
  dataDir: string;
  version: string;
  /** BACKUP_DIR: where scheduled backups go; undefined switches them off. */
  backupDir?: string;
  /** BACKUP_RESTORE_MAX_BYTES: how much an uploaded archive may unpack to (4 GiB unless given). */
  restoreMaxBytes?: number;
  now?: () => number;
  log?: { error(obj: object, msg: string): void; info(obj: object, msg: string): void };
  /** Runs inside the restore's transaction after the rows are in (the phone-file caches' generation). */
  inRestore?: (trx: Kysely<Database>) => Promise<void>;
  /** What must hear of a restore once it is committed (PBX apply, caches, recordings written out). */
  afterRestore?: () => Promise<void>;
}

interface Staged {
  dir: string;
  manifest: Manifest;
  summary: BackupSummary;
}

/** 4 GiB, 512 MiB, 10 KiB or 1500 bytes: the cap as the administrator set it. */
export function byteSize(bytes: number, lang: 'en' | 'it'): string {
  for (const [unit, size] of [
    ['GiB', 1024 ** 3],
    ['MiB', 1024 ** 2],
    ['KiB', 1024],
  ] as const) {
    if (bytes >= size && bytes % size === 0) return `${bytes / size} ${unit}`;
  }
  return `${bytes.toLocaleString(lang === 'it' ? 'it-IT' : 'en-GB')} byte${lang === 'it' ? '' : 's'}`;
}

function stamp(date: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}${p(date.getMonth() + 1)}${p(date.getDate())}-${p(date.getHours())}${p(date.getMinutes())}${p(date.getSeconds())}`;
}

/** Backups (download, scheduled) and restores (stage an upload, show its summary, restore it all or nothing). */
export class BackupService {
  private readonly db: AnyDb;
  private readonly settings: SettingsStore;
  private readonly work: string;
  private readonly staged = new Map<string, Staged>();
  private busy = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly now: () => number;
  /** Names this instance in the work folders it owns (leftovers.ts tells live work from a killed process's). */
  private readonly instance = randomUUID();
  private readonly disown: () => void;

  constructor(private readonly options: BackupOptions) {
    this.db = options.db as AnyDb;
    this.settings = new SettingsStore(options.db);
    this.work = path.join(options.dataDir, 'backup-work');
    this.now = options.now ?? Date.now;
    this.disown = ownWork(this.instance);
  }

  get backupDir(): string | undefined {
    return this.options.backupDir;
  }

  /** One backup or restore at a time in this process. */
  private async exclusive<T>(run: () => Promise<T>): Promise<T> {
    if (this.busy) throw new AppError(409, 'backup_busy');
    this.busy = true;
    try {
      return await run();
    } finally {
      this.busy = false;
    }
  }

  private async scratch(): Promise<string> {
    await fsp.mkdir(this.work, { recursive: true, mode: 0o700 });
    const dir = await fsp.mkdtemp(path.join(this.work, 'w-'));
    await claimWork(dir, this.instance);
    return dir;
  }

  // ------------------------------------------------------------------------------------------------ backup

  /** Writes a complete backup to `out`. Tables are read in one transaction, so they agree with each other. */
  private async writeTo(out: string): Promise<void> {
    const dir = await this.scratch();
    try {
      const tables: Record<string, number> = {};
      // One snapshot for every table: PostgreSQL's default (read committed) would give each query its own. SQLite's
      // transaction is one already (this process's other queries wait for it: Kysely has one SQLite connection).
      let transaction = this.db.transaction();
      if (isPostgres(this.db)) transaction = transaction.setIsolationLevel('repeatable read');
      const sources = await transaction.execute(async (trx) => {
        const list = await backedUpTables(trx);
        const out = [];
        for (const table of list) {
          const file = path.join(dir, `${table.name}.jsonl`);
          tables[table.name] = await dumpTable(trx, table, file);
          out.push({ name: `db/${table.name}.jsonl`, file });
        }
        return out;
      });
      sources.push(...(await dataFiles(this.options.dataDir)));
      await writeArchive(out, sources, {
        version: this.options.version,
        migration: CURRENT_MIGRATION,
        createdAt: new Date(this.now()).toISOString(),
        tables,
      });
    } finally {
      await fsp.rm(dir, { recursive: true, force: true });
    }
  }

  /** A fresh backup in a temporary file; the caller streams it and calls `done` to remove it. */
  async download(): Promise<{ file: string; name: string; done: () => Promise<void> }> {
    return this.exclusive(async () => {
      const dir = await this.scratch();
      const name = `centralino-backup-${stamp(new Date(this.now()))}.tar.gz`;
      const file = path.join(dir, name);
      try {
        await this.writeTo(file);
      } catch (error) {
        await fsp.rm(dir, { recursive: true, force: true });
        throw error;
      }
      return { file, name, done: () => fsp.rm(dir, { recursive: true, force: true }) };
    });
  }

  // ----------------------------------------------------------------------------------------------- restore

  private invalid(reason: string): AppError {
    return new AppError(400, 'backup_invalid', (lang) =>
      lang === 'it'
        ? `Il file non è un backup valido di Centralino (${reason}). Non è stato cambiato nulla.`
        : `The file is not a valid Centralino backup (${reason}). Nothing was changed.`,
    );
  }

  /**
   * Takes an uploaded archive (streamed to disk), unpacks and checks it and answers its summary; nothing else
   * changes. The archive waits under its id for `restore` (or `discard`).
   */
  async stage(upload: Readable): Promise<BackupSummary> {
    return this.exclusive(async () => {
      const dir = await this.scratch();
      try {
        const archive = path.join(dir, 'upload.tar.gz');
        await pipeline(upload, fs.createWriteStream(archive, { mode: 0o600 }));
        if ((upload as Readable & { truncated?: boolean }).truncated) throw new AppError(413, 'payload_too_large');
        const content = path.join(dir, 'content');
        await fsp.mkdir(content, { mode: 0o700 });
        let manifest: Manifest;
        try {
          manifest = await unpackArchive(archive, content, this.options.restoreMaxBytes ?? 4 * 1024 ** 3);
        } catch (error) {
          if (error instanceof ArchiveInvalid) throw this.invalid(error.message);
          if (error instanceof ArchiveTooLarge) throw this.tooLarge(error.limit);
          throw error;
        }
        await fsp.rm(archive);
        const summary = await this.check(manifest, content);
        const id = path.basename(dir);
        summary.id = id;
        for (const other of this.staged.keys()) await this.discard(other);
        this.staged.set(id, { dir, manifest, summary });
        // Kept beside the content too: behind a load balancer the confirmation may reach another process.
        await fsp.writeFile(path.join(dir, 'staged.json'), JSON.stringify({ manifest, summary }), { mode: 0o600 });
        return summary;
      } catch (error) {
        await fsp.rm(dir, { recursive: true, force: true });
        throw error;
      }
    });
  }

  private tooLarge(limit: number): AppError {
    return new AppError(413, 'backup_too_large', (lang) =>
      lang === 'it'
        ? `Una volta estratto, il backup supera ${byteSize(limit, lang)}, il massimo che questo server accetta (BACKUP_RESTORE_MAX_BYTES): è stato rifiutato e quanto estratto è stato rimosso. Non è stato cambiato nulla.`
        : `The backup unpacks to more than ${byteSize(limit, lang)}, the most this server accepts (BACKUP_RESTORE_MAX_BYTES): it was refused and what was unpacked removed. Nothing was changed.`,
    );
  }

  /** Version, migration level and every table against this server; the summary if it can be restored. */
  private async check(manifest: Manifest, content: string): Promise<BackupSummary> {
    if (compareVersions(manifest.version, this.options.version) > 0 || !MIGRATION_NAMES.includes(manifest.migration)) {
      throw new AppError(409, 'backup_too_new', (lang) =>
        lang === 'it'
          ? `Il backup è della versione ${manifest.version} (livello ${manifest.migration}); questo server è la ${this.options.version}. Non è stato cambiato nulla.`
          : `The backup is from version ${manifest.version} (level ${manifest.migration}); this server runs ${this.options.version}. Nothing was changed.`,
      );
    }
    const current = new Map((await backedUpTables(this.db)).map((t) => [t.name, t]));
    const tables: BackupSummary['tables'] = [];
    for (const name of Object.keys(manifest.entries).filter((n) => n.startsWith('db/'))) {
      const { header, rows } = await inspectDump(path.join(content, name)).catch((error: Error) => {
        throw this.invalid(error.message);
      });
      const table = current.get(header.table);
      if (`db/${header.table}.jsonl` !== name || !table) throw this.invalid(`unknown table ${header.table}`);
      const known = new Set(table.columns.map((c) => c.name));
      const unknown = header.columns.find((c) => !known.has(c));
      if (unknown) throw this.invalid(`unknown column ${header.table}.${unknown}`);
      if (manifest.tables[header.table] !== rows)
        throw this.invalid(`${header.table} does not hold the rows it should`);
      tables.push({ name: header.table, rows });
    }
    if (tables.length !== Object.keys(manifest.tables).length) throw this.invalid('a table is missing');
    const files = FILE_AREAS.map((area) => {
      const entries = Object.entries(manifest.entries).filter(([n]) => n.startsWith(`files/${area}/`));
      return { area, count: entries.length, bytes: entries.reduce((sum, [, e]) => sum + e.size, 0) };
    });
    return {
      id: '',
      version: manifest.version,
      migration: manifest.migration,
      createdAt: manifest.createdAt,
      older: manifest.migration !== CURRENT_MIGRATION,
      tables: tables.sort((a, b) => a.name.localeCompare(b.name)),
      files,
    };
  }

  async discard(id: string): Promise<void> {
    this.staged.delete(id);
    await fsp.rm(path.join(this.work, id), { recursive: true, force: true });
  }

  /**
   * An upload staged by this process or by another one sharing DATA_DIR, read from disk each time: another process
   * may have restored or discarded it meanwhile.
   */
  private async findStaged(id: string): Promise<Staged | undefined> {
    const dir = path.join(this.work, id);
    try {
      const { manifest, summary } = JSON.parse(await fsp.readFile(path.join(dir, 'staged.json'), 'utf8'));
      return { dir, manifest, summary };
    } catch {
      return undefined;
    }
  }

  /**
   * Restores a staged archive: files are laid out beside their folders first; the database is emptied and loaded in
   * one transaction; only after it commits are the folders swapped in. A failure before the commit leaves
   * everything as it was.
   */
  async restore(id: string): Promise<BackupRestoreResult> {
    const staged = await this.findStaged(id);
    if (!staged) throw new AppError(404, 'backup_expired');
    return this.exclusive(async () => {
      const content = path.join(staged.dir, 'content');
      // Everything the check saw must still be there (another process may be restoring the same upload).
      for (const name of Object.keys(staged.manifest.entries)) {
        if (!fs.existsSync(path.join(content, name))) throw new AppError(404, 'backup_expired');
      }
      // This process does the restore now (the upload may come from another one): its folder names it.
      await claimWork(staged.dir, this.instance);
      const aside = await this.layOutFiles(content, id);
      let rows = 0;
      try {
        rows = await this.db.transaction().execute(async (trx) => {
          if (!isPostgres(trx)) await sql`pragma defer_foreign_keys = on`.execute(trx);
          const tables = await backedUpTables(trx);
          for (const table of [...tables].reverse()) await trx.deleteFrom(table.name).execute();
          let count = 0;
          for (const table of tables) {
            const file = path.join(content, 'db', `${table.name}.jsonl`);
            // A table newer than the backup stays empty (its columns and rows come from later migrations).
            if (fs.existsSync(file)) {
              count += await loadTable(trx, table, file, upgradesFor(table.name, staged.manifest.migration));
            }
          }
          await this.options.inRestore?.(trx as Kysely<Database>);
          return count;
        });
      } catch (error) {
        await Promise.all(aside.map((a) => fsp.rm(a.next, { recursive: true, force: true })));
        // Rolled back: rows that pass the checks but not the database's constraints (a hand-edited archive).
        this.options.log?.error({ err: error }, 'restore rolled back');
        throw this.invalid('the database refused its content');
      }
      // Committed: should this process die while swapping, the next start finishes the swap (leftovers.ts).
      await fsp.writeFile(path.join(staged.dir, COMMITTED), '', { mode: 0o600 });
      for (const { target, next } of aside) {
        const old = `${target}.old-${id}`;
        await fsp.rename(target, old).catch(() => {});
        await fsp.rename(next, target);
        await fsp.rm(old, { recursive: true, force: true });
      }
      await this.discard(id);
      await this.options.afterRestore?.();
      const files = Object.keys(staged.manifest.entries).filter((n) => n.startsWith('files/')).length;
      return { restored: true, tables: Object.keys(staged.manifest.tables).length, rows, files };
    });
  }

  /** Each file area's new content in `<folder>.restore-<id>`, next to the folder it replaces. */
  private async layOutFiles(content: string, id: string): Promise<{ target: string; next: string }[]> {
    const out: { target: string; next: string }[] = [];
    try {
      for (const area of FILE_AREAS) {
        const target = path.join(this.options.dataDir, area);
        const next = `${target}.restore-${id}`;
        await fsp.rm(next, { recursive: true, force: true });
        await fsp.mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
        const from = path.join(content, 'files', area);
        if (fs.existsSync(from)) await fsp.rename(from, next);
        else await fsp.mkdir(next, { mode: 0o700 });
        out.push({ target, next });
      }
    } catch (error) {
      await Promise.all(out.map((a) => fsp.rm(a.next, { recursive: true, force: true })));
      throw error;
    }
    return out;
  }

  // ------------------------------------------------------------------------------------------- scheduling

  async schedule(): Promise<BackupSchedule> {
    return { ...DEFAULT_SCHEDULE, ...((await this.settings.get<BackupSchedule>(SCHEDULE_KEY)) ?? {}) };
  }

  async setSchedule(schedule: BackupSchedule): Promise<void> {
    await this.settings.set(SCHEDULE_KEY, schedule);
  }

  async status(): Promise<BackupStatus> {
    const dir = this.options.backupDir;
    const stored = dir ? await this.stored(dir) : [];
    const last = await this.options.db
      .selectFrom('backup_runs')
      .selectAll()
      .orderBy('started_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    return {
      schedule: await this.schedule(),
      folder: dir ?? null,
      stored: stored.map((s) => ({ name: s.name, bytes: s.bytes, createdAt: new Date(s.mtime).toISOString() })),
      lastRun: last
        ? {
            slot: last.slot,
            startedAt: new Date(Number(last.started_at)).toISOString(),
            finishedAt: last.finished_at === null ? null : new Date(Number(last.finished_at)).toISOString(),
            error: last.error,
          }
        : null,
    };
  }

  private async stored(dir: string): Promise<{ name: string; bytes: number; mtime: number }[]> {
    const names = (await fsp.readdir(dir).catch(() => [] as string[])).filter((n) => STORED.test(n));
    const out = [];
    for (const name of names) {
      const s = await fsp.stat(path.join(dir, name)).catch(() => null);
      if (s) out.push({ name, bytes: s.size, mtime: s.mtimeMs });
    }
    // The name carries the time; newest first.
    return out.sort((a, b) => b.name.localeCompare(a.name));
  }

  /**
   * Runs today's scheduled backup if its time has come and nobody took it yet. The claim is the insert of the
   * day's row: with several processes exactly one insert succeeds. Answers the file written, if any.
   */
  async runDue(): Promise<string | undefined> {
    const dir = this.options.backupDir;
    if (!dir) return undefined;
    const schedule = await this.schedule();
    if (!schedule.enabled) return undefined;
    const now = new Date(this.now());
    const [h = 0, m = 0] = schedule.time.split(':').map(Number);
    if (now.getHours() * 60 + now.getMinutes() < h * 60 + m) return undefined;
    const slot = `${stamp(now).slice(0, 8)}@${schedule.time}`;
    const claimed = await this.options.db
      .insertInto('backup_runs')
      .values({ slot, started_at: now.getTime(), finished_at: null, file: null, error: null })
      .onConflict((oc) => oc.column('slot').doNothing())
      .executeTakeFirst();
    if (Number(claimed.numInsertedOrUpdatedRows ?? 0) !== 1) return undefined;
    const name = `centralino-backup-${stamp(now)}.tar.gz`;
    let mark: string | undefined;
    try {
      await fsp.mkdir(dir, { recursive: true, mode: 0o700 });
      // The partial file names a work folder of this process, so a start can tell a killed run's from a live one.
      mark = await this.scratch();
      const partial = path.join(dir, `.${name}.partial-${path.basename(mark)}`);
      await this.exclusive(() => this.writeTo(partial)).catch(async (error) => {
        await fsp.rm(partial, { force: true });
        throw error;
      });
      await fsp.rename(partial, path.join(dir, name));
      for (const old of (await this.stored(dir)).slice(schedule.keep))
        await fsp.rm(path.join(dir, old.name), { force: true });
      await this.options.db
        .updateTable('backup_runs')
        .set({ finished_at: this.now(), file: name })
        .where('slot', '=', slot)
        .execute();
      this.options.log?.info({ file: name }, 'scheduled backup written');
      return name;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      await this.options.db
        .updateTable('backup_runs')
        .set({ finished_at: this.now(), error: message })
        .where('slot', '=', slot)
        .execute();
      this.options.log?.error({ err: error }, 'scheduled backup failed');
      return undefined;
    } finally {
      if (mark) await fsp.rm(mark, { recursive: true, force: true });
    }
  }

  /**
   * Looks for a due backup every 30 s. (Leftovers of an interrupted backup, upload or restore were removed when the
   * app was built, before any service started: leftovers.ts.)
   */
  async start(): Promise<void> {
    if (!this.options.backupDir) return;
    this.timer = setInterval(() => {
      this.runDue().catch((error) => this.options.log?.error({ err: error }, 'scheduled backup failed'));
    }, 30_000);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.disown();
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Backups and restores (tests run the scheduled backup with their own clock). */
    backups: BackupService;
  }
}
