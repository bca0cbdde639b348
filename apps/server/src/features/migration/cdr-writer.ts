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

/** Writes one batch of records and the copy's new position in one transaction. */
export interface CdrWriter {
  write(rows: CdrValues[], lastId: number, copied: number): Promise<void>;
  close(): Promise<void>;
}

export function cdrWriter(database: Pick<DatabaseHandle, 'db' | 'kind' | 'location'>): CdrWriter {
  return database.kind === 'sqlite' ? new SqliteCdrWriter(database.location) : new KyselyCdrWriter(database.db);
}

/** PostgreSQL: the driver is asynchronous, so the request thread only builds the statement. */
class KyselyCdrWriter implements CdrWriter {
  constructor(private readonly db: Kysely<Database>) {}

  async write(rows: CdrValues[], lastId: number, copied: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('cdr')
        .values(rows.map((row) => Object.fromEntries(CDR_COLUMNS.map((c, i) => [c, row[i]]))) as never)
        .execute();
      await trx
        .updateTable('migration_cdr')
        .set({ last_id: lastId, copied, updated_at: Date.now() })
        .where('id', '=', 1)
        .execute();
    });
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
const position = db.prepare('UPDATE migration_cdr SET last_id = ?, copied = ?, updated_at = ? WHERE id = 1');
const batch = db.transaction((rows, lastId, copied) => {
  for (const row of rows) insert.run(row);
  position.run(lastId, copied, Date.now());
});
parentPort.on('message', (m) => {
  try {
    batch.immediate(m.rows, m.lastId, m.copied);
    parentPort.postMessage({ id: m.id });
  } catch (e) {
    parentPort.postMessage({ id: m.id, error: String((e && e.message) || e) });
  }
});
`;

const driver = createRequire(import.meta.url).resolve('better-sqlite3');

class SqliteCdrWriter implements CdrWriter {
  private worker: Worker | undefined;
  private next = 0;
  private readonly waiting = new Map<number, { resolve: () => void; reject: (e: Error) => void }>();

  constructor(private readonly file: string) {}

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(THREAD, {
      eval: true,
      workerData: { driver, file: this.file, columns: CDR_COLUMNS },
    });
    worker.on('message', (m: { id: number; error?: string }) => {
      const w = this.waiting.get(m.id);
      this.waiting.delete(m.id);
      if (m.error) w?.reject(new Error(m.error));
      else w?.resolve();
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

  write(rows: CdrValues[], lastId: number, copied: number): Promise<void> {
    const worker = this.thread();
    const id = ++this.next;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.postMessage({ id, rows, lastId, copied });
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    // Between batches only (the copy awaits each write): nothing is cut in half.
    if (worker) await worker.terminate();
  }
}
