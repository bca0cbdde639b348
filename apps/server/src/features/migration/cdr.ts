import type { CdrProgress } from '@centralino/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { beat, claimAbandoned, HEARTBEAT_MS, isPostgres, newOwnerId, STALE_MS, SWEEP_MS } from '../../jobs/claim.ts';
import type { CdrValues, CdrWriter } from './cdr-writer.ts';
import { textMessage } from './messages.ts';
import type { LegacySource } from './source.ts';
import { type MigrationState, StepLog } from './state.ts';

/**
 * Old records read and written per transaction: large enough to be quick, small enough that a console write waiting
 * for SQLite's lock (the copy writes from its own thread) waits only a moment.
 */
export const CDR_BATCH = 1000;

/** Test hook: called after each committed batch (tests stop the copy there, as a kill would). */
export const cdrCopyHooks = { afterBatch: async (_copied: number): Promise<void> => {} };

interface OldCdr {
  id: number;
  calldate: string;
  clid: string;
  src: string;
  dst: string;
  dcontext: string;
  channel: string;
  dstchannel: string;
  lastapp: string;
  lastdata: string;
  duration: number;
  billsec: number;
  disposition: string;
  amaflags: number;
  accountcode: string;
  uniqueid: string;
  userfield: string;
}

const cut = (v: unknown, n: number) => String(v ?? '').slice(0, n);

/** An old record as Centralino's columns (CDR_COLUMNS' order). */
function values(r: OldCdr): CdrValues {
  // The old userfield carried the caller's number, name and company as cnum|cnam|ccompany.
  const [cnum = '', cnam = '', ccompany = ''] = String(r.userfield ?? '').includes('|')
    ? String(r.userfield).split('|')
    : [];
  return [
    String(r.calldate),
    cut(r.clid, 80),
    cut(r.src, 80),
    cut(r.dst, 80),
    cut(r.dcontext, 80),
    cut(r.channel, 80),
    cut(r.dstchannel, 80),
    cut(r.lastapp, 80),
    cut(r.lastdata, 80),
    Number(r.duration) || 0,
    Number(r.billsec) || 0,
    cut(r.disposition, 45),
    Number(r.amaflags) || 0,
    cut(r.accountcode, 20),
    cut(r.uniqueid, 150),
    cut(r.userfield, 255),
    cut(cnum, 80),
    cut(cnam, 80),
    cut(ccompany, 80),
  ];
}

/** Another process owns the copy now (it took it over while this one was silent): this one stops. */
class TakenOver extends Error {}

/**
 * Copies the old call records into Centralino's `cdr` table in the background. The position (the old table's key)
 * is stored in the same transaction as each batch, so a copy stopped at any point — a kill, a restart — resumes
 * where it was, and never writes a record twice.
 */
export class CdrCopy {
  private running: Promise<void> | undefined;
  private stopping = false;
  /** This process's name on the copy's row (jobs/claim.ts: several processes, one copy). */
  private readonly owner = newOwnerId();
  private sweeper: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly writer: CdrWriter,
    private readonly source: LegacySource,
    private readonly state: MigrationState,
    private readonly log?: { error(obj: object, msg: string): void; info(obj: object, msg: string): void },
  ) {}

  async count(): Promise<number> {
    const rows = await this.source.query<{ n: number | string }>(
      `SELECT COUNT(*) AS n FROM ${this.source.table('cdr', 'cdr')}`,
    );
    return Number(rows[0]?.n ?? 0);
  }

  /** Starts (or resumes) the copy and answers at once. */
  async start(): Promise<void> {
    await this.state.setStatus('cdr');
    if (this.running) return;
    const total = await this.count();
    const row = await this.db.selectFrom('migration_cdr').selectAll().where('id', '=', 1).executeTakeFirst();
    const now = Date.now();
    // Another process that is alive is copying: it goes on, and this one answers with its progress.
    if (
      row?.state === 'running' &&
      row.owner !== this.owner &&
      isPostgres(this.db) &&
      Number(row.heartbeat_at ?? 0) >= now - STALE_MS
    )
      return;
    if (!row) {
      await this.db
        .insertInto('migration_cdr')
        .values({
          id: 1,
          last_id: 0,
          copied: 0,
          total,
          state: 'running',
          error: null,
          updated_at: now,
          owner: this.owner,
          heartbeat_at: now,
        })
        .execute();
    } else {
      await this.db
        .updateTable('migration_cdr')
        .set({
          state: 'running',
          error: null,
          total: Number(row.copied) + (await this.remaining(Number(row.last_id))),
          updated_at: now,
          owner: this.owner,
          heartbeat_at: now,
        })
        .where('id', '=', 1)
        .execute();
    }
    this.launch();
  }

  /**
   * After a restart, or when the process copying died (PostgreSQL, several processes: looked at every SWEEP_MS): a
   * copy that was running goes on here, from the position its last batch committed.
   */
  async resume(): Promise<void> {
    await this.takeOver();
    if (!isPostgres(this.db) || this.sweeper) return;
    this.sweeper = setInterval(() => {
      this.takeOver().catch((error) =>
        this.log?.error({ err: error }, 'looking for a stopped call-record copy failed'),
      );
    }, SWEEP_MS);
    this.sweeper.unref();
  }

  private async takeOver(): Promise<void> {
    if (this.running || this.stopping) return;
    const taken = await claimAbandoned(this.db, 'migration_cdr', this.owner);
    if (taken.length > 0) {
      this.log?.info({ from: taken[0]?.owner }, 'call-record copy taken over');
      this.launch();
    }
  }

  private async remaining(lastId: number): Promise<number> {
    const rows = await this.source.query<{ n: number | string }>(
      `SELECT COUNT(*) AS n FROM ${this.source.table('cdr', 'cdr')} WHERE id > ?`,
      [lastId],
    );
    return Number(rows[0]?.n ?? 0);
  }

  private launch() {
    this.stopping = false;
    const heartbeat = setInterval(() => {
      beat(this.db, 'migration_cdr', this.owner, [1]).catch(() => {});
    }, HEARTBEAT_MS);
    heartbeat.unref();
    this.running = this.copy()
      .catch(async (error) => {
        if (error instanceof TakenOver) {
          this.log?.info({}, 'call-record copy taken over by another server process; this one stops');
          return;
        }
        this.log?.error({ err: error }, 'call-record migration failed');
        const message = error instanceof Error ? error.message : String(error);
        await this.db
          .updateTable('migration_cdr')
          .set({ state: 'failed', error: message.slice(0, 1000), updated_at: Date.now() })
          .where('id', '=', 1)
          .execute()
          .catch(() => {});
        const log = new StepLog();
        log.errors.push(textMessage(message));
        await this.state.record('cdrmigration', log).catch(() => {});
      })
      .finally(() => {
        clearInterval(heartbeat);
        this.running = undefined;
      });
  }

  private async copy(): Promise<void> {
    const position = await this.db
      .selectFrom('migration_cdr')
      .selectAll()
      .where('id', '=', 1)
      .executeTakeFirstOrThrow();
    let lastId = Number(position.last_id);
    let copied = Number(position.copied);
    // The next batch is read from the old server while this one is written.
    let reading = this.read(lastId);
    for (;;) {
      const rows = await reading;
      if (this.stopping) return;
      if (rows.length === 0) {
        await this.db
          .updateTable('migration_cdr')
          .set({ state: 'done', updated_at: Date.now() })
          .where('id', '=', 1)
          .where('owner', '=', this.owner)
          .execute();
        return;
      }
      const from = lastId;
      lastId = Number(rows[rows.length - 1]?.id);
      copied += rows.length;
      reading = this.read(lastId);
      // Not left unhandled if this write fails: the loop ends there.
      reading.catch(() => {});
      // Only from the position this copy reached, and only while the copy is still this process's: a process that
      // took it over meanwhile has written these records, so this batch rolls back and this copy stops.
      const moved = await this.writer.write(rows.map(values), { owner: this.owner, from, lastId, copied });
      if (!moved) throw new TakenOver();
      await cdrCopyHooks.afterBatch(copied);
    }
  }

  private read(after: number): Promise<OldCdr[]> {
    return this.source.query<OldCdr>(
      `SELECT id, calldate, clid, src, dst, dcontext, channel, dstchannel, lastapp, lastdata, duration, billsec,
              disposition, amaflags, accountcode, uniqueid, userfield
         FROM ${this.source.table('cdr', 'cdr')} WHERE id > ? ORDER BY id LIMIT ${CDR_BATCH}`,
      [after],
    );
  }

  /** GET /migration/cdr: undefined when no copy was ever started. */
  async progress(): Promise<CdrProgress | undefined> {
    const row = await this.db.selectFrom('migration_cdr').selectAll().where('id', '=', 1).executeTakeFirst();
    if (!row) return undefined;
    const total = Number(row.total);
    const copied = Number(row.copied);
    const progress = row.state === 'done' ? 100 : total > 0 ? Math.min(99, Math.floor((copied * 100) / total)) : 0;
    if (row.state === 'running') return { progress, copied, total };
    if (row.state === 'done') return { status: true, progress, copied, total };
    return { status: false, progress, copied, total, errors: row.error ?? '' };
  }

  /** Stops after the batch in progress (server shutdown; tests simulating a kill). */
  async stop(): Promise<void> {
    this.stopping = true;
    clearInterval(this.sweeper);
    this.sweeper = undefined;
    await this.running;
    // A copy left by an orderly stop is free at once: the next process to start (or the next sweep) goes on with it.
    await this.db
      .updateTable('migration_cdr')
      .set({ heartbeat_at: null })
      .where('owner', '=', this.owner)
      .where('state', '=', 'running')
      .execute()
      .catch(() => {});
    await this.writer.close();
  }
}
