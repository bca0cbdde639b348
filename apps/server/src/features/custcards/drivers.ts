import { CARD_QUERY_TIMEOUT_MS } from '@centralino/contract';
import type mysql from 'mysql2';
import type pg from 'pg';
import { loadMssql, loadMysql, loadPg } from '../../drivers.ts';
import { AppError } from '../../errors.ts';
import { mssqlOptions, mysqlOptions, postgresOptions, type SourceConnection } from '../card-sources/connect.ts';
import { driverFailed, isTimeout, sourceUnreachable, timedOut } from './query-errors.ts';
import { type BoundQuery, NUMBER_PARAM } from './sql-lex.ts';

/*
 * One card query on one database: read-only where the database has it, rolled back in any case, at most `limit`
 * rows read (the rest never leaves the server, or the connection is dropped), stopped after
 * CARD_QUERY_TIMEOUT_MS by the database and by us.
 */

export type CellValue = string | number | boolean | null;
export type Row = Record<string, CellValue>;

export interface QueryResult {
  columns: string[];
  rows: Row[];
  /** More rows existed past the limit; they were not read. */
  truncated: boolean;
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

export async function readPostgres(
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

export async function runPostgresExternal(c: SourceConnection, bound: BoundQuery, number: string, limit: number) {
  // Our side of the timeout, in case the server's statement_timeout is not reached (a stuck network).
  const { Client } = await loadPg();
  const client = new Client(postgresOptions(c, CARD_QUERY_TIMEOUT_MS + 1_000, 'centralino-card'));
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

export async function runMysql(
  c: SourceConnection,
  bound: BoundQuery,
  number: string,
  limit: number,
): Promise<QueryResult> {
  const mysqlDriver = await loadMysql();
  const connection = mysqlDriver.createConnection({
    ...mysqlOptions(c),
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

export async function runMssql(
  c: SourceConnection,
  bound: BoundQuery,
  number: string,
  limit: number,
): Promise<QueryResult> {
  const mssql = await loadMssql();
  const pool = new mssql.ConnectionPool(mssqlOptions(c, CARD_QUERY_TIMEOUT_MS));
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
