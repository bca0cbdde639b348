import { dayNightDestination } from '@centralino/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { HANGUP_DESTINATION } from '../destinations/catalogue.ts';
import type { StepLog } from './state.ts';

/**
 * The destination check of contract §11.1, against what exists here now: a direct-extension or voicemail
 * destination is kept when that extension is a user's main extension (with a mailbox, for voicemail); hang up
 * and busy are kept; a day/night switch is kept when it was migrated. Anything else (ring groups, queues, time
 * conditions, CQR, conferences, custom contexts: objects this version does not migrate yet) becomes hang up with
 * the warning "<old destination> destination not migrated".
 */
export class DestinationCheck {
  private constructor(
    private readonly extensions: Set<string>,
    private readonly mailboxes: Set<string>,
    private readonly switches: Set<number>,
  ) {}

  static async load(db: Kysely<Database>): Promise<DestinationCheck> {
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
    );
  }

  check(old: string | null | undefined, log: StepLog): string {
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
    log.warnings.push(`${dest} destination not migrated`);
    return HANGUP_DESTINATION;
  }
}
