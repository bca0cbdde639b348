import fs from 'node:fs/promises';
import path from 'node:path';

/** Files that include the others: written last, so they never name a file that is not there yet. */
const ROOTS = new Set(['pjsip.conf', 'extensions.conf']);
const MANIFEST = '.centralino-files.json';
const TEMP_MARK = '.centralino-tmp-';
/** Files written at the same time. */
const WRITERS = 8;

async function readOrNull(file: string): Promise<string | null> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/**
 * Writes and flushes the next version of a file under a temporary name beside it; answers that name.
 * The file is 0640 and, given a group id, owned by that group: Asterisk reads it as its own group
 * (runuser/rungroup make it drop every supplementary group, so the console's group would not do).
 */
async function writeTemp(file: string, text: string | Uint8Array, gid: number | null = null): Promise<string> {
  const temp = path.join(path.dirname(file), `${TEMP_MARK}${process.pid}-${path.basename(file)}`);
  const handle = await fs.open(temp, 'w', 0o640);
  try {
    if (gid !== null) await handle.chown(-1, gid).catch((error) => groupRefused(error, file, gid));
    // Whatever the umask: readable by the group, never by others.
    await handle.chmod(0o640);
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  return temp;
}

/** temp file + fsync + rename: a reader (or a crash) sees the old file or the new one, never half of one. */
export async function writeAtomically(
  file: string,
  text: string | Uint8Array,
  gid: number | null = null,
): Promise<void> {
  await fs.rename(await writeTemp(file, text, gid), file);
}

/** A refusal to change a group, explained: the console is neither root nor a member of Asterisk's group. */
function groupRefused(error: NodeJS.ErrnoException, file: string, gid: number): never {
  if (error.code !== 'EPERM') throw error;
  throw new Error(
    `Cannot give ${file} to Asterisk's group (gid ${gid}, ASTERISK_GROUP): run the console as root or as the owner of the file and a member of that group`,
  );
}

/**
 * Makes a directory Asterisk must read: created 0750 and, given a group id, group-owned by it; an
 * existing one is given the group and its read/search bits when it lacks them.
 */
export async function ensureReadableDir(dir: string, gid: number | null): Promise<void> {
  await fs.mkdir(dir, { recursive: true, mode: 0o750 });
  if (gid === null) return;
  const st = await fs.stat(dir);
  if (st.gid !== gid) await fs.chown(dir, -1, gid).catch((error) => groupRefused(error, dir, gid));
  if ((st.mode & 0o050) !== 0o050) await fs.chmod(dir, (st.mode & 0o7777) | 0o050);
}

/**
 * A folder Asterisk writes into and the console reads and empties (phone recordings, call records): owned by the
 * console, setgid to Asterisk's group and writable by it, so each file Asterisk makes there carries that group.
 */
export async function ensureSpoolDir(dir: string, gid: number | null): Promise<void> {
  // Asterisk's group must pass through the parent folder.
  await ensureReadableDir(path.dirname(dir), gid);
  await fs.mkdir(dir, { recursive: true, mode: 0o2770 });
  if (gid !== null) {
    const st = await fs.stat(dir);
    if (st.gid !== gid) await fs.chown(dir, -1, gid);
  }
  await fs.chmod(dir, 0o2770);
}

export interface WriteResult {
  changed: string[];
  removed: string[];
}

export interface StagedWrite {
  /** Puts the staged files in place, removes the ones no longer rendered; answers what changed. */
  commit: () => Promise<WriteResult>;
  /** Throws the staged files away; the live configuration is untouched. */
  abort: () => Promise<void>;
}

/**
 * Writes a rendered configuration into one directory, touching only files whose text changed and
 * removing files an earlier apply wrote that are no longer part of it (never anybody else's files).
 * Remembers what it wrote, so unchanged files are not even read again.
 */
export class ConfigWriter {
  private known = new Map<string, string>();
  private owned: Set<string> | undefined;

  /** gid: the group Asterisk runs as, owner of every file written (null: the process's own). */
  constructor(
    readonly dir: string,
    private readonly gid: number | null = null,
  ) {}

  /**
   * Forgets what this writer remembers of the directory: another server process wrote it since, so a file this one
   * wrote may hold something else now. The next stage compares every file with the disk and reads the manifest again.
   */
  forget(): void {
    this.known.clear();
    this.owned = undefined;
  }

  private async loadManifest(): Promise<Set<string>> {
    if (this.owned) return this.owned;
    const text = await readOrNull(path.join(this.dir, MANIFEST));
    let names: string[] = [];
    try {
      names = text ? (JSON.parse(text) as string[]) : [];
    } catch {
      names = [];
    }
    this.owned = new Set(names);
    return this.owned;
  }

  /**
   * Writes the files whose text changed under temporary names, each flushed to disk, without
   * touching the live ones: staging can run while the configuration is still being checked, and
   * only commit() puts it in place (abort() throws it away).
   */
  async stage(files: Map<string, string>): Promise<StagedWrite> {
    await ensureReadableDir(this.dir, this.gid);
    const owned = await this.loadManifest();
    // Temp files of an apply that was killed half way.
    for (const entry of await fs.readdir(this.dir)) {
      if (entry.startsWith(TEMP_MARK)) await fs.rm(path.join(this.dir, entry), { force: true });
    }
    const staged = new Map<string, string>();
    const stageOne = async (name: string, text: string) => {
      const file = path.join(this.dir, name);
      if ((await readOrNull(file)) !== text) staged.set(name, await writeTemp(file, text, this.gid));
      else if (this.gid !== null) {
        // Unchanged, but perhaps written before the group was set: give it the group now.
        const st = await fs.stat(file);
        const gid = this.gid;
        if (st.gid !== gid) await fs.chown(file, -1, gid).catch((error) => groupRefused(error, file, gid));
        if ((st.mode & 0o040) === 0) await fs.chmod(file, 0o640);
      }
    };
    // A few at a time, so their fsyncs overlap.
    const pending = [...files].filter(([name, text]) => this.known.get(name) !== text);
    let next = 0;
    const worker = async () => {
      while (next < pending.length) {
        const [name, text] = pending[next++] as [string, string];
        await stageOne(name, text);
      }
    };
    try {
      await Promise.all(Array.from({ length: Math.min(WRITERS, pending.length) }, worker));
    } catch (error) {
      await Promise.all([...staged.values()].map((temp) => fs.rm(temp, { force: true })));
      throw error;
    }

    const commit = async (): Promise<WriteResult> => {
      // The included files first, the roots once they are all there: a reader never sees a root
      // naming a file that is not in place yet.
      const order = [...staged.keys()].sort((a, b) => Number(ROOTS.has(a)) - Number(ROOTS.has(b)));
      for (const name of order) await fs.rename(staged.get(name) as string, path.join(this.dir, name));
      for (const [name, text] of pending) this.known.set(name, text);
      const changed = order;
      const removed = [...owned].filter((name) => !files.has(name)).sort();
      const names = [...files.keys()].sort();
      if (changed.length > 0 || removed.length > 0 || names.some((n) => !owned.has(n))) {
        await writeAtomically(path.join(this.dir, MANIFEST), `${JSON.stringify(names)}\n`, this.gid);
        this.owned = new Set(names);
      }
      for (const name of removed) {
        await fs.rm(path.join(this.dir, name), { force: true });
        this.known.delete(name);
      }
      if (changed.length > 0 || removed.length > 0) {
        // The renames are durable only once the directory itself is flushed.
        const handle = await fs.open(this.dir, 'r');
        try {
          await handle.sync();
        } finally {
          await handle.close();
        }
      }
      return { changed: [...changed].sort(), removed };
    };
    const abort = async () => {
      await Promise.all([...staged.values()].map((temp) => fs.rm(temp, { force: true })));
    };
    return { commit, abort };
  }
}
