import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { FILE_AREAS } from './archive.ts';

/**
 * Work in progress of backups and restores holds copies of the database (JSONL dumps with every secret) and of
 * the keys: `DATA_DIR/backup-work/<id>` (dumps, an unpacked upload), `<area>.restore-<id>` and `<area>.old-<id>`
 * beside the file areas during a restore, and `BACKUP_DIR/.centralino-backup-….partial-<id>` while a scheduled
 * backup is written. A process killed in the middle (kill -9, a power cut) leaves them behind; the next start
 * removes them and logs what it removed.
 *
 * Several processes may share DATA_DIR (PostgreSQL), so only dead work is touched: each work folder names its
 * owner (`owner.json`: host, process id, and the BackupService instance, since tests run several apps in one
 * process). Work of this host whose process is gone, or of this very process but no running instance, is dead.
 * Work that names no owner (written before owners were recorded) or another host's is dead on SQLite (one process
 * by design) and otherwise once it is a day old, as before.
 *
 * A restore whose database transaction committed writes `committed` in its folder before it swaps the file areas
 * in; one killed during that swap is finished here (the database already holds the restored rows, so the files
 * follow it). One killed before the commit rolled back: its new areas are removed and the live ones stay.
 */

const OWNER = 'owner.json';
export const COMMITTED = 'committed';
const DAY_MS = 24 * 3600_000;
const WORK_ID = /^w-[A-Za-z0-9]{1,32}$/;
const PARTIAL = /^\.centralino-backup-\d{8}-\d{6}\.tar\.gz\.partial(?:-(w-[A-Za-z0-9]{1,32}))?$/;

/** BackupService instances running in this process: work they own is alive. */
const running = new Set<string>();

export function ownWork(instance: string): () => void {
  running.add(instance);
  return () => running.delete(instance);
}

interface Owner {
  host: string;
  pid: number;
  instance: string;
}

/** Names this process and instance as the owner of a work folder. */
export async function claimWork(dir: string, instance: string): Promise<void> {
  const owner: Owner = { host: os.hostname(), pid: process.pid, instance };
  await fsp.writeFile(path.join(dir, OWNER), JSON.stringify(owner), { mode: 0o600 });
}

/** True or false when the owner can be told; undefined when the folder names none or another host's. */
async function ownerAlive(dir: string): Promise<boolean | undefined> {
  let owner: Owner;
  try {
    owner = JSON.parse(await fsp.readFile(path.join(dir, OWNER), 'utf8')) as Owner;
  } catch {
    return undefined;
  }
  if (owner.host !== os.hostname() || !Number.isInteger(owner.pid)) return undefined;
  if (owner.pid === process.pid) return running.has(owner.instance);
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch (error) {
    // EPERM: a process of another user has that id now; it may be ours under a reused id, keep it.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function exists(file: string): Promise<boolean> {
  return fsp.access(file).then(
    () => true,
    () => false,
  );
}

export interface CleanUpOptions {
  dataDir: string;
  backupDir?: string;
  /** SQLite: this is the only process using DATA_DIR, so nothing unowned is anyone's work in progress. */
  singleProcess: boolean;
  now?: () => number;
  log?: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

/** What a start did: paths removed (relative to DATA_DIR, or absolute in BACKUP_DIR) and restores finished. */
export interface CleanUpReport {
  removed: string[];
  finished: string[];
}

/** Removes the leftovers of interrupted backups and restores (see above); one warning names them. */
export async function cleanUpInterruptedWork(options: CleanUpOptions): Promise<CleanUpReport> {
  const report: CleanUpReport = { removed: [], finished: [] };
  try {
    await cleanUp(options, report);
  } catch (error) {
    options.log?.error({ err: error }, 'could not remove the leftovers of an interrupted backup or restore');
  }
  if (report.removed.length > 0 || report.finished.length > 0) {
    const parts = [];
    if (report.finished.length > 0)
      parts.push(`finished swapping in the files of a restore killed after its commit: ${report.finished.join(', ')}`);
    if (report.removed.length > 0)
      parts.push(
        `removed copies of the database and keys left by an interrupted backup or restore: ${report.removed.join(', ')}`,
      );
    options.log?.warn({ removed: report.removed, finished: report.finished }, parts.join('; '));
  }
  return report;
}

async function cleanUp(options: CleanUpOptions, report: CleanUpReport): Promise<void> {
  const now = options.now ?? Date.now;
  const work = path.join(options.dataDir, 'backup-work');
  const rel = (p: string) => path.relative(options.dataDir, p);
  const dead = async (dir: string): Promise<boolean> => {
    const alive = await ownerAlive(dir);
    if (alive !== undefined) return !alive;
    if (options.singleProcess) return true;
    const stat = await fsp.stat(dir).catch(() => null);
    return stat !== null && stat.mtimeMs < now() - DAY_MS;
  };
  const liveIds = new Set<string>();

  for (const name of await fsp.readdir(work).catch(() => [] as string[])) {
    const dir = path.join(work, name);
    if (!(await dead(dir))) {
      liveIds.add(name);
      continue;
    }
    if (WORK_ID.test(name)) {
      if (await exists(path.join(dir, COMMITTED))) {
        if (await finishSwap(options.dataDir, name)) report.finished.push(name);
      } else {
        await undoLayOut(options.dataDir, name, report, rel);
      }
    }
    await fsp.rm(dir, { recursive: true, force: true });
    report.removed.push(rel(dir));
  }

  // Areas laid out or set aside by work whose folder is gone (removed above, or by an older version's day rule).
  for (const area of FILE_AREAS) {
    const target = path.join(options.dataDir, area);
    const base = path.basename(target);
    const pattern = new RegExp(`^${base.replace(/[.]/g, '\\.')}\\.(restore|old)-(w-[A-Za-z0-9]{1,32})$`);
    for (const name of await fsp.readdir(path.dirname(target)).catch(() => [] as string[])) {
      const match = pattern.exec(name);
      if (!match || liveIds.has(match[2] ?? '')) continue;
      const leftover = path.join(path.dirname(target), name);
      // Set aside and never replaced: it is the live area, put it back.
      if (match[1] === 'old' && !(await exists(target))) await fsp.rename(leftover, target);
      else {
        await fsp.rm(leftover, { recursive: true, force: true });
        report.removed.push(rel(leftover));
      }
    }
  }

  if (options.backupDir) {
    for (const name of await fsp.readdir(options.backupDir).catch(() => [] as string[])) {
      const match = PARTIAL.exec(name);
      if (!match) continue;
      const file = path.join(options.backupDir, name);
      const id = match[1];
      const orphan = id ? !liveIds.has(id) : options.singleProcess || (await dead(file));
      if (!orphan) continue;
      await fsp.rm(file, { force: true });
      report.removed.push(file);
    }
  }
}

/** A restore killed before its commit: its new areas go, a live area set aside (never, but be sure) comes back. */
async function undoLayOut(
  dataDir: string,
  id: string,
  report: CleanUpReport,
  rel: (p: string) => string,
): Promise<void> {
  for (const area of FILE_AREAS) {
    const target = path.join(dataDir, area);
    const next = `${target}.restore-${id}`;
    const old = `${target}.old-${id}`;
    if (await exists(next)) {
      await fsp.rm(next, { recursive: true, force: true });
      report.removed.push(rel(next));
    }
    if (!fs.existsSync(target) && (await exists(old))) await fsp.rename(old, target);
  }
}

/** A restore killed after its commit: every area still waiting is swapped in, as `restore` would have. */
async function finishSwap(dataDir: string, id: string): Promise<boolean> {
  let swapped = false;
  for (const area of FILE_AREAS) {
    const target = path.join(dataDir, area);
    const next = `${target}.restore-${id}`;
    const old = `${target}.old-${id}`;
    if (await exists(next)) {
      if (await exists(target)) {
        await fsp.rm(old, { recursive: true, force: true });
        await fsp.rename(target, old);
      }
      await fsp.rename(next, target);
      swapped = true;
    }
    await fsp.rm(old, { recursive: true, force: true });
  }
  return swapped;
}
