import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';

/**
 * Phone files written to disk for a front web server (nginx `try_files`, see the README), for installations
 * where one Node process does not answer a provisioning storm fast enough. Only answers that have no side
 * effect and stay right until the console changes something are written:
 * - a steady-state token's file once the phone's first-access token is retired (the first tok2 fetch must reach
 *   Centralino, since that fetch is what retires tok1);
 * - a first-access token's file while that token lives (removed the moment tok2 is first used).
 * Never a token-less file: it carries the phone's first-access URL and goes only to the networks allowed to
 * bootstrap without a token, which the front server cannot tell. Everything else (token-less requests, unknown
 * tokens, files rendered per user agent, assets) is missing on disk, so the front server hands it to Centralino,
 * which gives the answer it always gave.
 *
 * Every operation is synchronous on purpose: a removal and the answer that made it happen (a retired tok1, a
 * changed phone) follow each other with no turn of the event loop in between in which a write could land.
 * A removal is one rename out of the served tree; the deleting happens later, in the background.
 */
const TRASH_EVERY_MS = 1000;
/** Promotions wait for this long a pause in reports (a storm's), and never longer than PROMOTE_AT_MOST_MS. */
const PROMOTE_QUIET_MS = 200;
const PROMOTE_AT_MOST_MS = 1000;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export class PhoneFileExport {
  /** `<root>/provisioning`, so the front server's `root` is the configured directory itself. */
  readonly base: string;
  /**
   * `<root>/provisioning-first`: steady-state files of phones whose first-access token still lives. The front server
   * serves them and logs each fetch (PHONE_FILES_FIRST_USE_LOG), and Centralino then retires the first-access
   * token and moves the folder into the served tree (`promote`); without that log it stays empty.
   */
  readonly firstBase: string;
  /** MAC → what was written for it (token directories), to drop on a change. */
  private readonly byMac = new Map<string, Set<string>>();
  private readonly fileMode: number;
  private readonly dirMode: number;
  /** Beside the served tree, never inside it: what was put aside is out of the front server's reach at once. */
  private readonly trash: string;
  private wiped = 0;
  private emptying: NodeJS.Timeout | undefined;
  private inTrash = 0;
  private written = 0;
  private clears = 0;
  /** MAC → removals so far (since the last clear). */
  private readonly drops = new Map<string, number>();
  private readonly inFlight = new Set<Promise<void>>();
  /** Token → promotion waiting for a pause, with the phone's stamp when it was asked for. */
  private readonly promotions = new Map<string, { mac: string; stamp: string }>();
  private promoteTimer: NodeJS.Timeout | undefined;
  private promotionsSince = 0;

  constructor(
    root: string,
    private readonly gid: number | null,
    private readonly log: FastifyBaseLogger,
  ) {
    this.base = path.join(root, 'provisioning');
    this.firstBase = path.join(root, 'provisioning-first');
    this.trash = path.join(root, `.put-aside-${process.pid}`);
    // With the front server's group: readable by it, directories searchable but not listable (tokens are secrets).
    // Without one the front server must run as this service's user.
    this.fileMode = gid === null ? 0o600 : 0o640;
    this.dirMode = gid === null ? 0o700 : 0o710;
  }

  /** Starts from an empty tree: tokens may have changed while the service was stopped. */
  start(): void {
    const root = path.dirname(this.base);
    this.makeDir(root);
    // What a stopped process put aside or renamed away and had no time to delete.
    for (const name of fs.readdirSync(root)) {
      const pid = /^(?:\.put-aside-|provisioning(?:-first)?\.old-)(\d+)/.exec(name)?.[1];
      if (pid && (Number(pid) === process.pid || !alive(Number(pid)))) {
        // Renamed first: this process's own trash (same pid, earlier process) is about to be made again.
        const gone = path.join(root, `${name}.gone-${Date.now()}`);
        fs.renameSync(path.join(root, name), gone);
        fs.rm(gone, { recursive: true, force: true }, () => {});
      }
    }
    this.makeDir(this.trash);
    this.clear();
  }

  /**
   * Writes in the background (the disk answered in milliseconds under load, and a storm exports thousands of
   * files) and moves the file into place only if nothing about this phone was dropped since: a removal is always
   * synchronous, so a write that lost the race is thrown away instead of serving a stale answer.
   */
  write(mac: string, token: string, filename: string, bytes: Uint8Array, tree: 'served' | 'first' = 'served'): void {
    // Names come from the request and were matched by the phone-file rules; never a path of their own.
    if (filename.includes('/') || filename.startsWith('.') || token.includes('/') || token.startsWith('.')) return;
    // Token-less answers depend on the client's address: Centralino gives them (see above).
    if (token === '') return;
    const base = tree === 'first' ? this.firstBase : this.base;
    const entry = path.join(base, token);
    const file = path.join(entry, filename);
    const stamp = this.stampOf(mac);
    const entries = this.byMac.get(mac) ?? new Set<string>();
    this.byMac.set(mac, entries);
    entries.add(entry);
    const temp = `${file}.${process.pid}-${++this.written}.tmp`;
    const done = (async () => {
      try {
        await this.makeDirAsync(entry);
        await fsp.writeFile(temp, bytes, { mode: this.fileMode });
        // The service's umask keeps data files private (main.ts): the front server's group is given its bits here.
        await fsp.chmod(temp, this.fileMode);
        if (this.gid !== null) await fsp.chown(temp, -1, this.gid);
        if (this.stampOf(mac) !== stamp) {
          await fsp.rm(temp, { force: true });
          await fsp.rmdir(entry).catch(() => {});
          return;
        }
        // A token's directory is put aside whole by a removal, so a rename still in flight lands out of reach.
        await fsp.rename(temp, file);
      } catch (error) {
        await fsp.rm(temp, { force: true }).catch(() => {});
        // Put aside meanwhile: nothing to serve, nothing to say.
        if ((error as NodeJS.ErrnoException).code === 'ENOENT' && this.stampOf(mac) !== stamp) return;
        // The front server then asks Centralino, which answers from memory: slower, never wrong.
        this.log.warn({ err: error, mac }, 'could not write a phone file for the front web server');
      }
    })();
    this.inFlight.add(done);
    void done.finally(() => this.inFlight.delete(done));
  }

  /** Resolves when every write started so far is on disk or thrown away (tests, shutdown). */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all(this.inFlight);
  }

  /** What a write checks before its file goes into place: bumped by every removal that concerns the phone. */
  private stampOf(mac: string): string {
    return `${this.clears}:${this.drops.get(mac) ?? 0}`;
  }

  private dropped(mac: string) {
    this.drops.set(mac, (this.drops.get(mac) ?? 0) + 1);
  }

  /** A first-access token was retired: its file must stop being served at once. */
  dropToken(mac: string, token: string): void {
    if (token === '' || token.includes('/') || token.startsWith('.')) return;
    this.dropped(mac);
    this.putAside(path.join(this.base, token));
  }

  /**
   * `promote`, a moment later: during a storm, when the front server serves thousands of first fetches a second, each
   * rename (tens of microseconds of the kernel's time) competes with it for the cores. Nothing waits for a promotion:
   * until it happens the file is served from `provisioning-first` and each fetch is reported again, which is harmless.
   * A removal that concerns the phone meanwhile (a new first-access token, a change) cancels it, since what is in
   * `provisioning-first` then may be a new file whose first fetch must be reported.
   */
  promoteSoon(mac: string, token: string): void {
    if (this.promotions.size === 0) this.promotionsSince = Date.now();
    this.promotions.set(token, { mac, stamp: this.stampOf(mac) });
    clearTimeout(this.promoteTimer);
    const wait = Math.min(PROMOTE_QUIET_MS, this.promotionsSince + PROMOTE_AT_MOST_MS - Date.now());
    this.promoteTimer = setTimeout(() => this.promoteNow(), Math.max(0, wait));
    this.promoteTimer.unref();
  }

  /** Carries out the promotions asked for so far (and tests, to see their outcome now). */
  promoteNow(): void {
    clearTimeout(this.promoteTimer);
    this.promoteTimer = undefined;
    for (const [token, { mac, stamp }] of this.promotions) {
      if (this.stampOf(mac) === stamp) this.promote(mac, token);
    }
    this.promotions.clear();
  }

  /**
   * A phone's first steady-state fetch was answered (by the front server from `provisioning-first`, or by Centralino):
   * its file moves into the served tree, in one rename, so later fetches are no longer reported.
   */
  promote(mac: string, token: string): void {
    if (token === '' || token.includes('/') || token.startsWith('.')) return;
    const from = path.join(this.firstBase, token);
    const to = path.join(this.base, token);
    try {
      fs.renameSync(from, to);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return;
      // Centralino already wrote the served folder (its own answer to the first fetch): the reported copy goes.
      if (code === 'ENOTEMPTY' || code === 'EEXIST') {
        this.putAside(from);
        return;
      }
      throw error;
    }
    this.byMac.get(mac)?.delete(from);
    const entries = this.byMac.get(mac) ?? new Set<string>();
    this.byMac.set(mac, entries);
    entries.add(to);
  }

  /** One phone changed (or was deleted): everything written for it goes. */
  dropMac(mac: string): void {
    this.dropped(mac);
    const entries = this.byMac.get(mac);
    if (!entries) return;
    this.byMac.delete(mac);
    for (const entry of entries) this.putAside(entry);
  }

  /**
   * Takes an entry out of the served tree with one rename, and deletes it later: removing a directory on the spot
   * (read it, unlink, rmdir) cost milliseconds each under load, and a provisioning storm retires thousands of
   * first-access tokens in a minute.
   */
  private putAside(entry: string) {
    try {
      fs.renameSync(entry, path.join(this.trash, `${++this.wiped}`));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      return;
    }
    this.inTrash++;
    this.emptyTrashSoon();
  }

  private emptyTrashSoon() {
    if (this.emptying || this.inTrash === 0) return;
    this.emptying = setTimeout(() => {
      const full = `${this.trash}.${++this.wiped}`;
      try {
        fs.renameSync(this.trash, full);
        this.inTrash = 0;
        this.makeDir(this.trash);
      } catch (error) {
        this.log.warn({ err: error }, 'could not empty the phone files put aside');
      }
      fs.rm(full, { recursive: true, force: true }, () => {
        this.emptying = undefined;
        this.emptyTrashSoon();
      });
    }, TRASH_EVERY_MS);
    this.emptying.unref();
  }

  /**
   * Everything goes (defaults, models, another process's change): the tree is renamed aside in one step, so
   * the front server sees the old files or none, and removed in the background.
   */
  clear(): void {
    this.clears++;
    this.drops.clear();
    this.byMac.clear();
    for (const base of [this.base, this.firstBase]) {
      const aside = `${base}.old-${process.pid}-${++this.wiped}`;
      try {
        fs.renameSync(base, aside);
        fs.rm(aside, { recursive: true, force: true }, () => {});
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
      this.makeDir(base);
    }
  }

  private async makeDirAsync(dir: string) {
    await fsp.mkdir(dir, { recursive: true, mode: this.dirMode });
    await fsp.chmod(dir, this.dirMode);
    if (this.gid !== null) await fsp.chown(dir, -1, this.gid);
  }

  private makeDir(dir: string) {
    fs.mkdirSync(dir, { recursive: true, mode: this.dirMode });
    fs.chmodSync(dir, this.dirMode);
    if (this.gid !== null) fs.chownSync(dir, -1, this.gid);
  }
}
