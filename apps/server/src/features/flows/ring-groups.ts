import {
  type RingGroup,
  type RingGroupMember,
  type RingGroupWrite,
  ringGroupDestination,
  ringGroupWriteSchema,
} from '@centralino/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { assertRingGroupNumberFree } from '../numbering/allocate.ts';
import { memberUserIds } from '../users/member-users.ts';
import { checkFlowWrite, namedWrite, refuseWhileUsed } from './service.ts';

type Db = Kysely<Database>;

/**
 * Ring groups (issue 42, item 4). The number is checked by the numbering rules like a queue's; user members are kept
 * by user id (a user's new extension follows, a deleted user drops out) and given and shown by main extension;
 * outside numbers are kept as typed.
 */
export class RingGroupsService {
  constructor(private readonly db: Db) {}

  async list(): Promise<RingGroup[]> {
    const [rows, members] = await Promise.all([
      this.db.selectFrom('ring_groups').selectAll().orderBy('extension').execute(),
      this.db
        .selectFrom('ring_group_members')
        .leftJoin('users', 'users.id', 'ring_group_members.user_id')
        .select([
          'ring_group_members.ring_group_id',
          'ring_group_members.external',
          'ring_group_members.user_id',
          'users.default_extension',
        ])
        .orderBy('ring_group_members.ring_group_id')
        .orderBy('ring_group_members.position')
        .execute(),
    ]);
    const of = new Map<number, RingGroupMember[]>();
    for (const m of members) {
      let member: RingGroupMember | undefined;
      if (m.external !== null) member = { type: 'external', number: m.external };
      // A user whose extension was taken away has nothing to ring until given one again.
      else if (m.default_extension) member = { type: 'extension', number: m.default_extension };
      if (!member) continue;
      const list = of.get(Number(m.ring_group_id));
      if (list) list.push(member);
      else of.set(Number(m.ring_group_id), [member]);
    }
    return rows.map((r) => ({
      id: Number(r.id),
      extension: r.extension,
      name: r.name,
      strategy: r.strategy as RingGroup['strategy'],
      ring_time: Number(r.ring_time),
      members: of.get(Number(r.id)) ?? [],
      confirm_external: Number(r.confirm_external) === 1,
      failover_dest: r.failover_dest,
      recording: r.recording_policy as RingGroup['recording'],
      destination: ringGroupDestination(r.extension),
    }));
  }

  /** The user id of each extension member; an extension no user has is refused (422) on its field. */
  private userIds(trx: Db, members: RingGroupMember[]): Promise<Map<string, number>> {
    return memberUserIds(trx, members, 'members');
  }

  private async write(trx: Db, id: number | null, input: RingGroupWrite): Promise<number> {
    const v = ringGroupWriteSchema.parse(input);
    const users = await this.userIds(trx, v.members);
    await assertRingGroupNumberFree(trx, v.extension, id ?? undefined);
    const row = {
      extension: v.extension,
      name: v.name,
      strategy: v.strategy,
      ring_time: v.ring_time,
      confirm_external: v.confirm_external ? 1 : 0,
      failover_dest: v.failover_dest,
      recording_policy: v.recording,
    };
    let groupId: number;
    if (id === null) {
      groupId = Number((await trx.insertInto('ring_groups').values(row).returning('id').executeTakeFirstOrThrow()).id);
    } else {
      const old = await trx
        .selectFrom('ring_groups')
        .select(['extension', 'name'])
        .where('id', '=', id)
        .executeTakeFirst();
      if (!old) throw new AppError(404, 'not_found');
      // A new number would leave whoever sends calls to the old one pointing at nothing.
      if (old.extension !== v.extension) await this.assertUnused(trx, old);
      await trx.updateTable('ring_groups').set(row).where('id', '=', id).execute();
      await trx.deleteFrom('ring_group_members').where('ring_group_id', '=', id).execute();
      groupId = id;
    }
    await trx
      .insertInto('ring_group_members')
      .values(
        v.members.map((m, position) => ({
          ring_group_id: groupId,
          position,
          user_id: m.type === 'extension' ? (users.get(m.number) as number) : null,
          external: m.type === 'external' ? m.number : null,
        })),
      )
      .execute();
    await checkFlowWrite(trx, [['failover_dest', v.failover_dest]]);
    return groupId;
  }

  /** Inside a caller's transaction (the migration's step): the same checks, committed or rolled back with it. */
  createIn(trx: Db, input: RingGroupWrite): Promise<number> {
    return this.write(trx, null, input);
  }

  create(input: RingGroupWrite): Promise<number> {
    return namedWrite(this.db, input.name, (trx) => this.write(trx, null, input));
  }

  async update(id: number, input: RingGroupWrite): Promise<void> {
    await namedWrite(this.db, input.name, (trx) => this.write(trx, id, input));
  }

  /** Refuses (409, naming who) while routes, flows or users send calls to it; its own failover back does not count. */
  private async assertUnused(trx: Db, group: { extension: string; name: string }): Promise<void> {
    await refuseWhileUsed(
      trx,
      ringGroupDestination(group.extension),
      { kind: 'ringgroup', name: `${group.extension} ${group.name}` },
      {
        en: `Ring group ${group.extension} ${group.name}`,
        it: `Il gruppo di chiamata ${group.extension} ${group.name}`,
      },
    );
  }

  async remove(id: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('ring_groups')
        .select(['extension', 'name'])
        .where('id', '=', id)
        .executeTakeFirst();
      if (!row) throw new AppError(404, 'not_found');
      await this.assertUnused(trx, row);
      await trx.deleteFrom('ring_group_members').where('ring_group_id', '=', id).execute();
      await trx.deleteFrom('ring_groups').where('id', '=', id).execute();
    });
  }
}
