import {
  CARD_QUERY_ROW_LIMIT,
  CARD_QUERY_TIMEOUT_MS,
  CARD_SOURCE_CONNECT_TIMEOUT_MS,
  type UiLanguage,
} from '@centralino/contract';
import mssql from 'mssql';
import mysql from 'mysql2';
import pg from 'pg';
import { AppError } from '../../errors.ts';
import { ConnectionCheckError, classify, type SourceConnection } from '../card-sources/connect.ts';
import { type BoundQuery, bindNumber, type Dialect, NUMBER_PARAM } from './sql-lex.ts';
import { ReaderError, SqliteReader } from './sqlite-reader.ts';

/**
 * Runs a card query (the preview now, the CTI's card on a call later): the caller number is a bound parameter
 * (`sql-lex.ts`), the statement must read, it runs in a read-only transaction that is rolled back in any case,
 * at most CARD_QUERY_ROW_LIMIT rows are read (a cursor or a stream stopped there: a query of 100,000 rows is
 * never loaded), and it is stopped after CARD_QUERY_TIMEOUT_MS, on the database and on our side.
 */

export type CellValue = string | number | boolean | null;
export type Row = Record<string, CellValue>;

export interface QueryResult {
  columns: string[];
  rows: Row[];
  /** More rows existed past the limit; they were not read. */
  truncated: boolean;
}

/** The two built-in sources read Centralino's own database, each only its own view or table. */
export const BUILTIN_TABLES: Record<string, string[]> = { phonebook: ['phonebook'], asteriskcdrdb: ['cdr'] };

export type QueryTarget =
  | { kind: 'builtin'; source: string; ownTables: () => Promise<string[]> }
  | { kind: 'external'; connection: SourceConnection };

export interface OwnDatabase {
  kind: 'sqlite' | 'postgres';
  /** The SQLite file, or PostgreSQL's URL. */
  location: string;
}

/**
 * On PostgreSQL, functions that reach the server's files or run SQL given as text (which the table check
 * cannot see). Best effort, on top of the read-only transaction: Centralino's own database user should not be
 * a superuser in production (docs/architecture.md).
 */
const PG_DENIED = /^(pg_.*|lo_.*|dblink.*|.*_to_xml.*|ts_stat|set_config)$/;

/** The English or Italian sentence, as the caller asked. */
function inLanguage(lang: UiLanguage, en: string, it: string): string {
  return lang === 'it' ? it : en;
}

function queryFailed(message: (lang: UiLanguage) => string): AppError {
  return new AppError(422, 'card_query_failed', message);
}

function timedOut(): AppError {
  const seconds = CARD_QUERY_TIMEOUT_MS / 1000;
  return new AppError(422, 'card_query_timeout', (lang) =>
    inLanguage(
      lang,
      `The query did not finish within ${seconds} seconds and was stopped.`,
      `La query non è terminata entro ${seconds} secondi ed è stata interrotta.`,
    ),
  );
}

function driverFailed(error: unknown): AppError {
  const { message } = classify(error);
  return queryFailed((lang) => inLanguage(lang, `The query failed: ${message}`, `La query non è riuscita: ${message}`));
}

function sourceUnreachable(error: unknown, connection: SourceConnection): AppError {
  const { kind, message } = classify(error);
  const check = new ConnectionCheckError(kind, connection, message);
  return new AppError(503, 'card_source_failed', (lang) =>
    inLanguage(lang, 'The source did not answer.', 'La sorgente non ha risposto.').concat(' ', check.reason(lang)),
  );
}

const isTimeout = (error: unknown) =>
  /57014|statement timeout|canceling statement|ER_QUERY_TIMEOUT|max_statement_time|maximum statement execution time|PROTOCOL_SEQUENCE_TIMEOUT|ETIMEOUT|Query inactivity timeout|Timeout: Request failed/i.test(
    `${(error as { code?: unknown })?.code ?? ''} ${(error as Error)?.message ?? ''}`,
  );

/** Checks made on the lexed words before anything runs. Exported for tests. */
export async function checkStatement(bound: BoundQuery, dialect: Dialect, target: QueryTarget): Promise<void> {
  const first = bound.words[0];
  if (first !== 'select' && first !== 'with') {
    throw queryFailed((lang) =>
      inLanguage(
        lang,
        'A card query must read: start it with SELECT (or WITH).',
        'La query di una scheda deve solo leggere: iniziala con SELECT (o WITH).',
      ),
    );
  }
  if (bound.multipleStatements) {
    throw queryFailed((lang) =>
      inLanguage(
        lang,
        'A card query is one statement (no ; between statements).',
        'La query di una scheda è una sola istruzione (nessun ; tra istruzioni).',
      ),
    );
  }
  if (bound.words.includes('into')) {
    throw queryFailed((lang) =>
      inLanguage(
        lang,
        'A card query may not write (SELECT … INTO).',
        'La query di una scheda non può scrivere (SELECT … INTO).',
      ),
    );
  }
  if (target.kind !== 'builtin') return;
  const allowed = BUILTIN_TABLES[target.source] ?? [];
  const others = new Set((await target.ownTables()).map((t) => t.toLowerCase()).filter((t) => !allowed.includes(t)));
  // A literal may name a table on SQLite (`from 'admins'`); a PostgreSQL identifier may be written with escapes
  // (U&"\0061dmins"), which is refused as such rather than decoded.
  const named = [
    ...new Set([
      ...bound.words.filter(
        (w) => others.has(w) || (dialect === 'postgres' && (PG_DENIED.test(w) || w.includes('\\'))),
      ),
      ...bound.literals.map((l) => l.trim()).filter((l) => others.has(l)),
    ]),
  ];
  if (named.length > 0) {
    const list = allowed.join(', ');
    throw queryFailed((lang) =>
      inLanguage(
        lang,
        `The built-in source ${target.source} reads only ${list}; the query names ${named.join(', ')}.`,
        `La sorgente di sistema ${target.source} legge solo ${list}; la query nomina ${named.join(', ')}.`,
      ),
    );
  }
}

/** Values as a template and the preview can use them: text, numbers, booleans, null. */
function cell(value: unknown): CellValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : String(value);
  if (value instanceof Date)
    return Number.isNaN(value.getTime()) ? null : value.toISOString().replace('T', ' ').slice(0, 19);
  if (value instanceof Uint8Array) return `[binary ${value.length} bytes]`;
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}

function cells(row: Record<string, unknown>): Row {
  const out: Row = {};
  for (const [key, value] of Object.entries(row)) out[key] = cell(value);
  return out;
}

// ---- PostgreSQL: a cursor inside a read-only transaction ----

async function readPostgres(
  client: pg.ClientBase,
  bound: BoundQuery,
  number: string,
  limit: number,
): Promise<QueryResult> {
  await client.query('BEGIN READ ONLY');
  try {
    await client.query(`SET LOCAL statement_timeout = ${CARD_QUERY_TIMEOUT_MS}`);
    await client.query(`SET LOCAL idle_in_transaction_session_timeout = ${CARD_QUERY_TIMEOUT_MS * 2}`);
    // A cursor: the server hands over limit + 1 rows and no more, whatever the query would return.
    await client.query({
      text: `DECLARE centralino_card NO SCROLL CURSOR FOR ${bound.sql}`,
      values: bound.placeholders > 0 ? [number] : [],
    });
    const fetched = await client.query(`FETCH FORWARD ${limit + 1} FROM centralino_card`);
    return {
      columns: fetched.fields.map((f) => f.name),
      rows: fetched.rows.slice(0, limit).map(cells),
      truncated: fetched.rows.length > limit,
    };
  } finally {
    await client.query('ROLLBACK').catch(() => {});
  }
}

async function runPostgresExternal(c: SourceConnection, bound: BoundQuery, number: string, limit: number) {
  const client = new pg.Client({
    host: c.host,
    port: c.port,
    user: c.user,
    password: c.password,
    database: c.name,
    connectionTimeoutMillis: CARD_SOURCE_CONNECT_TIMEOUT_MS,
    // Our side of the timeout, in case the server's statement_timeout is not reached (a stuck network).
    query_timeout: CARD_QUERY_TIMEOUT_MS + 1_000,
    application_name: 'centralino-card',
  });
  client.on('error', () => {});
  try {
    try {
      await client.connect();
    } catch (error) {
      throw sourceUnreachable(error, c);
    }
    return await readPostgres(client, bound, number, limit);
  } finally {
    await client.end().catch(() => {});
  }
}

// ---- MySQL / MariaDB: a server-side prepared statement, streamed and stopped at the limit ----

function mysqlQuery(connection: mysql.Connection, sql: string): Promise<void> {
  return new Promise((resolve, reject) => connection.query(sql, (error) => (error ? reject(error) : resolve())));
}

async function runMysql(c: SourceConnection, bound: BoundQuery, number: string, limit: number): Promise<QueryResult> {
  const connection = mysql.createConnection({
    host: c.host,
    port: c.port,
    user: c.user,
    password: c.password,
    database: c.name,
    connectTimeout: CARD_SOURCE_CONNECT_TIMEOUT_MS,
    dateStrings: true,
    supportBigNumbers: true,
    multipleStatements: false,
  });
  connection.on('error', () => {});
  try {
    try {
      await new Promise<void>((resolve, reject) => connection.connect((error) => (error ? reject(error) : resolve())));
    } catch (error) {
      throw sourceUnreachable(error, c);
    }
    // MariaDB's and MySQL's own statement timeouts (each ignores the other's variable).
    await mysqlQuery(connection, `SET SESSION max_statement_time = ${CARD_QUERY_TIMEOUT_MS / 1000}`).catch(() => {});
    await mysqlQuery(connection, `SET SESSION max_execution_time = ${CARD_QUERY_TIMEOUT_MS}`).catch(() => {});
    // Read-only for this transaction and the next (DDL would commit implicitly and start another).
    await mysqlQuery(connection, 'SET SESSION TRANSACTION READ ONLY');
    await mysqlQuery(connection, 'START TRANSACTION READ ONLY');
    return await new Promise<QueryResult>((resolve, reject) => {
      const rows: Row[] = [];
      let columns: string[] = [];
      let finished = false;
      const finish = (result: QueryResult | Error) => {
        if (finished) return;
        finished = true;
        if (result instanceof Error) reject(result);
        else resolve(result);
      };
      const values = Array.from({ length: bound.placeholders }, () => number);
      const command = connection.execute({ sql: bound.sql, values, timeout: CARD_QUERY_TIMEOUT_MS + 1_000 });
      command.on('fields', (fields: { name: string }[]) => {
        columns = fields.map((f) => f.name);
      });
      command.on('result', (row: Record<string, unknown>) => {
        if (finished) return;
        if (rows.length === limit) {
          // The rest is not read: the connection is dropped (it is ours alone), which ends the query.
          finish({ columns, rows, truncated: true });
          connection.destroy();
          return;
        }
        rows.push(cells(row));
      });
      command.on('error', (error: Error) => finish(error));
      command.on('end', () => finish({ columns, rows, truncated: false }));
    });
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw isTimeout(error) ? timedOut() : driverFailed(error);
  } finally {
    // Never committed: whatever the statement did is rolled back with the connection.
    connection.destroy();
  }
}

// ---- SQL Server: a transaction always rolled back, at most limit + 1 rows ----

async function runMssql(c: SourceConnection, bound: BoundQuery, number: string, limit: number): Promise<QueryResult> {
  const pool = new mssql.ConnectionPool({
    server: c.host,
    port: c.port,
    user: c.user,
    password: c.password,
    database: c.name,
    connectionTimeout: CARD_SOURCE_CONNECT_TIMEOUT_MS,
    requestTimeout: CARD_QUERY_TIMEOUT_MS,
    options: { encrypt: false, trustServerCertificate: true, tdsVersion: c.type.slice('mssql:'.length) },
    pool: { min: 0, max: 1 },
  });
  pool.on('error', () => {});
  try {
    try {
      await pool.connect();
    } catch (error) {
      throw sourceUnreachable(error, c);
    }
    // SQL Server has no read-only transaction: the statement runs in one that is always rolled back.
    const transaction = new mssql.Transaction(pool);
    await transaction.begin();
    try {
      const request = new mssql.Request(transaction);
      if (bound.placeholders > 0) request.input(NUMBER_PARAM, mssql.NVarChar(100), number);
      await new mssql.Request(transaction).query(`SET ROWCOUNT ${limit + 1}`);
      const result = await request.query(bound.sql);
      const rows = (result.recordset ?? []) as Record<string, unknown>[];
      const columns = Object.keys(result.recordset?.columns ?? rows[0] ?? {});
      return { columns, rows: rows.slice(0, limit).map(cells), truncated: rows.length > limit };
    } finally {
      await transaction.rollback().catch(() => {});
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw isTimeout(error) ? timedOut() : driverFailed(error);
  } finally {
    await pool.close().catch(() => {});
  }
}

/** Runs card queries for one server: its own database's readers are kept, external connections are not. */
export class CardQueryRunner {
  private sqlite: SqliteReader | undefined;
  private pgPool: pg.Pool | undefined;

  constructor(private readonly own: OwnDatabase) {}

  /** Runs `query` with `number` (already normalised) for `$NUMBER`; empty when no number is given. */
  async run(target: QueryTarget, query: string, number = '', limit = CARD_QUERY_ROW_LIMIT): Promise<QueryResult> {
    const dialect: Dialect =
      target.kind === 'builtin'
        ? this.own.kind
        : target.connection.type === 'mysql'
          ? 'mysql'
          : target.connection.type === 'postgres'
            ? 'postgres'
            : 'mssql';
    const bound = bindNumber(query, dialect);
    await checkStatement(bound, dialect, target);
    if (target.kind === 'external') {
      const c = target.connection;
      if (dialect === 'mysql') return runMysql(c, bound, number, limit);
      if (dialect === 'mssql') return runMssql(c, bound, number, limit);
      return this.guard(() => runPostgresExternal(c, bound, number, limit));
    }
    if (this.own.kind === 'sqlite') {
      this.sqlite ??= new SqliteReader(this.own.location);
      try {
        return await this.sqlite.run(
          bound.sql,
          bound.placeholders > 0 ? { [NUMBER_PARAM]: number } : null,
          limit,
          CARD_QUERY_TIMEOUT_MS,
        );
      } catch (error) {
        if (error instanceof ReaderError && error.kind === 'timeout') throw timedOut();
        throw driverFailed(error);
      }
    }
    // A pool of its own: twenty previews never take the connections the API needs.
    if (!this.pgPool) {
      this.pgPool = new pg.Pool({ connectionString: this.own.location, max: 4, application_name: 'centralino-card' });
      this.pgPool.on('error', () => {});
    }
    const pool = this.pgPool;
    return this.guard(async () => {
      const client = await pool.connect();
      let failed = false;
      try {
        return await readPostgres(client, bound, number, limit);
      } catch (error) {
        failed = true;
        throw error;
      } finally {
        // A connection that failed mid-statement is not handed out again.
        client.release(failed);
      }
    });
  }

  private async guard(run: () => Promise<QueryResult>): Promise<QueryResult> {
    try {
      return await run();
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw isTimeout(error) ? timedOut() : driverFailed(error);
    }
  }

  async close(): Promise<void> {
    this.sqlite?.close();
    await this.pgPool?.end().catch(() => {});
  }
}
