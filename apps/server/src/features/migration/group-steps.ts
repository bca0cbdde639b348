import { type RingGroupWrite, ringGroupWriteSchema } from '@centralino/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { SettingsStore } from '../../db/settings-store.ts';
import { RingGroupsService } from '../flows/ring-groups.ts';
import { DestinationCheck, IDS_KEY, kindsAfter } from './destinations.ts';
import { describe, msg, schemaRefusal } from './messages.ts';
import { addPending, type PendingLink } from './pending.ts';
import type { LegacySource } from './source.ts';
import type { StepLog } from './state.ts';

type Trx = Kysely<Database>;

/**
 * How each FreePBX ring-group strategy rings here. The `-prim` variants (the rest only while the first member is
 * free) and "first available" / "first not on the phone" have no equivalent: the nearest plain strategy, said.
 */
const GROUP_STRATEGY: Record<string, RingGroupWrite['strategy']> = {
  ringall: 'ringall',
  'ringall-prim': 'ringall',
  firstavailable: 'ringall',
  firstnotonphone: 'ringall',
  hunt: 'hunt',
  'hunt-prim': 'hunt',
  memoryhunt: 'memoryhunt',
  'memoryhunt-prim': 'memoryhunt',
  random: 'random',
};

/** FreePBX's call recording choices of a ring group: force records every call, no/never none, the rest leave it to *1. */
const OLD_RECORDING: Record<string, 'always' | 'never' | 'on_demand'> = {
  force: 'always',
  always: 'always',
  no: 'never',
  never: 'never',
};

/**
 * FreePBX ring groups (`ringgroups`) → ring groups with the same number, strategy, ring time and failover (issue 42;
 * before it each became a queue). Members are the old list's users (main extensions of migrated users) and outside
 * numbers (written with a trailing '#'); "confirm calls" (needsconf) becomes "press 1 to accept" on outside legs.
 */
export async function migrateRingGroups(trx: Trx, source: LegacySource, log: StepLog): Promise<void> {
  const groups = await source.query<{
    grpnum: string;
    strategy: string;
    grptime: number;
    grplist: string;
    postdest: string;
    description: string;
    grppre: string;
    needsconf: string | null;
    annmsg_id: number | null;
    alertinfo: string | null;
    remotealert_id: number | null;
    toolate_id: number | null;
    /** FreePBX 13 and later: force (always), yes (on demand), dontcare, no, never; absent before. */
    recording?: string | null;
  }>(
    // Every column: `recording` exists only from FreePBX 13 on.
    `SELECT *
       FROM ${source.table('pbx', 'ringgroups')} ORDER BY CAST(grpnum AS UNSIGNED), grpnum`,
  );
  if (groups.length === 0) {
    log.infos.push(msg('ring_groups_none'));
    return;
  }
  const check = await DestinationCheck.load(trx);
  const users = new Set(
    (
      await trx.selectFrom('users').select('default_extension').where('default_extension', 'is not', null).execute()
    ).map((u) => String(u.default_extension)),
  );
  const existing = new Set((await trx.selectFrom('ring_groups').select('extension').execute()).map((g) => g.extension));
  const service = new RingGroupsService(trx);
  const pending: PendingLink[] = [];
  for (const g of groups) {
    const label = msg('ring_group_label', { number: g.grpnum, description: g.description || g.grpnum });
    if (existing.has(g.grpnum)) {
      if (check.ids.ringgroup[g.grpnum] === g.grpnum) log.warnings.push(msg('label_exists', { label }));
      else log.errors.push(msg('ring_group_taken', { label, number: g.grpnum }));
      continue;
    }
    const members: RingGroupWrite['members'] = [];
    const has = (type: string, number: string) => members.some((m) => m.type === type && m.number === number);
    // Members are separated by '-'; an outside number ends with '#'.
    for (const raw of (g.grplist ?? '').split('-').map((m) => m.trim())) {
      if (raw === '') continue;
      const outside = /^(\+?\d{1,30})#$/.exec(raw)?.[1];
      if (outside) {
        if (!has('external', outside)) members.push({ type: 'external', number: outside });
      } else if (users.has(raw)) {
        if (!has('extension', raw)) members.push({ type: 'extension', number: raw });
      } else {
        log.warnings.push(msg('member_missing', { label, member: raw }));
      }
    }
    const oldStrategy = (g.strategy ?? 'ringall').trim();
    const strategy = GROUP_STRATEGY[oldStrategy] ?? 'ringall';
    if (strategy !== oldStrategy)
      log.warnings.push(msg('strategy_changed', { label, old: oldStrategy, new: strategy }));
    if ((g.grppre ?? '').trim()) log.warnings.push(msg('prefix_dropped', { label, prefix: g.grppre.trim() }));
    // What the old group played or signalled has no field here: said, so nobody expects it.
    for (const [set, what] of [
      [Number(g.annmsg_id) > 0, msg('ring_group_announcement')],
      [(g.alertinfo ?? '').trim() !== '', msg('ring_group_alertinfo')],
      [Number(g.remotealert_id) > 0 || Number(g.toolate_id) > 0, msg('ring_group_confirm_prompts')],
    ] as const) {
      if (set) log.warnings.push(msg('ring_group_not_kept', { label, what }));
    }
    const oldTime = Number(g.grptime) || 20;
    const time = Math.min(300, Math.max(1, oldTime));
    if (time !== oldTime) log.warnings.push(msg('ring_time_changed', { label, old: oldTime, new: time }));
    let waiting: string | null = null;
    const body = ringGroupWriteSchema.safeParse({
      extension: g.grpnum,
      name: (g.description || `Ring group ${g.grpnum}`).slice(0, 80),
      strategy,
      ring_time: time,
      members,
      confirm_external: (g.needsconf ?? '').trim().toUpperCase() === 'CHECKED',
      recording: OLD_RECORDING[(g.recording ?? '').trim().toLowerCase()] ?? 'on_demand',
      failover_dest: check.check(g.postdest, log, {
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
      if (waiting) pending.push({ table: 'ring_groups', id, column: 'failover_dest', selection: null, old: waiting });
    } catch (error) {
      log.errors.push(msg('with_reason', { subject: label, reason: describe(error) }));
      continue;
    }
    check.addRingGroup(g.grpnum);
    check.ids.ringgroup[g.grpnum] = g.grpnum;
    existing.add(g.grpnum);
    log.infos.push(
      msg('ring_group_migrated_here', {
        label,
        strategy,
        members: members.length,
        confirm: body.data.confirm_external ? msg('ring_group_confirm') : '',
      }),
    );
  }
  await new SettingsStore(trx).set(IDS_KEY, check.ids, trx);
  await addPending(trx, pending);
}
