import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, Migrator, PostgresAdapter, PostgresDialect, SqliteDialect, sql } from 'kysely';
import { loadPg } from '../drivers.ts';
import { migrations } from './migrations/index.ts';
import type { Database } from './schema.ts';

export type DatabaseKind = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  kind: DatabaseKind;
  /** The SQLite file, or the PostgreSQL connection string: for other connections to the same database. */
  location: string;
  close(): Promise<void>;
}

export async function openDatabase(options: { databaseUrl?: string; dataDir: string }): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const { Pool } = await loadPg();
    const pool = new Pool({ connectionString: options.databaseUrl, max: 10 });
    // An idle connection the server drops (restart, failover, a dropped test database) must not crash
    // the process: the pool discards it and the next query opens a fresh one.
    pool.on('error', () => {});
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, kind: 'postgres', location: options.databaseUrl, close: () => db.destroy() };
  }
  fs.mkdirSync(options.dataDir, { recursive: true });
  const location = path.join(options.dataDir, 'centralino.db');
  const sqlite = new SqliteDatabase(location);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  return { db, kind: 'sqlite', location, close: () => db.destroy() };
}

/**
 * Kysely asks better-sqlite3 to prepare every query afresh, and the same few hundred SQL texts come back all the
 * time (a tenth of a users search's CPU went to preparing it). Statements are kept, the least recently used
 * dropped past `size` (lists of ids make texts that vary). Kysely runs one query at a time on SQLite, streams
 * included, so a kept statement is never busy when it is handed out again.
 */
function withStatementCache(sqlite: SqliteDatabase.Database, size = 500) {
  const kept = new Map<string, SqliteDatabase.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(text: string): SqliteDatabase.Statement {
      let statement = kept.get(text);
      if (statement) {
        kept.delete(text);
      } else {
        statement = sqlite.prepare(text);
        if (kept.size >= size) kept.delete(kept.keys().next().value as string);
      }
      kept.set(text, statement);
      return statement;
    },
  };
}

export async function migrateToLatest(db: Kysely<Database>): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const reason = error instanceof Error ? error.message : String(error ?? '');
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${reason}`);
  }
}

/**
 * After a bulk write (import, directory sync) PostgreSQL's planner still believes the table is small
 * until autovacuum runs, and sorts instead of walking the index; refresh its statistics at once.
 */
export async function refreshStatistics(db: Kysely<Database>, table: keyof Database): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) await sql`analyze ${sql.table(table)}`.execute(db);
}
