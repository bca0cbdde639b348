import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { PbxFollowMe } from './model.ts';
import type { ModelRows } from './model-rows.ts';

/**
 * The users' follow-me lists as the renderer wants them (issue 42), by user id: only those switched on with something
 * left to ring (a colleague without an extension now rings nothing and is left out).
 */
export async function loadFollowMe(kept: ModelRows, db: Kysely<Database>): Promise<Map<number, PbxFollowMe>> {
  const [heads, legs] = await Promise.all([
    kept.rows(db.selectFrom('followme').selectAll().where('enabled', '=', 1).orderBy('user_id')),
    kept.rows(
      db
        .selectFrom('followme_legs')
        .leftJoin('users', 'users.id', 'followme_legs.target_user_id')
        .select([
          'followme_legs.user_id',
          'followme_legs.position',
          'followme_legs.external',
          'followme_legs.ring_time',
          'users.default_extension',
        ])
        .orderBy('followme_legs.user_id')
        .orderBy('followme_legs.position'),
    ),
  ]);
  const of = new Map<number, PbxFollowMe['legs']>();
  for (const l of legs) {
    const number = l.external ?? l.default_extension;
    if (!number) continue;
    const leg = {
      kind: l.external !== null ? ('external' as const) : ('user' as const),
      number,
      ringTime: Number(l.ring_time),
    };
    const list = of.get(Number(l.user_id));
    if (list) list.push(leg);
    else of.set(Number(l.user_id), [leg]);
  }
  const out = new Map<number, PbxFollowMe>();
  for (const h of heads) {
    const list = of.get(Number(h.user_id));
    if (!list) continue;
    out.set(Number(h.user_id), {
      preRing: Number(h.pre_ring),
      strategy: h.strategy === 'ringall' ? 'ringall' : 'hunt',
      confirmExternal: Number(h.confirm_external) === 1,
      legs: list,
    });
  }
  return out;
}
