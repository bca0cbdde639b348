import fs from 'node:fs';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';

/**
 * Phone files written to disk for a front web server (nginx `try_files`, see the README), for installations
 * where one Node process does not answer a provisioning storm fast enough. Only answers that have no side
 * effect and stay right until the console changes something are written:
 * - a steady-state token's file once the phone's first-access token is retired (the first tok2 fetch must reach
 *   Centralino, since that fetch is what retires tok1);
 * - a first-access token's file while that token lives (removed the moment tok2 is first used);
 * - token-less files (credentials blanked).
 * Everything else (unknown tokens, files rendered per user agent, assets) is missing on disk, so the front
 * server hands it to Centralino, which gives the answer it always gave.
 *
 * Every operation is synchronous on purpose: a removal and the answer that made it happen (a retired tok1, a
 * changed phone) follow each other with no turn of the event loop in between in which a write could land.
 * Each is one small file or directory.
 */
export class PhoneFileExport {
  /** `<root>/provisioning`, so the front server's `root` is the configured directory itself. */
  readonly base: string;
  /** MAC → what was written for it (token directories and token-less files), to drop on a change. */
  private readonly byMac = new Map<string, Set<string>>();
  private readonly fileMode: number;
  private readonly dirMode: number;
  private wiped = 0;

  constructor(
    root: string,
    private readonly gid: number | null,
    private readonly log: FastifyBaseLogger,
  ) {
    this.base = path.join(root, 'provisioning');
    // With the front server's group: readable by it, directories searchable but not listable (tokens are secrets).
    // Without one the front server must run as this service's user.
    this.fileMode = gid === null ? 0o600 : 0o640;
    this.dirMode = gid === null ? 0o700 : 0o710;
  }

  /** Starts from an empty tree: tokens may have changed while the service was stopped. */
  start(): void {
    this.makeDir(path.dirname(this.base));
    this.clear();
  }

  write(mac: string, token: string, filename: string, bytes: Uint8Array): void {
    // Names come from the request and were matched by the phone-file rules; never a path of their own.
    if (filename.includes('/') || filename.startsWith('.') || token.includes('/') || token.startsWith('.')) return;
    try {
      const entry = token === '' ? path.join(this.base, filename) : path.join(this.base, token);
      const file = token === '' ? entry : path.join(entry, filename);
      if (token !== '') this.makeDir(entry);
      const temp = `${file}.${process.pid}.tmp`;
      fs.writeFileSync(temp, bytes, { mode: this.fileMode });
      // The service's umask keeps data files private (main.ts): the front server's group is given its bits here.
      fs.chmodSync(temp, this.fileMode);
      if (this.gid !== null) fs.chownSync(temp, -1, this.gid);
      fs.renameSync(temp, file);
      const entries = this.byMac.get(mac) ?? new Set<string>();
      this.byMac.set(mac, entries);
      entries.add(entry);
    } catch (error) {
      // The front server then asks Centralino, which answers from memory: slower, never wrong.
      this.log.warn({ err: error, mac }, 'could not write a phone file for the front web server');
    }
  }

  /** A first-access token was retired: its file must stop being served at once. */
  dropToken(token: string): void {
    if (token === '' || token.includes('/') || token.startsWith('.')) return;
    fs.rmSync(path.join(this.base, token), { recursive: true, force: true });
  }

  /** One phone changed (or was deleted): everything written for it goes. */
  dropMac(mac: string): void {
    const entries = this.byMac.get(mac);
    if (!entries) return;
    this.byMac.delete(mac);
    for (const entry of entries) fs.rmSync(entry, { recursive: true, force: true });
  }

  /**
   * Everything goes (defaults, models, another process's change): the tree is renamed aside in one step, so
   * the front server sees the old files or none, and removed in the background.
   */
  clear(): void {
    this.byMac.clear();
    const aside = `${this.base}.old-${process.pid}-${++this.wiped}`;
    try {
      fs.renameSync(this.base, aside);
      fs.rm(aside, { recursive: true, force: true }, () => {});
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    this.makeDir(this.base);
  }

  private makeDir(dir: string) {
    fs.mkdirSync(dir, { recursive: true, mode: this.dirMode });
    fs.chmodSync(dir, this.dirMode);
    if (this.gid !== null) fs.chownSync(dir, -1, this.gid);
  }
}
