import type { CallFilters } from '@centralino/contract';
import { type Expression, type ExpressionBuilder, type Kysely, type Selectable, type SqlBool, sql } from 'kysely';
import type { CallsTable, Database } from '../../db/schema.ts';
import { LEG_COLUMNS, type Leg, legOf } from './summary.ts';

export type CallRow = Selectable<CallsTable>;

/** The first and the last millisecond of a day in the PBX's time zone (the server's: Asterisk runs beside it). */
export function dayStart(day: string): number {
  return new Date(`${day}T00:00:00`).getTime();
}
export function dayEnd(day: string): number {
  return new Date(`${day}T23:59:59.999`).getTime();
}

/** Escapes LIKE wildcards (the filter's number may only hold digits, * # +, but the rule stays in one place). */
function containing(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The list padded to the next power of two with its own first value (a repeat in `in (…)` changes nothing): a
 * handful of SQL texts instead of one per length. SQLite's connection keeps 500 prepared statements, and an
 * export's chunks of 1,000 calls asked with a new length each time, so it kept hundreds of statements of a
 * thousand values or more: the server's memory grew by 115 MB over a 783,000-call export.
 */
function padded(values: string[]): string[] {
  let size = 16;
  while (size < values.length) size *= 2;
  return [...values, ...Array<string>(size - values.length).fill(values[0] as string)];
}

export interface Cursor {
  at: number;
  id: number;
}

export class CallsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** A user's numbers: the main extension given and the extensions of their devices. */
  async numbersOf(extension: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('devices')
      .innerJoin('users', 'users.id', 'devices.user_id')
      .select('devices.extension')
      .where('users.default_extension', '=', extension)
      .where('devices.extension', 'is not', null)
      .execute();
    return [extension, ...rows.map((r) => r.extension as string)];
  }

  /** Every filter but the user's numbers, which `page` asks one column and number at a time. */
  private where(filters: CallFilters, cursor: Cursor | undefined) {
    return (eb: ExpressionBuilder<Database, 'calls'>) => {
      const all: Expression<SqlBool>[] = [];
      if (filters.from) all.push(eb('at', '>=', dayStart(filters.from)));
      if (filters.to) all.push(eb('at', '<=', dayEnd(filters.to)));
      if (filters.direction) all.push(eb('direction', '=', filters.direction));
      if (filters.result) all.push(eb('result', '=', filters.result));
      if (filters.trunk) all.push(eb('trunk', '=', filters.trunk));
      if (filters.queue) all.push(eb('queue', '=', filters.queue));
      if (filters.number) {
        const like = containing(filters.number);
        all.push(eb.or([sql<SqlBool>`caller like ${like} escape '\\'`, sql<SqlBool>`called like ${like} escape '\\'`]));
      }
      // A row value, not `at < x or (at = x and id < y)`: with the OR, SQLite scanned the index from the newest
      // call down to the cursor on every page (an export's 400,000th row took 35 ms a page instead of 5 ms).
      if (cursor) all.push(eb(eb.refTuple('at', 'id'), '<', eb.tuple(cursor.at, cursor.id)));
      return eb.and(all);
    };
  }

  /** Newest first, `limit` rows after the cursor. */
  page(filters: CallFilters, numbers: string[] | undefined, cursor: Cursor | undefined, limit: number) {
    const newest = this.db
      .selectFrom('calls')
      .where(this.where(filters, cursor))
      .orderBy('at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit);
    if (!numbers) return newest.selectAll().execute();
    // A user's calls: the newest `limit` of each number in each column, each read in order from its own
    // (column, at, id) index, then merged. As one OR, SQLite gathered every call the user ever had (a multi-index
    // OR) and sorted them for each page: 11 ms a page at 1,000,000 records for a user with 7,000 calls, 1.2 ms so.
    const [first, ...rest] = numbers.flatMap((n) =>
      (['caller', 'called', 'answered_by'] as const).map((column) =>
        this.db.selectFrom(newest.select('id').where(column, '=', n).as('one')).select('one.id'),
      ),
    );
    const ids = rest.reduce((all, one) => all.unionAll(one), first as NonNullable<typeof first>);
    return this.db
      .selectFrom('calls')
      .selectAll()
      .where('id', 'in', ids)
      .orderBy('at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }

  byId(id: number) {
    return this.db.selectFrom('calls').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async legs(callKey: string): Promise<Leg[]> {
    const query = this.db.selectFrom('cdr').select(LEG_COLUMNS);
    const rows = callKey.startsWith('cdr:')
      ? await query.where('id', '=', Number(callKey.slice(4))).execute()
      : await query.where('linkedid', '=', callKey).orderBy('id').execute();
    return rows.map(legOf);
  }

  /** Names for numbers: users by main extension or device, then contacts of the central phonebook. */
  async names(numbers: Set<string>): Promise<Map<string, string>> {
    const names = new Map<string, string>();
    const found = [...numbers].filter((n) => n !== '');
    if (found.length === 0) return names;
    const wanted = padded(found);
    const [users, devices, contacts] = await Promise.all([
      this.db
        .selectFrom('users')
        .select(['default_extension', 'displayname'])
        .where('default_extension', 'in', wanted)
        .execute(),
      this.db
        .selectFrom('devices')
        .innerJoin('users', 'users.id', 'devices.user_id')
        .select(['devices.extension', 'users.displayname'])
        .where('devices.extension', 'in', wanted)
        .execute(),
      this.db
        .selectFrom('phonebook_contacts')
        .select(['name', 'company', 'workphone', 'cellphone', 'homephone'])
        .where((eb) =>
          eb.or([eb('workphone', 'in', wanted), eb('cellphone', 'in', wanted), eb('homephone', 'in', wanted)]),
        )
        .limit(found.length * 4)
        .execute(),
    ]);
    for (const c of contacts) {
      const name = c.name || c.company || '';
      for (const n of [c.workphone, c.cellphone, c.homephone]) if (n && name && !names.has(n)) names.set(n, name);
    }
    // A user's name wins over a contact's.
    for (const d of devices) if (d.extension && d.displayname) names.set(d.extension, d.displayname);
    for (const u of users) if (u.default_extension && u.displayname) names.set(u.default_extension, u.displayname);
    return names;
  }
}
