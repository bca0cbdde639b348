import fs from 'node:fs/promises';
import path from 'node:path';
import type { Kysely, Transaction } from 'kysely';
import type { Database, QueueLogTable } from '../db/schema.ts';
import type { Log as AppLog } from '../log.ts';
import { ensureSpoolDir } from './write-files.ts';

type Log = Pick<AppLog, 'warn' | 'error'>;

/**
 * Asterisk's queue log (issue 41, the queue reports), kept in the `queue_log` table of Centralino's own database.
 *
 * logger.conf (render/system.ts) points `queue_log_name` at a file in this spool folder. Unlike cdr_custom, which
 * opens its file for each record, the logger keeps the queue log open from its start (main/logger.c) and reopens it
 * only on `logger reload`, which itself writes a CONFIGRELOAD line: renaming the file every second would reopen it
 * every second for ever. So the live file is read in place, by position, and taken aside only once it has grown
 * past `rotateBytes`:
 * - the events read and the file's new position (table `queue_log_spool`, keyed by name with the file's
 *   device:inode) are written in one transaction, and the position moves only from the value this pass read, so a
 *   crash neither loses nor repeats an event and, of two processes, one writes each stretch;
 * - a full live file is renamed `taken-…` (its position row follows it, the inode names it across a crash in
 *   between) and Asterisk is asked to reopen its log (`reopen`). Until it does, it keeps appending to the taken
 *   file, which is read on by position: nothing is lost when that request fails (no AMI, an external Asterisk);
 * - a taken file is removed once read to its end and left unwritten for `settleMs`, its position row after it.
 * A last line without its newline is Asterisk still writing it: it is read on a later pass.
 */

/** The folder the queue log goes to, beside the configuration Asterisk already reads (same group). */
export function queueLogSpoolDir(configDir: string): string {
  return path.join(configDir, 'queue-log-spool');
}

/** The live file, as logger.conf's `queue_log_name` names it relative to Asterisk's log folder. */
export function queueLogSpoolFile(configDir: string): string {
  return path.join(queueLogSpoolDir(configDir), LIVE);
}

const LIVE = 'queue_log';
const TAKEN = /^taken-\d{13}-\d{6}$/;
/** Read per transaction: ten thousand events or so. */
const CHUNK = 1 << 20;
/** Rows per INSERT, within both databases' limits on bound values (8 columns). */
const BATCH = 500;

/** The events a report reads; the others (member logins, pauses, CONFIGRELOAD…) are not kept. */
const KEPT = new Set([
  'ENTERQUEUE',
  'CONNECT',
  'COMPLETEAGENT',
  'COMPLETECALLER',
  'ABANDON',
  'EXITWITHTIMEOUT',
  'EXITEMPTY',
  'EXITWITHKEY',
  'RINGNOANSWER',
  'ATTENDEDTRANSFER',
  'BLINDTRANSFER',
]);

type Row = Omit<QueueLogTable, 'id'>;

const seconds = (text: string | undefined) => {
  const n = Number.parseInt(text ?? '', 10);
  return Number.isFinite(n) && n > 0 ? Math.min(n, 2_000_000_000) : 0;
};

/**
 * One queue-log line (`epoch|callid|queue|agent|event|data…`, app_queue.c's formats) as a row; null for a line that
 * is not one or an event the reports do not read.
 */
export function queueLogRow(line: string): Row | null {
  const fields = line.split('|');
  if (fields.length < 5) return null;
  const [epoch, callid = '', queue = '', agent = '', event = ''] = fields;
  const data = fields.slice(5);
  if (!/^\d{1,12}$/.test(epoch ?? '') || !KEPT.has(event)) return null;
  let wait = 0;
  let talk = 0;
  switch (event) {
    case 'CONNECT': // holdtime|bridged channel|ringtime
      wait = seconds(data[0]);
      break;
    case 'ABANDON': // position|original position|waittime
    case 'EXITWITHTIMEOUT':
    case 'EXITEMPTY':
      wait = seconds(data[2]);
      break;
    case 'EXITWITHKEY': // key|position|original position|waittime
      wait = seconds(data[3]);
      break;
    case 'COMPLETEAGENT': // holdtime|calltime|original position
    case 'COMPLETECALLER':
      talk = seconds(data[1]);
      break;
    case 'ATTENDEDTRANSFER': // how (itself holding '|')…|holdtime|calltime|original position
    case 'BLINDTRANSFER':
      talk = seconds(data[data.length - 2]);
      break;
  }
  return {
    at: Number(epoch) * 1000,
    callid: callid.slice(0, 150),
    queue: queue.slice(0, 80),
    agent: agent.slice(0, 80),
    event,
    wait,
    talk,
    data: data.join('|').slice(0, 255),
  };
}

export interface QueueLogOptions {
  /** Between two passes. */
  intervalMs?: number;
  /** How long a taken file stays unwritten before it is removed. */
  settleMs?: number;
  /** The live file is taken aside once it is this large. */
  rotateBytes?: number;
  /** Asks Asterisk to reopen its queue log (`logger reload`) after the live file was taken aside. */
  reopen?: () => Promise<unknown>;
}

interface Position {
  name: string;
  file_id: string;
  offset: number;
}

/** Another process wrote this stretch first: this pass leaves the file to it. */
class Overtaken extends Error {}

export class QueueLogSpool {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private sequence = 0;
  private closed = false;
  private readonly intervalMs: number;
  private readonly settleMs: number;
  private readonly rotateBytes: number;

  constructor(
    private readonly db: Kysely<Database>,
    readonly dir: string,
    private readonly gid: number | null,
    private readonly log?: Log,
    private readonly options: QueueLogOptions = {},
  ) {
    this.intervalMs = options.intervalMs ?? 1000;
    this.settleMs = options.settleMs ?? 5000;
    this.rotateBytes = options.rotateBytes ?? 16 << 20;
  }

  /** Makes the folder and takes in what Asterisk wrote meanwhile, then keeps reading every second. */
  async start(): Promise<void> {
    try {
      await ensureSpoolDir(this.dir, this.gid);
    } catch (error) {
      this.log?.error({ err: error, dir: this.dir }, 'queue log: cannot make the spool folder');
    }
    if (this.closed) return;
    this.timer = setInterval(() => void this.drain(), this.intervalMs);
    this.timer.unref();
    await this.drain();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** One pass over the folder; passes never overlap (a call during one waits for it). */
  drain(): Promise<void> {
    this.running ??= this.pass()
      .catch((error) => this.log?.error({ err: error }, 'queue log: reading the spool failed'))
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }

  private leftoversCleared = false;

  private async pass(): Promise<void> {
    const names = await fs.readdir(this.dir).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
    if (!names) return;
    const rows = await this.db.selectFrom('queue_log_spool').selectAll().execute();
    const positions = rows.map((r) => ({ ...r, offset: Number(r.offset) }));
    // Taken files first (older events), in the order they were taken; the live one last.
    const files = names.filter((n) => TAKEN.test(n)).sort();
    if (names.includes(LIVE)) files.push(LIVE);
    const present = new Set<string>();
    for (const name of files) {
      if (this.closed) return;
      const id = await this.readFile(name, positions);
      if (id) present.add(id);
    }
    // Rows of files removed just before a stop, whose inode no file carries now: looked for once, at the first pass.
    // Later a row without its file is another reader's (the table is shared by every process on the database, each
    // with its folder: a test's spool beside the server's lost its live position to the server's empty folder).
    if (this.leftoversCleared) return;
    this.leftoversCleared = true;
    const gone = positions.filter((p) => !files.includes(p.name) && !present.has(p.file_id)).map((p) => p.name);
    if (gone.length > 0) await this.db.deleteFrom('queue_log_spool').where('name', 'in', gone).execute();
  }

  /** Takes in the complete events of one file past its position; answers the file's identity. */
  private async readFile(name: string, positions: Position[]): Promise<string | undefined> {
    const file = path.join(this.dir, name);
    let handle: fs.FileHandle;
    try {
      handle = await fs.open(file, 'r');
    } catch (error) {
      // Taken aside or removed by another process meanwhile.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    let fileId: string;
    let offset: number;
    let size: number;
    let mtimeMs: number;
    let position: Position | undefined;
    try {
      const st = await handle.stat();
      fileId = `${st.dev}:${st.ino}`;
      // Its own row, else the live file's row if this is the live file taken aside before its row followed it.
      position =
        positions.find((p) => p.name === name && p.file_id === fileId) ??
        (name === LIVE ? undefined : positions.find((p) => p.name === LIVE && p.file_id === fileId));
      offset = position?.offset ?? 0;
      while (offset < st.size) {
        const length = Math.min(CHUNK, st.size - offset);
        const buffer = Buffer.allocUnsafe(length);
        const { bytesRead } = await handle.read(buffer, 0, length, offset);
        const chunk = buffer.subarray(0, bytesRead);
        const end = chunk.lastIndexOf(0x0a) + 1;
        // A megabyte without a newline is no queue log line: skipped rather than stalling the file.
        const step = end === 0 && bytesRead === CHUNK ? CHUNK : end;
        if (step === 0) break;
        if (end === 0) this.log?.warn({ file, offset }, 'queue log: skipped a megabyte without a line');
        const lines =
          end === 0
            ? []
            : chunk
                .subarray(0, end - 1)
                .toString('utf8')
                .split('\n');
        const next = { name, file_id: fileId, offset: offset + step };
        try {
          await this.write(position, next, lines);
        } catch (error) {
          if (error instanceof Overtaken) return fileId;
          throw error;
        }
        position = next;
        offset = next.offset;
      }
      ({ size, mtimeMs } = await handle.stat());
    } finally {
      await handle.close();
    }
    if (name === LIVE) {
      if (offset >= size && size >= this.rotateBytes) await this.takeAside(position);
      return fileId;
    }
    if (Date.now() - mtimeMs < this.settleMs) return fileId;
    // Settled with an unfinished line: Asterisk stopped in the middle of it.
    if (offset < size) this.log?.warn({ file, bytes: size - offset }, 'queue log: dropped an unfinished line');
    await fs.rm(file, { force: true });
    await this.db.deleteFrom('queue_log_spool').where('name', '=', name).execute();
    return undefined;
  }

  /** The live file, read to its end, renamed aside; its row follows it; Asterisk is asked to open a new one. */
  private async takeAside(position: Position | undefined): Promise<void> {
    const taken = `taken-${Date.now()}-${String(this.sequence++ % 1e6).padStart(6, '0')}`;
    try {
      await fs.rename(path.join(this.dir, LIVE), path.join(this.dir, taken));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    if (position) {
      await this.db.transaction().execute(async (trx) => {
        await trx
          .deleteFrom('queue_log_spool')
          .where('name', '=', LIVE)
          .where('file_id', '=', position.file_id)
          .execute();
        await trx
          .insertInto('queue_log_spool')
          .values({ name: taken, file_id: position.file_id, offset: position.offset })
          .execute();
      });
    }
    try {
      await this.options.reopen?.();
    } catch (error) {
      this.log?.warn({ err: error }, 'queue log: Asterisk did not reopen its queue log (it goes on in the taken file)');
    }
  }

  /** The events of one stretch and the position after it, in one transaction; the position moves from `from` only. */
  private async write(from: Position | undefined, to: Position, lines: string[]): Promise<void> {
    const rows: Row[] = [];
    for (const line of lines) {
      const row = queueLogRow(line);
      if (row) rows.push(row);
      else if (!/^\d+\|[^|]*\|[^|]*\|[^|]*\|[A-Z_]+(\||$)/.test(line) && line !== '') {
        this.log?.warn({ line: line.slice(0, 300) }, 'queue log: skipped a line that is not a queue event');
      }
    }
    await this.db.transaction().execute(async (trx) => {
      await this.move(trx, from, to);
      for (let i = 0; i < rows.length; i += BATCH) {
        await trx
          .insertInto('queue_log')
          .values(rows.slice(i, i + BATCH))
          .execute();
      }
    });
  }

  private async move(trx: Transaction<Database>, from: Position | undefined, to: Position): Promise<void> {
    if (!from) {
      // A file nobody has read yet (or whose name came back on another file): the row is new.
      await trx.deleteFrom('queue_log_spool').where('name', '=', to.name).where('file_id', '!=', to.file_id).execute();
      const inserted = await trx
        .insertInto('queue_log_spool')
        .values(to)
        .onConflict((oc) => oc.column('name').doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) !== 1) throw new Overtaken();
      return;
    }
    if (from.name !== to.name) {
      // The live file's row, for the file it became when taken aside.
      const moved = await trx
        .deleteFrom('queue_log_spool')
        .where('name', '=', from.name)
        .where('file_id', '=', from.file_id)
        .where('offset', '=', from.offset)
        .executeTakeFirst();
      if (Number(moved.numDeletedRows) !== 1) throw new Overtaken();
      await trx.insertInto('queue_log_spool').values(to).execute();
      return;
    }
    const updated = await trx
      .updateTable('queue_log_spool')
      .set({ offset: to.offset })
      .where('name', '=', from.name)
      .where('file_id', '=', from.file_id)
      .where('offset', '=', from.offset)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) throw new Overtaken();
  }
}
