import type { PhonebookContactPage, PhonebookContactsQuery } from '@centralino/contract';
import { type Kysely, sql } from 'kysely';
import { likeEscape } from '../../db/like.ts';
import type { Database } from '../../db/schema.ts';
import { visibleContacts } from './visible.ts';

/** Columns a search looks in. */
const SEARCHED = ['name', 'company', 'workphone', 'cellphone', 'homephone', 'workemail'] as const;

/**
 * A page of the phonebook the phones see (visibleContacts), by name, with the number of contacts matching the
 * search. The search is a bound parameter, its %, _ and \ taken literally; lower() on both sides, as PostgreSQL's
 * LIKE minds case and SQLite's does not.
 */
export async function contactsPage(
  db: Kysely<Database>,
  { search, offset = 0, limit = 20 }: PhonebookContactsQuery,
): Promise<PhonebookContactPage> {
  let matching = visibleContacts(db);
  const wanted = search?.trim().toLowerCase();
  if (wanted) {
    const like = `%${likeEscape(wanted)}%`;
    matching = matching.where((eb) =>
      eb.or(SEARCHED.map((column) => sql<boolean>`lower(${sql.ref(column)}) like ${like} escape '\\'`)),
    );
  }
  const [items, count] = await Promise.all([
    matching
      .select(['id', 'name', 'company', 'workphone', 'cellphone', 'homephone', 'workemail', 'type'])
      .orderBy(sql`lower(name)`)
      .orderBy('id')
      .limit(Number(limit))
      .offset(Number(offset))
      .execute(),
    matching.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return {
    items: items.map((row) => ({
      id: Number(row.id),
      name: row.name ?? null,
      company: row.company ?? null,
      workphone: row.workphone ?? null,
      cellphone: row.cellphone ?? null,
      homephone: row.homephone ?? null,
      workemail: row.workemail ?? null,
      type: row.type ?? null,
    })),
    total: Number(count.n),
  };
}
