import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type mysql from 'mysql2/promise';
import Papa from 'papaparse';
import { loadMysqlPromise } from '../../drivers.ts';

/** One source record: column name → text. */
export type SourceRow = Record<string, string>;
/** What a source holds: its columns (known even without rows) and its rows. */
export interface SourceData {
  columns: string[];
  rows: SourceRow[];
}

/** A source that cannot be read; the message says why in words an administrator can act on. */
export class SourceError extends Error {}

const CONNECT_TIMEOUT_MS = 5_000;
/** Rows converted between turns of the event loop. */
export const YIELD_EVERY = 5_000;
const QUERY_TIMEOUT_MS = 60_000;
const DOWNLOAD_TIMEOUT_MS = 30_000;
/** A phonebook export larger than this is not a phonebook. */
const CSV_MAX_BYTES = 50 * 1024 * 1024;

function text(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? '' : value.toISOString();
  if (Buffer.isBuffer(value)) return value.toString('utf8');
  return String(value).trim();
}

export interface MysqlSource {
  host: string;
  port: string;
  user: string;
  password: string;
  dbname: string;
  query: string;
}

/** Runs the source's query on MySQL/MariaDB (mysql2, a maintained driver) and answers its rows as text. */
export async function readMysql(source: MysqlSource): Promise<SourceData> {
  let connection: mysql.Connection | undefined;
  try {
    const mysqlDriver = await loadMysqlPromise();
    connection = await mysqlDriver.createConnection({
      host: source.host,
      port: Number(source.port),
      user: source.user,
      password: source.password,
      database: source.dbname,
      connectTimeout: CONNECT_TIMEOUT_MS,
      dateStrings: true,
      supportBigNumbers: true,
      bigNumberStrings: true,
    });
    const [rows, fields] = await connection.query({ sql: source.query, timeout: QUERY_TIMEOUT_MS });
    if (!Array.isArray(rows)) throw new SourceError('The query returned no rows (is it a SELECT?)');
    // Converted a slice at a time with a turn of the event loop between: 100,000 rows would hold it for long.
    const raw = rows as Record<string, unknown>[];
    const out: SourceRow[] = [];
    for (let i = 0; i < raw.length; i += YIELD_EVERY) {
      for (const row of raw.slice(i, i + YIELD_EVERY)) {
        out.push(Object.fromEntries(Object.entries(row).map(([k, v]) => [k, text(v)])));
      }
      await new Promise((r) => setImmediate(r));
    }
    // A query with no rows still tells its columns, for the mapping step.
    return { columns: (fields ?? []).map((f) => f.name), rows: out };
  } catch (error) {
    if (error instanceof SourceError) throw error;
    const e = error as { code?: string; message?: string };
    throw new SourceError(e.code ? `${e.code}: ${e.message ?? ''}`.trim() : (e.message ?? String(error)));
  } finally {
    await connection?.end().catch(() => connection?.destroy());
  }
}

/** UTF-8 (with or without BOM), else Windows-1252, which spreadsheets on Windows write. */
export function decodeText(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

/** A CSV's rows by header: the delimiter (comma, semicolon or tab) is detected, the first line is the header. */
export function parseSourceCsv(content: string): SourceData {
  const parsed = Papa.parse<Record<string, string>>(content, {
    header: true,
    skipEmptyLines: 'greedy',
    delimitersToGuess: [',', ';', '\t', '|'],
    transformHeader: (h) => h.trim(),
  });
  const header = parsed.meta.fields ?? [];
  if (header.length === 0 || header.every((h) => h === '')) throw new SourceError('The file has no header line');
  const fatal = parsed.errors.find((e) => e.type === 'Quotes');
  if (fatal) throw new SourceError(`Unbalanced quotes on row ${(fatal.row ?? 0) + 2}`);
  const columns = header.filter((h) => h !== '');
  return { columns, rows: parsed.data.map((row) => Object.fromEntries(columns.map((h) => [h, text(row[h])]))) };
}

/**
 * Reads a CSV source: an http(s) URL (redirects followed, HTTP errors refused) or a file:/// uri of a file
 * uploaded to `uploads` (nothing else on the server's disk is readable this way).
 */
export async function readCsv(url: string, uploads: string): Promise<SourceData> {
  let bytes: Uint8Array;
  if (url.startsWith('file:///')) {
    const file = path.resolve(fileURLToPath(url));
    if (path.dirname(file) !== path.resolve(uploads)) throw new SourceError('Only uploaded files can be read');
    try {
      bytes = await fs.readFile(file);
    } catch {
      throw new SourceError('The uploaded file is gone');
    }
  } else if (/^https?:\/\//.test(url)) {
    let res: Response;
    try {
      res = await fetch(url, { redirect: 'follow', signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS) });
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause?.code;
      throw new SourceError(`Cannot download ${url}${cause ? ` (${cause})` : ''}`);
    }
    if (!res.ok) throw new SourceError(`Cannot download ${url}: HTTP ${res.status}`);
    const length = Number(res.headers.get('content-length') ?? 0);
    if (length > CSV_MAX_BYTES) throw new SourceError('The file is larger than 50 MB');
    bytes = new Uint8Array(await res.arrayBuffer());
  } else {
    throw new SourceError('An http(s):// address or an uploaded file');
  }
  if (bytes.length > CSV_MAX_BYTES) throw new SourceError('The file is larger than 50 MB');
  return parseSourceCsv(decodeText(bytes));
}
