import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database, JobsTable } from '../db/schema.ts';

export interface JobContext {
  /** Records progress (0–99 while running) and what is being done; written at most every 250 ms. */
  progress(percent: number, action?: string): Promise<void>;
  /**
   * Stores the result as it stands (what has been committed so far), inside `db` when given (the
   * transaction that committed it), so that a job cut short by a crash still reports it.
   */
  checkpoint(result: unknown, db?: Kysely<Database>): Promise<void>;
}

/** The error of a job that was running when the process stopped. */
export const INTERRUPTED_ERROR = 'Interrupted by a server restart';

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

  constructor(
    private readonly db: Kysely<Database>,
    private readonly log?: FastifyBaseLogger,
  ) {}

  /**
   * Jobs that were running when the process stopped are failed: nobody will finish them. Their last
   * checkpointed result stays.
   */
  async failInterrupted(): Promise<void> {
    await this.db
      .updateTable('jobs')
      .set({ status: 'failed', progress: -1, error: INTERRUPTED_ERROR, updated_at: Date.now() })
      .where('status', '=', 'running')
      .execute();
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
    if (options.exclusive && (await this.isRunning(kind))) throw new JobRunningError(kind);
    const id = randomBytes(16).toString('hex');
    const now = Date.now();
    await this.db
      .insertInto('jobs')
      .values({
        id,
        kind,
        status: 'running',
        progress: 0,
        action,
        result: null,
        error: null,
        created_at: now,
        updated_at: now,
      })
      .execute();

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
    void run.finally(() => this.running.delete(run));
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
        updated_at: Date.now(),
      })
      .where('id', '=', id)
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
