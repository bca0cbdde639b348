import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

export interface CachedFile {
  body: string;
  /** The body as sent, encoded once when rendered. */
  bytes: Buffer;
  contentType: string;
  /** Marker: this phone's file depends on the user agent; look under the key with the agent. */
  byAgent?: boolean;
}

/** Entries kept before the cache starts over (user agents are part of the key and come from the network). */
const MAX_ENTRIES = 50_000;
/** How often a process looks at prov_state.generation for changes made by other processes. */
const CHECK_INTERVAL_MS = 1000;

/**
 * Rendered phone files and steady-state token → MAC lookups, per process. A change made here drops only the
 * phone concerned (or everything, for defaults, models and files); a change made by another server process
 * is seen through prov_state.generation within CHECK_INTERVAL_MS and drops everything.
 */
export class PhoneFileCache {
  private readonly files = new Map<string, CachedFile>();
  private readonly keysByMac = new Map<string, Set<string>>();
  /**
   * The answers phones get most, by request (`token\nfilename`, token '' for token-less files): a steady-state
   * token's or a token-less file, ready to write without resolving anything (see PhoneFiles.fromMemory).
   */
  private readonly hot = new Map<string, { mac: string; file: CachedFile }>();
  /** tok2 → MAC only: tok1 is checked against the database, since using tok2 retires it. */
  readonly tok2 = new Map<string, string>();
  /** MAC → first-access token still alive, for phones whose tok2 is cached (retired on first tok2 use). */
  readonly tok1Alive = new Map<string, string>();
  /** Defaults and model scopes by id (undefined: no such model), for rendering. */
  readonly scopes = new Map<string, Record<string, string> | undefined>();
  private generation: number | undefined;
  private checkedAt = 0;
  private checking: Promise<void> | undefined;
  /** Bumped whenever something is dropped: a render that started earlier must not be stored. */
  epoch = 0;
  /** Called after everything (no MAC), or one phone's files, were dropped (the file warmer renders them again). */
  onClear: (mac?: string) => void = () => {};

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: () => number = Date.now,
  ) {}

  clear() {
    this.epoch++;
    this.files.clear();
    this.hot.clear();
    this.keysByMac.clear();
    this.tok2.clear();
    this.tok1Alive.clear();
    this.scopes.clear();
    this.onClear();
  }

  private dropMac(mac: string) {
    this.epoch++;
    this.tok1Alive.delete(mac);
    for (const key of this.keysByMac.get(mac) ?? []) {
      this.files.delete(key);
      this.hot.delete(key);
    }
    this.keysByMac.delete(mac);
    for (const [token, owner] of this.tok2) if (owner === mac) this.tok2.delete(token);
    this.onClear(mac);
  }

  /**
   * Called after this process committed generation `generation`; `macs` are the phones whose files changed
   * ('all' for defaults, models and files; [] when no rendered file changed, e.g. a retired tok1).
   */
  localChange(generation: number, macs: string[] | 'all') {
    // If nobody else wrote in between, only what this change touched is stale.
    const onlyOurs = this.generation !== undefined && generation === this.generation + 1;
    if (macs !== 'all' && onlyOurs) for (const mac of macs) this.dropMac(mac);
    else this.clear();
    this.generation = generation;
  }

  /** Drops these phones' files (or everything) again: a change they depend on has just been committed. */
  drop(macs: string[] | 'all') {
    if (macs === 'all') this.clear();
    else for (const mac of macs) this.dropMac(mac);
  }

  /** Another process said it changed something: look at the generation now rather than at the next poll. */
  async otherProcessChanged(): Promise<void> {
    this.checkedAt = 0;
    await this.checking;
    await this.refresh();
  }

  /** Drops everything if another process changed something since the last look (at most once a second). */
  async refresh(): Promise<void> {
    if (this.clock() - this.checkedAt < CHECK_INTERVAL_MS) return;
    this.checking ??= (async () => {
      try {
        const row = await this.db.selectFrom('prov_state').select('generation').where('id', '=', 1).executeTakeFirst();
        const generation = Number(row?.generation ?? 0);
        if (generation !== this.generation) this.clear();
        this.generation = generation;
        this.checkedAt = this.clock();
      } finally {
        this.checking = undefined;
      }
    })();
    await this.checking;
  }

  get(key: string): CachedFile | undefined {
    return this.files.get(key);
  }

  /** False when refresh() is due: only then may something another process changed still be in here. */
  get fresh(): boolean {
    return this.clock() - this.checkedAt < CHECK_INTERVAL_MS;
  }

  getHot(request: string): { mac: string; file: CachedFile } | undefined {
    return this.hot.get(request);
  }

  /** Remembers the answer to a request (see `hot`); dropped with the phone's files. */
  setHot(mac: string, request: string, file: CachedFile, epoch: number) {
    if (epoch !== this.epoch || this.files.size + this.hot.size >= MAX_ENTRIES) return;
    this.hot.set(request, { mac, file });
    const keys = this.keysByMac.get(mac) ?? new Set<string>();
    this.keysByMac.set(mac, keys);
    keys.add(request);
  }

  /** Stores a render unless something was dropped since it started (`epoch` read before loading data). */
  set(mac: string, key: string, file: CachedFile, epoch: number) {
    if (epoch !== this.epoch) return;
    if (this.files.size >= MAX_ENTRIES) this.clear();
    this.files.set(key, file);
    const keys = this.keysByMac.get(mac) ?? new Set<string>();
    this.keysByMac.set(mac, keys);
    keys.add(key);
  }

  get size() {
    return this.files.size;
  }
}
