import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database, JobsTable } from '../db/schema.ts';
import { auditScope } from '../features/audit/context.ts';
import { beat, claimAbandoned, HEARTBEAT_MS, isPostgres, lockName, newOwnerId, SWEEP_MS } from './claim.ts';

export interface JobContext {
  /** Records progress (0–99 while running) and what is being done; written at most every 250 ms. */
  progress(percent: number, action?: string): Promise<void>;
  /**
   * Stores the result as it stands (what has been committed so far), inside `db` when given (the
   * transaction that committed it), so that a job cut short by a crash still reports it.
   */
  checkpoint(result: unknown, db?: Kysely<Database>): Promise<void>;
}

/** The error of a job that was running when its server process stopped (restart, crash, kill). */
export const INTERRUPTED_ERROR = 'Interrupted: the server process running it stopped';

export interface JobView {
  id: string;
  kind: string;
  status: JobsTable['status'];
  progress: number;
  action: string;
  result: unknown;
  error: string | null;
}

export class JobRunningError extends Error {}

const WRITE_INTERVAL_MS = 250;

/**
 * Runs slow work in the background with its progress persisted, so that the polling endpoints read
 * the database and a restart never leaves a job looking alive.
 */
export class JobRunner {
  private readonly running = new Set<Promise<unknown>>();
  /** Ids of the jobs this runner runs now: their heartbeat is kept fresh (jobs/claim.ts). */
  private readonly mine = new Set<string>();
  private heartbeat: NodeJS.Timeout | undefined;
  private sweeper: NodeJS.Timeout | undefined;
  /** This runner's name on the rows it runs (one runner per server process). */
  readonly owner = newOwnerId();

  /** On SQLite (one process) a job that beat before this runner existed is its previous process's. */
  private readonly since = Date.now();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly log?: FastifyBaseLogger,
  ) {}

  /**
   * Jobs whose process stopped (another owner, silent past the claim rule's limit: at once on SQLite, where one
   * process runs) are failed: nobody will finish them. Their last checkpointed result stays. A job of a process
   * that is alive is left alone, so a second process starting never fails the first one's work.
   */
  async failInterrupted(options: { staleMs?: number } = {}): Promise<number> {
    const taken = await claimAbandoned(this.db, 'jobs', this.owner, {
      ...options,
      ...(options.staleMs === undefined && !isPostgres(this.db) ? { before: this.since } : {}),
    });
    if (taken.length === 0) return 0;
    await this.db
      .updateTable('jobs')
      .set({ status: 'failed', progress: -1, error: INTERRUPTED_ERROR, exclusive_key: null, updated_at: Date.now() })
      .where('owner', '=', this.owner)
      .where('status', '=', 'running')
      .where(
        'id',
        'in',
        taken.map((t) => String(t.id)),
      )
      .execute();
    this.log?.warn({ jobs: taken }, 'jobs of a stopped server process marked failed');
    return taken.length;
  }

  /** Fails interrupted jobs now and, with PostgreSQL (other processes may die), every SWEEP_MS. */
  async watchInterrupted(): Promise<void> {
    await this.failInterrupted();
    if (!isPostgres(this.db)) return;
    this.sweeper ??= setInterval(() => {
      this.failInterrupted().catch((error) => this.log?.error({ err: error }, 'looking for interrupted jobs failed'));
    }, SWEEP_MS);
    this.sweeper.unref();
  }

  close(): void {
    clearInterval(this.sweeper);
    clearInterval(this.heartbeat);
    this.sweeper = undefined;
    this.heartbeat = undefined;
  }

  private beating(id: string, on: boolean): void {
    if (on) this.mine.add(id);
    else this.mine.delete(id);
    if (this.mine.size > 0 && !this.heartbeat) {
      // Outside the audit scope of the request that started the first job: a heartbeat is nobody's change.
      this.heartbeat = auditScope.exit(() =>
        setInterval(() => {
          beat(this.db, 'jobs', this.owner, [...this.mine]).catch((error) =>
            this.log?.error({ err: error }, 'job heartbeat failed'),
          );
        }, HEARTBEAT_MS),
      );
      this.heartbeat.unref();
    } else if (this.mine.size === 0 && this.heartbeat) {
      clearInterval(this.heartbeat);
      this.heartbeat = undefined;
    }
  }

  /**
   * Starts a job and answers its id once its row (progress 0) exists, so that a first poll never
   * misses it. With `exclusive`, refuses to start while a job of the same kind runs.
   */
  async start<T>(
    kind: string,
    action: string,
    work: (ctx: JobContext) => Promise<T>,
    options: { exclusive?: boolean } = {},
  ): Promise<string> {
    const id = randomBytes(16).toString('hex');
    const now = Date.now();
    const row = {
      id,
      kind,
      status: 'running' as const,
      progress: 0,
      action,
      result: null,
      error: null,
      created_at: now,
      updated_at: now,
      owner: this.owner,
      heartbeat_at: now,
      exclusive_key: options.exclusive ? kind : null,
    };
    if (options.exclusive) {
      // A job of this kind left by a process that died does not block a new one. Housekeeping, not the change the
      // request that starts the job makes: outside its audit scope.
      await auditScope.exit(() => this.failInterrupted());
      // Check and insert under one lock of the kind: of processes starting it together, one inserts, the others
      // see it running (the unique exclusive_key is the last word).
      await this.db.transaction().execute(async (trx) => {
        await lockName(trx, `job:${kind}`);
        const other = await trx.selectFrom('jobs').select('id').where('exclusive_key', '=', kind).executeTakeFirst();
        if (other) throw new JobRunningError(kind);
        await trx.insertInto('jobs').values(row).execute();
      });
    } else {
      await this.db.insertInto('jobs').values(row).execute();
    }
    this.beating(id, true);

    let lastWrite = 0;
    let lastPercent = 0;
    const ctx: JobContext = {
      progress: async (percent, nextAction) => {
        const clamped = Math.max(0, Math.min(99, Math.floor(percent)));
        const t = Date.now();
        if (nextAction === undefined && (clamped === lastPercent || t - lastWrite < WRITE_INTERVAL_MS)) return;
        lastWrite = t;
        lastPercent = clamped;
        await this.db
          .updateTable('jobs')
          .set({ progress: clamped, updated_at: t, ...(nextAction ? { action: nextAction } : {}) })
          .where('id', '=', id)
          .where('owner', '=', this.owner)
          .execute();
      },
      checkpoint: async (result, db = this.db) => {
        await db
          .updateTable('jobs')
          .set({ result: JSON.stringify(result), updated_at: Date.now() })
          .where('id', '=', id)
          .execute();
      },
    };

    const run = (async () => {
      try {
        const result = await work(ctx);
        await this.finish(id, 'done', 100, result, null);
      } catch (error) {
        this.log?.error({ err: error, job: id, kind }, 'job failed');
        const message = error instanceof Error ? error.message : String(error);
        // Without a result of its own, the failure keeps what the job checkpointed.
        await this.finish(id, 'failed', -1, (error as { result?: unknown })?.result, message).catch(() => {});
      }
    })();
    this.running.add(run);
    void run.finally(() => {
      this.running.delete(run);
      this.beating(id, false);
    });
    return id;
  }

  private async finish(id: string, status: 'done' | 'failed', progress: number, result: unknown, error: string | null) {
    await this.db
      .updateTable('jobs')
      .set({
        status,
        progress,
        ...(result === undefined ? {} : { result: result === null ? null : JSON.stringify(result) }),
        error,
        exclusive_key: null,
        updated_at: Date.now(),
      })
      .where('id', '=', id)
      // Taken over by another process meanwhile (this one was silent too long): its verdict stands.
      .where('owner', '=', this.owner)
      .execute();
  }

  async get(id: string): Promise<JobView | undefined> {
    const row = await this.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? view(row) : undefined;
  }

  async latest(kind: string): Promise<JobView | undefined> {
    const row = await this.db
      .selectFrom('jobs')
      .selectAll()
      .where('kind', '=', kind)
      .orderBy('created_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row ? view(row) : undefined;
  }

  async isRunning(kind: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('jobs')
      .select('id')
      .where('kind', '=', kind)
      .where('status', '=', 'running')
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Waits for every job this process started (shutdown and tests). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }
}

function view(row: JobsTable): JobView {
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    progress: Number(row.progress),
    action: row.action,
    result: row.result ? JSON.parse(row.result) : null,
    error: row.error,
  };
}
