import { type FinalReportRow, NO_EXTENSION, type User, type UserListQuery } from '@centralino/contract';
import { type Kysely, type Selectable, sql } from 'kysely';
import type { Database, UsersTable } from '../../db/schema.ts';
import { UsersSearchIndex } from './search-index.ts';

export type UserRow = Selectable<UsersTable>;

/** What a users list shows of each row (toUser): a list reads these columns only, not the whole row. */
const LISTED = [
  'id',
  'username',
  'displayname',
  'fname',
  'lname',
  'email',
  'default_extension',
  'password_clear',
  'mobile',
  'profile_id',
  'source',
] as const;
export type ListedUserRow = Pick<UserRow, (typeof LISTED)[number]>;

/** Larger than any extension (6 digits at most): unconfigured users sort last. */
export const UNCONFIGURED_ORDER = 999_999_999;

/** The two columns that say which main extension a user has. */
export function extensionColumns(extension: string | null) {
  return {
    default_extension: extension,
    extension_order: extension === null ? UNCONFIGURED_ORDER : Number(extension),
  };
}

export function searchKey(username: string, displayname: string, extension: string | null): string {
  return `${username} ${displayname} ${extension ?? ''}`.toLowerCase().slice(0, 400);
}

/** LIKE pattern that matches the text literally (% and _ in a search are not wildcards). */
function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export function toUser(row: ListedUserRow): User {
  return {
    id: Number(row.id),
    username: row.username,
    displayname: row.displayname,
    fname: row.fname,
    lname: row.lname,
    email: row.email,
    default_extension: row.default_extension ?? NO_EXTENSION,
    has_password: row.password_clear !== null,
    mobile: row.mobile,
    profile: row.profile_id === null ? null : String(row.profile_id),
    source: row.source,
    devices: [],
  };
}

export class UsersRepository {
  /** Pages and searches by fragment run over this copy of the list's order and search keys (search-index.ts). */
  private readonly searchIndex: UsersSearchIndex;

  constructor(readonly db: Kysely<Database>) {
    this.searchIndex = new UsersSearchIndex(db);
  }

  /** The users a query's search and filter select. */
  private selected(query: UserListQuery) {
    let base = this.db.selectFrom('users');
    if (query.search) base = base.where(sql<boolean>`search_key like ${containsPattern(query.search)} escape '\\'`);
    if (query.filter === 'configured') base = base.where('extension_order', '<', UNCONFIGURED_ORDER);
    if (query.filter === 'unconfigured') base = base.where('extension_order', '=', UNCONFIGURED_ORDER);
    return base;
  }

  async list(query: UserListQuery, withTotal = true): Promise<{ rows: ListedUserRow[]; total: number }> {
    // Pages come from the copy too: a deep page (offset 9,000) is a slice there, where SQL walks 9,000 entries.
    if (query.search || query.limit !== undefined) {
      return this.searchIndex.page({ ...query, search: query.search ?? '' }, async (ids) => {
        const found = await this.db
          .selectFrom('users')
          .select(LISTED)
          .select((eb) => eb.selectFrom('users_version').select('n').where('id', '=', 1).as('users_version_now'))
          .where('id', 'in', ids)
          .execute();
        const byId = new Map(found.map(({ users_version_now: _, ...row }) => [Number(row.id), row as ListedUserRow]));
        // A user removed since the copy was read is left out rather than listed from memory.
        return { rows: ids.flatMap((id) => byId.get(id) ?? []), version: Number(found[0]?.users_version_now ?? -1) };
      });
    }
    const base = this.selected(query);

    let select = base.select(LISTED);
    const sort = query.sort ?? 'username';
    if (sort === 'extension') {
      select = select.orderBy('extension_order').orderBy('username');
    } else {
      select = select.orderBy(sort).orderBy('username');
    }
    if (query.limit !== undefined) select = select.limit(query.limit).offset(query.offset ?? 0);

    const needsCount = withTotal && query.limit !== undefined;
    const [rows, count] = await Promise.all([
      select.execute(),
      needsCount ? base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow() : undefined,
    ]);
    return { rows, total: count ? Number(count.n) : rows.length };
  }

  findByUsername(username: string, db: Kysely<Database> = this.db): Promise<UserRow | undefined> {
    return db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst();
  }

  /** Users the query's search and filter select (no paging). */
  async countMatching(query: UserListQuery): Promise<number> {
    const row = await this.selected(query)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
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
      .where('extension_order', '<', UNCONFIGURED_ORDER)
      .orderBy('extension_order')
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
