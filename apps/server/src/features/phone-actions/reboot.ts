import {
  canonicalMac,
  type ErrorCode,
  errorDetails,
  errorTitles,
  type RebootOutcome,
  type RebootRequest,
  type RebootSchedule,
  type UiLanguage,
  vendorOfMac,
} from '@centralino/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { isPostgres, SWEEP_MS } from '../../jobs/claim.ts';
import type { AmiClient } from '../../pbx/ami/client.ts';
import { pbxNotConnected } from '../../pbx/live-state.ts';
import { type NotifyResult, REBOOT_KIND_OF_VENDOR, sendNotify } from '../../pbx/notify.ts';

export interface Timers {
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const realTimers: Timers = {
  set: (fn, ms) => {
    const handle = setTimeout(fn, ms);
    // A pending reboot must not keep the process alive on shutdown.
    handle.unref();
    return handle;
  },
  clear: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export interface RebootOptions {
  /** The AMI link, read on every use (it may be absent or reconnecting). */
  ami: () => AmiClient | undefined;
  log?: FastifyBaseLogger;
  now?: () => Date;
  timers?: Timers;
}

/** Milliseconds from `now` to the next hours:minutes of local time (tomorrow when already past). */
export function delayUntil(now: Date, hours: number, minutes: number): number {
  const next = new Date(now);
  next.setHours(hours, minutes, 0, 0);
  if (next.getTime() <= now.getTime()) next.setDate(next.getDate() + 1);
  return next.getTime() - now.getTime();
}

const colonMac = (dash: string) => dash.replaceAll('-', ':');
const dashMac = (colon: string) => colon.replaceAll(':', '-');

/** A two-digit hour or minute as the console sends it ("07", 7); undefined when out of range. */
function timeValue(value: string | number | undefined, max: number): number | undefined {
  const text = String(value ?? '').trim();
  if (!/^\d{1,2}$/.test(text)) return undefined;
  const n = Number(text);
  return n <= max ? n : undefined;
}

/**
 * Immediate and delayed phone reboots (contract api-core §13.3). "Now" sends the vendor's NOTIFY to the
 * extension of the phone; a delayed reboot is stored and fired once by a timer at the next HH:MM.
 */
export class RebootService {
  private readonly timers: Timers;
  private readonly armed = new Map<string, unknown>();
  /** MAC → created_at of the stored reboot its timer is for (a newer time replaces it). */
  private readonly armedRows = new Map<string, number>();
  private sweeper: NodeJS.Timeout | undefined;
  private readonly now: () => Date;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly options: RebootOptions,
  ) {
    this.timers = options.timers ?? realTimers;
    this.now = options.now ?? (() => new Date());
  }

  private outcome(lang: UiLanguage, code: number, error: ErrorCode, detail?: string): RebootOutcome {
    return { code, error, title: errorTitles[lang][error], detail: detail ?? errorDetails[lang][error] };
  }

  private notifyOutcome(lang: UiLanguage, result: NotifyResult): RebootOutcome {
    if (result.ok) return { code: 204 };
    if (result.reason === 'not_connected') {
      // Why Asterisk cannot be reached now (restarting, credentials refused), as live state says it.
      const why = pbxNotConnected(this.options.ami()).detail;
      return this.outcome(lang, 503, 'pbx_not_connected', typeof why === 'function' ? why(lang) : why);
    }
    return this.outcome(lang, 500, 'notify_failed', `${errorDetails[lang].notify_failed} (${result.message})`);
  }

  /** Sends the reboot NOTIFY to a phone of the inventory (colon MAC); the outcome per the contract. */
  async rebootNow(mac: string, lang: UiLanguage = 'en'): Promise<RebootOutcome> {
    const row = await this.db
      .selectFrom('devices')
      .select(['extension', 'vendor'])
      .where('mac', '=', mac)
      .executeTakeFirst();
    if (!row) return this.outcome(lang, 404, 'not_found');
    const vendor = row.vendor ?? vendorOfMac(mac);
    const kind = vendor ? REBOOT_KIND_OF_VENDOR[vendor] : undefined;
    if (!kind) return this.outcome(lang, 400, 'reboot_unsupported');
    if (!row.extension) return this.outcome(lang, 400, 'phone_not_linked');
    return this.notifyOutcome(lang, await sendNotify(this.options.ami(), row.extension, kind));
  }

  /** POST /phones/reboot: each entry on its own, so one bad MAC does not stop the others. */
  async request(body: RebootRequest, lang: UiLanguage): Promise<Record<string, RebootOutcome>> {
    const out: Record<string, RebootOutcome> = {};
    for (const [key, when] of Object.entries(body)) {
      const dash = canonicalMac(key);
      if (!dash) {
        out[key] = { ...this.outcome(lang, 400, 'validation'), title: malformed(lang, 'mac') };
        continue;
      }
      const mac = colonMac(dash);
      if (when.hours === undefined && when.minutes === undefined) {
        out[key] = await this.rebootNow(mac, lang);
        continue;
      }
      const hours = timeValue(when.hours, 23);
      const minutes = timeValue(when.minutes, 59);
      if (hours === undefined || minutes === undefined) {
        out[key] = { ...this.outcome(lang, 400, 'validation'), title: malformed(lang, 'time') };
        continue;
      }
      const known = await this.db.selectFrom('devices').select('id').where('mac', '=', mac).executeTakeFirst();
      if (!known) {
        out[key] = this.outcome(lang, 404, 'not_found');
        continue;
      }
      const row = { mac, hours, minutes, created_at: this.now().getTime() };
      await this.db.transaction().execute(async (trx) => {
        await trx.deleteFrom('phone_reboots').where('mac', '=', mac).execute();
        await trx.insertInto('phone_reboots').values(row).execute();
      });
      this.arm(row);
      out[key] = { code: 204 };
    }
    return out;
  }

  /** Pending delayed reboots, keyed by dash MAC; one phone when `mac` is given. */
  async list(mac?: string): Promise<RebootSchedule> {
    let query = this.db.selectFrom('phone_reboots').selectAll().orderBy('mac');
    if (mac !== undefined) query = query.where('mac', '=', mac);
    const out: RebootSchedule = {};
    for (const r of await query.execute()) {
      out[dashMac(r.mac)] = {
        hours: String(r.hours).padStart(2, '0'),
        minutes: String(r.minutes).padStart(2, '0'),
      };
    }
    return out;
  }

  /** DELETE /phones/reboot: 202 per cancelled phone (also when none was pending: the outcome is the same). */
  async cancel(keys: readonly string[], lang: UiLanguage): Promise<Record<string, RebootOutcome>> {
    const out: Record<string, RebootOutcome> = {};
    for (const key of keys) {
      const dash = canonicalMac(key);
      if (!dash) {
        out[key] = { ...this.outcome(lang, 400, 'validation'), title: malformed(lang, 'mac') };
        continue;
      }
      const mac = colonMac(dash);
      await this.db.deleteFrom('phone_reboots').where('mac', '=', mac).execute();
      this.disarm(mac);
      out[key] = { code: 202 };
    }
    return out;
  }

  /**
   * Arms the timers of the reboots stored before a restart. With PostgreSQL, also those another server process
   * stored since, every SWEEP_MS: every process arms every reboot, and the row's delete in `fire` lets one send it,
   * so a reboot asked of a process that has died still happens.
   */
  async start(): Promise<void> {
    await this.armStored();
    if (!isPostgres(this.db) || this.sweeper) return;
    this.sweeper = setInterval(() => {
      this.armStored().catch((error) => this.options.log?.error({ err: error }, 'reading delayed reboots failed'));
    }, SWEEP_MS);
    this.sweeper.unref();
  }

  private async armStored(): Promise<void> {
    for (const row of await this.db.selectFrom('phone_reboots').selectAll().execute()) {
      const stored = {
        ...row,
        hours: Number(row.hours),
        minutes: Number(row.minutes),
        created_at: Number(row.created_at),
      };
      const armed = this.armedRows.get(stored.mac);
      if (armed !== stored.created_at) this.arm(stored);
    }
  }

  close(): void {
    clearInterval(this.sweeper);
    this.sweeper = undefined;
    for (const mac of [...this.armed.keys()]) this.disarm(mac);
  }

  private disarm(mac: string): void {
    const handle = this.armed.get(mac);
    if (handle !== undefined) this.timers.clear(handle);
    this.armed.delete(mac);
    this.armedRows.delete(mac);
  }

  private arm(row: { mac: string; hours: number; minutes: number; created_at: number }): void {
    this.disarm(row.mac);
    const ms = delayUntil(this.now(), row.hours, row.minutes);
    this.armedRows.set(row.mac, row.created_at);
    this.armed.set(
      row.mac,
      this.timers.set(() => void this.fire(row), ms),
    );
  }

  /** One-shot: the row goes first, so a reboot that fails is reported once and not repeated. */
  private async fire(row: { mac: string; created_at: number }): Promise<void> {
    this.armed.delete(row.mac);
    this.armedRows.delete(row.mac);
    try {
      const deleted = await this.db
        .deleteFrom('phone_reboots')
        .where('mac', '=', row.mac)
        .where('created_at', '=', row.created_at)
        .executeTakeFirst();
      // Cancelled or replaced by a newer time meanwhile.
      if (Number(deleted.numDeletedRows) === 0) return;
      const result = await this.rebootNow(row.mac);
      if (result.code === 204) this.options.log?.info({ mac: row.mac }, 'delayed phone reboot sent');
      else this.options.log?.warn({ mac: row.mac, result }, 'delayed phone reboot failed');
    } catch (error) {
      this.options.log?.error({ err: error, mac: row.mac }, 'delayed phone reboot failed');
    }
  }
}

function malformed(lang: UiLanguage, what: 'mac' | 'time'): string {
  if (what === 'mac') return lang === 'it' ? 'Indirizzo MAC non valido' : 'Malformed MAC address';
  return lang === 'it' ? 'Orario non valido' : 'Malformed time';
}
