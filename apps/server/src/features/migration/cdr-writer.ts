import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { Kysely } from 'kysely';
import type { DatabaseHandle } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';

/** Centralino's call-record columns a copied record fills, in the order a batch carries them. */
export const CDR_COLUMNS = [
  'calldate',
  'clid',
  'src',
  'dst',
  'dcontext',
  'channel',
  'dstchannel',
  'lastapp',
  'lastdata',
  'duration',
  'billsec',
  'disposition',
  'amaflags',
  'accountcode',
  'uniqueid',
  'userfield',
  'cnum',
  'cnam',
  'ccompany',
] as const;

export type CdrValues = (string | number)[];

/** Where a batch takes the copy: from `from` to `lastId`, if the copy is still `owner`'s and still at `from`. */
export interface CdrPosition {
  owner: string;
  from: number;
  lastId: number;
  copied: number;
}

/**
 * Writes one batch of records and the copy's new position in one transaction. False, with nothing written, when the
 * copy is no longer where this process left it (another process took it over: jobs/claim.ts).
 */
export interface CdrWriter {
  write(rows: CdrValues[], position: CdrPosition): Promise<boolean>;
  close(): Promise<void>;
}

export function cdrWriter(database: Pick<DatabaseHandle, 'db' | 'kind' | 'location'>): CdrWriter {
  return database.kind === 'sqlite' ? new SqliteCdrWriter(database.location) : new KyselyCdrWriter(database.db);
}

class NotOurs extends Error {}

/** PostgreSQL: the driver is asynchronous, so the request thread only builds the statement. */
class KyselyCdrWriter implements CdrWriter {
  constructor(private readonly db: Kysely<Database>) {}

  async write(rows: CdrValues[], p: CdrPosition): Promise<boolean> {
    try {
      await this.db.transaction().execute(async (trx) => {
        await trx
          .insertInto('cdr')
          .values(rows.map((row) => Object.fromEntries(CDR_COLUMNS.map((c, i) => [c, row[i]]))) as never)
          .execute();
        const now = Date.now();
        const moved = await trx
          .updateTable('migration_cdr')
          .set({ last_id: p.lastId, copied: p.copied, updated_at: now, heartbeat_at: now })
          .where('id', '=', 1)
          .where('owner', '=', p.owner)
          .where('last_id', '=', p.from)
          .executeTakeFirst();
        if (Number(moved.numUpdatedRows) !== 1) throw new NotOurs();
      });
      return true;
    } catch (error) {
      if (error instanceof NotOurs) return false;
      throw error;
    }
  }

  async close(): Promise<void> {}
}

/**
 * SQLite: better-sqlite3 is synchronous, so a batch written on the request thread held every request for as long as
 * the insert took, and the copy had to rest as long again to keep the console responsive (4,000 records a second).
 * A thread of its own, with its own connection to the same file, writes at full speed while the console answers:
 * WAL lets the console read meanwhile, and a console write waits at most one batch (busy_timeout).
 */
const THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('journal_mode = WAL');
db.pragma('busy_timeout = 5000');
db.pragma('synchronous = NORMAL');
const columns = workerData.columns;
const insert = db.prepare('INSERT INTO cdr (' + columns.join(', ') + ') VALUES (' + columns.map(() => '?').join(', ') + ')');
const position = db.prepare(
  'UPDATE migration_cdr SET last_id = ?, copied = ?, updated_at = ?, heartbeat_at = ? WHERE id = 1 AND owner = ? AND last_id = ?',
);
class NotOurs extends Error {}
const batch = db.transaction((rows, p) => {
  for (const row of rows) insert.run(row);
  const now = Date.now();
  if (position.run(p.lastId, p.copied, now, now, p.owner, p.from).changes !== 1) throw new NotOurs();
});
parentPort.on('message', (m) => {
  try {
    batch.immediate(m.rows, m.position);
    parentPort.postMessage({ id: m.id, moved: true });
  } catch (e) {
    if (e instanceof NotOurs) parentPort.postMessage({ id: m.id, moved: false });
    else parentPort.postMessage({ id: m.id, error: String((e && e.message) || e) });
  }
});
`;

const driver = createRequire(import.meta.url).resolve('better-sqlite3');

class SqliteCdrWriter implements CdrWriter {
  private worker: Worker | undefined;
  private next = 0;
  private readonly waiting = new Map<number, { resolve: (moved: boolean) => void; reject: (e: Error) => void }>();

  constructor(private readonly file: string) {}

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(THREAD, {
      eval: true,
      workerData: { driver, file: this.file, columns: CDR_COLUMNS },
    });
    worker.on('message', (m: { id: number; moved?: boolean; error?: string }) => {
      const w = this.waiting.get(m.id);
      this.waiting.delete(m.id);
      if (m.error) w?.reject(new Error(m.error));
      else w?.resolve(m.moved === true);
    });
    const fail = (error: Error) => {
      for (const w of this.waiting.values()) w.reject(error);
      this.waiting.clear();
      this.worker = undefined;
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the call-record writer stopped (${code})`)));
    this.worker = worker;
    return worker;
  }

  write(rows: CdrValues[], position: CdrPosition): Promise<boolean> {
    const worker = this.thread();
    const id = ++this.next;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.postMessage({ id, rows, position });
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    // Between batches only (the copy awaits each write): nothing is cut in half.
    if (worker) await worker.terminate();
  }
}
