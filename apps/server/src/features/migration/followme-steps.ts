import { FOLLOWME_TIME, type FollowMeWrite, followMeSchema } from '@centralino/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { FollowMeService } from '../users/follow-me.ts';
import { describe, msg, schemaRefusal } from './messages.ts';
import type { LegacySource } from './source.ts';
import type { StepLog } from './state.ts';

type Trx = Kysely<Database>;

/** FreePBX's follow-me strategies here: the -prim variants and "first available" ring as their plain kind. */
const STRATEGY: Record<string, FollowMeWrite['strategy']> = {
  ringallv2: 'ringall',
  'ringallv2-prim': 'ringall',
  ringall: 'ringall',
  'ringall-prim': 'ringall',
  firstavailable: 'ringall',
  firstnotonphone: 'ringall',
  hunt: 'hunt',
  'hunt-prim': 'hunt',
  memoryhunt: 'hunt',
  'memoryhunt-prim': 'hunt',
};

const clampTime = (seconds: number) => Math.min(FOLLOWME_TIME.max, Math.max(FOLLOWME_TIME.min, seconds));

/**
 * FreePBX's follow-me (`findmefollow`, one row per extension, grpnum the extension) → the user's follow-me: the list
 * without the user's own extension (which rings first here anyway), pre_ring as the own phones' time, grptime as each
 * number's, needsconf as "press 1". Whether it was switched on lived in AstDB (ddial), which the migration cannot
 * read: each list comes in switched off, and the report says so.
 */
export async function migrateFollowMe(trx: Trx, source: LegacySource, log: StepLog): Promise<void> {
  const rows = await source
    .query<{
      grpnum: string;
      strategy: string | null;
      grptime: number | null;
      grplist: string | null;
      postdest: string | null;
      pre_ring: number | null;
      needsconf: string | null;
      grppre: string | null;
    }>(
      `SELECT grpnum, strategy, grptime, grplist, postdest, pre_ring, needsconf, grppre
       FROM ${source.table('pbx', 'findmefollow')} ORDER BY CAST(grpnum AS UNSIGNED), grpnum`,
    )
    // A system that never had the follow-me module has no such table: nothing to migrate.
    .catch((error: unknown) => {
      if (/doesn't exist|no such table/i.test(String((error as Error)?.message))) return [];
      throw error;
    });
  if (rows.length === 0) {
    log.infos.push(msg('followme_none'));
    return;
  }
  const users = new Map(
    (
      await trx
        .selectFrom('users')
        .select(['id', 'default_extension'])
        .where('default_extension', 'is not', null)
        .execute()
    ).map((u) => [String(u.default_extension), Number(u.id)]),
  );
  const existing = new Set(
    (await trx.selectFrom('followme').select('user_id').execute()).map((r) => Number(r.user_id)),
  );
  const service = new FollowMeService(trx);
  for (const r of rows) {
    const ext = String(r.grpnum).trim();
    const label = msg('followme_label', { ext });
    const userId = users.get(ext);
    if (userId === undefined) {
      log.warnings.push(msg('followme_no_user', { label, ext }));
      continue;
    }
    if (existing.has(userId)) {
      log.warnings.push(msg('followme_exists', { label }));
      continue;
    }
    const oldTime = Number(r.grptime) || 20;
    const time = clampTime(oldTime);
    if (time !== oldTime)
      log.warnings.push(
        msg('followme_time_changed', { label, what: msg('followme_list_time'), old: oldTime, new: time }),
      );
    const legs: FollowMeWrite['legs'] = [];
    // '-' between numbers, an outside number ending with '#', as in ring groups.
    for (const raw of (r.grplist ?? '').split('-').map((m) => m.trim())) {
      if (raw === '' || raw === ext) continue;
      const outside = /^(\+?\d{1,30})#$/.exec(raw)?.[1];
      const number = outside ?? raw;
      if (legs.some((l) => l.number === number)) continue;
      if (outside) legs.push({ type: 'external', number: outside, ring_time: time });
      else if (users.has(raw)) legs.push({ type: 'extension', number: raw, ring_time: time });
      else log.warnings.push(msg('member_missing', { label, member: raw }));
    }
    if (legs.length === 0) {
      log.warnings.push(msg('followme_empty', { label }));
      continue;
    }
    const oldStrategy = (r.strategy ?? 'ringallv2').trim();
    const strategy = STRATEGY[oldStrategy] ?? 'ringall';
    if (strategy !== oldStrategy)
      log.warnings.push(msg('strategy_changed', { label, old: oldStrategy, new: strategy }));
    // FreePBX's 0 rang the own phones with the list: here they ring first, for at least a second.
    const oldPre = Number(r.pre_ring) || 0;
    const preRing = clampTime(oldPre);
    if (preRing !== oldPre)
      log.warnings.push(
        msg('followme_time_changed', { label, what: msg('followme_pre_ring'), old: oldPre, new: preRing }),
      );
    if ((r.grppre ?? '').trim()) log.warnings.push(msg('prefix_dropped', { label, prefix: (r.grppre ?? '').trim() }));
    const postdest = (r.postdest ?? '').trim();
    if (postdest && !new RegExp(`^(ext-local,vm[bu]${ext},1|from-did-direct,${ext},1)$`).test(postdest))
      log.warnings.push(msg('followme_postdest', { label, destination: postdest }));
    const body = followMeSchema.safeParse({
      enabled: false,
      pre_ring: preRing,
      strategy,
      confirm_external: (r.needsconf ?? '').trim().toUpperCase() === 'CHECKED',
      legs: legs.slice(0, 10),
    });
    if (!body.success) {
      log.errors.push(msg('with_reason', { subject: label, reason: schemaRefusal(body.error) }));
      continue;
    }
    try {
      await service.setIn(trx, { id: userId, extension: ext }, body.data);
    } catch (error) {
      log.errors.push(msg('with_reason', { subject: label, reason: describe(error) }));
      continue;
    }
    existing.add(userId);
    log.infos.push(
      msg('followme_migrated', {
        label,
        strategy,
        legs: body.data.legs.length,
        confirm: body.data.confirm_external ? msg('ring_group_confirm') : '',
      }),
    );
  }
}
