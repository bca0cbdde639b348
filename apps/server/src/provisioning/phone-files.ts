import { type ProvisioningFileType, TOKENLESS_NETWORKS_VARIABLE } from '@centralino/contract';
import type { FastifyBaseLogger } from 'fastify';
import { parseStoredAccounts } from './accounts.ts';
import type { CachedFile } from './cache.ts';
import type { FileStore } from './files.ts';
import { NetworkList } from './networks.ts';
import type { PhoneFileExport } from './phone-file-export.ts';
import { NoTemplateError, renderedByAgent, renderFile } from './render.ts';
import type { PhoneRow, ProvisioningService } from './service.ts';
import { type FileRule, matchFileRule } from './templates.ts';

/** Tokens we issue are 32 hex characters; older imports may carry dots (contract §4.3). */
const TOKEN = /^[0-9a-z.]{8,64}$/;
/** Longest user agent kept in the cache key (phones send short ones). */
const MAX_AGENT = 200;
/** Retired first-access tokens are written together, this long after the first of a batch. */
const RETIRE_DELAY_MS = 20;
/** Quiet time after a change before the warmer renders every phone's file again. */
const REWARM_DELAY_MS = 1000;
/** Phone requests are counted, not logged one by one (a storm is thousands a second); the counts are logged this often. */
const COUNTS_EVERY_MS = 60_000;

/** What phones asked for since the last summary in the log. */
export interface PhoneFileCounts {
  /** Configuration files sent (from memory or rendered). */
  files: number;
  /** Of those, answered from ready bytes without looking anything up. */
  fromMemory: number;
  /** Requests with a token nobody has (a phone reset to an old URL, or someone guessing). */
  unknownToken: number;
  /** The last user agent that came with an unknown token. */
  lastUnknownAgent?: string;
}

/**
 * What a phone request found: the file, or nothing. 'absent': the token is right but names no such file (answered
 * 404, never throttled); 'unknown': a token nobody has, or a token-less request that gets nothing (counted by the
 * miss throttle).
 */
export type PhoneFileResult<T> = { file: T } | { miss: 'absent' | 'unknown' };

/** The configuration file name a phone of this MAC asks for (the first rule that takes one). */
function configFileName(mac: string): { filename: string; rule: FileRule } | undefined {
  const short = mac.replaceAll('-', '').toLowerCase();
  for (const filename of [`${short}.cfg`, `${short}.xml`, `cfg${short}.xml`]) {
    const match = matchFileRule(filename);
    if (match?.mac === mac) return { filename, rule: match.rule };
  }
  return undefined;
}

/**
 * What phones download: configuration files rendered per vendor (with a token, or token-less with every
 * credential blanked, to allowed networks only) and the uploaded assets. Answers a miss for anything a phone may
 * not have, so the route gives one plain 404 whatever the reason (or 429, to an address with too many misses).
 */
export class PhoneFiles {
  private retireQueue = new Map<string, string>();
  /** Retirements being written: still refused, since the database does not have them yet. */
  private retiringNow = new Map<string, string>();
  private retireTimer: NodeJS.Timeout | undefined;
  private retiring: Promise<void> = Promise.resolve();
  private warmTimer: NodeJS.Timeout | undefined;
  private warming = false;
  private stopped = true;
  private counts: PhoneFileCounts = { files: 0, fromMemory: 0, unknownToken: 0 };
  private countsTimer: NodeJS.Timeout | undefined;
  private exports: {
    mac: string;
    token: string;
    filename: string;
    file: CachedFile;
    epoch: number;
    tree: 'served' | 'first';
  }[] = [];
  /** The front server reports first steady-state fetches (PHONE_FILES_FIRST_USE_LOG): those files go on disk too. */
  private firstUseReported = false;
  /** Where the token-less bootstrap may hand out first-access URLs (the defaults' TOKENLESS_NETWORKS_VARIABLE). */
  private bootstrapNetworks = NetworkList.parse('');

  constructor(
    private readonly service: ProvisioningService,
    private readonly files: FileStore,
    private readonly log: FastifyBaseLogger,
    private readonly clock: () => Date = () => new Date(),
    /** Files also written to disk for a front web server (PHONE_FILES_DIR), or none. */
    private readonly disk?: PhoneFileExport,
  ) {
    this.cache.onClear = (mac) => {
      if (mac === undefined) this.disk?.clear();
      else this.disk?.dropMac(mac);
      this.scheduleWarm();
    };
    // API reads show retirements that are still queued (the console's Pending/Completed status).
    service.beforeRead = () => this.flush();
  }

  private get cache() {
    return this.service.cache;
  }

  // -------------------------------------------------------------------------------------------- tokens

  private retireLater(mac: string, tok1: string) {
    this.disk?.dropToken(mac, tok1);
    this.retireQueue.set(mac, tok1);
    this.retireTimer ??= setTimeout(() => {
      this.retireTimer = undefined;
      this.retiring = this.writeRetirements().catch((error) =>
        this.log.error({ err: error }, 'could not retire first-access tokens'),
      );
    }, RETIRE_DELAY_MS);
  }

  /** Writes the queued retirements; they stay in the queue (refused) until the database has them. */
  private writeRetirements(): Promise<void> {
    const batch = [...this.retireQueue].map(([mac, tok1]) => ({ mac, tok1 }));
    for (const { mac, tok1 } of batch) this.retiringNow.set(mac, tok1);
    this.retireQueue.clear();
    return this.retiring.then(async () => {
      if (batch.length === 0) return;
      try {
        await this.service.retireTok1(batch);
      } finally {
        for (const { mac, tok1 } of batch) if (this.retiringNow.get(mac) === tok1) this.retiringNow.delete(mac);
      }
    });
  }

  private isRetiring(tok1: string): boolean {
    for (const queued of [this.retireQueue, this.retiringNow])
      for (const t of queued.values()) if (t === tok1) return true;
    return false;
  }

  private retiringSoon(mac: string): boolean {
    return this.retireQueue.has(mac) || this.retiringNow.has(mac);
  }

  /** Writes pending token retirements now (tests, shutdown). */
  async flush(): Promise<void> {
    if (this.retireTimer) {
      clearTimeout(this.retireTimer);
      this.retireTimer = undefined;
      this.retiring = this.writeRetirements();
    }
    await this.retiring;
  }

  /** Resolves a token; the first use of tok2 retires tok1 (contract §4.3). */
  private async resolve(token: string): Promise<{ mac: string; kind: 'tok1' | 'tok2'; row?: PhoneRow } | undefined> {
    if (!TOKEN.test(token)) return undefined;
    await this.cache.refresh();
    const mac = this.cache.tok2.get(token);
    if (mac) {
      this.usedTok2(mac, token);
      return { mac, kind: 'tok2' };
    }
    // Retired a moment ago and not written yet, asked before and after the lookup: a lookup that began before the
    // retirement's commit reads the token alive, and ends after the retirement has left these queues.
    const retiring = () => this.isRetiring(token);
    const before = retiring();
    const found = await this.service.phoneByToken(token);
    if (!found) return undefined;
    const { row, kind } = found;
    if (kind === 'tok1' && (before || retiring())) return undefined;
    if (kind === 'tok2') {
      if (row.tok1 && !this.retiringSoon(row.mac)) this.retireLater(row.mac, row.tok1);
      this.disk?.promoteSoon(row.mac, token);
      this.cache.tok2.set(token, row.mac);
    }
    return { mac: row.mac, kind, row };
  }

  // -------------------------------------------------------------------------------------------- files

  /**
   * The file for a steady-state token, when this exact request was answered before and nothing changed since: no
   * parsing, no lookup, no await. Undefined sends the request the long way (configFile), which gives the same
   * answer and remembers it. First-access tokens always go the long way: whether one is still alive is asked of
   * the database, which every server process shares. So do token-less requests (`token` ''): whether the client
   * may have the answer depends on its address (tokenlessFile).
   */
  fromMemory(token: string, filename: string): CachedFile | undefined {
    if (token === '' || !this.cache.fresh) return undefined;
    const hit = this.cache.getHot(`${token}\n${filename}`);
    if (!hit) return undefined;
    // The phone's first steady-state fetch: from now on the front web server may answer it (PHONE_FILES_DIR).
    if (token !== '' && this.usedTok2(hit.mac, token)) this.exportSoon(hit.mac, token, filename, hit.file);
    this.counted(true);
    return hit.file;
  }

  async configFile(token: string, filename: string, userAgent: string): Promise<PhoneFileResult<CachedFile>> {
    const match = matchFileRule(filename);
    // Looked up without using it (a tok2 use would retire tok1): only to tell a guesser from a phone.
    if (!match) return { miss: (await this.tokenExists(token)) ? 'absent' : 'unknown' };
    const epoch = this.cache.epoch;
    const phone = await this.resolve(token);
    if (!phone) {
      this.counts.unknownToken++;
      this.counts.lastUnknownAgent = userAgent.slice(0, MAX_AGENT);
      this.scheduleCounts();
      return { miss: 'unknown' };
    }
    // A file name that carries a MAC must be this phone's: another phone's token does not open it.
    if (match.mac && match.mac !== phone.mac) return { miss: 'absent' };
    const file = await this.render(phone.mac, phone.row, filename, match.rule, phone.kind === 'tok2', false, userAgent);
    if (!file) return { miss: 'absent' };
    this.counted(false);
    if (phone.kind === 'tok2') this.remember(phone.mac, token, filename, file, epoch);
    return { file };
  }

  /** Whether someone has this token, with no side effect (a tok2 is not used, tok1 not retired). */
  async tokenExists(token: string): Promise<boolean> {
    if (!TOKEN.test(token)) return false;
    if (this.cache.tok2.has(token)) return true;
    return (await this.service.phoneByToken(token)) !== undefined;
  }

  /**
   * Token-less bootstrap: the phone comes from the MAC in the file name, credentials are blanked, and the file
   * points the phone at its first-access URL (tok1). That URL opens the phone's credentials, so only a client in
   * the networks of the defaults' TOKENLESS_NETWORKS_VARIABLE gets it (none by default); any other client gets
   * what an unknown MAC gets, decided before the MAC is looked up. Never kept for the raw front handler or the
   * front web server, which cannot tell clients apart.
   */
  async tokenlessFile(filename: string, userAgent: string, clientIp: string): Promise<PhoneFileResult<CachedFile>> {
    const match = matchFileRule(filename);
    if (!match?.mac) return { miss: 'unknown' };
    await this.cache.refresh();
    if (!(await this.mayBootstrap(clientIp))) return { miss: 'unknown' };
    const file = await this.render(match.mac, undefined, filename, match.rule, false, true, userAgent);
    if (!file) return { miss: 'unknown' };
    this.counted(false);
    return { file };
  }

  /** Whether this client address is in the networks allowed to bootstrap without a token. */
  private async mayBootstrap(clientIp: string): Promise<boolean> {
    const source = (await this.service.defaultsCached())[TOKENLESS_NETWORKS_VARIABLE] ?? '';
    if (source !== this.bootstrapNetworks.source) this.bootstrapNetworks = NetworkList.parse(source);
    return this.bootstrapNetworks.has(clientIp);
  }

  /** Files that depend on the user agent are not kept by request: the agent would have to be part of the key. */
  private remember(mac: string, token: string, filename: string, file: CachedFile, epoch: number) {
    if (this.cache.get(`${mac}\n${filename}\n2`)?.byAgent) return;
    if (epoch !== this.cache.epoch) return;
    this.cache.setHot(mac, `${token}\n${filename}`, file, epoch);
    // A steady-state file goes on disk only once tok1 is gone: the first tok2 fetch has to retire it here.
    if (!this.cache.tok1Alive.has(mac)) this.exportSoon(mac, token, filename, file);
    else if (this.firstUseReported) this.exportSoon(mac, token, filename, file, 'first');
  }

  /**
   * Writes a file for the front web server after this turn of the event loop, so a storm's answers are not held
   * up by disk writes; skipped if anything was dropped meanwhile (the warmer writes it again). Removals are never
   * deferred: see PhoneFileExport.
   */
  private exportSoon(
    mac: string,
    token: string,
    filename: string,
    file: CachedFile,
    tree: 'served' | 'first' = 'served',
  ) {
    const disk = this.disk;
    if (!disk) return;
    if (this.exports.length === 0) {
      setImmediate(() => {
        const batch = this.exports;
        this.exports = [];
        for (const e of batch) {
          if (e.epoch !== this.cache.epoch) continue;
          // Retired meanwhile: the file belongs in the served tree now, where the next answer puts it.
          if (e.tree === 'first' && !this.cache.tok1Alive.has(e.mac)) continue;
          disk.write(e.mac, e.token, e.filename, e.file.bytes, e.tree);
        }
      });
    }
    this.exports.push({ mac, token, filename, file, epoch: this.cache.epoch, tree });
  }

  /** A steady-state token was used: the phone's first-access token goes (contract §4.3). True if it went now. */
  private usedTok2(mac: string, tok2: string): boolean {
    const tok1 = this.cache.tok1Alive.get(mac);
    if (!tok1) return false;
    this.cache.tok1Alive.delete(mac);
    this.retireLater(mac, tok1);
    this.disk?.promoteSoon(mac, tok2);
    return true;
  }

  /**
   * The front server answered a steady-state file from `provisioning-first` (its log, PHONE_FILES_FIRST_USE_LOG): the
   * phone has used tok2, as if it had asked Centralino.
   */
  usedOnDisk(tok2: string): void {
    if (!TOKEN.test(tok2)) return;
    const mac = this.cache.tok2.get(tok2);
    if (!mac) return;
    // Already retired (a report sent twice, or Centralino answered first): the file only moves.
    if (!this.usedTok2(mac, tok2)) this.disk?.promoteSoon(mac, tok2);
  }

  /** Called once the front server's reports can be received: steady-state files of new phones go on disk. */
  reportFirstUse(): void {
    this.firstUseReported = true;
  }

  private counted(fromMemory: boolean) {
    this.counts.files++;
    if (fromMemory) this.counts.fromMemory++;
    this.scheduleCounts();
  }

  private scheduleCounts() {
    if (this.countsTimer) return;
    this.countsTimer = setTimeout(() => this.logCounts(), COUNTS_EVERY_MS);
    this.countsTimer.unref();
  }

  private logCounts() {
    this.countsTimer = undefined;
    const counts = this.counts;
    this.counts = { files: 0, fromMemory: 0, unknownToken: 0 };
    this.log.info({ ...counts, seconds: COUNTS_EVERY_MS / 1000 }, 'phone files served');
  }

  /** What phones asked for since the last summary (tests, the log at shutdown). */
  get requestCounts(): Readonly<PhoneFileCounts> {
    return this.counts;
  }

  private async render(
    mac: string,
    knownRow: PhoneRow | undefined,
    filename: string,
    rule: FileRule,
    complete: boolean,
    blank: boolean,
    userAgentRaw: string,
  ): Promise<CachedFile | undefined> {
    const userAgent = userAgentRaw.slice(0, MAX_AGENT);
    // Only phones without a model (fallback template) render differently per user agent.
    const key = `${mac}\n${filename}\n${complete ? 2 : 1}${blank ? 'b' : ''}`;
    const agentKey = `${key}\n${userAgent}`;
    const hit = this.cache.get(key);
    if (hit && !hit.byAgent) return hit;
    if (hit?.byAgent) {
      const byAgent = this.cache.get(agentKey);
      if (byAgent) return byAgent;
    }
    const epoch = this.cache.epoch;
    const row = knownRow ?? (await this.service.phoneByMac(mac));
    if (!row) return undefined;
    const variables = await this.service.effectiveVariablesCached(row);
    const template = variables[rule.templateVariable];
    if (!template) return undefined;
    try {
      const body = await renderFile(template, {
        variables,
        mac,
        model: row.model ?? '',
        displayName: row.display_name,
        tok1: row.tok1,
        tok2: row.tok2,
        serverHost: this.service.serverHost,
        listeners: this.service.listeners(),
        complete,
        blank,
        userAgent,
        accountExtras: parseStoredAccounts(row.accounts),
        now: this.clock(),
      });
      const file = { body, bytes: Buffer.from(body), contentType: rule.contentType };
      if (renderedByAgent(template, mac)) {
        this.cache.set(mac, key, { body: '', bytes: Buffer.alloc(0), contentType: '', byAgent: true }, epoch);
        this.cache.set(mac, agentKey, file, epoch);
      } else {
        this.cache.set(mac, key, file, epoch);
      }
      return file;
    } catch (error) {
      if (error instanceof NoTemplateError) {
        this.log.warn({ mac, filename, userAgent }, error.message);
        return undefined;
      }
      throw error;
    }
  }

  async asset(
    token: string,
    collection: ProvisioningFileType,
    name: string,
  ): Promise<PhoneFileResult<{ path: string; size: number }>> {
    const phone = await this.resolve(token);
    if (!phone) return { miss: 'unknown' };
    const file = await this.files.find(collection, name);
    return file ? { file } : { miss: 'absent' };
  }

  // -------------------------------------------------------------------------------------------- warming

  /**
   * Renders every phone's steady-state configuration file in the background, so a provisioning storm
   * (all phones rebooting at once) is served from memory. Runs after start and again after any change that
   * dropped the whole cache.
   */
  startWarming() {
    this.stopped = false;
    this.scheduleWarm(0);
  }

  async stop() {
    this.stopped = true;
    if (this.warmTimer) clearTimeout(this.warmTimer);
    this.warmTimer = undefined;
    if (this.countsTimer) {
      clearTimeout(this.countsTimer);
      this.logCounts();
    }
    await this.flush().catch(() => {});
    await this.disk?.settled();
  }

  private scheduleWarm(delay = REWARM_DELAY_MS) {
    if (this.stopped) return;
    if (this.warmTimer) clearTimeout(this.warmTimer);
    this.warmTimer = setTimeout(() => {
      this.warmTimer = undefined;
      void this.warm();
    }, delay);
    this.warmTimer.unref();
  }

  private async warm() {
    if (this.warming) return this.scheduleWarm();
    this.warming = true;
    const started = performance.now();
    try {
      await this.cache.refresh();
      const epoch = this.cache.epoch;
      const rows = await this.service.allPhones();
      for (const row of rows) {
        if (this.stopped) return;
        // Something changed meanwhile: start over once things are quiet.
        if (this.cache.epoch !== epoch) return this.scheduleWarm();
        const file = configFileName(row.mac);
        if (!file) continue;
        // Known alive before tok2 resolves from memory, so the first tok2 fetch retires it.
        const tok1 = row.tok1 && !this.retiringSoon(row.mac) ? row.tok1 : undefined;
        if (tok1) this.cache.tok1Alive.set(row.mac, tok1);
        this.cache.tok2.set(row.tok2, row.mac);
        const steady = await this.render(row.mac, row, file.filename, file.rule, true, false, '');
        if (steady) this.remember(row.mac, row.tok2, file.filename, steady, epoch);
        // A phone still waiting for its first access gets that file (tok1) from memory too.
        if (tok1) {
          const first = await this.render(row.mac, row, file.filename, file.rule, false, false, '');
          // Only while that token still lives (a tok2 fetch during the render retired it).
          const byAgent = this.cache.get(`${row.mac}\n${file.filename}\n1`)?.byAgent;
          if (first && !byAgent && this.cache.tok1Alive.get(row.mac) === tok1 && epoch === this.cache.epoch) {
            this.disk?.write(row.mac, tok1, file.filename, first.bytes);
          }
        }
        // Let phone requests in between renders.
        await new Promise((resolve) => setImmediate(resolve));
      }
      this.log.info(
        { phones: rows.length, ms: Math.round(performance.now() - started) },
        'phone files ready in memory',
      );
    } catch (error) {
      if (!this.stopped) this.log.warn({ err: error }, 'warming the provisioning cache failed');
    } finally {
      this.warming = false;
    }
  }
}
