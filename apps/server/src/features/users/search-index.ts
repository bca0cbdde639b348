import type { UserListQuery, UserListSort } from '@centralino/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

export interface Entry {
  id: number;
  key: string;
  configured: boolean;
}

/** Between keys in `Copy.text`: a search that holds it is answered by looking at each key instead. */
const SEPARATOR = '\u0001';

/** One list order's copy: the entries, and their keys in one string, where `starts[i]` is where entry i's begins. */
interface Copy {
  entries: Entry[];
  text: string;
  starts: Int32Array;
  /** Searches answered from this copy so far. */
  searches: number;
  /** Three-letter sequence → the entries whose key holds it, in list order; made once the copy has been searched. */
  grams?: Map<string, number[]>;
  /** The configured and the unconfigured entries, made on the first page of each filter without a search. */
  configured?: Entry[];
  unconfigured?: Entry[];
}

/**
 * Searches a copy answers by scanning before it gets its three-letter index: making the index costs about what a
 * hundred scans do, and a list that changes often (each change makes a new copy) is better served by scanning.
 */
const SCANS_BEFORE_INDEX = 8;
/** Rows read per statement when a copy is loaded (a few milliseconds of the event loop each). */
const LOAD_CHUNK = 5_000;
const GRAM = 3;

function gramsOf(entries: Entry[]): Map<string, number[]> {
  const grams = new Map<string, number[]>();
  entries.forEach((e, i) => {
    for (let at = 0; at + GRAM <= e.key.length; at++) {
      const gram = e.key.slice(at, at + GRAM);
      const list = grams.get(gram);
      if (!list) grams.set(gram, [i]);
      else if (list[list.length - 1] !== i) list.push(i);
    }
  });
  return grams;
}

export function copyOf(entries: Entry[]): Copy {
  const starts = new Int32Array(entries.length + 1);
  let at = 0;
  entries.forEach((e, i) => {
    starts[i] = at;
    at += e.key.length + SEPARATOR.length;
  });
  starts[entries.length] = at;
  return { entries, text: entries.map((e) => e.key + SEPARATOR).join(''), starts, searches: 0 };
}

/** The entry whose key holds position `at` of the text (the last start at or before it). */
function entryAt(starts: Int32Array, at: number): number {
  let lo = 0;
  let hi = starts.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] as number) <= at) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * The entries whose key holds `needle`, in list order. Calling `includes` on 10,000 keys in turn cost a third of a
 * millisecond a search; for three letters or more, one `indexOf` over the joined keys finds the next match wherever it
 * is, and a copy searched often gets an index of its three-letter sequences, so only the keys holding the needle's
 * rarest one are looked at.
 */
export function matches(copy: Copy, needle: string, keep: (e: Entry) => boolean): Entry[] {
  // One or two letters match thousands of keys, each found by its own call: a look at each key costs less then.
  if (needle.length < GRAM || needle.includes(SEPARATOR)) {
    return copy.entries.filter((e) => keep(e) && e.key.includes(needle));
  }
  if (needle.length >= GRAM && ++copy.searches > SCANS_BEFORE_INDEX) {
    copy.grams ??= gramsOf(copy.entries);
    // The entries holding the needle's rarest three letters, each then checked for the whole needle.
    let fewest: number[] | undefined;
    for (let at = 0; at + GRAM <= needle.length; at++) {
      const list = copy.grams.get(needle.slice(at, at + GRAM));
      if (!list) return [];
      if (!fewest || list.length < fewest.length) fewest = list;
    }
    const found: Entry[] = [];
    for (const i of fewest ?? []) {
      const entry = copy.entries[i] as Entry;
      if (keep(entry) && entry.key.includes(needle)) found.push(entry);
    }
    return found;
  }
  const found: Entry[] = [];
  for (let from = 0; ; ) {
    const at = copy.text.indexOf(needle, from);
    if (at === -1) return found;
    const i = entryAt(copy.starts, at);
    const entry = copy.entries[i] as Entry;
    if (keep(entry)) found.push(entry);
    from = copy.starts[i + 1] as number;
  }
}

/**
 * The users' search keys in memory, in each list order the database gives, for pages and searches by fragment:
 * a scan of 10,000 short strings in JavaScript costs a fraction of the two LIKE scans (page and count) it
 * replaces, a deep page is a slice, and the page's rows are then read by id. The order comes from the database (its collation), so a search lists
 * users exactly as the SQL did. A copy is used only while `users_version` (moved by triggers on every write, in
 * the writer's transaction, whoever the writer) still has the number read before the copy was loaded.
 */
export class UsersSearchIndex {
  private copies = new Map<UserListSort, { version: number; entries: Promise<Copy> }>();
  /** The loaded copies, with the version each was read at: tried first, and kept while the database has it. */
  private loaded = new Map<UserListSort, { version: number; copy: Copy }>();

  constructor(private readonly db: Kysely<Database>) {}

  private async version(): Promise<number> {
    const row = await this.db.selectFrom('users_version').select('n').where('id', '=', 1).executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  private async entries(sort: UserListSort): Promise<Copy> {
    // Read before the copy: a write that lands while it loads moves the number past it, so the next search
    // loads again rather than keeping a copy older than its label.
    const version = await this.version();
    const known = this.copies.get(sort);
    if (known?.version === version) return known.entries;
    const ordered = this.db.selectFrom('users').select(['id', 'search_key', 'default_extension']);
    const query = (sort === 'extension' ? ordered.orderBy('extension_order') : ordered.orderBy(sort)).orderBy(
      'username',
    );
    const entries = (async () => {
      // Read a chunk at a time with a turn of the event loop between chunks: SQLite answers synchronously, and
      // 50,000 rows in one statement held the loop for about 100 ms. A write between two chunks could list a user
      // twice or not at all: the version is read again after the last chunk, and the copy read again if it moved.
      let list: Entry[] = [];
      for (let attempt = 1; ; attempt++) {
        list = [];
        for (let offset = 0; ; offset += LOAD_CHUNK) {
          const rows = await query.limit(LOAD_CHUNK).offset(offset).execute();
          for (const r of rows) {
            list.push({ id: Number(r.id), key: r.search_key, configured: r.default_extension !== null });
          }
          if (rows.length < LOAD_CHUNK) break;
          await new Promise((resolve) => setImmediate(resolve));
        }
        // Behind writes that keep coming, the last copy is kept: its label is older than it, so it is read again
        // at its next use (as when a write lands during a load of one statement).
        if (attempt === 3 || (await this.version()) === version) break;
      }
      return copyOf(list);
    })();
    // Concurrent searches share one load; a failed load is not kept.
    this.copies.set(sort, { version, entries });
    entries.then(
      (copy) => {
        if (this.copies.get(sort)?.entries === entries) this.loaded.set(sort, { version, copy });
      },
      () => {
        if (this.copies.get(sort)?.entries === entries) this.copies.delete(sort);
      },
    );
    return entries;
  }

  /**
   * The query's page of matches, in list order, read by `read` (the rows of those ids, and `users_version` read in
   * the same statement), and how many match in all. The copy in memory is tried first and its page kept if the
   * database still had the copy's version when it read the rows: one statement, where asking for the version
   * first cost a round trip per search. Otherwise the version is asked, the copy loaded again if it moved, and the
   * page read again.
   */
  async page<R>(
    query: UserListQuery & { search: string },
    read: (ids: number[]) => Promise<{ rows: R[]; version: number }>,
  ): Promise<{ rows: R[]; total: number }> {
    const sort = query.sort ?? 'username';
    const known = this.loaded.get(sort);
    if (known) {
      const { ids, total } = pick(known.copy, query);
      if (ids.length > 0) {
        const { rows, version } = await read(ids);
        if (version === known.version) return { rows, total };
      }
    }
    const { ids, total } = pick(await this.entries(sort), query);
    return { rows: ids.length === 0 ? [] : (await read(ids)).rows, total };
  }
}

/** The configured (or the unconfigured) entries of a copy, made once per copy. */
function filtered(copy: Copy, configured: boolean): Entry[] {
  const which = configured ? 'configured' : 'unconfigured';
  const kept = copy[which] ?? copy.entries.filter((e) => e.configured === configured);
  copy[which] = kept;
  return kept;
}

/** Ids of the query's page of matches in a copy, and how many match in all. */
function pick(copy: Copy, query: UserListQuery & { search: string }): { ids: number[]; total: number } {
  const wanted = query.filter === 'configured' ? true : query.filter === 'unconfigured' ? false : undefined;
  // Plain pages (no search) are most of what the users screen asks: a slice of the copy, not a pass over it.
  const matching =
    query.search !== ''
      ? matches(copy, query.search.toLowerCase(), (e) => wanted === undefined || e.configured === wanted)
      : wanted === undefined
        ? copy.entries
        : filtered(copy, wanted);
  const offset = query.offset ?? 0;
  const page = query.limit === undefined ? matching.slice(offset) : matching.slice(offset, offset + query.limit);
  return { ids: page.map((e) => e.id), total: matching.length };
}
