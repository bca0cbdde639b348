import {
  QUEUE_STRATEGIES,
  type QueueWrite,
  queueWriteSchema,
  type TimeRange,
  timeRangeSchema,
} from '@centralino/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { SettingsStore } from '../../db/settings-store.ts';
import { QueuesService } from '../flows/queues.ts';
import { TimeConditionsService } from '../flows/time-conditions.ts';
import { DestinationCheck, IDS_KEY, kindsAfter } from './destinations.ts';
import { describe, msg, schemaRefusal } from './messages.ts';
import { migratedClass } from './music-steps.ts';
import { addPending, linkPending, type PendingLink } from './pending.ts';
import type { LegacySource } from './source.ts';
import type { StepLog } from './state.ts';

type Trx = Kysely<Database>;

/** Old strategies Asterisk had that Centralino does not offer, and the nearest it does. */
const NEAREST_STRATEGY: Record<string, (typeof QUEUE_STRATEGIES)[number]> = {
  linear: 'ringall',
  rrordered: 'rrmemory',
  wrandom: 'random',
  'ringall-prim': 'ringall',
  'rrmemory-prim': 'rrmemory',
};

/** The extension a `member` detail names: `Local/201@from-queue/n,0` or `SIP/201,0`. */
export function memberExtension(data: string): string | null {
  const m = /^[A-Za-z0-9_]+\/(\d+)(?:[@,/]|$)/.exec(data.trim());
  return m?.[1] ?? null;
}

/**
 * FreePBX 11 queues (`queues_config` + the `queues_details` keyword rows) → queues created through the queues
 * service in the step's transaction, so the numbering rules and the flow check are the ones the console applies.
 * Each queue keeps its number; static members are the old `member` rows whose extension is a migrated user's.
 */
export async function migrateQueues(trx: Trx, source: LegacySource, log: StepLog): Promise<void> {
  const queues = await source.query<{
    extension: string;
    descr: string;
    maxwait: string;
    ringing: number;
    dest: string;
    grppre: string;
  }>(
    `SELECT extension, descr, maxwait, ringing, dest, grppre FROM ${source.table('pbx', 'queues_config')}
       ORDER BY CAST(extension AS UNSIGNED), extension`,
  );
  if (queues.length === 0) {
    log.infos.push(msg('queues_none'));
    return;
  }
  const details = await source.query<{ id: string; keyword: string; data: string }>(
    `SELECT id, keyword, data FROM ${source.table('pbx', 'queues_details')} ORDER BY id, keyword, flags, data`,
  );
  const check = await DestinationCheck.load(trx);
  const users = new Set(
    (
      await trx.selectFrom('users').select('default_extension').where('default_extension', 'is not', null).execute()
    ).map((u) => String(u.default_extension)),
  );
  const existing = new Set((await trx.selectFrom('queues').select('extension').execute()).map((q) => q.extension));
  const service = new QueuesService(trx);
  const pending: PendingLink[] = [];
  for (const q of queues) {
    const label = (q.descr ?? '').trim()
      ? msg('queue_label', { number: q.extension, description: (q.descr ?? '').trim() })
      : msg('queue_label_bare', { number: q.extension });
    if (existing.has(q.extension)) {
      log.warnings.push(msg('label_exists', { label }));
      continue;
    }
    const own = details.filter((d) => d.id === q.extension);
    const one = (keyword: string) => own.find((d) => d.keyword === keyword)?.data;
    const members: string[] = [];
    for (const d of own.filter((x) => x.keyword === 'member')) {
      const ext = memberExtension(d.data);
      if (ext && users.has(ext)) {
        if (!members.includes(ext)) members.push(ext);
      } else {
        log.warnings.push(msg('member_missing', { label, member: ext ?? d.data }));
      }
    }
    const oldStrategy = (one('strategy') ?? 'ringall').trim();
    const strategy = (QUEUE_STRATEGIES as readonly string[]).includes(oldStrategy)
      ? (oldStrategy as QueueWrite['strategy'])
      : (NEAREST_STRATEGY[oldStrategy] ?? 'ringall');
    if (strategy !== oldStrategy)
      log.warnings.push(msg('strategy_changed', { label, old: oldStrategy, new: String(strategy) }));
    // 0 rang without limit on the old system; here a member rings at most two minutes before the next one.
    const timeout = Number.parseInt(one('timeout') ?? '', 10);
    const ringTime = Number.isFinite(timeout) && timeout > 0 ? Math.min(120, timeout) : 15;
    if (Number.isFinite(timeout) && (timeout <= 0 || timeout > 120)) {
      log.warnings.push(msg('ring_time_changed', { label, old: timeout, new: ringTime }));
    }
    // Centralino's queues do not put a prefix before the caller's name.
    if ((q.grppre ?? '').trim()) log.warnings.push(msg('prefix_dropped', { label, prefix: q.grppre.trim() }));
    const maxWait = Math.min(86_400, Math.max(0, Number.parseInt(q.maxwait ?? '', 10) || 0));
    const moh = (one('music') ?? 'default').trim();
    // A class migrated in the groups step (music-steps.ts) keeps playing; one that was not, the default.
    const kept = await migratedClass(trx, moh);
    const music: QueueWrite['music'] = Number(q.ringing) === 1 ? 'ringing' : (kept ?? 'default');
    if (kept === null && music === 'default') {
      log.warnings.push(msg('music_missing', { label, music: moh }));
    }
    let waiting: string | null = null;
    const body = queueWriteSchema.safeParse({
      extension: q.extension,
      name: (q.descr || `Queue ${q.extension}`).slice(0, 50),
      strategy,
      members,
      agents: [],
      ring_time: ringTime,
      max_wait: maxWait,
      // An object migrated later (or a queue later in this step): the failover waits for it (pending.ts).
      failover_dest: check.check(q.dest, log, {
        kinds: ['queue', ...kindsAfter('queue')],
        later: (o) => {
          waiting = o;
        },
      }),
      music,
      announce_position: (one('announce-position') ?? 'no') === 'yes',
    });
    if (!body.success) {
      log.errors.push(msg('with_reason', { subject: label, reason: schemaRefusal(body.error) }));
      continue;
    }
    try {
      const id = await service.createIn(trx, body.data);
      if (waiting) pending.push({ table: 'queues', id, selection: null, column: 'failover_dest', old: waiting });
    } catch (error) {
      // The step rolls back as a whole: the report says which queue and why.
      log.errors.push(msg('with_reason', { subject: label, reason: describe(error) }));
      continue;
    }
    check.addQueue(q.extension, q.extension);
    existing.add(q.extension);
    log.infos.push(msg('label_migrated', { label }));
  }
  // FreePBX kept the dynamic members (agents logging in with a code) in Asterisk's AstDB, not in these databases.
  log.warnings.push(msg('dynamic_agents'));
  await new SettingsStore(trx).set(IDS_KEY, check.ids, trx);
  await addPending(trx, pending);
  await linkPending(trx, log, kindsAfter('queue'));
}

const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

/**
 * One FreePBX time string `hh:mm-hh:mm|dow|dom|month` as a range here, or null when it cannot be read. FreePBX
 * writes single hours as `9:00` and ranges whose ends are equal as one value: both are normalised.
 */
export function rangeOf(time: string): TimeRange | null {
  const parts = time.split('|').map((p) => p.trim().toLowerCase());
  if (parts.length !== 4) return null;
  const pad = (t: string) => t.replace(/(^|-)(\d):/g, '$10$2:');
  const same = (v: string) => {
    const [a, b] = v.split('-');
    return b !== undefined && a === b ? a : v;
  };
  const [hours = '*', weekdays = '*', mdays = '*', months = '*'] = parts.map((p) => same(p || '*'));
  const parsed = timeRangeSchema.safeParse({ hours: pad(hours), weekdays, mdays, months });
  if (!parsed.success) return null;
  // Asterisk reads the weekdays as written; an unknown abbreviation would never match (the schema already refuses).
  if (!parsed.data.weekdays.split('-').every((d) => d === '*' || DAYS.includes(d))) return null;
  return parsed.data;
}

/** Time groups and their ranges; a range that cannot be read is reported, a group with none left is not created. */
export async function migrateTimeGroups(trx: Trx, source: LegacySource, log: StepLog): Promise<void> {
  const groups = await source.query<{ id: number; description: string }>(
    `SELECT id, description FROM ${source.table('pbx', 'timegroups_groups')} ORDER BY id`,
  );
  if (groups.length === 0) {
    log.infos.push(msg('time_groups_none'));
    return;
  }
  const details = await source.query<{ timegroupid: number; time: string }>(
    `SELECT timegroupid, time FROM ${source.table('pbx', 'timegroups_details')} ORDER BY id`,
  );
  const check = await DestinationCheck.load(trx);
  const names = new Map(
    (await trx.selectFrom('time_groups').select(['id', 'name']).execute()).map((g) => [g.name, Number(g.id)]),
  );
  const service = new TimeConditionsService(trx);
  for (const g of groups) {
    const name = (g.description || `Time group ${g.id}`).slice(0, 50);
    const had = names.get(name);
    if (had !== undefined) {
      check.ids.timegroup[String(g.id)] = had;
      log.warnings.push(msg('time_group_exists', { name }));
      continue;
    }
    const ranges: TimeRange[] = [];
    for (const d of details.filter((x) => Number(x.timegroupid) === Number(g.id))) {
      const range = rangeOf(d.time ?? '');
      if (range) ranges.push(range);
      else log.warnings.push(msg('time_group_range', { name, range: d.time }));
    }
    if (ranges.length === 0) {
      log.warnings.push(msg('time_group_empty', { name }));
      continue;
    }
    try {
      const id = await service.createGroupIn(trx, { name, ranges: ranges.slice(0, 50) });
      check.ids.timegroup[String(g.id)] = id;
      names.set(name, id);
      log.infos.push(msg('time_group_migrated', { name }));
    } catch (error) {
      log.errors.push(msg('with_reason', { subject: msg('time_group_label', { name }), reason: describe(error) }));
    }
  }
  await new SettingsStore(trx).set(IDS_KEY, check.ids, trx);
}

/**
 * Time conditions, each on the migrated group its old `time` named; `truegoto`/`falsegoto` through the destination
 * check (a condition leading to an earlier one finds it: each new id is known as soon as it is created).
 */
export async function migrateTimeConditions(trx: Trx, source: LegacySource, log: StepLog): Promise<void> {
  const rows = await source.query<{
    timeconditions_id: number;
    displayname: string;
    time: number | string | null;
    truegoto: string;
    falsegoto: string;
  }>(
    `SELECT timeconditions_id, displayname, time, truegoto, falsegoto
       FROM ${source.table('pbx', 'timeconditions')} ORDER BY timeconditions_id`,
  );
  if (rows.length === 0) {
    log.infos.push(msg('time_conditions_none'));
    return;
  }
  const check = await DestinationCheck.load(trx);
  const names = new Set((await trx.selectFrom('time_conditions').select('name').execute()).map((c) => c.name));
  const service = new TimeConditionsService(trx);
  const tcWaits: { id: number; column: string; old: string }[] = [];
  for (const c of rows) {
    const name = (c.displayname || `Time condition ${c.timeconditions_id}`).slice(0, 50);
    if (names.has(name)) {
      log.warnings.push(msg('time_condition_exists', { name }));
      continue;
    }
    const group = check.ids.timegroup[String(c.time ?? '')];
    if (group === undefined) {
      log.warnings.push(msg('time_condition_no_group', { name }));
      continue;
    }
    try {
      // A condition leading to a later one waits for it (linked at the end of the step).
      const waits: [string, string][] = [];
      const dest = (old: string, column: string) =>
        check.check(old, log, { kinds: ['timecondition'], later: (o) => waits.push([column, o]) });
      const id = await service.createConditionIn(trx, {
        name,
        time_group_id: group,
        true_dest: dest(c.truegoto, 'true_dest'),
        false_dest: dest(c.falsegoto, 'false_dest'),
      });
      tcWaits.push(...waits.map(([column, old]) => ({ id, column, old })));
      check.ids.timecondition[String(c.timeconditions_id)] = id;
      names.add(name);
      log.infos.push(msg('time_condition_migrated', { name }));
    } catch (error) {
      log.errors.push(msg('with_reason', { subject: msg('time_condition_label', { name }), reason: describe(error) }));
    }
  }
  await new SettingsStore(trx).set(IDS_KEY, check.ids, trx);
  for (const w of tcWaits) {
    await trx
      .updateTable('time_conditions')
      .set({ [w.column as 'true_dest' | 'false_dest']: check.check(w.old, log) })
      .where('id', '=', w.id)
      .execute();
  }
  // Whatever led to a time condition (IVR keys, announcements, day/night, queues) was waiting for this step.
  await linkPending(trx, log, []);
}
