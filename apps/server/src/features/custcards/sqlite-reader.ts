import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';

/**
 * Card queries on the built-in sources when Centralino runs on SQLite: a read-only connection to the same file,
 * in a child process. Not on the request thread: better-sqlite3 is synchronous, and a query scanning the call
 * records would stall every request meanwhile. Not in a worker thread either: better-sqlite3 has no interrupt
 * (sqlite3_interrupt and the progress handler are not exposed), and terminating a worker only takes effect when
 * JavaScript runs again, so a query stuck inside one long step (`select count(*)` over an endless recursive CTE)
 * would keep its thread and a core forever. A child process is killed outright at the timeout, whatever
 * SQLite is doing. The children are kept between queries.
 */

/** The child's whole program: plain CommonJS, so it runs from the bundle and from tsx alike. */
const CHILD = `
const Database = require(process.env.CZ_BETTER_SQLITE3);
const db = new Database(process.env.CZ_DB_FILE, { readonly: true, fileMustExist: true });
db.pragma('busy_timeout = 2000');
const text = (v) => {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : String(v);
  if (Buffer.isBuffer(v)) return '[binary ' + v.length + ' bytes]';
  return v;
};
process.on('message', (m) => {
  try {
    const statement = db.prepare(m.sql);
    if (!statement.reader) throw new Error('the statement returns no rows: a card query must read (SELECT)');
    if (!statement.readonly) throw new Error('the statement would write: a card query may only read');
    const columns = statement.columns().map((c) => c.name);
    const rows = [];
    let truncated = false;
    const iterator = m.params ? statement.iterate(m.params) : statement.iterate();
    for (const row of iterator) {
      if (rows.length === m.limit) { truncated = true; iterator.return(); break; }
      const out = {};
      for (const k of Object.keys(row)) out[k] = text(row[k]);
      rows.push(out);
    }
    process.send({ id: m.id, columns, rows, truncated });
  } catch (e) {
    process.send({ id: m.id, error: String((e && e.message) || e), code: e && e.code });
  }
});
`;

export interface ReaderResult {
  columns: string[];
  rows: Record<string, string | number | boolean | null>[];
  truncated: boolean;
}

interface Reply extends Partial<ReaderResult> {
  id: number;
  error?: string;
  code?: string;
}

/** A query the reader stopped: the caller turns it into the answer (timeout, driver error). */
export class ReaderError extends Error {
  constructor(
    readonly kind: 'timeout' | 'failed',
    message: string,
  ) {
    super(message);
  }
}

interface Child {
  process: ChildProcess;
}

const betterSqlite3 = createRequire(import.meta.url).resolve('better-sqlite3');

export class SqliteReader {
  private readonly idle: Child[] = [];
  private readonly all = new Set<Child>();
  private readonly waiting: ((child: Child) => void)[] = [];
  private nextId = 1;
  private closed = false;

  constructor(
    private readonly file: string,
    /** Children running at once; more queries wait their turn. */
    private readonly size: number,
  ) {}

  private start(): Child {
    const proc = spawn(process.execPath, ['-e', CHILD], {
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
      env: { CZ_BETTER_SQLITE3: betterSqlite3, CZ_DB_FILE: this.file, PATH: process.env.PATH ?? '' },
    });
    proc.unref();
    const child: Child = { process: proc };
    this.all.add(child);
    proc.on('exit', () => this.forget(child));
    proc.on('error', () => this.forget(child));
    return child;
  }

  private forget(child: Child): void {
    this.all.delete(child);
    const at = this.idle.indexOf(child);
    if (at !== -1) this.idle.splice(at, 1);
  }

  private acquire(): Promise<Child> {
    const child = this.idle.pop();
    if (child) {
      child.process.channel?.ref();
      return Promise.resolve(child);
    }
    if (this.all.size < this.size) return Promise.resolve(this.start());
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(child: Child): void {
    if (!this.all.has(child)) {
      // Killed: a waiting query gets a fresh child.
      const next = this.waiting.shift();
      if (next && !this.closed) next(this.start());
      return;
    }
    const next = this.waiting.shift();
    if (next) {
      next(child);
      return;
    }
    // Children stay for the server's life (`size` at most, ~30 MB each): starting one holds the event loop while the
    // server's process is forked (~10 ms quiet, several hundred with a large heap on a loaded machine), which only
    // the first previews and the one after a timeout should pay.
    // An idle child does not keep the server's process alive.
    child.process.channel?.unref();
    this.idle.push(child);
  }

  /** Runs one statement with the named parameters; at most `limit` rows are read; killed after `timeoutMs`. */
  async run(
    sql: string,
    params: Record<string, string> | null,
    limit: number,
    timeoutMs: number,
  ): Promise<ReaderResult> {
    if (this.closed) throw new ReaderError('failed', 'the server is stopping');
    const child = await this.acquire();
    const id = this.nextId++;
    try {
      return await new Promise<ReaderResult>((resolve, reject) => {
        const timer = setTimeout(() => {
          done();
          child.process.kill('SIGKILL');
          this.forget(child);
          reject(new ReaderError('timeout', `no answer within ${timeoutMs} ms`));
        }, timeoutMs);
        const onMessage = (reply: Reply) => {
          if (reply.id !== id) return;
          done();
          if (reply.error !== undefined) reject(new ReaderError('failed', reply.error));
          else resolve({ columns: reply.columns ?? [], rows: reply.rows ?? [], truncated: !!reply.truncated });
        };
        const onExit = () => {
          done();
          reject(new ReaderError('failed', 'the query process stopped'));
        };
        const done = () => {
          clearTimeout(timer);
          child.process.off('message', onMessage);
          child.process.off('exit', onExit);
        };
        child.process.on('message', onMessage);
        child.process.on('exit', onExit);
        child.process.send({ id, sql, params, limit });
      });
    } finally {
      this.release(child);
    }
  }

  close(): void {
    this.closed = true;
    for (const child of this.all) child.process.kill('SIGKILL');
    this.all.clear();
    this.idle.length = 0;
  }
}
