import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { SettingsStore } from '../../db/settings-store.ts';
import { DestinationCheck } from './destinations.ts';
import type { StepLog } from './state.ts';

/**
 * A destination that waits for a later step (settings `migration_pending`): IVRs, announcements and time conditions
 * are migrated after the queues (and the last two after the IVRs), so a queue failover or an IVR key leading to one
 * is linked when that step has created it.
 */
export interface PendingLink {
  /** The IVR, or with `queue` set the queue, whose destination waits. */
  ivr_id: number;
  /** The entry's key, or null for the IVR's invalid/timeout destination. */
  selection: string | null;
  column: 'invalid_destination' | 'timeout_destination' | 'dest' | 'failover_dest';
  old: string;
  /** A queue's failover: the queues step comes before the IVRs. */
  queue?: boolean;
}
export const PENDING_KEY = 'migration_pending';

/**
 * Links the waiting IVR destinations the objects migrated so far can answer; those `keep` says are still to come
 * stay waiting. Whatever is resolved gets its new destination, or hang up with the destination check's warning.
 */
export async function linkPending(trx: Kysely<Database>, log: StepLog, keep: (old: string) => boolean): Promise<void> {
  const settings = new SettingsStore(trx);
  const linked = await DestinationCheck.load(trx);
  const still: PendingLink[] = [];
  for (const p of (await settings.get<PendingLink[]>(PENDING_KEY)) ?? []) {
    if (keep(p.old)) {
      still.push(p);
      continue;
    }
    const dest = linked.check(p.old, log);
    if (p.queue) {
      await trx.updateTable('queues').set({ failover_dest: dest }).where('id', '=', p.ivr_id).execute();
    } else if (p.column === 'dest') {
      await trx
        .updateTable('ivr_entries')
        .set({ dest })
        .where('ivr_id', '=', p.ivr_id)
        .where('selection', '=', p.selection ?? '')
        .execute();
    } else {
      await trx
        .updateTable('ivrs')
        .set({ [p.column as 'invalid_destination' | 'timeout_destination']: dest })
        .where('id', '=', p.ivr_id)
        .execute();
    }
  }
  await settings.set(PENDING_KEY, still, trx);
}

/** A destination of a time condition: those wait in the IVR step and the announcements step for their own step. */
export const isTimeCondition = (old: string) => /^timeconditions,\d+,\d+$/.test(old.trim());
