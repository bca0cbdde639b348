import type { UserListQuery, UserListSort } from '@centralino/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

interface Entry {
  id: number;
  key: string;
  configured: boolean;
}

/**
 * The users' search keys in memory, in each list order the database gives, for pages and searches by fragment:
 * a scan of 10,000 short strings in JavaScript costs a fraction of the two LIKE scans (page and count) it
 * replaces, a deep page is a slice, and the page's rows are then read by id. The order comes from the database (its collation), so a search lists
 * users exactly as the SQL did. A copy is used only while `users_version` (moved by triggers on every write, in
 * the writer's transaction, whoever the writer) still has the number read before the copy was loaded.
 */
export class UsersSearchIndex {
  private copies = new Map<UserListSort, { version: number; entries: Promise<Entry[]> }>();

  constructor(private readonly db: Kysely<Database>) {}

  private async version(): Promise<number> {
    const row = await this.db.selectFrom('users_version').select('n').where('id', '=', 1).executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  private async entries(sort: UserListSort): Promise<Entry[]> {
    // Read before the copy: a write that lands while it loads moves the number past it, so the next search
    // loads again rather than keeping a copy older than its label.
    const version = await this.version();
    const known = this.copies.get(sort);
    if (known?.version === version) return known.entries;
    const ordered = this.db.selectFrom('users').select(['id', 'search_key', 'default_extension']);
    const entries = (sort === 'extension' ? ordered.orderBy('extension_order') : ordered.orderBy(sort))
      .orderBy('username')
      .execute()
      .then((rows) =>
        rows.map((r) => ({
          id: Number(r.id),
          key: r.search_key,
          configured: r.default_extension !== null,
        })),
      );
    // Concurrent searches share one load; a failed load is not kept.
    this.copies.set(sort, { version, entries });
    entries.catch(() => {
      if (this.copies.get(sort)?.entries === entries) this.copies.delete(sort);
    });
    return entries;
  }

  /** Ids of the query's page of matches, in list order, and how many match in all. */
  async search(query: UserListQuery & { search: string }): Promise<{ ids: number[]; total: number }> {
    const needle = query.search.toLowerCase();
    const entries = await this.entries(query.sort ?? 'username');
    const wanted = query.filter === 'configured' ? true : query.filter === 'unconfigured' ? false : undefined;
    const matching = entries.filter((e) => (wanted === undefined || e.configured === wanted) && e.key.includes(needle));
    const offset = query.offset ?? 0;
    const page = query.limit === undefined ? matching.slice(offset) : matching.slice(offset, offset + query.limit);
    return { ids: page.map((e) => e.id), total: matching.length };
  }
}
