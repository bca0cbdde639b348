import fs from 'node:fs';
import readline from 'node:readline';
import { sql } from 'kysely';
import { type AnyDb, isPostgres, type TableInfo } from './catalog.ts';

/**
 * The database as JSON lines, one file per table: a header `{"table", "columns"}`, then one array per row in that
 * column order. Values are what both databases agree on: numbers, strings, null, and bytes as `{"$b64": "..."}`;
 * a restore turns them into what the target database wants (booleans as 0/1 on SQLite, bytes as Buffers).
 */

const PAGE = 1000;

export interface DumpHeader {
  table: string;
  columns: string[];
}

function encode(value: unknown): unknown {
  if (value instanceof Uint8Array) return { $b64: Buffer.from(value).toString('base64') };
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'bigint') return Number(value);
  return value;
}

async function writeLine(out: fs.WriteStream, line: string): Promise<void> {
  if (!out.write(`${line}\n`)) await new Promise<void>((resolve) => out.once('drain', resolve));
}

/** Writes one table to `file` (0600), a page at a time; answers the row count. */
export async function dumpTable(db: AnyDb, table: TableInfo, file: string): Promise<number> {
  const out = fs.createWriteStream(file, { mode: 0o600 });
  const done = new Promise<void>((resolve, reject) => {
    out.once('finish', resolve);
    out.once('error', reject);
  });
  const columns = table.columns.map((c) => c.name);
  const order = table.primaryKey.length ? table.primaryKey : columns;
  let rows = 0;
  try {
    await writeLine(out, JSON.stringify({ table: table.name, columns } satisfies DumpHeader));
    for (let offset = 0; ; offset += PAGE) {
      let query = db.selectFrom(table.name).selectAll();
      for (const column of order) query = query.orderBy(column);
      const page = await query.limit(PAGE).offset(offset).execute();
      for (const row of page) await writeLine(out, JSON.stringify(columns.map((c) => encode(row[c]))));
      rows += page.length;
      if (page.length < PAGE) break;
    }
  } finally {
    out.end();
  }
  await done;
  return rows;
}

/** Reads a dump's header and counts its rows, checking every line is JSON of the right shape. */
export async function inspectDump(file: string): Promise<{ header: DumpHeader; rows: number }> {
  let header: DumpHeader | undefined;
  let rows = 0;
  for await (const line of readline.createInterface({ input: fs.createReadStream(file), crlfDelay: Infinity })) {
    if (!header) {
      const parsed = JSON.parse(line) as DumpHeader;
      if (typeof parsed?.table !== 'string' || !Array.isArray(parsed.columns)) throw new Error('bad dump header');
      if (!parsed.columns.every((c) => typeof c === 'string')) throw new Error('bad dump header');
      header = parsed;
      continue;
    }
    const row = JSON.parse(line);
    if (!Array.isArray(row) || row.length !== header.columns.length) throw new Error(`bad row in ${header.table}`);
    rows++;
  }
  if (!header) throw new Error('empty dump');
  return { header, rows };
}

function decoder(type: string, postgres: boolean): (value: unknown) => unknown {
  return (value) => {
    if (value && typeof value === 'object' && '$b64' in value) {
      return Buffer.from(String((value as { $b64: unknown }).$b64), 'base64');
    }
    if (typeof value === 'boolean' && !postgres) return value ? 1 : 0;
    if (typeof value === 'number' && postgres && type === 'boolean') return value !== 0;
    return value;
  };
}

/** Inserts a dump's rows into `table` (already emptied) inside the caller's transaction. */
export async function loadTable(
  trx: AnyDb,
  table: TableInfo,
  file: string,
  upgrades: ((row: Record<string, unknown>) => Record<string, unknown>)[] = [],
): Promise<number> {
  const postgres = isPostgres(trx);
  let header: DumpHeader | undefined;
  let decoders: ((value: unknown) => unknown)[] = [];
  let batch: Record<string, unknown>[] = [];
  let rows = 0;
  let batchSize = 1;
  const flush = async () => {
    if (!batch.length) return;
    await trx.insertInto(table.name).values(batch).execute();
    rows += batch.length;
    batch = [];
  };
  for await (const line of readline.createInterface({ input: fs.createReadStream(file), crlfDelay: Infinity })) {
    if (!header) {
      header = JSON.parse(line) as DumpHeader;
      const types = new Map(table.columns.map((c) => [c.name, c.type]));
      decoders = header.columns.map((c) => decoder(types.get(c) ?? '', postgres));
      // Bound parameters per statement stay well under SQLite's 32,766 and PostgreSQL's 65,535.
      batchSize = Math.max(1, Math.floor(8000 / Math.max(1, header.columns.length)));
      continue;
    }
    const values = JSON.parse(line) as unknown[];
    let row: Record<string, unknown> = {};
    header.columns.forEach((column, i) => {
      row[column] = decoders[i]?.(values[i]);
    });
    for (const upgrade of upgrades) row = upgrade(row);
    batch.push(row);
    if (batch.length >= batchSize) await flush();
  }
  await flush();
  if (postgres) {
    // Ids were inserted as they were: sequences continue after the highest.
    for (const column of table.columns.filter((c) => c.serial)) {
      await sql`select setval(pg_get_serial_sequence(${table.name}, ${column.name}),
        coalesce((select max(${sql.ref(column.name)}) from ${sql.table(table.name)}), 0) + 1, false)`.execute(trx);
    }
  }
  return rows;
}
