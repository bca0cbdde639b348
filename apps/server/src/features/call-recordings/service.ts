import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import {
  type CallRecordingSettings,
  type CallRecordingStatus,
  callRecordingSettingsSchema,
} from '@centralino/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { SettingsStore } from '../../db/settings-store.ts';
import { AppError } from '../../errors.ts';
import type { Log } from '../../log.ts';
import { insertAuditRow } from '../audit/context.ts';
import { dayFolders, dayName, ensureRecordingFolders, freeBytes, recordingPath, usage } from './files.ts';
import { CALL_RECORDINGS_SETTING, readCallRecordingSettings } from './settings.ts';

/** A player's link lasts this long: enough to start and seek a long call, too short to pass around. */
export const LINK_TTL_MS = 10 * 60_000;
const LINK_SECRET_SETTING = 'call_recordings.link_secret';
const DAY_MS = 24 * 3600_000;

export interface Listener {
  username: string;
  role: 'admin' | 'readonly' | undefined;
  address: string;
}

export interface RecordingFile {
  file: string;
  size: number;
  /** The download's file name: the call's time and id. */
  filename: string;
}

/**
 * Call recordings (issue 41): the settings, what the dashboard shows of the folder, who may listen (its own
 * permission, written to the audit log at each listen and download), the player's short-lived links and the
 * retention that deletes old recordings.
 */
export class CallRecordingsService {
  private readonly store: SettingsStore;
  private secret: Promise<Buffer> | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    readonly dir: string,
    private readonly options: {
      gid?: number | null;
      /** Whether the PBX's own notice prompt is installed (render/call-recording.ts plays it). */
      promptAvailable?: () => Promise<boolean>;
      log?: Pick<Log, 'info' | 'error'>;
      now?: () => number;
    } = {},
  ) {
    this.store = new SettingsStore(db);
  }

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  settings(): Promise<CallRecordingSettings> {
    return readCallRecordingSettings(this.store);
  }

  async saveSettings(input: CallRecordingSettings): Promise<CallRecordingSettings> {
    const value = callRecordingSettingsSchema.parse(input);
    if (value.notice === 'recording' && value.notice_recording !== null) {
      const found = await this.db
        .selectFrom('recordings')
        .select('id')
        .where('id', '=', value.notice_recording)
        .executeTakeFirst();
      if (!found) {
        throw new AppError(400, 'validation', undefined, (lang) => ({
          notice_recording: lang === 'it' ? 'Questa registrazione non esiste' : 'This recording does not exist',
        }));
      }
    }
    await this.store.set(CALL_RECORDINGS_SETTING, value);
    return value;
  }

  async status(): Promise<CallRecordingStatus> {
    const [settings, used, free, prompt] = await Promise.all([
      this.settings(),
      usage(this.dir),
      freeBytes(this.dir),
      this.options.promptAvailable?.() ?? Promise.resolve(false),
    ]);
    return {
      bytes: used.bytes,
      files: used.files,
      free_bytes: free,
      low_space: free !== null && free < settings.free_space_warning_mb * 1024 * 1024,
      retention_days: settings.retention_days,
      prompt_available: prompt,
    };
  }

  /** An admin always may listen; a read-only account when its flag allows. */
  async mayListen(who: Listener): Promise<boolean> {
    if (who.role === 'admin') return true;
    if (!who.username) return false;
    const row = await this.db
      .selectFrom('admins')
      .select('listen_recordings')
      .where('username', '=', who.username)
      .executeTakeFirst();
    return Number(row?.listen_recordings ?? 0) === 1;
  }

  private async assertMayListen(who: Listener): Promise<void> {
    if (!(await this.mayListen(who))) {
      throw new AppError(403, 'recording_forbidden', (lang) =>
        lang === 'it'
          ? 'Questo account non può ascoltare le registrazioni delle chiamate.'
          : 'This account may not listen to call recordings.',
      );
    }
  }

  /** The call's file, checked: 404 without one, 410 when the retention removed it. */
  async file(callId: number): Promise<RecordingFile> {
    const row = await this.db
      .selectFrom('calls')
      .select(['id', 'at', 'recording', 'recording_deleted_at'])
      .where('id', '=', callId)
      .executeTakeFirst();
    const file = row ? recordingPath(this.dir, row.recording) : undefined;
    if (!row || !file) throw new AppError(404, 'not_found');
    const gone = () =>
      new AppError(410, 'recording_deleted', (lang) =>
        lang === 'it' ? 'Registrazione eliminata (conservazione)' : 'Recording deleted (retention)',
      );
    if (row.recording_deleted_at !== null) throw gone();
    const st = await fs.stat(file).catch(() => undefined);
    if (!st?.isFile()) throw new AppError(404, 'not_found');
    const at = new Date(Number(row.at)).toISOString().slice(0, 19).replace(/[:T]/g, '-');
    return { file, size: st.size, filename: `call-${at}-${row.id}.wav` };
  }

  private async audit(who: Listener, action: 'recording_listen' | 'recording_download', callId: number) {
    await insertAuditRow(
      this.db,
      {
        actor: who.username,
        address: who.address,
        action,
        method: 'GET',
        path: `/api/calls/${callId}/recording`,
        object: `call ${callId}`,
        status: 200,
        changes: null,
      },
      this.now(),
    );
  }

  /** A download, with the sign-in headers: checked, audited, then streamed. */
  async download(callId: number, who: Listener): Promise<RecordingFile> {
    await this.assertMayListen(who);
    const file = await this.file(callId);
    await this.audit(who, 'recording_download', callId);
    return file;
  }

  private linkSecret(): Promise<Buffer> {
    this.secret ??= (async () => {
      const stored = await this.store.get<string>(LINK_SECRET_SETTING);
      if (stored) return Buffer.from(stored, 'base64');
      const made = randomBytes(32).toString('base64');
      // Two processes making one at once: the first written wins, both read it back.
      await this.db
        .insertInto('settings')
        .values({ key: LINK_SECRET_SETTING, value: JSON.stringify(made) })
        .onConflict((oc) => oc.column('key').doNothing())
        .execute();
      return Buffer.from((await this.store.get<string>(LINK_SECRET_SETTING)) ?? made, 'base64');
    })();
    return this.secret;
  }

  private async signature(callId: number, user: string, expires: number): Promise<string> {
    return createHmac('sha256', await this.linkSecret())
      .update(`${callId}\n${user}\n${expires}`)
      .digest('base64url');
  }

  /**
   * A listen: the player's link (an <audio> element cannot send the sign-in headers, and a link lets the browser
   * ask for ranges, so a long call seeks at once instead of downloading first). Audited here, once per listen, not
   * per range the player asks for.
   */
  async link(callId: number, who: Listener): Promise<{ url: string; expires: number }> {
    await this.assertMayListen(who);
    await this.file(callId);
    const expires = this.now() + LINK_TTL_MS;
    const sig = await this.signature(callId, who.username, expires);
    await this.audit(who, 'recording_listen', callId);
    const query = new URLSearchParams({ user: who.username, expires: String(expires), sig });
    return { url: `/api/call-recordings/play/${callId}?${query}`, expires };
  }

  /** Whether a player's link is one this server made, still valid, for an account that may still listen. */
  async checkLink(callId: number, user: string, expires: number, sig: string): Promise<boolean> {
    if (!Number.isFinite(expires) || expires < this.now() || expires > this.now() + LINK_TTL_MS) return false;
    const wanted = Buffer.from(await this.signature(callId, user, expires));
    const given = Buffer.from(sig);
    if (wanted.length !== given.length || !timingSafeEqual(wanted, given)) return false;
    const account = await this.db.selectFrom('admins').select('role').where('username', '=', user).executeTakeFirst();
    if (!account) return false;
    return this.mayListen({ username: user, role: account.role === 'admin' ? 'admin' : 'readonly', address: '' });
  }

  /** Today's and tomorrow's folders (called at start and by the retention timer). */
  prepareFolders(): Promise<void> {
    return ensureRecordingFolders(this.dir, this.options.gid ?? null, this.now());
  }

  /**
   * Deletes the recordings older than the retention (day folders before the first kept day), marks their calls
   * "deleted (retention)" and removes the emptied folders. 0 days keeps everything. Answers the files removed.
   */
  async applyRetention(): Promise<number> {
    const { retention_days: days } = await this.settings();
    if (days === 0) return 0;
    const firstKept = dayName(this.now() - days * DAY_MS);
    let removed = 0;
    for (const folder of await dayFolders(this.dir)) {
      if (folder.day >= firstKept) break;
      const names = await fs.readdir(folder.path).catch(() => [] as string[]);
      for (const name of names) {
        await fs.rm(path.join(folder.path, name), { force: true });
        removed++;
      }
      await fs.rmdir(folder.path).catch(() => undefined);
    }
    // Every call whose recording's day is past the retention says so, by the name alone ('<day>/…' sorts by day): a
    // call the history takes in after its file went (a backlog, a restart) is marked at the next pass.
    await this.db
      .updateTable('calls')
      .set({ recording_deleted_at: this.now() })
      .where('recording', '<>', '')
      .where('recording', '<', firstKept)
      .where('recording_deleted_at', 'is', null)
      .execute();
    if (removed > 0) this.options.log?.info({ removed, days }, 'call recordings: retention deleted old recordings');
    return removed;
  }
}

/**
 * Runs the retention and makes the coming day folders: at start and every hour (like the call indexer, a timer of
 * the server; with several servers each runs it, and deleting a file twice changes nothing).
 */
export class RecordingRetention {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly recordings: CallRecordingsService,
    private readonly log?: Pick<Log, 'error'>,
    private readonly intervalMs = 3600_000,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.run(), this.intervalMs);
    this.timer.unref();
    void this.run();
  }

  run(): Promise<void> {
    this.running ??= (async () => {
      await this.recordings.prepareFolders();
      await this.recordings.applyRetention();
    })()
      .catch((error) => this.log?.error({ err: error }, 'call recordings: the retention pass failed'))
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
