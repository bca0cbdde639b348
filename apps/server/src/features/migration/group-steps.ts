import { type QueueWrite, queueWriteSchema } from '@centralino/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { SettingsStore } from '../../db/settings-store.ts';
import { QueuesService } from '../flows/queues.ts';
import { DestinationCheck, IDS_KEY, kindsAfter } from './destinations.ts';
import { describe, msg, schemaRefusal } from './messages.ts';
import { addPending, type PendingLink } from './pending.ts';
import type { LegacySource } from './source.ts';
import type { StepLog } from './state.ts';

type Trx = Kysely<Database>;

/**
 * How each FreePBX ring-group strategy rings, as the nearest queue strategy: the `-prim` variants and "first
 * available" ring everyone; the hunts ring one member at a time, which a round-robin queue does too.
 */
const GROUP_STRATEGY: Record<string, QueueWrite['strategy']> = {
  ringall: 'ringall',
  'ringall-prim': 'ringall',
  firstavailable: 'ringall',
  firstnotonphone: 'ringall',
  hunt: 'rrmemory',
  'hunt-prim': 'rrmemory',
  memoryhunt: 'rrmemory',
  'memoryhunt-prim': 'rrmemory',
  random: 'random',
};

/**
 * FreePBX ring groups (`ringgroups`). Centralino has no numbered ring group (its groups are the CTI groups, rung by
 * name), so each becomes a queue with the same number, its members static, ringing for the group's time and then
 * going to the group's failover: what callers and phones dial keeps working. Each group says so in an info line.
 */
export async function migrateRingGroups(trx: Trx, source: LegacySource, log: StepLog): Promise<void> {
  const groups = await source.query<{
    grpnum: string;
    strategy: string;
    grptime: number;
    grplist: string;
    postdest: string;
    description: string;
    ringing: string;
    grppre: string;
  }>(
    `SELECT grpnum, strategy, grptime, grplist, postdest, description, ringing, grppre
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
  const existing = new Set((await trx.selectFrom('queues').select('extension').execute()).map((q) => q.extension));
  const service = new QueuesService(trx);
  const pending: PendingLink[] = [];
  for (const g of groups) {
    const label = msg('ring_group_label', { number: g.grpnum, description: g.description || g.grpnum });
    if (existing.has(g.grpnum)) {
      if (check.ids.ringgroup[g.grpnum] === g.grpnum) log.warnings.push(msg('label_exists', { label }));
      else log.errors.push(msg('ring_group_queue_taken', { label, number: g.grpnum }));
      continue;
    }
    const members: string[] = [];
    // Members are separated by '-'; an external number ends with '#' and cannot be a queue member here.
    for (const raw of (g.grplist ?? '').split('-').map((m) => m.trim())) {
      if (raw === '') continue;
      if (users.has(raw)) {
        if (!members.includes(raw)) members.push(raw);
      } else {
        log.warnings.push(msg('member_missing', { label, member: raw }));
      }
    }
    const oldStrategy = (g.strategy ?? 'ringall').trim();
    const strategy = GROUP_STRATEGY[oldStrategy] ?? 'ringall';
    if (strategy !== oldStrategy)
      log.warnings.push(msg('strategy_changed', { label, old: oldStrategy, new: strategy }));
    // The queue it becomes does not put a prefix before the caller's name.
    if ((g.grppre ?? '').trim()) log.warnings.push(msg('prefix_dropped', { label, prefix: g.grppre.trim() }));
    const time = Math.min(120, Math.max(1, Number(g.grptime) || 20));
    let waiting: string | null = null;
    const body = queueWriteSchema.safeParse({
      extension: g.grpnum,
      name: (g.description || `Ring group ${g.grpnum}`).slice(0, 50),
      strategy,
      members,
      agents: [],
      ring_time: time,
      // The group rang for its time and then went on: the queue waits as long before its failover.
      max_wait: time,
      failover_dest: check.check(g.postdest, log, {
        kinds: kindsAfter('group'),
        later: (o) => {
          waiting = o;
        },
      }),
      music: (g.ringing ?? 'Ring') === 'Ring' ? 'ringing' : 'default',
      announce_position: false,
    });
    if (!body.success) {
      log.errors.push(msg('with_reason', { subject: label, reason: schemaRefusal(body.error) }));
      continue;
    }
    try {
      const id = await service.createIn(trx, body.data);
      if (waiting) pending.push({ table: 'queues', id, column: 'failover_dest', selection: null, old: waiting });
    } catch (error) {
      log.errors.push(msg('with_reason', { subject: label, reason: describe(error) }));
      continue;
    }
    check.addQueue(g.grpnum, g.grpnum);
    check.ids.ringgroup[g.grpnum] = g.grpnum;
    existing.add(g.grpnum);
    log.infos.push(msg('ring_group_migrated', { label, number: g.grpnum, strategy }));
  }
  await new SettingsStore(trx).set(IDS_KEY, check.ids, trx);
  await addPending(trx, pending);
}
