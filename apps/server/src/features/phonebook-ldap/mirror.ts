import type { Kysely } from 'kysely';
import { Attribute, Change, type Client } from 'ldapts';
import type { Database } from '../../db/schema.ts';
import { visibleContacts } from '../phonebook/visible.ts';
import {
  contactEntry,
  entryDn,
  ldifRecord,
  PHONEBOOK_BASE_DN,
  type PhonebookEntry,
  skeletonRecords,
} from './entries.ts';

/** More changes than this rebuild the database with slapadd instead (adding entries online runs ~1,000/s). */
const REBUILD_ABOVE = 2000;
/** Changes in flight on the manager connection: slapd takes them in parallel, one round trip each. */
const IN_FLIGHT = 64;
/** Contacts turned into entries between two turns of the event loop. */
const YIELD_EVERY = 2000;

export interface MirrorOutcome {
  added: number;
  removed: number;
  entries: number;
  /** Whether the database was rebuilt rather than changed entry by entry. */
  rebuilt: boolean;
}

type SkeletonRecord = ReturnType<typeof skeletonRecords>[number];

async function pool<T>(items: T[], run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await run(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, items.length) }, worker));
}

/**
 * Keeps slapd's database equal to the central phonebook: the PBX users and the current contacts of every source.
 * Entries are named by a hash of what they hold, so a sync that brings back the same contacts changes nothing in
 * slapd, and a changed contact is one delete and one add.
 */
export class PhonebookMirror {
  /** What slapd holds, known after the first refresh (Centralino is its only writer). */
  private present: Set<string> | undefined;
  /** The bind password the skeleton was last written with. */
  private skeleton: string | undefined;

  constructor(private readonly db: Kysely<Database>) {}

  /** Forget what slapd holds (it was restarted on another database, or a change failed halfway). */
  reset(): void {
    this.present = undefined;
    this.skeleton = undefined;
  }

  private async wanted(): Promise<Map<string, PhonebookEntry>> {
    const rows = await visibleContacts(this.db)
      .select(['name', 'company', 'title', 'workphone', 'cellphone', 'homephone', 'fax', 'workemail', 'homeemail'])
      .select('type')
      .execute();
    const entries = new Map<string, PhonebookEntry>();
    for (let i = 0; i < rows.length; i++) {
      const entry = contactEntry(rows[i] as Parameters<typeof contactEntry>[0]);
      if (entry) entries.set(entry.uid, entry);
      if (i % YIELD_EVERY === YIELD_EVERY - 1) await new Promise((r) => setImmediate(r));
    }
    return entries;
  }

  private async readPresent(client: Client): Promise<Set<string>> {
    const present = new Set<string>();
    const { searchEntries } = await client
      .search(PHONEBOOK_BASE_DN, {
        scope: 'one',
        filter: '(objectClass=inetOrgPerson)',
        attributes: ['uid'],
        paged: { pageSize: 5000 },
      })
      .catch((error: { code?: number }) => {
        if (error.code === 32) return { searchEntries: [] }; // a new, empty database
        throw error;
      });
    for (const entry of searchEntries) {
      const uid = Array.isArray(entry.uid) ? entry.uid[0] : entry.uid;
      if (typeof uid === 'string') present.add(uid);
    }
    return present;
  }

  private async ensureSkeleton(client: Client, bindPassword: string): Promise<void> {
    const [base, user] = skeletonRecords(bindPassword) as [SkeletonRecord, SkeletonRecord];
    const exists = (dn: string) =>
      client
        .search(dn, { scope: 'base', filter: '(objectClass=*)', attributes: ['1.1'] })
        .then(() => true)
        .catch(() => false);
    if (!(await exists(base.dn))) await client.add(base.dn, base.attributes);
    if (!(await exists(user.dn))) await client.add(user.dn, user.attributes);
    else {
      await client.modify(
        user.dn,
        new Change({
          operation: 'replace',
          modification: new Attribute({ type: 'userPassword', values: [user.attributes.userPassword as string] }),
        }),
      );
    }
  }

  /**
   * Brings slapd in line with the central phonebook; answers what changed. Many changes (the first fill, a new
   * big source) go through `rebuild`, which replaces the whole database at once; a few go in one by one.
   */
  async refresh(
    client: Client,
    bindPassword: string,
    rebuild: (records: Iterable<string>) => Promise<void>,
  ): Promise<MirrorOutcome> {
    const wanted = await this.wanted();
    const present = this.present ?? (await this.readPresent(client));
    const removals = [...present].filter((uid) => !wanted.has(uid));
    const additions = [...wanted.values()].filter((entry) => !present.has(entry.uid));
    const outcome = { added: additions.length, removed: removals.length, entries: wanted.size, rebuilt: false };
    if (additions.length + removals.length > REBUILD_ABOVE) {
      this.reset();
      await client.unbind().catch(() => {});
      await rebuild(records(wanted, bindPassword));
      this.present = new Set(wanted.keys());
      this.skeleton = bindPassword;
      return { ...outcome, rebuilt: true };
    }
    this.present = present;
    if (this.skeleton !== bindPassword) {
      await this.ensureSkeleton(client, bindPassword);
      this.skeleton = bindPassword;
    }
    try {
      await pool(removals, async (uid) => {
        await client.del(entryDn(uid)).catch((error: { code?: number }) => {
          if (error.code !== 32) throw error; // already gone
        });
        present.delete(uid);
      });
      await pool(additions, async (entry) => {
        await client.add(entryDn(entry.uid), entry.attributes).catch((error: { code?: number }) => {
          if (error.code !== 68) throw error; // already there
        });
        present.add(entry.uid);
      });
    } catch (error) {
      this.reset();
      throw error;
    }
    return outcome;
  }
}

/** The whole phonebook as LDIF, produced as slapadd reads it. */
function* records(wanted: Map<string, PhonebookEntry>, bindPassword: string): Generator<string> {
  for (const { dn, attributes } of skeletonRecords(bindPassword)) yield ldifRecord(dn, attributes);
  let chunk = '';
  for (const entry of wanted.values()) {
    chunk += ldifRecord(entryDn(entry.uid), entry.attributes);
    if (chunk.length > 65_536) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk) yield chunk;
}
