import {
  type BulkPhone,
  type BulkPhoneFilter,
  type BulkPhonePage,
  type BulkReconfigureResult,
  type BulkReconfigureTask,
  type bulkPhoneListQuerySchema,
  type bulkPhoneSelectionSchema,
  bulkPhoneVendor,
  type bulkReconfigureRequestSchema,
  errorDetails,
  modelPrefixOfVendor,
  type UiLanguage,
} from '@centralino/contract';
import { type Kysely, sql, type Transaction } from 'kysely';
import type { z } from 'zod';
import { likeEscape } from '../../db/like.ts';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { JobRunner } from '../../jobs/runner.ts';
import type { ProvisioningService } from '../../provisioning/service.ts';
import type { RebootService } from '../phone-actions/reboot.ts';

type Db = Kysely<Database> | Transaction<Database>;
type ListQuery = z.output<typeof bulkPhoneListQuerySchema>;
type Selection = z.output<typeof bulkPhoneSelectionSchema>;
type ReconfigureRequest = z.output<typeof bulkReconfigureRequestSchema>;

/** What the bulk screen needs of the PBX's live side (PbxLive). */
export interface BulkPhonesLive {
  /** Accounts with a registered contact; empty without a PBX connection. */
  registeredAccounts(): Promise<Set<string>>;
  /** The NOTIFY of POST /api/phones/reconfigure; throws an AppError when the phone was not reached. */
  reconfigure(extension: string): Promise<void>;
}

export interface BulkPhonesDeps {
  db: Kysely<Database>;
  provisioning: ProvisioningService;
  live: BulkPhonesLive;
  reboots: Pick<RebootService, 'request'>;
  jobs: JobRunner;
}

/** A phone of the engine with its PBX line and user, as the queries below read it. */
interface Row {
  mac: string;
  model: string | null;
  display_name: string;
  extension: string | null;
  user_id: number | null;
  username: string | null;
  displayname: string | null;
}

export const RECONFIGURE_JOB = 'bulk-phones-reconfigure';
/** NOTIFYs in flight at once: Asterisk answers each quickly, and the AMI link is one socket. */
const NOTIFY_CONCURRENCY = 8;
/** IN lists and reboot requests are cut into chunks of this size. */
const CHUNK = 500;

const ROW_COLUMNS = [
  'p.mac',
  'p.model',
  'p.display_name',
  'd.extension',
  'd.user_id',
  'u.username',
  'u.displayname',
] as const;

const colon = (dash: string) => dash.replaceAll('-', ':');

function chunks<T>(list: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

/**
 * Bulk phones: the engine's phones (prov_phones) joined with their PBX line (devices, by MAC) and the line's
 * user; filtered by CTI group, model and a search, paged here; model and reconfiguration for a selection,
 * named by MACs or by the filter (so "all 10,000" never travels as a list).
 */
export class BulkPhonesService {
  constructor(private readonly deps: BulkPhonesDeps) {}

  private get db() {
    return this.deps.db;
  }

  /** Model name → display name, shipped and custom. */
  private async modelNames(): Promise<Map<string, string>> {
    const models = await this.deps.provisioning.listModels(false);
    return new Map(models.map((m) => [m.name, m.display_name || m.name]));
  }

  private base(db: Db) {
    return db
      .selectFrom('prov_phones as p')
      .leftJoin('devices as d', (join) => join.on(sql<boolean>`d.mac = replace(p.mac, '-', ':')`))
      .leftJoin('users as u', 'u.id', 'd.user_id');
  }

  /** The phones of a filter (MAC order), with the columns every caller needs. */
  private filtered(db: Db, filter: BulkPhoneFilter, modelNames: Map<string, string>) {
    let query = this.base(db).select(ROW_COLUMNS);
    if (filter.group !== undefined) {
      const group = filter.group;
      query = query.where('d.user_id', 'in', (eb) =>
        eb.selectFrom('cti_user_groups').select('user_id').where('group_id', '=', group),
      );
    }
    if (filter.model) query = query.where('p.model', '=', filter.model);
    const search = filter.search?.toLowerCase();
    if (search) {
      const like = `%${likeEscape(search)}%`;
      // A MAC may be typed with colons or dashes; the engine stores dashes.
      const macLike = `%${likeEscape(search.replaceAll(':', '-'))}%`;
      const models = [...modelNames]
        .filter(([name, display]) => name.toLowerCase().includes(search) || display.toLowerCase().includes(search))
        .map(([name]) => name);
      query = query.where((eb) =>
        eb.or([
          sql<boolean>`lower(p.mac) like ${macLike} escape '\\'`,
          sql<boolean>`lower(p.display_name) like ${like} escape '\\'`,
          sql<boolean>`u.search_key like ${like} escape '\\'`,
          sql<boolean>`d.extension like ${like} escape '\\'`,
          ...(models.length > 0 ? [eb('p.model', 'in', models.slice(0, 1000))] : []),
        ]),
      );
    }
    return query.orderBy('p.mac');
  }

  private view(row: Row, modelNames: Map<string, string>, registered: Set<string>): BulkPhone {
    return {
      mac: row.mac,
      vendor: bulkPhoneVendor(row.mac, row.display_name),
      model: row.model || null,
      modelName: row.model ? (modelNames.get(row.model) ?? row.model) : null,
      user: row.username ? { username: row.username, name: row.displayname || row.username } : null,
      extension: row.extension,
      registered: row.extension !== null && registered.has(row.extension),
    };
  }

  /** One page of a filter, with the filter's total, vendors and registered count (for the selection). */
  async list(query: ListQuery): Promise<BulkPhonePage> {
    const modelNames = await this.modelNames();
    const [all, registered] = await Promise.all([
      this.filtered(this.db, query, modelNames).execute(),
      this.deps.live.registeredAccounts(),
    ]);
    const vendors: Record<string, number> = {};
    let registeredCount = 0;
    for (const row of all) {
      const vendor = bulkPhoneVendor(row.mac, row.display_name) ?? '';
      vendors[vendor] = (vendors[vendor] ?? 0) + 1;
      if (row.extension !== null && registered.has(row.extension)) registeredCount++;
    }
    const page = all.slice(query.offset, query.offset + query.limit);
    return {
      items: page.map((row) => this.view(row as Row, modelNames, registered)),
      total: all.length,
      vendors,
      registered: registeredCount,
    };
  }

  /** The phones a selection names that the inventory has (unknown MACs are left out), in MAC order. */
  async resolve(db: Db, selection: Selection, modelNames: Map<string, string>): Promise<Row[]> {
    if ('macs' in selection) {
      const out: Row[] = [];
      for (const part of chunks([...new Set(selection.macs)])) {
        out.push(...((await this.base(db).select(ROW_COLUMNS).where('p.mac', 'in', part).execute()) as Row[]));
      }
      return out.sort((a, b) => a.mac.localeCompare(b.mac));
    }
    const except = new Set(selection.except);
    const rows = (await this.filtered(db, selection.filter, modelNames).execute()) as Row[];
    return rows.filter((row) => !except.has(row.mac));
  }

  /**
   * Gives every selected phone the model, in one transaction, as the inventory's set model does (engine
   * phone and PBX inventory row). Refused, with nothing changed, for phones of several vendors, an unknown
   * model, or a model of another vendor.
   */
  async setModel(selection: Selection, model: string): Promise<{ updated: number }> {
    const { provisioning } = this.deps;
    // Read before the transaction: SQLite has one connection, which the transaction holds.
    const modelNames = await this.modelNames();
    return this.db.transaction().execute(async (trx) => {
      const rows = await this.resolve(trx, selection, modelNames);
      if (rows.length === 0) throw new AppError(400, 'bulk_no_phones');
      const vendors = new Set(rows.map((row) => bulkPhoneVendor(row.mac, row.display_name) ?? ''));
      if (vendors.size > 1) {
        const names = [...vendors].map((v) => v || '?').join(', ');
        throw new AppError(400, 'bulk_mixed_vendors', (lang) => `${errorDetails[lang].bulk_mixed_vendors} (${names})`, {
          selection: names,
        });
      }
      if (!(await provisioning.findModel(model, trx))) {
        throw new AppError(400, 'prov_unknown_model', undefined, { model: `unknown model ${model}` });
      }
      const [vendor = ''] = vendors;
      if (!vendor || !model.toLowerCase().startsWith(`${modelPrefixOfVendor(vendor)}-`)) {
        throw new AppError(400, 'bulk_model_not_of_vendor', undefined, { model: `not a model of ${vendor || '?'}` });
      }
      const macs = rows.map((row) => row.mac);
      const now = Date.now();
      for (const part of chunks(macs)) {
        await trx.updateTable('prov_phones').set({ model, updated_at: now }).where('mac', 'in', part).execute();
        await trx.updateTable('devices').set({ model }).where('mac', 'in', part.map(colon)).execute();
      }
      await provisioning.phonesChanged(trx, macs);
      return { updated: macs.length };
    });
  }

  /**
   * Starts reconfiguring a selection: a NOTIFY to each phone's line (POST /api/phones/reconfigure), then the
   * delayed reboot when asked. Phones without a user or a line, and phones the PBX did not reach, are
   * reported with the reason. Answers the task to poll.
   */
  async startReconfigure(request: ReconfigureRequest, lang: UiLanguage): Promise<string> {
    const rows = await this.resolve(this.db, request.selection, await this.modelNames());
    if (rows.length === 0) throw new AppError(400, 'bulk_no_phones');
    return this.deps.jobs.start(RECONFIGURE_JOB, 'reconfigure', async (ctx) => {
      const result: BulkReconfigureResult = {
        total: rows.length,
        reconfigured: 0,
        notReconfigured: [],
        rebootsArmed: 0,
        rebootsFailed: [],
      };
      const lines: Row[] = [];
      for (const row of rows) {
        const base = { mac: row.mac, extension: row.extension, user: row.username };
        if (row.user_id === null || !row.username) result.notReconfigured.push({ ...base, reason: 'no_user' });
        else if (!row.extension) result.notReconfigured.push({ ...base, reason: 'no_extension' });
        else lines.push(row);
      }
      let done = 0;
      const failed: BulkReconfigureResult['notReconfigured'] = [];
      let next = 0;
      const worker = async () => {
        while (next < lines.length) {
          const row = lines[next++] as Row;
          try {
            await this.deps.live.reconfigure(row.extension as string);
            result.reconfigured++;
          } catch (error) {
            const detail =
              error instanceof AppError
                ? typeof error.detail === 'function'
                  ? error.detail(lang)
                  : (error.detail ?? errorDetails[lang][error.code])
                : errorDetails[lang].phone_not_reconfigured;
            failed.push({ mac: row.mac, extension: row.extension, user: row.username, reason: 'failed', detail });
          }
          done++;
          await ctx.progress((done / lines.length) * (request.reboot ? 90 : 99));
        }
      };
      await Promise.all(Array.from({ length: Math.min(NOTIFY_CONCURRENCY, lines.length) }, worker));
      result.notReconfigured.push(...failed);
      result.notReconfigured.sort((a, b) => a.mac.localeCompare(b.mac));
      if (request.reboot) {
        const at = { hours: request.reboot.hours.padStart(2, '0'), minutes: request.reboot.minutes.padStart(2, '0') };
        for (const part of chunks(lines)) {
          const outcomes = await this.deps.reboots.request(Object.fromEntries(part.map((row) => [row.mac, at])), lang);
          for (const [mac, outcome] of Object.entries(outcomes)) {
            if (outcome.code === 204) result.rebootsArmed++;
            else result.rebootsFailed.push({ mac, detail: outcome.detail ?? outcome.title ?? String(outcome.code) });
          }
        }
      }
      return result;
    });
  }

  /** A reconfiguration started by startReconfigure, or undefined. */
  async reconfigureTask(id: string): Promise<BulkReconfigureTask | undefined> {
    const job = await this.deps.jobs.get(id);
    if (!job || job.kind !== RECONFIGURE_JOB) return undefined;
    return {
      task: job.id,
      progress: job.progress,
      result: job.status === 'done' ? (job.result as BulkReconfigureResult) : null,
      error: job.status === 'failed' ? (job.error ?? 'failed') : null,
    };
  }
}
