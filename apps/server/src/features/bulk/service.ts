import {
  type BulkEditParsed,
  type BulkPreview,
  type BulkSelectQuery,
  type BulkSettings,
  CALL_PERMISSION_INHERIT,
  type Destinations,
  normaliseCallPermission,
  type RecordingPolicy,
  type UiLanguage,
} from '@centralino/contract';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { byCategory, destinationList, extensionDestination } from '../destinations/catalogue.ts';
import { searchKey } from '../users/repository.ts';
import { common, expandDisplayName, maskDisplayName, outboundCid } from './values.ts';

/** Rows per statement: well under SQLite's and PostgreSQL's bound-parameter limits. */
const CHUNK = 500;

interface Row {
  id: number;
  username: string;
  displayname: string;
  source: 'local' | 'ldap';
  default_extension: string;
  profile_id: number | null;
  ring_time: number;
  call_waiting: number;
  call_group: string;
  pickup_group: string;
  busy_dest: string | null;
  noanswer_dest: string | null;
  unavailable_dest: string | null;
  outboundcid: string | null;
  recording_policy: RecordingPolicy;
  call_permission: string | null;
}

/** The user columns each field of the editor stands for, and the value a user would get. */
type Field =
  | 'displayname'
  | 'profile'
  | 'callwaiting'
  | 'ringtime'
  | 'callgroup'
  | 'pickupgroup'
  | 'noanswerdest'
  | 'busydest'
  | 'notreachabledest'
  | 'outboundcid'
  | 'recording'
  | 'callpermission';
type Update = Partial<{
  displayname: string;
  search_key: string;
  profile_id: number | null;
  call_waiting: number;
  ring_time: number;
  call_group: string;
  pickup_group: string;
  noanswer_dest: string | null;
  busy_dest: string | null;
  unavailable_dest: string | null;
  outboundcid: string | null;
  recording_policy: RecordingPolicy;
  call_permission: string | null;
}>;

/** Fields that change the SIP accounts themselves (endpoint or dialplan of every device), not the user alone. */
const ACCOUNT_FIELDS = new Set<Field>([
  'displayname',
  'profile',
  'callwaiting',
  'ringtime',
  'callgroup',
  'pickupgroup',
  'outboundcid',
]);

interface Problem {
  field: string;
  en: string;
  it: string;
}

/**
 * Bulk extensions (contract §4): read the selected users' call settings with "mixed" where they differ,
 * preview an edit, and apply it in one transaction, all or nothing.
 */
export class BulkService {
  constructor(
    private readonly db: Kysely<Database>,
    /** Removes phones' *70/*71 choices on these accounts once call waiting was set here (PbxLive). */
    private readonly clearCallWaiting: (accounts: string[]) => Promise<unknown> = async () => 0,
  ) {}

  private async rows(db: Kysely<Database>, extensions: readonly string[]): Promise<Row[]> {
    const wanted = [...new Set(extensions)];
    const rows: Row[] = [];
    for (let i = 0; i < wanted.length; i += CHUNK) {
      const part = await db
        .selectFrom('users')
        .select([
          'id',
          'username',
          'displayname',
          'source',
          'default_extension',
          'profile_id',
          'ring_time',
          'call_waiting',
          'call_group',
          'pickup_group',
          'busy_dest',
          'noanswer_dest',
          'unavailable_dest',
          'outboundcid',
          'recording_policy',
          'call_permission',
        ])
        .where('default_extension', 'in', wanted.slice(i, i + CHUNK))
        .execute();
      for (const r of part) {
        rows.push({
          ...r,
          id: Number(r.id),
          default_extension: r.default_extension as string,
          profile_id: r.profile_id === null ? null : Number(r.profile_id),
          ring_time: Number(r.ring_time),
          call_waiting: Number(r.call_waiting),
        });
      }
    }
    if (rows.length < wanted.length) {
      const found = new Set(rows.map((r) => r.default_extension));
      const missing = wanted.filter((e) => !found.has(e));
      const list = missing.slice(0, 10).join(', ') + (missing.length > 10 ? ', …' : '');
      throw new AppError(
        404,
        'not_found',
        (lang) =>
          lang === 'it' ? `Nessun utente ha l'interno principale ${list}.` : `No user has main extension ${list}.`,
        (lang) => ({ extensions: lang === 'it' ? `Interni sconosciuti: ${list}` : `Unknown extensions: ${list}` }),
      );
    }
    return rows;
  }

  /** The common value of each setting over the selection, null where the users differ (GET /api/bulk/{exts}). */
  async read(extensions: readonly string[]): Promise<BulkSettings> {
    const rows = await this.rows(this.db, extensions);
    const pick = <T>(f: (r: Row) => T) => common(rows.map(f));
    const ring = pick((r) => r.ring_time);
    const cw = pick((r) => r.call_waiting);
    return {
      displayname: pick((r) => maskDisplayName(r.displayname, r.default_extension)),
      profile: pick((r) => String(r.profile_id ?? -1)),
      callwaiting: cw === null ? null : cw === 1,
      ringtime: ring === null ? null : String(ring),
      callgroup: pick((r) => r.call_group),
      pickupgroup: pick((r) => r.pickup_group),
      noanswerdest: pick((r) => r.noanswer_dest ?? ''),
      busydest: pick((r) => r.busy_dest ?? ''),
      notreachabledest: pick((r) => r.unavailable_dest ?? ''),
      outboundcid: pick((r) => r.outboundcid ?? ''),
      recording: pick((r) => r.recording_policy),
      callpermission: pick((r) => r.call_permission ?? CALL_PERMISSION_INHERIT),
    };
  }

  /** What the edit would write on one user: only the columns whose value changes. */
  private plan(row: Row, edit: BulkEditParsed): { update: Update; fields: Field[] } {
    const update: Update = {};
    const fields: Field[] = [];
    const set = <K extends keyof Update>(field: Field, column: K, value: Update[K], current: Update[K]) => {
      if (value === current) return;
      update[column] = value;
      fields.push(field);
    };
    const ext = row.default_extension;
    if (edit.displayname != null) {
      const name = expandDisplayName(edit.displayname, ext);
      set('displayname', 'displayname', name, row.displayname);
      if (update.displayname !== undefined) update.search_key = searchKey(row.username, name, ext);
    }
    if (edit.profile != null) set('profile', 'profile_id', profileId(edit.profile), row.profile_id);
    if (edit.callwaiting != null) set('callwaiting', 'call_waiting', edit.callwaiting ? 1 : 0, row.call_waiting);
    if (edit.ringtime != null) set('ringtime', 'ring_time', edit.ringtime, row.ring_time);
    if (edit.callgroup != null) set('callgroup', 'call_group', edit.callgroup, row.call_group);
    if (edit.pickupgroup != null) set('pickupgroup', 'pickup_group', edit.pickupgroup, row.pickup_group);
    if (edit.noanswerdest != null) set('noanswerdest', 'noanswer_dest', edit.noanswerdest || null, row.noanswer_dest);
    if (edit.busydest != null) set('busydest', 'busy_dest', edit.busydest || null, row.busy_dest);
    if (edit.notreachabledest != null) {
      set('notreachabledest', 'unavailable_dest', edit.notreachabledest || null, row.unavailable_dest);
    }
    if (edit.recording != null) set('recording', 'recording_policy', edit.recording, row.recording_policy);
    if (edit.callpermission != null) {
      const value = normaliseCallPermission(edit.callpermission);
      set('callpermission', 'call_permission', value === CALL_PERMISSION_INHERIT ? null : value, row.call_permission);
    }
    if (edit.outboundcid_fixed != null) {
      const digits =
        edit.outboundcid_variable === '' || edit.outboundcid_variable == null ? 0 : edit.outboundcid_variable;
      set('outboundcid', 'outboundcid', outboundCid(edit.outboundcid_fixed, digits, ext), row.outboundcid);
    }
    return { update, fields };
  }

  /** Refusals of the edit as a whole, each naming its field: nothing is written when there is one. */
  private async problems(db: Kysely<Database>, rows: Row[], edit: BulkEditParsed): Promise<Problem[]> {
    const problems: Problem[] = [];
    if (edit.profile != null) {
      const id = profileId(edit.profile);
      if (id !== null && !(await db.selectFrom('cti_profiles').select('id').where('id', '=', id).executeTakeFirst())) {
        problems.push({ field: 'profile', en: 'This profile does not exist', it: 'Questo profilo non esiste' });
      }
    }
    const destinations = (['noanswerdest', 'busydest', 'notreachabledest'] as const).filter((f) => edit[f]);
    if (destinations.length > 0) {
      const known = new Set((await destinationList(db)).map((d) => d.destination));
      const own = new Map(rows.map((r) => [extensionDestination(r.default_extension), r]));
      for (const field of destinations) {
        const value = edit[field] as string;
        if (!known.has(value)) {
          problems.push({
            field,
            en: `Unknown destination ${value}`,
            it: `Destinazione sconosciuta ${value}`,
          });
          continue;
        }
        const self = own.get(value);
        if (self) {
          // Busy → itself would call the user again and again.
          problems.push({
            field,
            en: `${self.username} (${self.default_extension}) cannot send its own calls back to itself`,
            it: `${self.username} (${self.default_extension}) non può rinviare le proprie chiamate a sé stesso`,
          });
        }
      }
    }
    if (edit.displayname != null) {
      const external = rows.filter((r) => r.source === 'ldap');
      if (external.length > 0) {
        const names = external
          .slice(0, 5)
          .map((r) => r.username)
          .join(', ');
        const more = external.length > 5 ? ` (+${external.length - 5})` : '';
        problems.push({
          field: 'displayname',
          en: `The names of users from the LDAP directory are set there: ${names}${more}`,
          it: `I nomi degli utenti della directory LDAP si cambiano lì: ${names}${more}`,
        });
      }
    }
    return problems;
  }

  private refuse(problems: Problem[]): AppError {
    return new AppError(
      422,
      'validation',
      (lang: UiLanguage) => problems.map((p) => p[lang]).join('. '),
      (lang: UiLanguage) => Object.fromEntries(problems.map((p) => [p.field, p[lang]])),
    );
  }

  /** How many users and SIP accounts each field would change, without writing anything. */
  async preview(extensions: readonly string[], edit: BulkEditParsed): Promise<BulkPreview> {
    const rows = await this.rows(this.db, extensions);
    const problems = await this.problems(this.db, rows, edit);
    if (problems.length > 0) throw this.refuse(problems);
    const perField = new Map<Field, number>();
    const touched: Row[] = [];
    let changed = 0;
    for (const row of rows) {
      const { fields } = this.plan(row, edit);
      if (fields.length > 0) changed++;
      for (const f of fields) perField.set(f, (perField.get(f) ?? 0) + 1);
      if (fields.some((f) => ACCOUNT_FIELDS.has(f))) touched.push(row);
    }
    const phones = await this.phonesOf(this.db, touched);
    return {
      users: rows.length,
      changed,
      devices: phones.length,
      changes: [...perField].map(([field, users]) => ({ field, users })),
    };
  }

  /** Applies the edit to every selected user in one transaction; a refusal changes nothing. */
  async apply(extensions: readonly string[], edit: BulkEditParsed): Promise<{ users: number }> {
    const cwChanged: Row[] = [];
    const changed = await this.db.transaction().execute(async (trx) => {
      const rows = await this.rows(trx, extensions);
      const problems = await this.problems(trx, rows, edit);
      if (problems.length > 0) throw this.refuse(problems);
      const now = Date.now();
      // Users that get the same columns with the same values are written by one statement per chunk.
      const groups = new Map<string, { update: Update; ids: number[] }>();
      for (const row of rows) {
        const { update, fields } = this.plan(row, edit);
        if (fields.length === 0) continue;
        if (fields.includes('callwaiting')) cwChanged.push(row);
        const key = JSON.stringify(update);
        const group = groups.get(key) ?? { update, ids: [] };
        group.ids.push(row.id);
        groups.set(key, group);
      }
      let count = 0;
      for (const { update, ids } of groups.values()) {
        for (let i = 0; i < ids.length; i += CHUNK) {
          await trx
            .updateTable('users')
            .set({ ...update, updated_at: now })
            .where('id', 'in', ids.slice(i, i + CHUNK))
            .execute();
        }
        count += ids.length;
      }
      return count;
    });
    if (cwChanged.length > 0) await this.clearCallWaiting(await this.accountsOf(this.db, cwChanged));
    return { users: changed };
  }

  /** Every SIP account of these users: the main extension, its devices and gateway FXS ports. */
  private async accountsOf(db: Kysely<Database>, rows: Row[]): Promise<string[]> {
    const out = rows.map((r) => r.default_extension);
    const mains = new Set(out);
    for (const phone of await this.phonesOf(db, rows)) if (!mains.has(phone)) out.push(phone);
    return out;
  }

  /**
   * The accounts a phone of these users registers with: their devices (a web phone may use the main extension)
   * and gateway FXS ports. A user without a phone has none, so the preview does not promise phones it lacks.
   */
  private async phonesOf(db: Kysely<Database>, rows: Row[]): Promise<string[]> {
    const out = new Set<string>();
    for (let i = 0; i < rows.length; i += CHUNK) {
      const part = rows.slice(i, i + CHUNK);
      const [devices, ports] = await Promise.all([
        db
          .selectFrom('devices')
          .select('extension')
          .where(
            'user_id',
            'in',
            part.map((r) => r.id),
          )
          .where('extension', 'is not', null)
          .execute(),
        db
          .selectFrom('gateway_ports')
          .select('physical_extension')
          .where('port_type', '=', 'fxs')
          .where(
            'extension',
            'in',
            part.map((r) => r.default_extension),
          )
          .execute(),
      ]);
      for (const d of devices) if (d.extension) out.add(d.extension);
      for (const p of ports) if (p.physical_extension) out.add(p.physical_extension);
    }
    return [...out];
  }

  /** The main extensions a selection mode picks (all users with one when no criterion is given). */
  async select(query: BulkSelectQuery): Promise<string[]> {
    let q = this.db
      .selectFrom('users')
      .select('users.default_extension')
      .where('users.default_extension', 'is not', null)
      .orderBy('users.extension_order');
    if (query.group !== undefined) {
      q = q.where('users.id', 'in', (eb) =>
        eb
          .selectFrom('cti_user_groups')
          .select('user_id')
          .where('group_id', '=', query.group as number),
      );
    }
    if (query.from !== undefined) q = q.where('users.extension_order', '>=', query.from);
    if (query.to !== undefined) q = q.where('users.extension_order', '<=', query.to);
    if (query.search) {
      const pattern = `%${query.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      q = q.where(sql<boolean>`users.search_key like ${pattern} escape '\\'`);
    }
    return (await q.execute()).map((r) => r.default_extension as string);
  }

  async destinations(): Promise<Destinations> {
    return byCategory(await destinationList(this.db));
  }

  /** Dial contexts: the standard one, then one per CTI profile (contract §4.3). */
  async contexts(): Promise<Record<string, string>> {
    const profiles = await this.db.selectFrom('cti_profiles').select(['id', 'name']).orderBy('id').execute();
    return {
      'from-internal': 'Standard',
      ...Object.fromEntries(profiles.map((p) => [`cti-profile-${p.id}`, `CTI Profile ${p.name}`])),
    };
  }
}

function profileId(value: string | number): number | null {
  const n = typeof value === 'number' ? value : value === '' ? -1 : Number(value);
  return n < 0 ? null : n;
}
