import type fs from 'node:fs';
import fsp from 'node:fs/promises';
import type { FastifyBaseLogger } from 'fastify';

/**
 * The front web server's reports of phones' first steady-state fetches: nginx logs a fetch answered from
 * `provisioning-first` to a file of its own (PHONE_FILES_FIRST_USE_LOG, sample `docs/nginx-centralino.conf`), one line
 * per phone, the path it served. The log is buffered in nginx (one write per 32 KiB or 100 ms): a report per request
 * over syslog cost nginx a datagram each and woke this process as often, which halved what nginx served in a storm.
 * This side reads what was added every POLL_MS. A report lost (see `truncate`) costs nothing but time: the file stays
 * in `provisioning-first` and the phone's next fetch is reported again.
 */
const POLL_MS = 100;
/** Read at most this much per look; the rest on the next. */
const READ_MAX = 1024 * 1024;
/** Tokens handled per turn of the event loop, so that a storm's reports do not hold up the console's requests. */
const PER_TURN = 256;
/** Once everything read, a log longer than this is emptied (when nginx has been quiet for a look). */
const TRUNCATE_AT = 64 * 1024;

/** The token of a logged path (`/provisioning-first/<tok2>/<file>`), or undefined for any other line. */
export function reportedToken(line: string): string | undefined {
  return /^\/provisioning-first\/([0-9a-z.]{8,64})\/[^/]+$/.exec(line.trim())?.[1];
}

export async function followFirstUseLog(
  file: string,
  used: (tok2: string) => void,
  log: FastifyBaseLogger,
): Promise<{ close(): Promise<void> }> {
  // Made here, private to this service, if nginx has not made it yet: it lists tokens, the phones' credentials.
  // Never replaced: nginx keeps writing to the file it opened until it is reloaded.
  await (await fsp.open(file, 'a', 0o600)).close();
  let handle: fsp.FileHandle | undefined;
  let inode = -1;
  let offset = 0;
  let partial = '';
  let lastSize = -1;
  let canTruncate = true;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let looking: Promise<void> = Promise.resolve();

  const handOn = async (lines: string[]) => {
    for (let i = 0; i < lines.length; i += PER_TURN) {
      if (i > 0) await new Promise((resolve) => setImmediate(resolve));
      for (const line of lines.slice(i, i + PER_TURN)) {
        const token = reportedToken(line);
        if (token) used(token);
      }
    }
  };

  /** Reads from `offset` up to `size` (at most READ_MAX) and hands on the complete lines. */
  const readOn = async (size: number) => {
    if (!handle || size <= offset) return;
    const length = Math.min(size - offset, READ_MAX);
    const buffer = Buffer.allocUnsafe(length);
    const { bytesRead } = await handle.read(buffer, 0, length, offset);
    offset += bytesRead;
    const text = partial + buffer.toString('latin1', 0, bytesRead);
    const end = text.lastIndexOf('\n');
    partial = end === -1 ? text : text.slice(end + 1);
    if (end !== -1) await handOn(text.slice(0, end).split('\n'));
  };

  /**
   * Empties a log that was read to its end while nginx was quiet. nginx appends (O_APPEND), so its next line lands
   * at the start; a line it wrote between the look and the truncation is lost, which costs the phone one more
   * reported fetch. Without write access (nginx made the file, as root) the log just grows, a line per phone.
   */
  const truncate = async (size: number) => {
    if (!canTruncate || offset < TRUNCATE_AT || size !== offset || size !== lastSize) return;
    try {
      await fsp.truncate(file, 0);
      offset = 0;
      partial = '';
    } catch (error) {
      canTruncate = false;
      log.info({ err: error, file }, 'the first-use log cannot be emptied by this service; it grows a line per phone');
    }
  };

  const look = async () => {
    let stat: fs.Stats;
    try {
      stat = await fsp.stat(file);
    } catch {
      return; // rotated away and not made again yet
    }
    if (stat.ino !== inode) {
      // Rotated (renamed, a new file made): what the old one still held, then the new one from its start.
      if (handle) {
        await readOn((await handle.stat()).size);
        await handle.close();
      }
      handle = await fsp.open(file, 'r');
      inode = stat.ino;
      offset = 0;
      partial = '';
      lastSize = -1;
    }
    if (stat.size < offset) {
      // Emptied by someone else (logrotate's copytruncate).
      offset = 0;
      partial = '';
    }
    await readOn(stat.size);
    await truncate(stat.size);
    lastSize = stat.size;
  };

  const lookAndNext = () =>
    look()
      .catch((error) => log.warn({ err: error, file }, 'could not read the front web server’s first-use log'))
      .finally(next);
  const next = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      looking = lookAndNext();
    }, POLL_MS);
    timer.unref();
  };
  // What was logged while this service was stopped is read first: those phones did use their tokens.
  looking = lookAndNext();
  await looking;
  return {
    async close() {
      stopped = true;
      clearTimeout(timer);
      await looking;
      await handle?.close();
    },
  };
}
