import type { Compilable, Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/** A query of pbx/load.ts: compiled to find its tables, run when they changed. */
type Query<T> = Compilable<T> & { execute(): Promise<T[]> };

/** The tables a compiled query reads (`from "x"`, `join "x"`, subqueries included: Kysely quotes every name). */
export function tablesOf(sqlText: string): string[] {
  return [...new Set([...sqlText.matchAll(/\b(?:from|join)\s+"([^"]+)"/gi)].map((m) => m[1] as string))].sort();
}

/**
 * What the PBX configuration was read from last time, kept while the tables' change counters (`table_versions`,
 * migration 0031) have not moved: a one-user change re-reads the users, not the 20,000 devices, the routes and the
 * call flows, which took about 60 % of such an apply at 10,000 users. Counters are read before the rows, so rows are
 * never labelled newer than they are (a write in between only makes the next read happen again). A query touching a
 * table without a counter is run every time (`uncounted` names it: tests keep it empty). The rows handed out are
 * frozen: they are shared by every apply that finds them current.
 */
export class ModelRows {
  private counters = new Map<string, string>();
  private readonly kept = new Map<string, { stamp: string; rows: Promise<readonly unknown[]> }>();
  readonly uncounted = new Set<string>();
  /** Queries run so far (the others were answered with rows kept). */
  reads = 0;

  constructor(private readonly db: Kysely<Database>) {}

  /** Reads every counter: call once before the rows of one model. */
  async look(): Promise<void> {
    const rows = await this.db.selectFrom('table_versions').select(['name', 'n']).execute();
    this.counters = new Map(rows.map((r) => [r.name, String(r.n)]));
  }

  rows<T>(query: Query<T>): Promise<readonly T[]> {
    const compiled = query.compile();
    const tables = tablesOf(compiled.sql);
    const missing = tables.filter((t) => !this.counters.has(t));
    if (tables.length === 0 || missing.length > 0) {
      for (const t of missing) this.uncounted.add(t);
      this.reads++;
      return query.execute();
    }
    const key = `${compiled.sql}\n${JSON.stringify(compiled.parameters)}`;
    const stamp = tables.map((t) => this.counters.get(t)).join(',');
    const known = this.kept.get(key);
    if (known?.stamp === stamp) return known.rows as Promise<readonly T[]>;
    this.reads++;
    const rows = query.execute().then((list) => Object.freeze(list.map((row) => Object.freeze(row))));
    this.kept.set(key, { stamp, rows });
    rows.catch(() => {
      if (this.kept.get(key)?.rows === rows) this.kept.delete(key);
    });
    return rows;
  }
}

const readers = new WeakMap<Kysely<Database>, ModelRows>();

/** The row keeper of a database handle (one per process and handle). */
export function modelRowsOf(db: Kysely<Database>): ModelRows {
  let reader = readers.get(db);
  if (!reader) {
    reader = new ModelRows(db);
    readers.set(db, reader);
  }
  return reader;
}
