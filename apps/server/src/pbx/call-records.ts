import fs from 'node:fs/promises';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Log as AppLog } from '../log.ts';
import { ensureSpoolDir } from './write-files.ts';

type Log = Pick<AppLog, 'warn' | 'error'>;

/**
 * The call records the built-in `asteriskcdrdb` source reads (the Last calls card), kept in the `cdr` table of
 * Centralino's own database (SQLite and PostgreSQL alike, with no database driver in Asterisk).
 *
 * Asterisk appends each finished call's record to a spool file (cdr_custom, one CSV line, rendered by
 * render/system.ts) whether or not the console runs; the console takes the file in every second and at start. So a
 * call that ends while the console is stopped, restarting or cut from AMI is kept, and never twice:
 * - the live file is renamed aside before it is read. cdr_custom opens the file for each record and appends under
 *   a lock of its own (res/cdrel_custom/writers.c), so the next record starts a new live file, and a write that had
 *   already opened the old one lands in the renamed file;
 * - the rows read from a file and how far it has been read (table `cdr_spool`) are written in one transaction;
 * - a file is removed once read to its end and left unwritten for a few seconds (a late writer of the rename), and
 *   its position row only after that, so a crash in between leaves a row without a file, never a file read again.
 * A last line without its newline is Asterisk still writing it: it is read on a later pass.
 */

/** The folder cdr_custom writes into, beside the configuration Asterisk already reads (same group). */
export function callRecordSpoolDir(configDir: string): string {
  return path.join(configDir, 'cdr-spool');
}

/** The live spool file, in the mapping of cdr_custom.conf. */
export function callRecordSpoolFile(configDir: string): string {
  return path.join(callRecordSpoolDir(configDir), LIVE);
}

/**
 * The CDR() fields of one line, in order: every column of `cdr` (the start time is `calldate`; the end time stands in
 * for a record that never started).
 */
export const SPOOL_FIELDS = [
  'start',
  'end',
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
  // Added by migration 0034 (call history): a spool file written before has the fields above only.
  'linkedid',
  'sequence',
  'did',
  'recordingfile',
] as const;

/** The fields of a line written before the call history's fields were added. */
const OLD_FIELD_COUNT = 17;

const LIVE = 'cdr.csv';
/** A file taken aside: its name sorts in the order the files were taken. */
const TAKEN = /^taken-\d{13}-\d{6}\.csv$/;
/** Read per transaction: a few thousand records. */
const CHUNK = 1 << 20;
/** Rows per INSERT, within both databases' limits on bound values. */
const BATCH = 500;

/** Asterisk's column widths (migration 0018): a longer value is cut, never refused with the whole record. */
const WIDTH = {
  clid: 80,
  src: 80,
  dst: 80,
  dcontext: 80,
  channel: 80,
  dstchannel: 80,
  lastapp: 80,
  lastdata: 80,
  disposition: 45,
  accountcode: 20,
  uniqueid: 150,
  userfield: 255,
  linkedid: 150,
  did: 50,
  recordingfile: 255,
};
const AMA_FLAGS: Record<string, number> = { OMIT: 1, BILLING: 2, DOCUMENTATION: 3 };
const DATE_TIME = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/;

/**
 * The complete records at the start of `bytes`: each ends at a newline outside quotes (a quoted value may hold one).
 * `consumed` is the byte length they take; what follows is a record still being written.
 */
export function splitRecords(bytes: Buffer): { records: Buffer[]; consumed: number } {
  const records: Buffer[] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    // '"' and '\n' never occur inside a multi-byte UTF-8 character, so bytes can be scanned as they are.
    if (b === 0x22) quoted = !quoted;
    else if (b === 0x0a && !quoted) {
      if (i > start) records.push(bytes.subarray(start, i));
      start = i + 1;
    }
  }
  return { records, consumed: start };
}

/** One CSV line as cdr_custom writes it (separator ',', quote '"' doubled inside a value); null if it is not one. */
export function parseCsvLine(line: string): string[] | null {
  const fields: string[] = [];
  let i = 0;
  for (;;) {
    if (line[i] === '"') {
      let value = '';
      i++;
      for (;;) {
        const close = line.indexOf('"', i);
        if (close < 0) return null;
        value += line.slice(i, close);
        if (line[close + 1] === '"') {
          value += '"';
          i = close + 2;
        } else {
          i = close + 1;
          break;
        }
      }
      fields.push(value);
    } else {
      const comma = line.indexOf(',', i);
      const end = comma < 0 ? line.length : comma;
      fields.push(line.slice(i, end));
      i = end;
    }
    if (i === line.length) return fields;
    if (line[i] !== ',') return null;
    i++;
  }
}

type CdrRow = Omit<
  Database['cdr'],
  'id' | 'cnum' | 'cnam' | 'ccompany' | 'linkedid' | 'sequence' | 'did' | 'recordingfile'
> & {
  linkedid: string;
  sequence: number;
  did: string;
  recordingfile: string;
};

/** A spool line as a `cdr` row; null when it does not have the fields of SPOOL_FIELDS. */
export function recordRow(line: string): CdrRow | null {
  const values = parseCsvLine(line);
  if (!values || (values.length !== SPOOL_FIELDS.length && values.length !== OLD_FIELD_COUNT)) return null;
  const v = Object.fromEntries(SPOOL_FIELDS.map((name, i) => [name, values[i] ?? ''])) as Record<
    (typeof SPOOL_FIELDS)[number],
    string
  >;
  const cut = (name: keyof typeof WIDTH) => v[name].slice(0, WIDTH[name]);
  const amaflags = v.amaflags.trim().toUpperCase();
  return {
    // Empty only for a record that never started: the end time is the next best.
    calldate: DATE_TIME.test(v.start) ? v.start : v.end.slice(0, 19),
    clid: cut('clid'),
    src: cut('src'),
    dst: cut('dst'),
    dcontext: cut('dcontext'),
    channel: cut('channel'),
    dstchannel: cut('dstchannel'),
    lastapp: cut('lastapp'),
    lastdata: cut('lastdata'),
    duration: Number.parseInt(v.duration, 10) || 0,
    billsec: Number.parseInt(v.billsec, 10) || 0,
    disposition: cut('disposition'),
    amaflags: AMA_FLAGS[amaflags] ?? (/^[1-3]$/.test(amaflags) ? Number(amaflags) : 3),
    accountcode: cut('accountcode'),
    uniqueid: cut('uniqueid'),
    userfield: cut('userfield'),
    linkedid: cut('linkedid'),
    sequence: Number.parseInt(v.sequence, 10) || 0,
    did: cut('did'),
    recordingfile: cut('recordingfile'),
  };
}

export interface SpoolOptions {
  /** Between two passes. */
  intervalMs?: number;
  /** How long a file taken aside stays unwritten before it is removed. */
  settleMs?: number;
}

export class CallRecordSpool {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private sequence = 0;
  private closed = false;
  private readonly intervalMs: number;
  private readonly settleMs: number;

  constructor(
    private readonly db: Kysely<Database>,
    readonly dir: string,
    private readonly gid: number | null,
    private readonly log?: Log,
    options: SpoolOptions = {},
  ) {
    this.intervalMs = options.intervalMs ?? 1000;
    this.settleMs = options.settleMs ?? 5000;
  }

  /** Makes the folder and takes in what Asterisk wrote meanwhile, then keeps reading every second. */
  async start(): Promise<void> {
    try {
      await ensureSpoolDir(this.dir, this.gid);
    } catch (error) {
      this.log?.error({ err: error, dir: this.dir }, 'call records: cannot make the spool folder');
    }
    // Closed while the folder was being made (a server stopped as it started).
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
      .catch((error) => this.log?.error({ err: error }, 'call records: reading the spool failed'))
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
    if (names.includes(LIVE) && (await fs.stat(path.join(this.dir, LIVE))).size > 0) {
      const taken = `taken-${Date.now()}-${String(this.sequence++ % 1e6).padStart(6, '0')}.csv`;
      await fs.rename(path.join(this.dir, LIVE), path.join(this.dir, taken));
      names.push(taken);
    }
    const files = names.filter((n) => TAKEN.test(n)).sort();
    const positions = new Map(
      (await this.db.selectFrom('cdr_spool').selectAll().execute()).map((p) => [p.name, p] as const),
    );
    for (const name of files) await this.readFile(name, positions.get(name));
    // Rows whose file was removed just before a stop: looked for once, at the first pass. Later a row without its
    // file is another reader's (the table is shared by every process on the database, each with its folder).
    if (this.leftoversCleared) return;
    this.leftoversCleared = true;
    const gone = [...positions.keys()].filter((name) => !files.includes(name));
    if (gone.length > 0) await this.db.deleteFrom('cdr_spool').where('name', 'in', gone).execute();
  }

  /** Takes in the complete records of one file past its position; removes the file once it is done with. */
  private async readFile(name: string, position: { file_id: string; offset: number } | undefined): Promise<void> {
    const file = path.join(this.dir, name);
    const handle = await fs.open(file, 'r');
    let offset: number;
    let size: number;
    let mtimeMs: number;
    try {
      const st = await handle.stat();
      const fileId = `${st.dev}:${st.ino}`;
      offset = position && position.file_id === fileId ? Number(position.offset) : 0;
      // Up to the size seen now: what Asterisk appends meanwhile is for the next pass.
      while (offset < st.size) {
        const length = Math.min(CHUNK, st.size - offset);
        const buffer = Buffer.allocUnsafe(length);
        const { bytesRead } = await handle.read(buffer, 0, length, offset);
        const { records, consumed } = splitRecords(buffer.subarray(0, bytesRead));
        // A full chunk without one whole record is no record cdr_custom writes: skip it rather than stall.
        const step = consumed === 0 && bytesRead === CHUNK ? CHUNK : consumed;
        if (step === 0) break;
        if (consumed === 0) this.log?.warn({ file, offset }, 'call records: skipped a megabyte without a record');
        await this.write(name, fileId, offset + step, records);
        offset += step;
      }
      ({ size, mtimeMs } = await handle.stat());
    } finally {
      await handle.close();
    }
    if (Date.now() - mtimeMs < this.settleMs) return;
    if (size > offset) {
      // Asterisk stopped in the middle of a record and never finished it.
      this.log?.warn({ file, bytes: size - offset }, 'call records: dropped an unfinished record');
    }
    await fs.rm(file, { force: true });
    await this.db.deleteFrom('cdr_spool').where('name', '=', name).execute();
  }

  /** The records and the position after them, in one transaction. */
  private async write(name: string, fileId: string, offset: number, records: Buffer[]): Promise<void> {
    const rows: CdrRow[] = [];
    for (const record of records) {
      const line = record.toString('utf8');
      const row = recordRow(line);
      if (row) rows.push(row);
      else this.log?.warn({ line: line.slice(0, 300) }, 'call records: skipped a line that is not a call record');
    }
    await this.db.transaction().execute(async (trx) => {
      for (let i = 0; i < rows.length; i += BATCH) {
        await trx
          .insertInto('cdr')
          .values(rows.slice(i, i + BATCH))
          .execute();
      }
      await trx
        .insertInto('cdr_spool')
        .values({ name, file_id: fileId, offset })
        .onConflict((oc) => oc.column('name').doUpdateSet({ file_id: fileId, offset }))
        .execute();
    });
  }
}
