import {
  PARKING_DEFAULTS,
  PARKING_MAX_SLOTS,
  PARKING_MAX_TIMEOUT,
  PARKING_MIN_TIMEOUT,
  parkingLotWriteSchema,
} from '@centralino/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { ParkingService } from '../parking/service.ts';
import { DestinationCheck, kindsAfter } from './destinations.ts';
import { describe, msg, schemaRefusal } from './messages.ts';
import { addPending, type PendingLink } from './pending.ts';
import type { LegacySource } from './source.ts';
import type { StepLog } from './state.ts';

type Trx = Kysely<Database>;

const clamp = (n: number, min: number, max: number) => Math.min(max, Math.max(min, n));

/**
 * FreePBX `parkplus` lots → parking lots, through the parking service in the step's transaction (the numbering rules
 * refuse a lot number or a slot a user took). Runs in the groups step after the rooms and ring groups, so a lot's
 * timeout destination finds them; one leading to a later kind waits in migration_pending. comebacktoorigin = yes
 * sends a call back to who parked it; otherwise it goes to `dest`. Announcements, Alert-Info, caller-name prefixes,
 * the pickup courtesy tone and private lots have no counterpart here and are reported when set.
 */
export async function migrateParking(trx: Trx, source: LegacySource, log: StepLog): Promise<void> {
  if (!(await source.hasTable('pbx', 'parkplus'))) {
    log.infos.push(msg('parking_none'));
    return;
  }
  const lots = await source.query<{
    id: number;
    name: string | null;
    type: string | null;
    parkext: string | null;
    parkpos: string | null;
    numslots: number | string | null;
    parkingtime: number | string | null;
    parkedmusicclass: string | null;
    comebacktoorigin: string | null;
    dest: string | null;
    announcement_id: number | null;
    alertinfo: string | null;
    cidpp: string | null;
  }>(
    `SELECT id, name, type, parkext, parkpos, numslots, parkingtime, parkedmusicclass, comebacktoorigin, dest,
            announcement_id, alertinfo, cidpp FROM ${source.table('pbx', 'parkplus')} ORDER BY id`,
  );
  if (lots.length === 0) {
    log.infos.push(msg('parking_none'));
    return;
  }
  const existing = new Set(
    (await trx.selectFrom('parking_lots').select('extension').execute()).map((r) => r.extension),
  );
  const check = await DestinationCheck.load(trx);
  const service = new ParkingService(trx);
  const pending: PendingLink[] = [];
  for (const lot of lots) {
    const number = String(lot.parkext ?? '').trim() || PARKING_DEFAULTS.extension;
    const name = (lot.name ?? '').trim() || `Parking ${number}`;
    const label = msg('parking_label', { number, name });
    if (existing.has(number)) {
      log.warnings.push(msg('label_exists', { label }));
      continue;
    }
    const oldSlots = Number.parseInt(String(lot.numslots ?? PARKING_DEFAULTS.slots), 10) || PARKING_DEFAULTS.slots;
    const slots = clamp(oldSlots, 1, PARKING_MAX_SLOTS);
    if (slots !== oldSlots) log.warnings.push(msg('parking_slots_changed', { label, old: oldSlots, new: slots }));
    const oldTime =
      Number.parseInt(String(lot.parkingtime ?? PARKING_DEFAULTS.timeout), 10) || PARKING_DEFAULTS.timeout;
    const timeout = clamp(oldTime, PARKING_MIN_TIMEOUT, PARKING_MAX_TIMEOUT);
    if (timeout !== oldTime) log.warnings.push(msg('parking_timeout_changed', { label, old: oldTime, new: timeout }));
    const music = (lot.parkedmusicclass ?? '').trim();
    if (music !== '' && music !== 'default' && music !== 'inherit')
      log.warnings.push(msg('music_missing', { label, music }));
    for (const [set, what] of [
      [Number(lot.announcement_id) > 0, msg('parking_announcement')],
      [(lot.alertinfo ?? '').trim() !== '', msg('parking_alertinfo')],
      [(lot.cidpp ?? '').trim() !== '', msg('parking_cidpp')],
      [(lot.type ?? 'public').trim() === 'private', msg('parking_private')],
    ] as const) {
      if (set) log.warnings.push(msg('parking_not_kept', { label, what }));
    }
    const back = (lot.comebacktoorigin ?? 'yes').trim().toLowerCase() !== 'no';
    let waiting: string | null = null;
    const body = parkingLotWriteSchema.safeParse({
      extension: number,
      name: name.slice(0, 80),
      first_slot: String(lot.parkpos ?? '').trim() || String(Number(number) + 1),
      slots,
      timeout,
      timeout_dest: back
        ? null
        : check.check(lot.dest, log, {
            kinds: kindsAfter('group'),
            later: (o) => {
              waiting = o;
            },
          }),
    });
    if (!body.success) {
      log.errors.push(msg('with_reason', { subject: label, reason: schemaRefusal(body.error) }));
      continue;
    }
    try {
      const id = await service.createIn(trx, body.data);
      if (waiting) pending.push({ table: 'parking_lots', id, column: 'timeout_dest', selection: null, old: waiting });
    } catch (error) {
      log.errors.push(msg('with_reason', { subject: label, reason: describe(error) }));
      continue;
    }
    existing.add(number);
    log.infos.push(msg('label_migrated', { label }));
  }
  await addPending(trx, pending);
}
