import { type FinalReportRow, NO_EXTENSION, type User, type UserListQuery } from '@centralino/contract';
import { type Kysely, type Selectable, sql } from 'kysely';
import type { Database, UsersTable } from '../../db/schema.ts';

export type UserRow = Selectable<UsersTable>;

export function searchKey(username: string, displayname: string, extension: string | null): string {
  return `${username} ${displayname} ${extension ?? ''}`.toLowerCase().slice(0, 400);
}

/** LIKE pattern that matches the text literally (% and _ in a search are not wildcards). */
function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export function toUser(row: UserRow): User {
  return {
    id: Number(row.id),
    username: row.username,
    displayname: row.displayname,
    fname: row.fname,
    lname: row.lname,
    email: row.email,
    default_extension: row.default_extension ?? NO_EXTENSION,
    password: row.password_clear,
    mobile: row.mobile,
    profile: row.profile_id === null ? null : String(row.profile_id),
    source: row.source,
    devices: [],
  };
}

export class UsersRepository {
  constructor(readonly db: Kysely<Database>) {}

  async list(query: UserListQuery): Promise<{ rows: UserRow[]; total: number }> {
    let base = this.db.selectFrom('users');
    if (query.search) base = base.where(sql<boolean>`search_key like ${containsPattern(query.search)} escape '\\'`);
    if (query.filter === 'configured') base = base.where('default_extension', 'is not', null);
    if (query.filter === 'unconfigured') base = base.where('default_extension', 'is', null);

    let select = base.selectAll();
    const sort = query.sort ?? 'username';
    if (sort === 'extension') {
      // Numeric order of digit strings without a cast: shorter first, then by text; unconfigured last.
      select = select
        .orderBy(sql`case when default_extension is null then 1 else 0 end`)
        .orderBy(sql`length(default_extension)`)
        .orderBy('default_extension')
        .orderBy('username');
    } else {
      select = select.orderBy(sort).orderBy('username');
    }
    if (query.limit !== undefined) select = select.limit(query.limit).offset(query.offset ?? 0);

    const needsCount = query.limit !== undefined;
    const [rows, count] = await Promise.all([
      select.execute(),
      needsCount ? base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow() : undefined,
    ]);
    return { rows, total: count ? Number(count.n) : rows.length };
  }

  findByUsername(username: string, db: Kysely<Database> = this.db): Promise<UserRow | undefined> {
    return db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst();
  }

  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async countConfigured(): Promise<number> {
    const row = await this.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('default_extension', 'is not', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Users holding any of these main extensions. */
  async holdersOf(
    numbers: string[],
    db: Kysely<Database> = this.db,
  ): Promise<{ id: number; default_extension: string }[]> {
    if (numbers.length === 0) return [];
    const rows = await db
      .selectFrom('users')
      .select(['id', 'default_extension'])
      .where('default_extension', 'in', numbers)
      .execute();
    return rows.map((r) => ({ id: Number(r.id), default_extension: r.default_extension as string }));
  }

  async finalReport(): Promise<FinalReportRow[]> {
    const rows = await this.db
      .selectFrom('users')
      .select(['username', 'displayname', 'password_clear', 'default_extension', 'voicemail_pin'])
      .where('default_extension', 'is not', null)
      .orderBy(sql`length(default_extension)`)
      .orderBy('default_extension')
      .execute();
    return rows.map((r) => ({
      username: r.username,
      displayname: r.displayname,
      password: r.password_clear,
      default_extension: r.default_extension as string,
      voicemailpwd: r.voicemail_pin ?? '',
    }));
  }
}
