import type { PbxApplyProblem, PbxApplyRecord, PbxApplyStatus, UiLanguage } from '@centralino/contract';
import { type Kysely, PostgresAdapter, sql } from 'kysely';
import type { Database } from '../db/schema.ts';
import { newOwnerId } from '../jobs/claim.ts';
import { readWords, type StoredWords, storeWords, type Words } from '../words.ts';
import { notConnected } from './apply-warnings.ts';
import { allTrunks, type PbxModel } from './model.ts';
import { problemsOf } from './problems.ts';
import { orderReloads, reloadPlan } from './reloads.ts';
import { ConfigRenderer } from './render/index.ts';
import { formatIssue, type ValidationIssue } from './validate.ts';
import { InlineValidator } from './validate-inline.ts';
import { ValidatorThread } from './validate-thread.ts';
import { ConfigWriter } from './write-files.ts';

/** What an apply asks of the running Asterisk; absent when no AMI connection is configured. */
export interface PbxReloader {
  state(): PbxApplyStatus['engine'];
  /** Why the AMI link is down, if it is. */
  lastError?(): string | undefined;
  /** Reloads the modules, and restarts Asterisk when asked (waiting until it is back); answers the modules reloaded. */
  reload(modules: string[], restart: boolean): Promise<string[]>;
  /**
   * What the running Asterisk did not take up (a transport, a listener, a trunk's identify), as sentences;
   * [] when all is there. `expected` names what this configuration must have created.
   */
  check?(expected: ExpectedObjects): Promise<Words[]>;
  /** Asterisk is (re)starting under this console's supervision: it reads every file as it starts, nothing is owed. */
  starting?(): boolean;
}

/** Objects of the configuration Asterisk may silently drop, which the check after a reload looks for. */
export interface ExpectedObjects {
  /** Trunks matched by their provider's address: Asterisk drops the identify when the host does not resolve. */
  identifies: { trunk: string; host: string }[];
}

/** What `check` should find for this model. */
export function expectedObjects(model: PbxModel): ExpectedObjects {
  return {
    identifies: allTrunks(model)
      .filter((t) => t.registration !== 'receive')
      .map((t) => ({ trunk: t.name, host: t.host })),
  };
}

export interface ApplierOptions {
  db: Kysely<Database>;
  directory: string;
  load: () => Promise<PbxModel>;
  reloader?: PbxReloader;
  /** Group Asterisk runs as: owner of the files written (null or absent: the process's own). */
  gid?: number | null;
  log?: { error(obj: object, msg: string): void; info(obj: object, msg: string): void };
}

const MAX_ISSUES_SHOWN = 20;

/** The rendered configuration did not pass the check: nothing was written. */
export class ConfigurationRefused extends Error {
  constructor(
    message: string,
    /** The first problems (as many as the message shows), each traced to the object at fault. */
    readonly problems: PbxApplyProblem[],
  ) {
    super(message);
    this.name = 'ConfigurationRefused';
  }
}

/** From this many users the configuration is checked on a thread of its own (see ApplyPipeline). */
export const THREAD_FROM_USERS = 500;

/** Render → validate → write, keeping each stage's cache between runs (also used by the benchmark). */
export class ApplyPipeline {
  private renderer = new ConfigRenderer();
  readonly writer: ConfigWriter;
  /**
   * Where the last successful run spent its time (benchmark, logs). On a thread, the check runs while
   * the files are rendered: validateMs is then only how long it went on after the rendering.
   */
  lastTimings = { renderMs: 0, validateMs: 0, writeMs: 0, checkedFiles: 0 };
  private readonly inline = new InlineValidator();
  private thread: ValidatorThread | undefined;
  private readonly threadFromUsers: number;

  /**
   * A small system is checked on the calling thread; from `threadFromUsers` users on, on a thread of
   * its own (and stays there), which parses each file while the rest renders and keeps the index
   * (about 40 MB for 10,000 users) out of the request thread. `thread` can be one that ran before
   * (benchmark): forget() it first.
   */
  constructor(
    directory: string,
    options: { thread?: ValidatorThread; threadFromUsers?: number; gid?: number | null } = {},
  ) {
    this.writer = new ConfigWriter(directory, options.gid ?? null);
    this.thread = options.thread;
    this.threadFromUsers = options.threadFromUsers ?? THREAD_FROM_USERS;
  }

  private validatorFor(model: PbxModel): InlineValidator | ValidatorThread {
    if (!this.thread && model.users.length < this.threadFromUsers) return this.inline;
    return this.threadStarted();
  }

  private threadStarted(): ValidatorThread {
    if (!this.thread) {
      // The thread is given every file and checks them all once; the inline index is no longer needed.
      this.thread = new ValidatorThread();
      this.inline.reset();
    }
    return this.thread;
  }

  /** Whether the checks run on a thread of their own (tests). */
  get threaded(): boolean {
    return this.thread !== undefined;
  }

  /** Answers the files written or removed; throws with every problem when the result is not valid. */
  async run(model: PbxModel): Promise<string[]> {
    const t0 = performance.now();
    const validator = this.validatorFor(model);
    const files = await this.renderer.renderYielding(model, (name, text) => validator.send(name, text));
    const t1 = performance.now();
    // The changed files are written aside and flushed while they are checked; they replace the live
    // ones only if the check passes.
    const staging = this.writer.stage(files);
    // Settled at once too, so a staging failure during a failed check is not an unhandled rejection.
    staging.catch(() => {});
    let issues: ValidationIssue[];
    try {
      issues = await validator.check(files);
    } catch (error) {
      await staging.then((staged) => staged.abort()).catch(() => {});
      throw error;
    }
    const t2 = performance.now();
    if (issues.length > 0) {
      await staging.then((staged) => staged.abort()).catch(() => {});
      const first = issues.slice(0, MAX_ISSUES_SHOWN);
      const shown = first.map(formatIssue);
      if (issues.length > MAX_ISSUES_SHOWN) shown.push(`… and ${issues.length - MAX_ISSUES_SHOWN} more`);
      throw new ConfigurationRefused(
        `The configuration was not written: ${issues.length} problem(s)\n${shown.join('\n')}`,
        problemsOf(first, files, model),
      );
    }
    const { changed, removed } = await (await staging).commit();
    this.lastTimings = {
      renderMs: t1 - t0,
      validateMs: t2 - t1,
      writeMs: performance.now() - t2,
      checkedFiles: validator.lastChecked,
    };
    return [...changed, ...removed].sort();
  }

  /** Forgets what was rendered and checked: the next run does everything again (benchmark). */
  forget(): void {
    this.renderer = new ConfigRenderer();
    this.inline.reset();
    this.thread?.reset();
  }

  /** Starts the validator's thread ahead of the first run, for a large system. */
  ready(): Promise<void> {
    return this.threadStarted().ready();
  }

  /** Stops the validator's thread, if any (a later run starts it again). */
  async close(): Promise<void> {
    await this.thread?.close();
  }
}
/** Any 64-bit number: it names the lock that keeps applies of several servers apart. */
const APPLY_LOCK = 7_205_310_001;

/**
 * Single-flight apply queue: markDirty() records that the configuration changed and returns at
 * once; one apply runs at a time and at most one more is queued behind it, however many changes
 * arrive meanwhile. An idle applier starts at once (on the next turn of the event loop, so the
 * writes of one tick go together): changes are coalesced only while they come faster than applies
 * finish, never by a fixed wait. An apply renders everything, validates it, writes only changed files, and
 * reloads only the affected modules.
 */
export class PbxApplier {
  private readonly pipeline: ApplyPipeline;
  private running: Promise<void> | undefined;
  private queued = false;
  private timer: NodeJS.Immediate | undefined;
  private closed = false;
  private readonly dirtyListeners: (() => void)[] = [];
  private readonly committedListeners: (() => void)[] = [];
  /**
   * Modules whose files changed but that Asterisk did not reload (its AMI link was down, it refused while
   * shutting down): reloaded by the next apply with a connection, which the engine asks for when the link is back.
   */
  private owed = new Set<string>();
  /** This process, as `pbx_apply.applied_by` names the last writer of the files. */
  private readonly id = newOwnerId();

  constructor(private readonly options: ApplierOptions) {
    this.pipeline = new ApplyPipeline(options.directory, { gid: options.gid });
  }

  get directory(): string {
    return this.options.directory;
  }

  /** Called by services after a write that changes the PBX configuration. Never throws, never waits. */
  markDirty = (): void => {
    if (this.closed) return;
    for (const listener of this.dirtyListeners) listener();
    this.options.db
      .updateTable('pbx_apply')
      .set({ generation: sql`generation + 1` })
      .where('id', '=', 1)
      .execute()
      .then(() => {
        for (const listener of this.committedListeners) listener();
      })
      .catch((error) => this.options.log?.error({ err: error }, 'could not mark the PBX configuration changed'))
      .finally(() => this.request());
    // Visible as 'pending' at once, before the counter is written.
    this.queued = true;
  };

  /** Told, synchronously, of every change markDirty records (caches of what the configuration holds). */
  onDirty(listener: () => void): void {
    this.dirtyListeners.push(listener);
  }

  /** Told once the change markDirty records is in the database (what other processes read). */
  onDirtyCommitted(listener: () => void): void {
    this.committedListeners.push(listener);
  }

  /** Starts the validator's thread now (start of a large system's server), so that the first apply need not wait for it. */
  prepare(): void {
    this.pipeline
      .ready()
      .catch((error) => this.options.log?.error({ err: error }, 'the PBX validator thread did not start'));
  }

  /** Asks for an apply now (start-up, the force button), without waiting for it. */
  request(): void {
    if (this.closed) return;
    this.queued = true;
    if (this.running || this.timer) return;
    this.timer = setImmediate(() => {
      this.timer = undefined;
      this.start();
    });
  }

  private start(): void {
    if (this.running || !this.queued || this.closed) return;
    this.queued = false;
    this.running = this.runOnce()
      .catch((error) => this.options.log?.error({ err: error }, 'PBX apply crashed'))
      .finally(() => {
        this.running = undefined;
        if (this.queued) this.request();
      });
  }

  /** Resolves when no apply runs or waits (tests, shutdown). */
  async idle(): Promise<void> {
    for (;;) {
      if (this.timer) {
        clearImmediate(this.timer);
        this.timer = undefined;
        this.start();
      }
      if (this.running) await this.running;
      else if (this.queued && !this.closed) this.start();
      else return;
    }
  }

  async close(): Promise<void> {
    await this.idle();
    this.closed = true;
    await this.pipeline.close();
  }

  /** `lang`: the reader's language, for the last apply's warnings. */
  async status(lang: UiLanguage = 'en'): Promise<PbxApplyStatus> {
    const row = await this.options.db
      .selectFrom('pbx_apply')
      .select(['generation', 'applied_generation', 'last'])
      .where('id', '=', 1)
      .executeTakeFirst();
    const behind = row ? Number(row.generation) > Number(row.applied_generation) : false;
    return {
      state: this.running ? 'applying' : this.queued || this.timer || behind ? 'pending' : 'idle',
      directory: this.options.directory,
      engine: this.options.reloader?.state() ?? 'disabled',
      last: row?.last ? recordOf(row.last, lang) : null,
    };
  }

  private async runOnce(): Promise<void> {
    const { db } = this.options;
    if (db.getExecutor().adapter instanceof PostgresAdapter) {
      // Several servers on one database: one writes at a time; the others wait their turn here.
      await db.connection().execute(async (conn) => {
        await sql`select pg_advisory_lock(${APPLY_LOCK})`.execute(conn);
        try {
          await this.applyOnce();
        } finally {
          await sql`select pg_advisory_unlock(${APPLY_LOCK})`.execute(conn);
        }
      });
    } else {
      await this.applyOnce();
    }
  }

  private async applyOnce(): Promise<StoredApplyRecord> {
    const { db } = this.options;
    const startedAt = Date.now();
    const started = performance.now();
    const row = await db
      .selectFrom('pbx_apply')
      .select(['generation', 'applied_by'])
      .where('id', '=', 1)
      .executeTakeFirstOrThrow();
    const generation = Number(row.generation);
    // Another server process wrote the files since this one did: what this one remembers of them is stale.
    if (row.applied_by !== this.id) this.pipeline.writer.forget();
    let record: StoredApplyRecord;
    try {
      const model = await this.options.load();
      const loadMs = performance.now() - started;
      const touched = await this.pipeline.run(model);
      const plan = reloadPlan(touched);
      const modules = orderReloads([...this.owed, ...plan.modules]);
      let reloaded: string[] = [];
      const reloader = this.options.reloader;
      if (reloader?.state() === 'connected' && (modules.length > 0 || plan.restart)) {
        reloaded = await reloader.reload(modules, plan.restart);
      }
      if (reloader) this.owed = new Set(modules.filter((m) => !reloaded.includes(m)));
      // A reload that "succeeds" proves little: ask Asterisk what it really runs.
      const warnings: Words[] =
        reloader?.state() === 'connected' ? ((await reloader.check?.(expectedObjects(model))) ?? []) : [];
      if (
        reloader &&
        reloader.state() !== 'connected' &&
        !reloader.starting?.() &&
        (this.owed.size > 0 || plan.restart)
      ) {
        // Never 'done' without saying so: the files are written, Asterisk has not taken them yet.
        warnings.push(notConnected(reloader.state(), reloader.lastError?.()));
      }
      record = {
        startedAt,
        finishedAt: Date.now(),
        durationMs: Math.round(performance.now() - started),
        ok: true,
        error: null,
        problems: [],
        changed: touched,
        reloaded,
        restartRequired: plan.restart,
        warnings: warnings.map(storeWords),
        phasesMs: {
          load: Math.round(loadMs),
          render: Math.round(this.pipeline.lastTimings.renderMs),
          check: Math.round(this.pipeline.lastTimings.validateMs),
          write: Math.round(this.pipeline.lastTimings.writeMs),
        },
      };
      this.options.log?.info(
        {
          changed: touched.length,
          reloaded,
          ms: record.durationMs,
          phasesMs: record.phasesMs,
          generation,
          startedAt: record.startedAt,
          finishedAt: record.finishedAt,
        },
        'PBX configuration applied',
      );
      if (warnings.length > 0)
        this.options.log?.error(
          { warnings: warnings.map((w) => w('en')) },
          'Asterisk did not take up all of the configuration',
        );
    } catch (error) {
      record = {
        startedAt,
        finishedAt: Date.now(),
        durationMs: Math.round(performance.now() - started),
        ok: false,
        error: error instanceof Error ? error.message : String(error),
        problems: error instanceof ConfigurationRefused ? error.problems : [],
        changed: [],
        reloaded: [],
        restartRequired: false,
        warnings: [],
      };
      this.options.log?.error({ err: error }, 'PBX apply failed');
    }
    // A failed apply is not retried until something changes: the same data would fail the same way.
    await db
      .updateTable('pbx_apply')
      .set({
        applied_generation: generation,
        last: JSON.stringify(record),
        ...(record.ok ? { applied_by: this.id } : {}),
      })
      .where('id', '=', 1)
      .execute();
    return record;
  }
}

/** An apply's outcome as stored: its warnings in both languages. */
type StoredApplyRecord = Omit<PbxApplyRecord, 'problems' | 'warnings'> & {
  problems?: PbxApplyProblem[];
  warnings?: (StoredWords | string)[];
};

/**
 * A stored record in the reader's language; those written before problems were traced (or Asterisk asked) have
 * none, and those written before the warnings were stored in both languages hold English sentences.
 */
function recordOf(json: string, lang: UiLanguage): PbxApplyRecord {
  const record = JSON.parse(json) as StoredApplyRecord;
  return {
    ...record,
    problems: record.problems ?? [],
    warnings: (record.warnings ?? []).map((w) => readWords(w, lang)),
  };
}
