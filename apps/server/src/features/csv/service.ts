import { randomInt } from 'node:crypto';
import {
  type CsvImportStatus,
  type CsvPreview,
  type CsvPreviewRow,
  type CsvProblem,
  type CsvRowFailure,
  csvColumns,
  csvMessage,
  EXTENSION_PATTERN,
  hasControlChars,
  isSystemAccount,
  NO_EXTENSION,
  UI_LANGUAGES,
  type UiLanguage,
  USERNAME_PATTERN,
} from '@centralino/contract';
import type { Kysely } from 'kysely';
import { refreshStatistics } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { INTERRUPTED_ERROR, type JobContext, type JobRunner, JobRunningError } from '../../jobs/runner.ts';
import {
  describeReferences,
  destinationsOfExtension,
  extensionCalledBy,
  type Reference,
  referencesTo,
} from '../destinations/catalogue.ts';
import { releaseDevicesOfUsers } from '../devices/release.ts';
import { directoryPasswordHash } from '../directory/password.ts';
import type { DirectoryService } from '../directory/service.ts';
import { holdersOf, lockNumbering, type NumberHolder } from '../numbering/holders.ts';
import { clashError, mainExtensionCandidates, mainExtensionClash } from '../numbering/rules.ts';
import { extensionColumns, searchKey } from '../users/repository.ts';
import { isUniqueViolation, randomUserPassword, splitName } from '../users/service.ts';
import { type CsvLine, csvField, decodeCsvFile, parseCsv, protectFormula } from './parse.ts';

export const IMPORT_JOB = 'csv-import';
const CHUNK = 250;

/** Test hook: called after each committed chunk of an import (tests simulate a crash there). */
export const csvImportHooks = { afterChunk: async (_chunks: number): Promise<void> => {} };

/** One text in each interface language it was said in. */
type Said = Partial<Record<UiLanguage, string>>;

/** A failed row as kept with the job: its message in the language the import was started in, and in the others. */
type StoredFailure = CsvRowFailure & { messages?: Said };

/** What an import has committed so far; stored with every chunk. */
interface ImportOutcome {
  created: number;
  updated: number;
  unchanged: number;
  failures: StoredFailure[];
}

interface Existing {
  id: number;
  username: string;
  displayname: string;
  default_extension: string | null;
  password_clear: string | null;
  mobile: string | null;
  voicemail_pin: string | null;
  profile_id: number | null;
  groups: string[];
  /** Types of the user's softphone devices (webrtc, nethlink) that exist. */
  soft: Set<SoftDevice>;
}

/** Devices the CSV switches on or off by a TRUE/FALSE column of their own name (contract §15.1, columns 6 and 9). */
const SOFT_DEVICES = ['webrtc', 'nethlink'] as const;
type SoftDevice = (typeof SOFT_DEVICES)[number];

/** Switches a user's softphone device within the import's transaction (DevicesService.switchInTransaction). */
export type SoftDeviceSwitch = (trx: Kysely<Database>, main: string, type: SoftDevice, on: boolean) => Promise<void>;

/** What one valid row will do. */
interface PlannedRow {
  line: number;
  username: string;
  fullname: string;
  extension: string | null;
  password: string | null;
  mobile: string | null | undefined;
  voicemail: boolean | undefined;
  /** Group names replacing the user's groups; undefined leaves them alone. */
  groups: string[] | undefined;
  /** Profile to set (null clears it); undefined leaves it alone. */
  profileId: number | null | undefined;
  /** Softphone devices to switch on (true) or off (false); a type left out is left alone. */
  soft: Partial<Record<SoftDevice, boolean>>;
  existing: Existing | undefined;
}

interface Plan {
  preview: CsvPreview;
  apply: PlannedRow[];
}

const TRUE_VALUES = new Set(['true', '1', 'yes']);
/** The export's columns: every column but the import-only NethLink (contract §15.1). */
const EXPORT_COLUMNS = csvColumns.filter((column) => column !== 'nethlink');

/** Mobile numbers as the API stores them (normalizeMobile): digits without separators, a leading + kept. */
export function normaliseMobile(value: string): string | undefined {
  const compact = value.replace(/[\s().-]/g, '');
  return /^(\+[0-9]{3,19}|[0-9]{3,20})$/.test(compact) ? compact : undefined;
}

function randomPin(): string {
  return String(randomInt(0, 10_000)).padStart(4, '0');
}

export class CsvService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly jobs: JobRunner,
    private readonly directory: DirectoryService,
    /** Told when an import changed users (the PBX configuration follows them). */
    private readonly onImported: () => void = () => {},
    /** Told which phones went back to the inventory because their user was renumbered. */
    private readonly phonesReleased: (macs: string[]) => Promise<void> = async () => {},
    /** Applies the webrtc and nethlink columns; without it they are reported as not applied. */
    private readonly switchSoftDevice?: SoftDeviceSwitch,
  ) {}

  /** users.csv; without `passwords` (a read-only account's export) the password column stays empty. */
  async export(passwords = true): Promise<string> {
    const [rows, memberships, webrtc] = await Promise.all([
      this.db
        .selectFrom('users')
        .leftJoin('cti_profiles', 'cti_profiles.id', 'users.profile_id')
        .select([
          'users.id',
          'users.username',
          'users.displayname',
          'users.default_extension',
          'users.password_clear',
          'users.mobile',
          'users.voicemail_pin',
          'cti_profiles.name as profile',
        ])
        .orderBy('users.username')
        .execute(),
      this.db
        .selectFrom('cti_user_groups')
        .innerJoin('cti_groups', 'cti_groups.id', 'cti_user_groups.group_id')
        .select(['cti_user_groups.user_id', 'cti_groups.name'])
        .orderBy('cti_groups.name')
        .execute(),
      this.db.selectFrom('devices').select('user_id').where('type', '=', 'webrtc').execute(),
    ]);
    const groupsOf = new Map<number, string[]>();
    for (const m of memberships) {
      const list = groupsOf.get(Number(m.user_id)) ?? [];
      list.push(m.name);
      groupsOf.set(Number(m.user_id), list);
    }
    const withWebrtc = new Set(webrtc.map((d) => Number(d.user_id)));
    // The header line first, always, so an export with no users is the import template.
    const header = `${EXPORT_COLUMNS.join(',')}\r\n`;
    const text = rows
      .filter((r) => !isSystemAccount(r.username))
      .map((r) =>
        [
          r.username,
          r.displayname,
          r.default_extension ?? NO_EXTENSION,
          passwords ? (r.password_clear ?? '') : '',
          r.mobile ?? '',
          r.voicemail_pin ? 'TRUE' : 'FALSE',
          withWebrtc.has(Number(r.id)) ? 'TRUE' : 'FALSE',
          (groupsOf.get(Number(r.id)) ?? []).join('|'),
          r.profile ?? '',
        ]
          .map((cell) => csvField(protectFormula(cell)))
          .join(','),
      )
      .map((line) => `${line}\r\n`)
      .join('');
    return Buffer.from(header + text, 'utf8').toString('base64');
  }

  async preview(file: string, lang: UiLanguage): Promise<CsvPreview> {
    return (await this.plan(file, lang)).preview;
  }

  /** Validates every row against the file itself and the users already stored; writes nothing. */
  private async plan(file: string, lang: UiLanguage): Promise<Plan> {
    const provider = await this.directory.provider();
    if (!provider) throw new AppError(409, 'directory_not_configured');
    const local = provider.kind === 'local';
    const lines = parseCsv(decodeCsvFile(file, lang), lang);

    const [existingRows, memberships, profiles, softRows] = await Promise.all([
      this.db
        .selectFrom('users')
        .select([
          'id',
          'username',
          'displayname',
          'default_extension',
          'password_clear',
          'mobile',
          'voicemail_pin',
          'profile_id',
        ])
        .execute(),
      this.db
        .selectFrom('cti_user_groups')
        .innerJoin('cti_groups', 'cti_groups.id', 'cti_user_groups.group_id')
        .select(['cti_user_groups.user_id', 'cti_groups.name'])
        .execute(),
      this.db.selectFrom('cti_profiles').select(['id', 'name']).execute(),
      this.db
        .selectFrom('devices')
        .select(['user_id', 'type'])
        .where('type', 'in', [...SOFT_DEVICES])
        .execute(),
    ]);
    const softOf = new Map<number, Set<SoftDevice>>();
    for (const d of softRows) {
      const set = softOf.get(Number(d.user_id)) ?? new Set<SoftDevice>();
      set.add(d.type as SoftDevice);
      softOf.set(Number(d.user_id), set);
    }
    const groupsOf = new Map<number, string[]>();
    for (const m of memberships) {
      const list = groupsOf.get(Number(m.user_id)) ?? [];
      list.push(m.name);
      groupsOf.set(Number(m.user_id), list);
    }
    const byName = new Map<string, Existing>(
      existingRows.map((r) => [
        r.username,
        {
          ...r,
          id: Number(r.id),
          profile_id: r.profile_id === null ? null : Number(r.profile_id),
          groups: (groupsOf.get(Number(r.id)) ?? []).sort(),
          soft: softOf.get(Number(r.id)) ?? new Set<SoftDevice>(),
        },
      ]),
    );
    const profileIds = new Map(profiles.map((p) => [p.name, Number(p.id)]));
    // Who holds each number: users as stored, then rows of the file as they are accepted.
    const holder = new Map<string, { username: string; line?: number }>();
    for (const r of existingRows) if (r.default_extension) holder.set(r.default_extension, { username: r.username });
    // Inbound routes and users' destinations that call an extension: taking that extension away would break them.
    const routed = new Map<string, Reference[]>();
    const [routeRows, userRows] = await Promise.all([
      this.db.selectFrom('inbound_routes').select('destination').execute(),
      this.db.selectFrom('users').select(['busy_dest', 'noanswer_dest', 'unavailable_dest']).execute(),
    ]);
    const allDestinations = [
      ...routeRows.map((r) => r.destination),
      ...userRows.flatMap((u) => [u.busy_dest, u.noanswer_dest, u.unavailable_dest]),
    ];
    const userOfExtension = new Map(existingRows.map((r) => [r.default_extension, Number(r.id)]));
    const called = new Set(allDestinations.map((d) => (d ? extensionCalledBy(d) : undefined)));
    for (const n of called) {
      if (!n) continue;
      const refs = await referencesTo(this.db, destinationsOfExtension(n), userOfExtension.get(n));
      if (refs.length > 0) routed.set(n, refs);
    }
    // Devices, gateway ports and trunks hold numbers too; users are followed in `holder` as the file renumbers them.
    const others = new Map<string, NumberHolder[]>();
    for (const h of await holdersOf(this.db, undefined, ['device', 'fxs_port', 'trunk'])) {
      others.set(h.number, [...(others.get(h.number) ?? []), h]);
    }
    const seenNames = new Map<string, number>();

    const rows: CsvPreviewRow[] = [];
    const apply: PlannedRow[] = [];
    const msg = (p: CsvProblem, params?: Record<string, string | number>) => csvMessage(lang, p, params);

    for (const entry of lines) {
      const result = this.planRow(entry, { local, byName, holder, others, routed, seenNames, profileIds, msg, lang });
      rows.push(result.row);
      if (result.planned) apply.push(result.planned);
    }
    const count = (action: CsvPreviewRow['action']) => rows.filter((r) => r.action === action).length;
    return {
      preview: {
        rows,
        create: count('create'),
        update: count('update'),
        unchanged: count('unchanged'),
        reject: count('reject'),
      },
      apply,
    };
  }

  private planRow(
    entry: CsvLine,
    ctx: {
      local: boolean;
      byName: Map<string, Existing>;
      holder: Map<string, { username: string; line?: number }>;
      others: Map<string, NumberHolder[]>;
      routed: Map<string, Reference[]>;
      seenNames: Map<string, number>;
      profileIds: Map<string, number>;
      msg: (p: CsvProblem, params?: Record<string, string | number>) => string;
      lang: UiLanguage;
    },
  ): { row: CsvPreviewRow; planned?: PlannedRow } {
    const { msg } = ctx;
    const f = entry.fields;
    const username = (f.username ?? '').toLowerCase();
    const fullname = f.fullname ?? '';
    const rawExtension = f.extension ?? '';
    const errors: string[] = [];
    const warnings: string[] = [];
    if (entry.problem) errors.push(msg(entry.problem.kind, entry.problem.params));
    // Names and numbers end up in the Asterisk files, where a control character cuts or splits a line.
    for (const [column, value] of Object.entries(f)) {
      if (value && hasControlChars(value)) errors.push(msg('controlChars', { column }));
    }

    if (!entry.problem) {
      if (!username) errors.push(msg('usernameMissing'));
      else if (!USERNAME_PATTERN.test(username) || isSystemAccount(username))
        errors.push(msg('usernameInvalid', { value: f.username ?? '' }));
      else if (ctx.seenNames.has(username))
        errors.push(msg('usernameDuplicate', { value: username, line: ctx.seenNames.get(username) ?? 0 }));
      if (!fullname) errors.push(msg('fullnameMissing'));
    }

    const existing = ctx.byName.get(username);
    if (!entry.problem && username && !existing && !ctx.local)
      errors.push(msg('readOnlyDirectory', { value: username }));

    // 'none' (as exported for unconfigured users) and an empty cell leave the extension as it is.
    let extension: string | null = null;
    if (rawExtension && rawExtension.toLowerCase() !== NO_EXTENSION) {
      if (!EXTENSION_PATTERN.test(rawExtension)) errors.push(msg('extensionInvalid', { value: rawExtension }));
      else extension = rawExtension;
    }
    const routes = existing?.default_extension ? ctx.routed.get(existing.default_extension) : undefined;
    if (extension && existing?.default_extension && extension !== existing.default_extension && routes) {
      errors.push(
        msg('extensionRouted', { value: existing.default_extension, routes: describeReferences(routes, ctx.lang) }),
      );
    }
    if (extension && extension !== existing?.default_extension) {
      // The numbering rules over the users as this file leaves them and everything else holding numbers.
      const candidates = mainExtensionCandidates(extension);
      const holders: NumberHolder[] = candidates.flatMap((n) => {
        const user = ctx.holder.get(n);
        const mine = user?.username === username;
        return [
          ...(user ? [{ number: n, kind: 'user' as const, userId: mine ? 0 : null, name: user.username }] : []),
          ...(ctx.others.get(n) ?? []).map((h) => ({ ...h, userId: h.userId === existing?.id ? 0 : h.userId })),
        ];
      });
      const clash = mainExtensionClash(extension, holders, 0);
      const line = clash && 'holder' in clash ? ctx.holder.get(clash.number)?.line : undefined;
      if (line && clash && 'holder' in clash && clash.holder.kind === 'user') {
        errors.push(msg('extensionDuplicate', { value: extension, line }));
      } else if (clash && 'holder' in clash && clash.holder.kind === 'user') {
        errors.push(msg('extensionInUse', { value: extension }));
      } else if (clash) {
        const detail = clashError(extension, clash).detail;
        errors.push(typeof detail === 'function' ? detail(ctx.lang) : msg('extensionInUse', { value: extension }));
      }
    }

    let mobile: string | null | undefined;
    if (f.mobile !== undefined) {
      if (f.mobile === '') mobile = null;
      else {
        mobile = normaliseMobile(f.mobile);
        if (mobile === undefined) errors.push(msg('mobileInvalid', { value: f.mobile }));
      }
    }
    const voicemail = f.voicemail ? TRUE_VALUES.has(f.voicemail.toLowerCase()) : undefined;
    const password = f.password ? f.password.slice(0, 128) : null;
    if (password && !ctx.local) warnings.push(msg('notApplied', { column: 'password' }));
    // TRUE or 1 switches the device on, any other value off, an empty cell leaves it alone. A device hangs off the
    // main extension: a user left without one gets none.
    const soft: Partial<Record<SoftDevice, boolean>> = {};
    for (const column of SOFT_DEVICES) {
      if (!f[column]) continue;
      const on = TRUE_VALUES.has(f[column].toLowerCase());
      if (!this.switchSoftDevice) warnings.push(msg('notApplied', { column }));
      else if (on && !(extension ?? existing?.default_extension)) warnings.push(msg('needsExtension', { column }));
      else soft[column] = on;
    }
    // Groups: names joined by |, created when missing; an empty cell means no groups.
    let groups: string[] | undefined;
    if (f.groups !== undefined) {
      groups = [
        ...new Set(
          f.groups
            .split('|')
            .map((g) => g.trim())
            .filter(Boolean),
        ),
      ].sort();
      for (const g of groups) if (!/^[a-zA-Z0-9]{1,65}$/.test(g)) errors.push(msg('groupInvalid', { value: g }));
    }
    let profileId: number | null | undefined;
    if (f.profile !== undefined) {
      if (f.profile === '') profileId = null;
      else {
        profileId = ctx.profileIds.get(f.profile);
        if (profileId === undefined) errors.push(msg('profileUnknown', { value: f.profile }));
      }
    }

    const base = { line: entry.line, username, fullname, extension: extension ?? null };
    if (errors.length > 0) return { row: { ...base, action: 'reject', errors, warnings } };

    ctx.seenNames.set(username, entry.line);
    if (extension) {
      if (existing?.default_extension && existing.default_extension !== extension) {
        ctx.holder.delete(existing.default_extension);
      }
      ctx.holder.set(extension, { username, line: entry.line });
    }
    const planned: PlannedRow = {
      line: entry.line,
      username,
      fullname,
      extension,
      password: ctx.local ? password : null,
      mobile,
      voicemail,
      groups,
      profileId,
      soft,
      existing,
    };
    const changes =
      !existing ||
      existing.displayname !== fullname ||
      (extension !== null && extension !== existing.default_extension) ||
      (planned.password !== null && planned.password !== existing.password_clear) ||
      (mobile !== undefined && mobile !== existing.mobile) ||
      (voicemail !== undefined && voicemail !== (existing.voicemail_pin !== null)) ||
      (groups !== undefined && groups.join('|') !== existing.groups.join('|')) ||
      (profileId !== undefined && profileId !== existing.profile_id) ||
      SOFT_DEVICES.some((type) => soft[type] !== undefined && soft[type] !== existing.soft.has(type));
    const action = !existing ? 'create' : changes ? 'update' : 'unchanged';
    return { row: { ...base, action, errors, warnings }, planned: action === 'unchanged' ? undefined : planned };
  }

  /** Starts the import job once its status row exists (progress 0), so the first poll finds it. */
  async start(file: string, lang: UiLanguage): Promise<string> {
    const plan = await this.plan(file, lang);
    // Refused rows are said in every language, so that whoever reads the status reads them in theirs (another
    // administrator, or the migration's report, which has both): the file is checked again in the others.
    const refusals = new Map<number, Said>();
    if (plan.preview.reject > 0) {
      for (const other of UI_LANGUAGES.filter((l) => l !== lang)) {
        for (const row of (await this.plan(file, other)).preview.rows)
          if (row.action === 'reject')
            refusals.set(row.line, { ...refusals.get(row.line), [other]: row.errors.join(' ') });
      }
    }
    try {
      return await this.jobs.start(IMPORT_JOB, 'Importing users', (ctx) => this.run(plan, lang, refusals, ctx), {
        exclusive: true,
      });
    } catch (error) {
      if (error instanceof JobRunningError) throw new AppError(409, 'import_running');
      throw error;
    }
  }

  private async run(plan: Plan, lang: UiLanguage, refusals: Map<number, Said>, ctx: JobContext) {
    const failures: StoredFailure[] = plan.preview.rows
      .filter((r) => r.action === 'reject')
      .map((r) => ({
        line: r.line,
        username: r.username,
        message: r.errors.join(' '),
        messages: { ...refusals.get(r.line), [lang]: r.errors.join(' ') },
      }));
    const unchanged = plan.preview.unchanged;
    let created = 0;
    let updated = 0;
    const released: string[] = [];
    const total = plan.apply.length;
    const outcome = (): ImportOutcome => ({
      created,
      updated,
      unchanged,
      failures: [...failures].sort((a, b) => a.line - b.line),
    });
    let chunks = 0;
    // Each chunk commits together with the counts that include it, so a crash never loses what was saved.
    const commit = (rows: PlannedRow[]) =>
      this.db.transaction().execute(async (trx) => {
        const macs = await this.applyRows(trx, rows);
        for (const row of rows) row.existing ? updated++ : created++;
        try {
          await ctx.checkpoint(outcome(), trx);
        } catch (error) {
          for (const row of rows) row.existing ? updated-- : created--;
          throw error;
        }
        return macs;
      });
    for (let i = 0; i < total; i += CHUNK) {
      const chunk = plan.apply.slice(i, i + CHUNK);
      try {
        released.push(...(await commit(chunk)));
      } catch (error) {
        if (!isUniqueViolation(error) && !isNumberClash(error) && !isDevicesLimit(error)) throw error;
        // Something changed since the file was checked: apply row by row to fail only the culprits.
        for (const row of chunk) {
          try {
            released.push(...(await commit([row])));
          } catch (rowError) {
            const reason = (l: UiLanguage) =>
              isUniqueViolation(rowError)
                ? csvMessage(l, 'extensionInUse', { value: row.extension ?? '' })
                : (isNumberClash(rowError) || isDevicesLimit(rowError)) && typeof rowError.detail === 'function'
                  ? rowError.detail(l)
                  : rowError instanceof Error
                    ? rowError.message
                    : String(rowError);
            const said = (l: UiLanguage) => csvMessage(l, 'failed', { reason: reason(l) });
            failures.push({
              line: row.line,
              username: row.username,
              message: said(lang),
              messages: Object.fromEntries(UI_LANGUAGES.map((l) => [l, said(l)])),
            });
          }
        }
        await ctx.checkpoint(outcome());
      }
      await ctx.progress(((i + chunk.length) * 100) / Math.max(total, 1));
      await csvImportHooks.afterChunk(++chunks);
    }
    if (total > 0) await refreshStatistics(this.db, 'users');
    if (created + updated > 0) this.onImported();
    await this.phonesReleased(released);
    return outcome();
  }

  /** Applies rows in one transaction; answers the MACs of phones released by renumbered users. */
  private async applyRows(trx: Kysely<Database>, rows: PlannedRow[]): Promise<string[]> {
    const now = Date.now();
    // A device, port or trunk may have taken a number since the file was checked: check again, under the lock.
    const renumbering = rows.filter((r) => r.extension && r.extension !== r.existing?.default_extension);
    if (renumbering.length > 0) {
      await lockNumbering(trx);
      const wanted = renumbering.flatMap((r) => mainExtensionCandidates(r.extension as string));
      const holders = await holdersOf(trx, wanted, ['device', 'fxs_port', 'trunk']);
      for (const r of renumbering) {
        const clash = mainExtensionClash(r.extension as string, holders, r.existing?.id);
        if (clash) throw clashError(r.extension as string, clash);
      }
    }
    const inserts = rows.filter((r) => !r.existing);
    const ids = new Map<string, number>();
    for (const r of rows) if (r.existing) ids.set(r.username, r.existing.id);
    if (inserts.length > 0) {
      const created = await trx
        .insertInto('users')
        .values(
          inserts.map((r) => {
            // An empty password cell still gives the new account a password, as a user added in the console gets.
            const password = r.password ?? randomUserPassword();
            return {
              username: r.username,
              displayname: r.fullname,
              ...splitName(r.fullname),
              email: null,
              source: 'local' as const,
              password_hash: password ? directoryPasswordHash(password) : null,
              password_clear: password,
              ...extensionColumns(r.extension),
              outboundcid: null,
              mobile: r.mobile ?? null,
              voicemail_pin: r.voicemail ? randomPin() : null,
              profile_id: r.profileId ?? null,
              search_key: searchKey(r.username, r.fullname, r.extension),
              created_at: now,
              updated_at: now,
            };
          }),
        )
        .returning(['id', 'username'])
        .execute();
      for (const c of created) ids.set(c.username, Number(c.id));
    }
    // Device numbers derive from the main number, as when renumbering in the console.
    const renumbered = rows
      .filter((r) => r.existing?.default_extension && r.extension && r.extension !== r.existing.default_extension)
      .map((r) => Number(r.existing?.id));
    const released = renumbered.length > 0 ? await releaseDevicesOfUsers(trx, renumbered) : [];
    await this.applyGroups(trx, rows, ids);
    for (const r of rows) {
      const e = r.existing;
      if (!e) continue;
      const extension = r.extension ?? e.default_extension;
      await trx
        .updateTable('users')
        .set({
          displayname: r.fullname,
          ...splitName(r.fullname),
          ...extensionColumns(extension),
          search_key: searchKey(r.username, r.fullname, extension),
          ...(r.password ? { password_hash: directoryPasswordHash(r.password), password_clear: r.password } : {}),
          ...(r.mobile !== undefined ? { mobile: r.mobile } : {}),
          ...(r.voicemail === true && !e.voicemail_pin ? { voicemail_pin: randomPin() } : {}),
          ...(r.voicemail === false ? { voicemail_pin: null } : {}),
          ...(r.profileId !== undefined ? { profile_id: r.profileId } : {}),
          updated_at: now,
        })
        .where('id', '=', e.id)
        .execute();
    }
    // After the renumbering above, which took the user's devices away with the old number. Only what changes is
    // switched: a migration sends webrtc FALSE for every user, and new users have no device to remove.
    for (const r of rows) {
      const main = r.extension ?? r.existing?.default_extension;
      if (!main || !this.switchSoftDevice) continue;
      const renumberedRow = r.existing?.default_extension !== main;
      for (const type of SOFT_DEVICES) {
        const on = r.soft[type];
        const has = !renumberedRow && r.existing?.soft.has(type) === true;
        if (on !== undefined && on !== has) await this.switchSoftDevice(trx, main, type, on);
      }
    }
    return released;
  }

  /** Replaces the memberships of rows with a groups column, creating groups that do not exist yet. */
  private async applyGroups(trx: Kysely<Database>, rows: PlannedRow[], ids: Map<string, number>) {
    const withGroups = rows.filter((r) => r.groups !== undefined);
    if (withGroups.length === 0) return;
    const names = [...new Set(withGroups.flatMap((r) => r.groups ?? []))];
    if (names.length > 0) {
      await trx
        .insertInto('cti_groups')
        .values(names.map((name) => ({ name })))
        .onConflict((oc) => oc.column('name').doNothing())
        .execute();
    }
    const groups = names.length
      ? await trx.selectFrom('cti_groups').select(['id', 'name']).where('name', 'in', names).execute()
      : [];
    const groupId = new Map(groups.map((g) => [g.name, Number(g.id)]));
    const userIds = withGroups.map((r) => ids.get(r.username)).filter((id): id is number => id !== undefined);
    if (userIds.length > 0) await trx.deleteFrom('cti_user_groups').where('user_id', 'in', userIds).execute();
    const links = withGroups.flatMap((r) => {
      const userId = ids.get(r.username);
      return userId === undefined
        ? []
        : (r.groups ?? []).flatMap((name) => {
            const group_id = groupId.get(name);
            return group_id === undefined ? [] : [{ user_id: userId, group_id }];
          });
    });
    for (let i = 0; i < links.length; i += 500) {
      await trx
        .insertInto('cti_user_groups')
        .values(links.slice(i, i + 500))
        .execute();
    }
  }

  async status(lang: UiLanguage = 'en'): Promise<CsvImportStatus> {
    const job = await this.jobs.latest(IMPORT_JOB);
    if (!job) throw new AppError(422, 'no_csv_import');
    const outcome = (job.result ?? {}) as Partial<ImportOutcome>;
    const created = outcome.created ?? 0;
    const updated = outcome.updated ?? 0;
    const failures: CsvRowFailure[] = (outcome.failures ?? []).map((f) => ({
      line: f.line,
      username: f.username,
      message: f.messages?.[lang] ?? f.message,
    }));
    const interrupted = job.status === 'failed' && job.error === INTERRUPTED_ERROR;
    if (interrupted) {
      failures.push({ line: 0, username: '', message: csvMessage(lang, 'interrupted', { saved: created + updated }) });
    } else if (job.status === 'failed') {
      failures.push({
        line: 0,
        username: '',
        message: csvMessage(lang, 'stopped', { saved: created + updated, reason: job.error ?? '?' }),
      });
    }
    const refused = outcome.failures?.length ?? 0;
    const unchanged = outcome.unchanged ?? 0;
    // Done with some rows refused is a success with refusals (100, each refusal in failures), not a failure: an
    // import that created 18,000 of 20,000 users did its work. -1 is kept for a run cut short, and for one that
    // refused every row and saved nothing.
    const failed = job.status === 'failed' || (refused > 0 && created + updated + unchanged === 0);
    const result = job.status === 'running' ? job.progress : failed ? -1 : 100;
    return { result, created, updated, unchanged, refused, interrupted, failures };
  }
}

function isNumberClash(error: unknown): error is AppError {
  return error instanceof AppError && error.code === 'extension_in_use';
}

/** A row whose softphone device could not be added (the user has all the devices allowed): only that row fails. */
function isDevicesLimit(error: unknown): error is AppError {
  return error instanceof AppError && error.code === 'devices_limit';
}
