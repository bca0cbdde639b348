import type { CallFilters } from '@centralino/contract';
import { type Expression, type ExpressionBuilder, type Kysely, type Selectable, type SqlBool, sql } from 'kysely';
import type { CallsTable, Database } from '../../db/schema.ts';
import { LEG_COLUMNS } from './indexer.ts';
import type { Leg } from './summary.ts';

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

  private where(filters: CallFilters, numbers: string[] | undefined, cursor: Cursor | undefined) {
    return (eb: ExpressionBuilder<Database, 'calls'>) => {
      const all: Expression<SqlBool>[] = [];
      if (filters.from) all.push(eb('at', '>=', dayStart(filters.from)));
      if (filters.to) all.push(eb('at', '<=', dayEnd(filters.to)));
      if (filters.direction) all.push(eb('direction', '=', filters.direction));
      if (filters.result) all.push(eb('result', '=', filters.result));
      if (filters.trunk) all.push(eb('trunk', '=', filters.trunk));
      if (filters.queue) all.push(eb('queue', '=', filters.queue));
      if (numbers) {
        all.push(eb.or([eb('caller', 'in', numbers), eb('called', 'in', numbers), eb('answered_by', 'in', numbers)]));
      }
      if (filters.number) {
        const like = containing(filters.number);
        all.push(eb.or([sql<SqlBool>`caller like ${like} escape '\\'`, sql<SqlBool>`called like ${like} escape '\\'`]));
      }
      if (cursor) {
        all.push(eb.or([eb('at', '<', cursor.at), eb.and([eb('at', '=', cursor.at), eb('id', '<', cursor.id)])]));
      }
      return eb.and(all);
    };
  }

  /** Newest first, `limit` rows after the cursor. */
  page(filters: CallFilters, numbers: string[] | undefined, cursor: Cursor | undefined, limit: number) {
    return this.db
      .selectFrom('calls')
      .selectAll()
      .where(this.where(filters, numbers, cursor))
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
    return rows.map((l) => ({ ...l, id: Number(l.id), duration: Number(l.duration), billsec: Number(l.billsec) }));
  }

  /** Names for numbers: users by main extension or device, then contacts of the central phonebook. */
  async names(numbers: Set<string>): Promise<Map<string, string>> {
    const names = new Map<string, string>();
    const wanted = [...numbers].filter((n) => n !== '');
    if (wanted.length === 0) return names;
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
        .limit(wanted.length * 4)
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
