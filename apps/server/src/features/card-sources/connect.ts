import net from 'node:net';
import {
  CARD_SOURCE_CONNECT_TIMEOUT_MS,
  CARD_SOURCE_REQUEST_TIMEOUT_MS,
  type CardSourceType,
  hasControlChars,
  type UiLanguage,
} from '@centralino/contract';
import type mssql from 'mssql';
import type mysql from 'mysql2/promise';
import type pg from 'pg';
import { loadMssql, loadMysqlPromise, loadPg } from '../../drivers.ts';

/** What a connection check needs: an external source with its password. */
export interface SourceConnection {
  type: CardSourceType;
  host: string;
  port: number;
  user: string;
  password: string;
  /** The database name. */
  name: string;
}

/**
 * How every connection to a source is opened, by the check here and by a card's query: where, who, and the
 * 2 s connect timeout. Each caller adds its own request timeout.
 */
export const mysqlOptions = (c: SourceConnection) => ({
  host: c.host,
  port: c.port,
  user: c.user,
  password: c.password,
  database: c.name,
  connectTimeout: CARD_SOURCE_CONNECT_TIMEOUT_MS,
});

export const postgresOptions = (
  c: SourceConnection,
  queryTimeoutMs: number,
  applicationName: string,
): pg.ClientConfig => ({
  host: c.host,
  port: c.port,
  user: c.user,
  password: c.password,
  database: c.name,
  connectionTimeoutMillis: CARD_SOURCE_CONNECT_TIMEOUT_MS,
  query_timeout: queryTimeoutMs,
  application_name: applicationName,
});

/** The original's settings: no encryption, the TDS version of the type (older servers speak no TLS). */
export const mssqlOptions = (c: SourceConnection, requestTimeoutMs: number): mssql.config => ({
  server: c.host,
  port: c.port,
  user: c.user,
  password: c.password,
  database: c.name,
  connectionTimeout: CARD_SOURCE_CONNECT_TIMEOUT_MS,
  requestTimeout: requestTimeoutMs,
  options: { encrypt: false, trustServerCertificate: true, tdsVersion: c.type.slice('mssql:'.length) },
  pool: { min: 0, max: 1 },
});

/** Why a check failed (the answer tells only `denied`/`no_database` apart from the rest; see reason()). */
export type FailureKind = 'refused' | 'timeout' | 'host_unknown' | 'denied' | 'no_database' | 'other';

/**
 * A check that failed. `reason(lang)` says so in the caller's language with the host and port, never with the
 * driver's words: whether the port was refused, silent or spoke another protocol, whether the name resolved, the
 * answer is the same, so the check cannot be used to scan ports (as the directory test, `directory/ldap.ts`).
 * Only a server that spoke the database's own protocol and refused the sign-in (user, password or database) is
 * told apart. The driver's message stays on the error (`driverMessage`) for the server's log.
 */
export class ConnectionCheckError extends Error {
  constructor(
    readonly kind: FailureKind,
    readonly connection: SourceConnection,
    readonly driverMessage: string,
  ) {
    super(`${kind}: ${driverMessage}`);
  }

  reason(lang: UiLanguage): string {
    const { host, port } = this.connection;
    const where = `${net.isIPv6(host) ? `[${host}]` : host}:${port}`;
    if (this.kind === 'denied' || this.kind === 'no_database') {
      return lang === 'it'
        ? `Il server di database su ${where} ha rifiutato l'accesso: controlla nome utente, password e nome del database.`
        : `The database server at ${where} refused the sign-in: check the user name, password and database name.`;
    }
    return lang === 'it'
      ? `Impossibile connettersi a un server di database su ${where}.`
      : `Could not connect to a database server at ${where}.`;
  }
}

interface DriverError {
  code?: string | number;
  errno?: number;
  number?: number;
  message?: string;
  originalError?: DriverError;
  cause?: DriverError;
  errors?: DriverError[];
}

/** Every code and message of an error and the errors it wraps (tedious nests them; Node's AggregateError too). */
function collect(error: DriverError | undefined, depth = 0): { codes: string[]; messages: string[] } {
  const out = { codes: [] as string[], messages: [] as string[] };
  if (!error || depth > 4) return out;
  if (error.code !== undefined) out.codes.push(String(error.code));
  if (error.number !== undefined) out.codes.push(`#${error.number}`);
  if (error.message) out.messages.push(error.message);
  for (const inner of [error.originalError, error.cause, ...(error.errors ?? [])]) {
    const sub = collect(inner, depth + 1);
    out.codes.push(...sub.codes);
    out.messages.push(...sub.messages);
  }
  return out;
}

/** Sorts a driver's error into what the administrator should look at. Exported for tests. */
export function classify(error: unknown): { kind: FailureKind; message: string } {
  const { codes, messages } = collect(error as DriverError);
  const all = `${codes.join(' ')} ${messages.join(' ')}`;
  const first = messages.find((m) => m.trim() !== '') ?? codes[0] ?? String(error);
  // One line, no control characters, not a novel.
  const message = first
    .split('')
    .map((ch) => (hasControlChars(ch) ? ' ' : ch))
    .join('')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 300);
  let kind: FailureKind = 'other';
  if (/ECONNREFUSED/.test(all)) kind = 'refused';
  else if (/ENOTFOUND|EAI_AGAIN|getaddrinfo/.test(all)) kind = 'host_unknown';
  // MySQL 1045, PostgreSQL 28P01/28000, SQL Server 18456 (login failed).
  else if (
    /ER_ACCESS_DENIED_ERROR|28P01|28000|#18456|ELOGIN|Login failed|Access denied|password authentication/i.test(all)
  )
    kind = 'denied';
  // MySQL 1049 / 1044, PostgreSQL 3D000, SQL Server 4060.
  else if (/ER_BAD_DB_ERROR|ER_DBACCESS_DENIED_ERROR|3D000|#4060|Unknown database|does not exist/i.test(all))
    kind = 'no_database';
  else if (/ETIMEDOUT|ETIMEOUT|timeout|timed out/i.test(all)) kind = 'timeout';
  return { kind, message: message || 'unknown error' };
}

async function checkMysql(c: SourceConnection): Promise<void> {
  let connection: mysql.Connection | undefined;
  try {
    const mysqlDriver = await loadMysqlPromise();
    connection = await mysqlDriver.createConnection(mysqlOptions(c));
    await connection.query({ sql: 'select 1', timeout: CARD_SOURCE_REQUEST_TIMEOUT_MS });
  } finally {
    await connection?.end().catch(() => connection?.destroy());
  }
}

async function checkPostgres(c: SourceConnection): Promise<void> {
  const { Client } = await loadPg();
  const client = new Client(postgresOptions(c, CARD_SOURCE_REQUEST_TIMEOUT_MS, 'centralino-card-source-check'));
  // A connection that fails after being made emits 'error'; without a listener that would end the process.
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('select 1');
  } finally {
    await client.end().catch(() => {});
  }
}

async function checkMssql(c: SourceConnection): Promise<void> {
  const { ConnectionPool } = await loadMssql();
  const pool = new ConnectionPool(mssqlOptions(c, CARD_SOURCE_REQUEST_TIMEOUT_MS));
  pool.on('error', () => {});
  try {
    await pool.connect();
    await pool.request().query('select 1');
  } finally {
    await pool.close().catch(() => {});
  }
}

/** Longest a check may take in all: connect, select and a margin; a driver that hangs past it is abandoned. */
export const CHECK_DEADLINE_MS = CARD_SOURCE_CONNECT_TIMEOUT_MS + CARD_SOURCE_REQUEST_TIMEOUT_MS + 1_000;

/**
 * Really connects to the source (2 s connect timeout) and runs `select 1` (3 s). Resolves when both worked;
 * throws ConnectionCheckError otherwise, never anything else.
 */
export async function checkConnection(c: SourceConnection): Promise<void> {
  const run = c.type === 'mysql' ? checkMysql(c) : c.type === 'postgres' ? checkPostgres(c) : checkMssql(c);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(Object.assign(new Error(`no answer within ${CHECK_DEADLINE_MS} ms`), { code: 'ETIMEDOUT' })),
      CHECK_DEADLINE_MS,
    );
  });
  try {
    await Promise.race([run, deadline]);
  } catch (error) {
    run.catch(() => {});
    const { kind, message } = classify(error);
    throw new ConnectionCheckError(kind, c, message);
  } finally {
    clearTimeout(timer);
  }
}
