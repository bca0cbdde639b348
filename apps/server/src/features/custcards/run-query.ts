import { availableParallelism } from 'node:os';
import { CARD_QUERY_ROW_LIMIT, CARD_QUERY_TIMEOUT_MS } from '@centralino/contract';
import type pg from 'pg';
import { loadPg } from '../../drivers.ts';
import { AppError } from '../../errors.ts';
import type { SourceConnection } from '../card-sources/connect.ts';
import { type QueryResult, readPostgres, runMssql, runMysql, runPostgresExternal } from './drivers.ts';
import { driverFailed, inLanguage, isTimeout, queryFailed, timedOut } from './query-errors.ts';
import { type BoundQuery, bindNumber, type Dialect, NUMBER_PARAM } from './sql-lex.ts';
import { ReaderError, SqliteReader } from './sqlite-reader.ts';

/**
 * Card queries on Centralino's own database running at once (SQLite readers or PostgreSQL connections); more
 * wait their turn. Each keeps a core busy while it runs, and the API's own queries need one left: on two cores,
 * twenty heavy previews took the other requests' p99 to 77-125 ms with two at once.
 */
export const OWN_QUERIES_AT_ONCE = Math.max(1, availableParallelism() - 1);

/**
 * Runs a card query (the preview now, the CTI's card on a call later): the caller number is a bound parameter
 * (`sql-lex.ts`), the statement must read, it runs in a read-only transaction that is rolled back in any case,
 * at most CARD_QUERY_ROW_LIMIT rows are read (a cursor or a stream stopped there: a query of 100,000 rows is
 * never loaded), and it is stopped after CARD_QUERY_TIMEOUT_MS, on the database and on our side.
 */

export type { CellValue, QueryResult, Row } from './drivers.ts';

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

/** Runs card queries for one server: its own database's readers are kept, external connections are not. */
export class CardQueryRunner {
  private sqlite: SqliteReader | undefined;
  private pgPool: Promise<pg.Pool> | undefined;

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
      this.sqlite ??= new SqliteReader(this.own.location, OWN_QUERIES_AT_ONCE);
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
    // A pool of its own: twenty previews never take the connections the API needs (OWN_QUERIES_AT_ONCE).
    // The promise is kept, not the pool: previews arriving together while the driver loads share one pool.
    this.pgPool ??= loadPg().then(({ Pool }) => {
      const made = new Pool({
        connectionString: this.own.location,
        max: OWN_QUERIES_AT_ONCE,
        application_name: 'centralino-card',
      });
      made.on('error', () => {});
      return made;
    });
    const pool = await this.pgPool;
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
    await (await this.pgPool)?.end().catch(() => {});
  }
}
