import {
  AUDIT_RETENTION_DEFAULT_DAYS,
  type AuditEntry,
  type AuditPage,
  type AuditQuery,
  auditQuerySchema,
} from '@centralino/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { SettingsStore } from '../../db/settings-store.ts';
import { csvCell } from '../csv/cell.ts';
import { type AuditRow, insertAuditRow } from './context.ts';
import { AuditRepository } from './repository.ts';

const RETENTION_KEY = 'audit_retention_days';
const DAY_MS = 24 * 60 * 60_000;

function parseChanges(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The audit log: rows written by the request hook and the sign-in routes, searched and exported here. */
export class AuditService {
  private readonly repo: AuditRepository;
  private readonly settings: SettingsStore;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => number = Date.now,
  ) {
    this.repo = new AuditRepository(db);
    this.settings = new SettingsStore(db);
  }

  /** An event outside an API change (sign-in, refused sign-in, sign-out), in its own statement. */
  record(row: AuditRow): Promise<void> {
    return insertAuditRow(this.db, row, this.now());
  }

  async search(query: AuditQuery): Promise<AuditPage> {
    const { page, pageSize, ...filters } = auditQuerySchema.parse(query);
    const [total, rows] = await Promise.all([
      this.repo.count(filters),
      this.repo.page(filters, (page - 1) * pageSize, pageSize),
    ]);
    return { total, rows: rows.map((row) => this.entry(row)) };
  }

  /** CSV lines (header first) of every row matching the search, newest first. */
  async *csv(query: AuditQuery): AsyncGenerator<string> {
    const { page: _page, pageSize: _size, ...filters } = auditQuerySchema.parse(query);
    yield 'time,user,address,action,method,path,object,status,changes\n';
    for await (const row of this.repo.stream(filters)) {
      const cells = [
        new Date(Number(row.at)).toISOString(),
        row.actor,
        row.address,
        row.action,
        row.method,
        row.path,
        row.object,
        String(row.status),
        row.changes,
      ];
      yield `${cells.map(csvCell).join(',')}\n`;
    }
  }

  async retentionDays(): Promise<number> {
    return (await this.settings.get<number>(RETENTION_KEY)) ?? AUDIT_RETENTION_DEFAULT_DAYS;
  }

  async setRetentionDays(days: number): Promise<void> {
    await this.db.transaction().execute((trx) => this.settings.set(RETENTION_KEY, days, trx));
  }

  /** Deletes rows older than the retention; idempotent, so several processes may run it. */
  async purge(): Promise<number> {
    return this.repo.deleteOlderThan(this.now() - (await this.retentionDays()) * DAY_MS);
  }

  /** Purges at start and then once a day. */
  start(onError: (error: unknown) => void): void {
    const run = () => void this.purge().catch(onError);
    run();
    this.timer = setInterval(run, DAY_MS);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private entry(row: Database['audit_log']): AuditEntry {
    return { ...row, at: Number(row.at), status: Number(row.status), changes: parseChanges(row.changes) };
  }
}
