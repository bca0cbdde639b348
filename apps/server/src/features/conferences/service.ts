import {
  CONFERENCE_PINS_EQUAL_MESSAGE,
  type Conference,
  type ConferenceWrite,
  conferenceDestination,
  conferenceWriteSchema,
  localiseValidationMessage,
} from '@centralino/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { describeReferences, referencesTo } from '../destinations/catalogue.ts';
import { inUse, namedWrite } from '../flows/service.ts';
import { assertMusicClass } from '../music/uses.ts';
import { assertConferenceNumberFree } from '../numbering/allocate.ts';

type Db = Kysely<Database>;

/** A PIN as stored: null for none. */
const storedPin = (pin: string | undefined, old: string | null): string | null =>
  pin === undefined ? old : pin === '' ? null : pin;

/**
 * Conference rooms (issue 42 item 1). A room's number is checked by the numbering rules like a queue's; its PINs are
 * write-only (see the contract), so the admin-differs-from-user rule is checked again against what is kept.
 */
export class ConferencesService {
  constructor(private readonly db: Db) {}

  async list(): Promise<Conference[]> {
    const rows = await this.db.selectFrom('conferences').selectAll().orderBy('extension').execute();
    return rows.map((r) => ({
      id: Number(r.id),
      extension: r.extension,
      name: r.name,
      has_user_pin: r.user_pin !== null,
      has_admin_pin: r.admin_pin !== null,
      max_members: Number(r.max_members),
      music_when_alone: Number(r.music_when_alone) === 1,
      music_class: r.music_class,
      announce_join_leave: Number(r.announce_join_leave) === 1,
      record: Number(r.record) === 1,
      destination: conferenceDestination(r.extension),
    }));
  }

  /** Every room by its number, for naming what AMI reports. */
  async byExtension(): Promise<Map<string, { id: number; name: string }>> {
    const rows = await this.db.selectFrom('conferences').select(['id', 'extension', 'name']).execute();
    return new Map(rows.map((r) => [r.extension, { id: Number(r.id), name: r.name }]));
  }

  /** The room's number by id (the live routes ask AMI by number); 404 when there is none. */
  async extensionOf(id: number): Promise<string> {
    const row = await this.db.selectFrom('conferences').select('extension').where('id', '=', id).executeTakeFirst();
    if (!row) throw new AppError(404, 'not_found');
    return row.extension;
  }

  private async write(trx: Db, id: number | null, input: ConferenceWrite): Promise<number> {
    const v = conferenceWriteSchema.parse(input);
    const old =
      id === null ? null : await trx.selectFrom('conferences').selectAll().where('id', '=', id).executeTakeFirst();
    if (id !== null && !old) throw new AppError(404, 'not_found');
    const userPin = storedPin(v.user_pin, old?.user_pin ?? null);
    const adminPin = storedPin(v.admin_pin, old?.admin_pin ?? null);
    if (userPin !== null && userPin === adminPin) {
      throw new AppError(
        400,
        'validation',
        (lang) => localiseValidationMessage(lang, CONFERENCE_PINS_EQUAL_MESSAGE),
        (lang) => ({ admin_pin: localiseValidationMessage(lang, CONFERENCE_PINS_EQUAL_MESSAGE) }),
      );
    }
    await assertConferenceNumberFree(trx, v.extension, id ?? undefined);
    await assertMusicClass(trx, v.music_class, 'music_class');
    const row = {
      extension: v.extension,
      name: v.name,
      user_pin: userPin,
      admin_pin: adminPin,
      max_members: v.max_members,
      music_when_alone: v.music_when_alone ? 1 : 0,
      music_class: v.music_class,
      announce_join_leave: v.announce_join_leave ? 1 : 0,
      record: v.record ? 1 : 0,
    };
    if (id === null || !old) {
      return Number((await trx.insertInto('conferences').values(row).returning('id').executeTakeFirstOrThrow()).id);
    }
    // A new number would leave whoever sends calls to the old one pointing at nothing.
    if (old.extension !== v.extension) await this.assertUnused(trx, old.extension, old.name);
    await trx.updateTable('conferences').set(row).where('id', '=', id).execute();
    return id;
  }

  /** Inside a caller's transaction (the migration's step): the same checks, committed or rolled back with it. */
  createIn(trx: Db, input: ConferenceWrite): Promise<number> {
    return this.write(trx, null, input);
  }

  create(input: ConferenceWrite): Promise<number> {
    return namedWrite(this.db, input.name, (trx) => this.write(trx, null, input));
  }

  async update(id: number, input: ConferenceWrite): Promise<void> {
    await namedWrite(this.db, input.name, (trx) => this.write(trx, id, input));
  }

  private async assertUnused(trx: Db, extension: string, name: string): Promise<void> {
    const refs = await referencesTo(trx, [conferenceDestination(extension)]);
    if (refs.length > 0) {
      throw inUse({ en: `Conference ${extension} ${name}`, it: `La conferenza ${extension} ${name}` }, (lang) =>
        describeReferences(refs, lang),
      );
    }
  }

  /** Refuses while routes, flows or users send calls to the room. */
  async remove(id: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('conferences')
        .select(['extension', 'name'])
        .where('id', '=', id)
        .executeTakeFirst();
      if (!row) throw new AppError(404, 'not_found');
      await this.assertUnused(trx, row.extension, row.name);
      await trx.deleteFrom('conferences').where('id', '=', id).execute();
    });
  }
}
