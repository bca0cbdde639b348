import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { PbxNumberedRingGroup } from './model.ts';
import type { ModelRows } from './model-rows.ts';

/** The ring groups of issue 42 as the renderer wants them: members in ring order, users by main extension. */
export async function loadRingGroups(kept: ModelRows, db: Kysely<Database>): Promise<PbxNumberedRingGroup[]> {
  const [groups, members] = await Promise.all([
    kept.rows(db.selectFrom('ring_groups').selectAll().orderBy('extension')),
    kept.rows(
      db
        .selectFrom('ring_group_members')
        .leftJoin('users', 'users.id', 'ring_group_members.user_id')
        .select([
          'ring_group_members.ring_group_id',
          'ring_group_members.position',
          'ring_group_members.external',
          'users.default_extension',
        ])
        .orderBy('ring_group_members.ring_group_id')
        .orderBy('ring_group_members.position'),
    ),
  ]);
  const of = new Map<number, PbxNumberedRingGroup['members']>();
  for (const m of members) {
    const member =
      m.external !== null
        ? { kind: 'external' as const, number: m.external }
        : // A user without an extension (taken away since) has nothing to ring.
          m.default_extension
          ? { kind: 'user' as const, number: m.default_extension }
          : undefined;
    if (!member) continue;
    const list = of.get(Number(m.ring_group_id));
    if (list) list.push(member);
    else of.set(Number(m.ring_group_id), [member]);
  }
  return groups.map((g) => ({
    number: g.extension,
    name: g.name,
    strategy: g.strategy as PbxNumberedRingGroup['strategy'],
    ringTime: Number(g.ring_time),
    confirmExternal: Number(g.confirm_external) === 1,
    failover: g.failover_dest,
    recording: g.recording_policy as PbxNumberedRingGroup['recording'],
    members: of.get(Number(g.id)) ?? [],
  }));
}
