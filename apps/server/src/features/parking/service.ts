import {
  type ParkingLot,
  type ParkingLotWrite,
  parkingDestination,
  parkingLotWriteSchema,
  parkingSlots,
} from '@centralino/contract';
import type { Kysely, Selectable } from 'kysely';
import type { Database, ParkingLotsTable } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { checkFlowWrite, namedWrite, refuseWhileUsed } from '../flows/service.ts';
import { assertParkingNumbersFree } from '../numbering/allocate.ts';

type Db = Kysely<Database>;

/** A stored lot as the API shows it. */
export function lotOf(r: Selectable<ParkingLotsTable>): ParkingLot {
  const slots = Number(r.slots);
  const first = String(r.first_slot);
  const extension = String(r.extension);
  return {
    id: Number(r.id),
    extension,
    name: String(r.name),
    first_slot: first,
    slots,
    last_slot: parkingSlots(first, slots).at(-1) ?? first,
    timeout: Number(r.timeout),
    timeout_dest: r.timeout_dest,
    music_class: String(r.music_class),
    destination: parkingDestination(extension),
  };
}

/**
 * Parking lots (issue 42 item 2). The lot number and every slot go through the numbering rules, so none can be a
 * user's, a queue's or another lot's; the timeout destination must exist in the catalogue.
 */
export class ParkingService {
  constructor(private readonly db: Db) {}

  async list(): Promise<ParkingLot[]> {
    const rows = await this.db.selectFrom('parking_lots').selectAll().orderBy('extension').execute();
    return rows.map((r) => lotOf(r));
  }

  private async write(trx: Db, id: number | null, input: ParkingLotWrite): Promise<number> {
    const v = parkingLotWriteSchema.parse(input);
    const old =
      id === null ? null : await trx.selectFrom('parking_lots').selectAll().where('id', '=', id).executeTakeFirst();
    if (id !== null && !old) throw new AppError(404, 'not_found');
    await assertParkingNumbersFree(trx, [v.extension, ...parkingSlots(v.first_slot, v.slots)], id ?? undefined);
    const row = {
      extension: v.extension,
      name: v.name,
      first_slot: v.first_slot,
      slots: v.slots,
      timeout: v.timeout,
      timeout_dest: v.timeout_dest,
      music_class: v.music_class,
    };
    let lotId: number;
    if (id === null || !old) {
      lotId = Number((await trx.insertInto('parking_lots').values(row).returning('id').executeTakeFirstOrThrow()).id);
    } else {
      // A new number would leave whoever sends calls to the old one pointing at nothing.
      if (old.extension !== v.extension) await this.assertUnused(trx, old);
      await trx.updateTable('parking_lots').set(row).where('id', '=', id).execute();
      lotId = id;
    }
    if (v.timeout_dest !== null) await checkFlowWrite(trx, [['timeout_dest', v.timeout_dest]]);
    return lotId;
  }

  /** Inside a caller's transaction (the migration's step): the same checks, committed or rolled back with it. */
  createIn(trx: Db, input: ParkingLotWrite): Promise<number> {
    return this.write(trx, null, input);
  }

  create(input: ParkingLotWrite): Promise<number> {
    return namedWrite(this.db, input.name, (trx) => this.write(trx, null, input));
  }

  async update(id: number, input: ParkingLotWrite): Promise<void> {
    await namedWrite(this.db, input.name, (trx) => this.write(trx, id, input));
  }

  /** Refuses (409, naming who) while routes or flows send calls to it; its own timeout back to it does not count. */
  private async assertUnused(trx: Db, lot: { extension: string; name: string }): Promise<void> {
    await refuseWhileUsed(
      trx,
      parkingDestination(lot.extension),
      { kind: 'parking', name: `${lot.extension} ${lot.name}` },
      { en: `Parking lot ${lot.extension} ${lot.name}`, it: `Il parcheggio ${lot.extension} ${lot.name}` },
    );
  }

  async remove(id: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('parking_lots')
        .select(['extension', 'name'])
        .where('id', '=', id)
        .executeTakeFirst();
      if (!row) throw new AppError(404, 'not_found');
      await this.assertUnused(trx, row);
      await trx.deleteFrom('parking_lots').where('id', '=', id).execute();
    });
  }
}
