import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { SettingsStore } from '../../db/settings-store.ts';
import { DestinationCheck, type LaterKind, laterKind } from './destinations.ts';
import type { StepLog } from './state.ts';

/**
 * A destination that waits for a later step (settings `migration_pending`). The contract's order migrates ring
 * groups before queues, queues before IVRs, IVRs before CQRs and announcements, and those before day/night and the
 * time conditions: an object leading to one migrated later is saved with hang up and linked when that step has
 * created it — so the report carries no false "destination not migrated".
 */
export interface PendingLink {
  table:
    | 'ivrs'
    | 'ivr_entries'
    | 'queues'
    | 'ring_groups'
    | 'announcements'
    | 'daynight'
    | 'cqrs'
    | 'cqr_entries'
    | 'parking_lots';
  /** The row's id (the IVR's for its entries, the CQR's for its entries, the switch's number for day/night). */
  id: number;
  column:
    | 'invalid_destination'
    | 'timeout_destination'
    | 'dest'
    | 'failover_dest'
    | 'post_dest'
    | 'day_dest'
    | 'night_dest'
    | 'default_dest'
    | 'timeout_dest';
  /** An IVR entry's key, or a CQR entry's position. */
  selection: string | null;
  old: string;
}
export const PENDING_KEY = 'migration_pending';

export async function addPending(trx: Kysely<Database>, links: PendingLink[]): Promise<void> {
  if (links.length === 0) return;
  const settings = new SettingsStore(trx);
  const pending = (await settings.get<PendingLink[]>(PENDING_KEY)) ?? [];
  await settings.set(PENDING_KEY, [...pending, ...links], trx);
}

/**
 * Links the waiting destinations the objects migrated so far can answer; those whose kind is in `stillToCome` stay
 * waiting. Whatever is resolved gets its new destination, or hang up with the destination check's warning.
 */
export async function linkPending(
  trx: Kysely<Database>,
  log: StepLog,
  stillToCome: readonly LaterKind[],
): Promise<void> {
  const settings = new SettingsStore(trx);
  const linked = await DestinationCheck.load(trx);
  const still: PendingLink[] = [];
  for (const p of (await settings.get<PendingLink[]>(PENDING_KEY)) ?? []) {
    const kind = laterKind(p.old);
    if (kind && stillToCome.includes(kind)) {
      still.push(p);
      continue;
    }
    const dest = linked.check(p.old, log);
    await setDestination(trx, p, dest);
  }
  await settings.set(PENDING_KEY, still, trx);
}

async function setDestination(trx: Kysely<Database>, p: PendingLink, dest: string): Promise<void> {
  switch (p.table) {
    case 'ivr_entries':
      await trx
        .updateTable('ivr_entries')
        .set({ dest })
        .where('ivr_id', '=', p.id)
        .where('selection', '=', p.selection ?? '')
        .execute();
      return;
    case 'cqr_entries':
      await trx
        .updateTable('cqr_entries')
        .set({ dest })
        .where('cqr_id', '=', p.id)
        .where('position', '=', Number(p.selection))
        .execute();
      return;
    case 'ivrs':
      await trx
        .updateTable('ivrs')
        .set({ [p.column as 'invalid_destination' | 'timeout_destination']: dest })
        .where('id', '=', p.id)
        .execute();
      return;
    case 'queues':
      await trx.updateTable('queues').set({ failover_dest: dest }).where('id', '=', p.id).execute();
      return;
    case 'ring_groups':
      await trx.updateTable('ring_groups').set({ failover_dest: dest }).where('id', '=', p.id).execute();
      return;
    case 'parking_lots':
      await trx.updateTable('parking_lots').set({ timeout_dest: dest }).where('id', '=', p.id).execute();
      return;
    case 'announcements':
      await trx.updateTable('announcements').set({ post_dest: dest }).where('id', '=', p.id).execute();
      return;
    case 'cqrs':
      await trx.updateTable('cqrs').set({ default_dest: dest }).where('id', '=', p.id).execute();
      return;
    case 'daynight':
      await trx
        .updateTable('daynight')
        .set({ [p.column as 'day_dest' | 'night_dest']: dest })
        .where('ext', '=', p.id)
        .execute();
      return;
  }
}
