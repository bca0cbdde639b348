import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * The recordings folder: `<dir>/<YYYY-MM-DD>/<linked id>.wav`, the day of the call's first channel in the PBX's time
 * zone (the server's: Asterisk runs beside it). Asterisk writes the files; the console reads and removes them. So the
 * folder and each day's folder are the console's, setgid to Asterisk's group and writable by it (2770, like the
 * call-record spool), and nobody else may look in.
 */

const DAY = /^\d{4}-\d\d-\d\d$/;
/** What CDR(recordingfile) holds: a day folder and a linked id (`1733220000.12`). */
const NAME = /^(\d{4}-\d\d-\d\d)\/([0-9]+\.[0-9]+)\.wav$/;

/** The day folder's name of a moment, in local time. */
export function dayName(at: number): string {
  const d = new Date(at);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}`;
}

/** The file a call's recording name stands for, or undefined for a name that is not one of ours (never outside). */
export function recordingPath(dir: string, name: string): string | undefined {
  if (!NAME.test(name)) return undefined;
  return path.join(dir, name);
}

/** A folder Asterisk's group may write into and nobody else may read (setgid: files it makes keep the group). */
async function groupFolder(dir: string, gid: number | null): Promise<void> {
  await fs.mkdir(dir, { recursive: true, mode: 0o2770 });
  if (gid !== null) {
    const st = await fs.stat(dir);
    if (st.gid !== gid) await fs.chown(dir, -1, gid);
  }
  await fs.chmod(dir, 0o2770);
}

/**
 * Makes the recordings folder and the day folders of today and tomorrow, so a call at midnight finds its folder made
 * by the console (one Asterisk made itself would be Asterisk's, and the retention could not empty it). The parent
 * gets only the group's search bit, when Asterisk's group lacks it: DATA_DIR stays unreadable to Asterisk.
 */
export async function ensureRecordingFolders(dir: string, gid: number | null, now = Date.now()): Promise<void> {
  const parent = path.dirname(dir);
  await fs.mkdir(parent, { recursive: true, mode: 0o700 });
  if (gid !== null) {
    const st = await fs.stat(parent);
    if (st.gid !== gid && (st.mode & 0o001) === 0) await fs.chown(parent, -1, gid).catch(() => undefined);
    const again = await fs.stat(parent);
    if (again.gid === gid && (again.mode & 0o010) === 0) await fs.chmod(parent, (again.mode & 0o7777) | 0o010);
  }
  await groupFolder(dir, gid);
  for (const at of [now, now + 24 * 3600_000]) await groupFolder(path.join(dir, dayName(at)), gid);
}

export interface DayFolder {
  day: string;
  path: string;
}

/** The day folders, oldest first (anything else in the folder is left alone). */
export async function dayFolders(dir: string): Promise<DayFolder[]> {
  const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isDirectory() && DAY.test(e.name))
    .map((e) => ({ day: e.name, path: path.join(dir, e.name) }))
    .sort((a, b) => (a.day < b.day ? -1 : 1));
}

/** A day folder's sums, as of its modification time. */
const folderSums = new Map<string, { mtimeMs: number; bytes: number; files: number }>();

/**
 * Bytes and files of the recordings (day folders only). The dashboard asks at each visit, and 90 days of an office's
 * recordings are tens of thousands of files: a past day's folder is summed again only when its modification time
 * moved (a file added or removed). The newest two are always summed, since a recording under way grows in place.
 */
export async function usage(dir: string): Promise<{ bytes: number; files: number }> {
  let bytes = 0;
  let files = 0;
  const folders = await dayFolders(dir);
  for (const [i, folder] of folders.entries()) {
    const mtimeMs = (await fs.stat(folder.path).catch(() => undefined))?.mtimeMs;
    const known = folderSums.get(folder.path);
    const settled = i < folders.length - 2 && mtimeMs !== undefined;
    if (settled && known && known.mtimeMs === mtimeMs) {
      bytes += known.bytes;
      files += known.files;
      continue;
    }
    const sums = { bytes: 0, files: 0 };
    for (const name of await fs.readdir(folder.path).catch(() => [] as string[])) {
      const st = await fs.stat(path.join(folder.path, name)).catch(() => undefined);
      if (st?.isFile()) {
        sums.bytes += st.size;
        sums.files++;
      }
    }
    if (settled) folderSums.set(folder.path, { mtimeMs, ...sums });
    bytes += sums.bytes;
    files += sums.files;
  }
  return { bytes, files };
}

/** Free bytes on the disk of the folder, or null when the system cannot say. */
export async function freeBytes(dir: string): Promise<number | null> {
  try {
    const st = await fs.statfs(dir);
    return Number(st.bavail) * Number(st.bsize);
  } catch {
    return null;
  }
}
