import type { ImportOldUser, OldUser } from '@centralino/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { CsvService } from '../csv/service.ts';
import type { CtiService } from '../cti/service.ts';
import type { StepAnswer } from './config-steps.ts';
import { describe, type Localized, type Message, msg, textMessage } from './messages.ts';
import { StepProgress } from './resume.ts';
import type { LegacySource } from './source.ts';
import { type MigrationState, StepLog } from './state.ts';
import { deriveUsername } from './usernames.ts';

/** Old CTI 2 permission → new macro switched on (contract §11.2 importprofiles). */
const MACRO_OF: Record<string, string> = {
  phonebook: 'phonebook',
  cdr: 'cdr',
  queues: 'queue_agent',
  offhour: 'off_hour',
};
/** Old permission → new permission (its macro switched on too); names the new system lacks are left out. */
const PERMISSION_OF: Record<string, string> = {
  admin_answer: 'ad_phone',
  admin_call: 'ad_phone',
  admin_pickup: 'ad_phone',
  admin_transfer: 'ad_phone',
  admin_cdr: 'ad_cdr',
  admin_offhour: 'advanced_off_hour',
  admin_parkings: 'ad_parking',
  admin_queues: 'ad_queue_agent',
  admin_recording: 'ad_recording',
  attended_transfer: 'transfer',
  chat: 'chat',
  dnd: 'dnd',
  intrude: 'intrude',
  lost_queue_calls: 'lost_queue_call',
  parkings: 'parkings',
  phone_redirect: 'call_forward',
  pickup: 'pickup',
  recording: 'recording',
  spy: 'spy',
  trunks: 'trunks',
};
const ALWAYS_ON = ['settings', 'customer_card', 'presence_panel'];

interface MacroDraft {
  value: boolean;
  permissions?: { name: string; value: boolean }[];
}

/** Profiles, then users and their main extensions (the /migration/users screen). */
export class UsersMigration {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly source: LegacySource,
    private readonly state: MigrationState,
    private readonly cti: CtiService,
    private readonly csv: CsvService,
  ) {}

  /**
   * Old extensions with their CTI account. An extension without one gets a user name derived from its old name (or
   * its number: usernames.ts), unique among the old accounts and the users here, so no old extension is left out
   * unless the administrator clears it; its cellphone and profile are empty.
   */
  async oldUsers(): Promise<OldUser[]> {
    const withCti = await this.source.hasTable('pbx', 'nethcti_users');
    const rows = await this.source.query<Record<string, string | number | null>>(
      withCti
        ? `SELECT u.extension, u.name, u.voicemail, u.outboundcid, c.username, c.cellphone, c.email, c.profile_id
             FROM ${this.source.table('pbx', 'users')} u
             LEFT JOIN ${this.source.table('pbx', 'nethcti_users')} c ON c.extension = u.extension
             ORDER BY CAST(u.extension AS UNSIGNED), u.extension`
        : `SELECT extension, name, voicemail, outboundcid FROM ${this.source.table('pbx', 'users')}
             ORDER BY CAST(extension AS UNSIGNED), extension`,
    );
    const s = (v: unknown) => (v === null || v === undefined ? '' : String(v));
    const here = await this.db.selectFrom('users').select(['username', 'default_extension']).execute();
    // Asked again after the import (a resumed or repeated step), an extension keeps the user it was given.
    const userOf = new Map(here.filter((u) => u.default_extension).map((u) => [u.default_extension, u.username]));
    const taken = new Set<string>([
      ...rows.map((r) => s(r.username).toLowerCase()).filter(Boolean),
      ...here.map((u) => u.username.toLowerCase()),
    ]);
    const derive = (extension: string, name: string) => {
      const given = userOf.get(extension);
      if (!given) return deriveUsername(extension, name, taken);
      return { username: given, from: given === `user${extension}` ? ('extension' as const) : ('name' as const) };
    };
    // The old SIP secret is not listed (lists never carry secrets): the import reads it from the old database.
    return rows.map((r) => {
      const cti = s(r.username);
      const named = cti ? { username: cti, from: 'cti' as const } : derive(s(r.extension), s(r.name));
      return {
        extension: s(r.extension),
        username: named.username,
        username_from: named.from,
        name: s(r.name),
        cellphone: s(r.cellphone),
        email: s(r.email),
        voicemail: s(r.voicemail) || 'novm',
        outboundcid: s(r.outboundcid),
        profile_id: s(r.profile_id),
      };
    });
  }

  async importProfiles(): Promise<StepAnswer> {
    const log = new StepLog();
    if (!(await this.source.hasTable('pbx', 'nethcti_profiles'))) {
      await this.state.setStatus('profiles');
      return { code: 200, body: log.result(null) };
    }
    const profiles = await this.source.query<{ id: number; name: string }>(
      `SELECT id, name FROM ${this.source.table('pbx', 'nethcti_profiles')} ORDER BY id`,
    );
    const permissions = await this.source.query<{ profile_id: number; permission: string }>(
      `SELECT profile_id, permission FROM ${this.source.table('pbx', 'nethcti_profile_permissions')}`,
    );
    const existing = new Set((await this.cti.profiles()).map((p) => p.name));
    // Each profile is saved on its own (CtiService): a run cut short and run again takes the ones it saved as its own.
    const progress = await StepProgress.load(this.db, 'cloneOldCTIProfile');
    for (const profile of profiles) {
      if (existing.has(profile.name)) {
        if (progress.savedByThisStep(profile.name)) log.infos.push(msg('profile_migrated', { name: profile.name }));
        else log.warnings.push(msg('profile_exists', { name: profile.name }));
        continue;
      }
      const old = permissions.filter((p) => p.profile_id === profile.id).map((p) => p.permission);
      try {
        const template = (await this.cti.template()) as Record<string, unknown>;
        const macros = template as Record<string, MacroDraft>;
        const switchOn = (macro: string) => {
          if (macros[macro] && typeof macros[macro] === 'object' && !Array.isArray(macros[macro])) {
            macros[macro].value = true;
          }
        };
        for (const m of ALWAYS_ON) switchOn(m);
        const wanted = new Set(old.map((p) => PERMISSION_OF[p]).filter(Boolean));
        // More than 10 old permissions: a power user, who gets conferences too (the original's rule).
        if (old.length > 10) wanted.add('conference');
        for (const p of old) if (MACRO_OF[p]) switchOn(MACRO_OF[p]);
        for (const [name, macro] of Object.entries(macros)) {
          if (!macro || typeof macro !== 'object' || Array.isArray(macro)) continue;
          for (const permission of macro.permissions ?? []) {
            if (wanted.has(permission.name)) {
              permission.value = true;
              switchOn(name);
            }
          }
        }
        await progress.saving(profile.name);
        await this.cti.createProfile({
          name: profile.name,
          macro_permissions: template as Parameters<CtiService['createProfile']>[0]['macro_permissions'],
        });
        await progress.saved(profile.name);
        log.infos.push(msg('profile_migrated', { name: profile.name }));
      } catch (error) {
        log.errors.push(
          msg('with_reason', { subject: msg('profile_label', { name: profile.name }), reason: describe(error) }),
        );
      }
    }
    await this.db.transaction().execute(async (trx) => {
      await this.state.record('cloneOldCTIProfile', log, trx);
      await this.state.setStatus('profiles', trx);
      await progress.finish(trx);
    });
    return { code: log.errors.length ? 500 : 200, body: log.result() };
  }

  /**
   * Runs the user CSV import (the same engine as POST /csv/csvimport) with the edited old users, each keeping
   * its old extension's SIP secret; the console polls GET /csv/csvimport for progress.
   */
  async importUsers(users: ImportOldUser[]): Promise<void> {
    // Every old extension ends up migrated or listed: those left without a user, and those given a user name the old
    // system did not have, are said now; the import's refusals and the count follow when it ends.
    const old = await this.oldUsers();
    const log = new StepLog();
    const given = new Map(users.map((u) => [u.extension, u.username]));
    for (const o of old) {
      const username = given.get(o.extension);
      if (username === undefined) log.warnings.push(msg('user_left_out', { label: extensionLabel(o) }));
      else if (o.username_from !== 'cti') log.infos.push(userDerived(o, username, 'user_derived'));
    }
    // Run again (Try again, or after a restart), the list sent now is the one that counts.
    await this.state.record('csvimport', log, undefined, { replace: true });
    const oldProfiles = (await this.source.hasTable('pbx', 'nethcti_profiles'))
      ? await this.source.query<{ id: number; name: string }>(
          `SELECT id, name FROM ${this.source.table('pbx', 'nethcti_profiles')}`,
        )
      : [];
    const profileName = new Map(oldProfiles.map((p) => [String(p.id), p.name]));
    const groups = new Map<string, string>();
    if (await this.source.hasTable('pbx', 'nethcti_users')) {
      for (const r of await this.source.query<{ extension: string; cti_groups: string }>(
        `SELECT extension, cti_groups FROM ${this.source.table('pbx', 'nethcti_users')}`,
      )) {
        groups.set(
          r.extension,
          r.cti_groups
            .split(/[,|]/)
            .map((g) => g.trim())
            .filter(Boolean)
            .join('|'),
        );
      }
    }
    const cell = (v: string) => `"${v.replaceAll('"', '""')}"`;
    const lines = ['username,fullname,extension,password,mobile,voicemail,webrtc,groups,profile'];
    for (const u of users) {
      lines.push(
        [
          u.username,
          u.name,
          u.extension,
          '',
          u.cellphone ?? '',
          (u.voicemail ?? 'default') === 'default' ? 'TRUE' : 'FALSE',
          'FALSE',
          groups.get(u.extension) ?? '',
          profileName.get(u.profile_id ?? '') ?? '',
        ]
          .map(cell)
          .join(','),
      );
    }
    // The phones registered with the old secrets keep working: each main extension keeps its old SIP secret.
    const extensions = users.map((u) => u.extension);
    const secrets = extensions.length
      ? await this.source.query<{ id: string; data: string }>(
          `SELECT id, data FROM ${this.source.table('pbx', 'sip')} WHERE keyword = 'secret' AND id IN (?)`,
          [extensions],
        )
      : [];
    await this.db.transaction().execute(async (trx) => {
      for (const s of secrets) {
        if (!s.data) continue;
        await trx
          .insertInto('pbx_secrets')
          .values({ extension: s.id, secret: s.data })
          .onConflict((oc) => oc.column('extension').doUpdateSet({ secret: s.data }))
          .execute();
      }
    });
    const file = Buffer.from(`${lines.join('\n')}\n`, 'utf8').toString('base64');
    await this.csv.start(file, 'en');
    await this.state.setStatus('users');
    void this.reportWhenDone(users, old.length);
  }

  /** Once the import ends, its failed rows go to the report (section users, `csvimport`) as the console shows them. */
  private async reportWhenDone(users: ImportOldUser[], total: number): Promise<void> {
    try {
      for (;;) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        const status = await this.csv.status('en');
        if (status.result >= 0 && status.result < 100) continue;
        // The same failures as the Italian reader gets them (the import's own lines are in the language it ran in).
        const italian = (await this.csv.status('it')).failures;
        const log = new StepLog();
        status.failures.forEach((f, i) => {
          const reason: Localized = { en: f.message, it: italian[i]?.message ?? f.message };
          log.errors.push(f.username ? msg('with_reason', { subject: f.username, reason }) : textMessage(reason));
        });
        const here = await this.db.selectFrom('users').select(['username', 'default_extension']).execute();
        const userOf = new Map(here.map((u) => [u.default_extension, u.username]));
        const migrated = users.filter((u) => userOf.get(u.extension) === u.username).length;
        log.infos.push(msg('users_migrated', { count: migrated, total }));
        await this.state.record('csvimport', log);
        return;
      }
    } catch {
      // The server is closing (or the import vanished): nothing to report.
    }
  }
}

/** "Extension 210 (Chiara Rossi)", or without the name when the old system had none. */
export function extensionLabel(u: Pick<OldUser, 'extension' | 'name'>): Message {
  return u.name
    ? msg('extension_label', { ext: u.extension, name: u.name })
    : msg('extension_label_bare', { ext: u.extension });
}

/** The line saying which user name an extension without a CTI account got, and how. */
export function userDerived(
  o: Pick<OldUser, 'extension' | 'name' | 'username' | 'username_from'>,
  username: string,
  key: 'user_derived' | 'dry_user_derived',
): Message {
  const how =
    username !== o.username
      ? msg('derived_by_hand')
      : o.username_from === 'extension'
        ? msg('derived_from_extension')
        : msg('derived_from_name');
  return msg(key, { label: extensionLabel(o), username, how });
}
