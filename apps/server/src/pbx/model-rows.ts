import { type Compilable, type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import { LOGGED_ROWS } from '../db/migrations/0032_row_changes.ts';
import type { Database } from '../db/schema.ts';

/** A query of pbx/load.ts: compiled to find its tables, run when they changed. */
type Query<T> = Compilable<T> & { execute(): Promise<T[]> };

type LoggedTable = keyof typeof LOGGED_ROWS;

/**
 * How to re-read only some rows of a query over tables whose changed rows are logged (`row_changes`, migration 0032):
 * for each such table, the query's column holding that table's logged key and the result field carrying it.
 */
export interface ByKey<T> {
  keys: Partial<Record<LoggedTable, { column: string; field: keyof T & string; numeric?: boolean }>>;
  /** The rows' order, applied in JS to whole reads and merges alike (so both give the same list on every database). */
  order: (a: T, b: T) => number;
}

/** More changed rows than this and the table is read whole: one query beats a long `in` list and a merge. */
const MAX_CHANGED_KEYS = 500;
/** The log keeps at least this many counter values per table; it is trimmed when it holds twice as many. */
const LOG_KEPT = 1000;

/** The tables a compiled query reads (`from "x"`, `join "x"`, subqueries included: Kysely quotes every name). */
export function tablesOf(sqlText: string): string[] {
  return [...new Set([...sqlText.matchAll(/\b(?:from|join)\s+"([^"]+)"/gi)].map((m) => m[1] as string))].sort();
}

interface Kept {
  /** Counter value per table when the rows were read (never newer than the rows). */
  versions: Map<string, string>;
  rows: Promise<readonly unknown[]>;
}

const stampOf = (versions: Map<string, string>) => [...versions.values()].join(',');

/**
 * What the PBX configuration was read from last time, kept while the tables' change counters (`table_versions`,
 * migration 0031) have not moved: a one-user change re-reads the users, not the 20,000 devices, the routes and the
 * call flows, which took about 60 % of such an apply at 10,000 users. Counters are read before the rows, so rows are
 * never labelled newer than they are (a write in between only makes the next read happen again). A query touching a
 * table without a counter is run every time (`uncounted` names it: tests keep it empty). The rows handed out are
 * frozen: they are shared by every apply that finds them current.
 *
 * Queries given a `ByKey` go further on the tables whose changed rows are logged (migration 0032): the log names the
 * rows changed since the kept read, and only those are read again and merged in, so one user's change reads one user,
 * not 10,000.
 */
export class ModelRows {
  private counters = new Map<string, string>();
  private readonly kept = new Map<string, Kept>();
  /** The trim under way, if any (tests wait for it). */
  trimming: Promise<void> | undefined;
  readonly uncounted = new Set<string>();
  /** Queries run so far (the others were answered with rows kept). */
  reads = 0;
  /** Of those, the ones that read only the rows the log named. */
  partialReads = 0;
  /** Rows those queries returned. */
  rowsRead = 0;

  private readonly logKept: number;

  /** `logKept`: counter values the log keeps per table (tests make it small to see it trimmed). */
  constructor(
    private readonly db: Kysely<Database>,
    options: { logKept?: number } = {},
  ) {
    this.logKept = options.logKept ?? LOG_KEPT;
  }

  /** Reads every counter: call once before the rows of one model. */
  async look(): Promise<void> {
    const rows = await this.db.selectFrom('table_versions').select(['name', 'n', 'forgotten']).execute();
    this.counters = new Map(rows.map((r) => [r.name, String(r.n)]));
    const long = rows.filter((r) => r.name in LOGGED_ROWS && Number(r.n) - Number(r.forgotten) >= 2 * this.logKept);
    if (long.length > 0 && !this.trimming) {
      // Not awaited: the apply does not wait for housekeeping. A reader racing it sees `forgotten` move in the same
      // statement as the log (see `changedKeys`), so it never takes a trimmed log for a complete one.
      this.trimming = this.trim(long.map((r) => ({ name: r.name, upTo: Number(r.n) - this.logKept })))
        .catch(() => undefined)
        .finally(() => {
          this.trimming = undefined;
        });
    }
  }

  private async trim(tables: { name: string; upTo: number }[]): Promise<void> {
    for (const { name, upTo } of tables) {
      await this.db.transaction().execute(async (trx) => {
        await trx
          .updateTable('table_versions')
          .set({ forgotten: upTo })
          .where('name', '=', name)
          .where('forgotten', '<', upTo)
          .execute();
        await trx.deleteFrom('row_changes').where('name', '=', name).where('version', '<=', upTo).execute();
      });
    }
  }

  rows<T>(query: Query<T>, byKey?: ByKey<T>): Promise<readonly T[]> {
    const compiled = query.compile();
    const tables = tablesOf(compiled.sql);
    const missing = tables.filter((t) => !this.counters.has(t));
    if (tables.length === 0 || missing.length > 0) {
      for (const t of missing) this.uncounted.add(t);
      this.reads++;
      return query.execute().then((list) => {
        this.rowsRead += list.length;
        return list;
      });
    }
    const key = `${compiled.sql}\n${JSON.stringify(compiled.parameters)}`;
    const versions = new Map(tables.map((t) => [t, this.counters.get(t) as string]));
    const known = this.kept.get(key);
    if (known && stampOf(known.versions) === stampOf(versions)) return known.rows as Promise<readonly T[]>;
    this.reads++;
    const whole = () =>
      query.execute().then((list) => {
        this.rowsRead += list.length;
        if (byKey) list.sort(byKey.order);
        return Object.freeze(list.map((row) => Object.freeze(row)));
      });
    const rows =
      byKey && known ? this.merged(query, byKey, known, versions).then((merged) => merged ?? whole()) : whole();
    this.kept.set(key, { versions, rows });
    rows.catch(() => {
      if (this.kept.get(key)?.rows === rows) this.kept.delete(key);
    });
    return rows;
  }

  /** The kept rows with those the log names read again; undefined when the log cannot tell (read it whole). */
  private async merged<T>(
    query: Query<T>,
    byKey: ByKey<T>,
    known: Kept,
    versions: Map<string, string>,
  ): Promise<readonly T[] | undefined> {
    const changed: { column: string; field: keyof T & string; keys: unknown[]; seen: Set<string> }[] = [];
    for (const [table, now] of versions) {
      const then = known.versions.get(table);
      if (then === now) continue;
      const spec = byKey.keys[table as LoggedTable];
      if (!spec || then === undefined) return undefined;
      const keys = await this.changedKeys(table, then, now);
      if (!keys) return undefined;
      if (keys.length > 0) changed.push({ ...spec, keys: spec.numeric ? keys.map(Number) : keys, seen: new Set(keys) });
    }
    if (changed.reduce((n, c) => n + c.keys.length, 0) > MAX_CHANGED_KEYS) return undefined;
    let before: readonly T[];
    try {
      before = (await known.rows) as readonly T[];
    } catch {
      return undefined;
    }
    this.partialReads++;
    if (changed.length === 0) return before;
    // biome-ignore lint/suspicious/noExplicitAny: the columns are named by the caller, checked by the database.
    const select = query as unknown as SelectQueryBuilder<any, any, T>;
    const fresh = await select.where((eb) => eb.or(changed.map((c) => eb(sql.ref(c.column), 'in', c.keys)))).execute();
    this.rowsRead += fresh.length;
    const stale = (row: T) => changed.some((c) => c.seen.has(String(row[c.field])));
    const out = before.filter((row) => !stale(row));
    for (const row of fresh.sort(byKey.order)) {
      // Kept rows are sorted: each fresh row goes where the order puts it (binary search, no full sort).
      let lo = 0;
      let hi = out.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (byKey.order(out[mid] as T, row) <= 0) lo = mid + 1;
        else hi = mid;
      }
      out.splice(lo, 0, Object.freeze(row));
    }
    return Object.freeze(out);
  }

  /**
   * Keys logged for `table` after counter value `after` up to `upTo`; undefined when the log may miss some (trimmed
   * past `after`) or names too many. `forgotten` is read in the same statement as the entries: a trim racing this
   * read either happened before it (and is seen) or after it (and removed nothing it returned).
   */
  private async changedKeys(table: string, after: string, upTo: string): Promise<string[] | undefined> {
    const rows = await this.db
      .selectFrom('table_versions as tv')
      .leftJoin('row_changes as rc', (join) =>
        join.onRef('rc.name', '=', 'tv.name').on('rc.version', '>', Number(after)).on('rc.version', '<=', Number(upTo)),
      )
      .select(['tv.forgotten', 'rc.key'])
      .where('tv.name', '=', table)
      .limit(MAX_CHANGED_KEYS + 1)
      .execute();
    if (rows.length === 0 || rows.length > MAX_CHANGED_KEYS) return undefined;
    if (BigInt(rows[0]?.forgotten ?? 0) > BigInt(after)) return undefined;
    return [...new Set(rows.flatMap((r) => (r.key === null ? [] : [r.key])))];
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
