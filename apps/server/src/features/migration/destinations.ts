import { announcementDestination, dayNightDestination, ivrDestination } from '@centralino/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { SettingsStore } from '../../db/settings-store.ts';
import { HANGUP_DESTINATION } from '../destinations/catalogue.ts';
import type { StepLog } from './state.ts';

/**
 * The destination check of contract §11.1, against what exists here now: a direct-extension or voicemail
 * destination is kept when that extension is a user's main extension (with a mailbox, for voicemail); hang up
 * and busy are kept; a day/night switch is kept when it was migrated. Anything else (ring groups, queues, time
 * conditions, CQR, conferences, custom contexts: objects this version does not migrate yet) becomes hang up with
 * the warning "<old destination> destination not migrated". IVRs and announcements get new ids here: the old id
 * is looked up in the ids the migration gave them (settings `migration_ids`).
 */
export class DestinationCheck {
  private constructor(
    private readonly extensions: Set<string>,
    private readonly mailboxes: Set<string>,
    private readonly switches: Set<number>,
    readonly ids: MigratedIds,
  ) {}

  static async load(db: Kysely<Database>): Promise<DestinationCheck> {
    const ids = (await new SettingsStore(db).get<MigratedIds>(IDS_KEY)) ?? { ivr: {}, announcement: {} };
    const [users, switches] = await Promise.all([
      db
        .selectFrom('users')
        .select(['default_extension', 'voicemail_pin'])
        .where('default_extension', 'is not', null)
        .execute(),
      db.selectFrom('daynight').select('ext').execute(),
    ]);
    return new DestinationCheck(
      new Set(users.map((u) => String(u.default_extension))),
      new Set(users.filter((u) => u.voicemail_pin !== null).map((u) => String(u.default_extension))),
      new Set(switches.map((s) => Number(s.ext))),
      ids,
    );
  }

  /** `later`: called instead of warning for an announcement not migrated yet (its step comes after the IVRs). */
  check(old: string | null | undefined, log: StepLog, later?: (old: string) => void): string {
    const dest = (old ?? '').trim();
    if (dest === '') return HANGUP_DESTINATION;
    if (/^app-blackhole,[a-z]+,1$/.test(dest)) return dest;
    const direct = /^from-did-direct,(\d+),\d+$/.exec(dest);
    if (direct?.[1] && this.extensions.has(direct[1])) return `from-did-direct,${direct[1]},1`;
    const vm = /^ext-local,vm([bius])(\d+),\d+$/.exec(dest);
    // The old 'i' (instructions only) has no equivalent here: the unavailable greeting is the nearest.
    if (vm?.[2] && this.mailboxes.has(vm[2])) return `ext-local,vm${vm[1] === 'i' ? 'u' : vm[1]}${vm[2]},1`;
    const dn = /^app-daynight,(\d),\d+$/.exec(dest);
    if (dn && this.switches.has(Number(dn[1]))) return dayNightDestination(Number(dn[1]));
    const ivr = /^ivr-(\d+),s,\d+$/.exec(dest);
    const newIvr = ivr?.[1] ? this.ids.ivr[ivr[1]] : undefined;
    if (newIvr) return ivrDestination(newIvr);
    const ann = /^app-announcement-(\d+),s,\d+$/.exec(dest);
    const newAnn = ann?.[1] ? this.ids.announcement[ann[1]] : undefined;
    if (newAnn) return announcementDestination(newAnn);
    if (ann && later) {
      later(dest);
      return HANGUP_DESTINATION;
    }
    log.warnings.push(`${dest} destination not migrated`);
    return HANGUP_DESTINATION;
  }
}

export const IDS_KEY = 'migration_ids';
/** New id of each migrated IVR and announcement, by old id. */
export interface MigratedIds {
  ivr: Record<string, number>;
  announcement: Record<string, number>;
}
