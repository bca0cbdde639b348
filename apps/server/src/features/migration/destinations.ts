import {
  announcementDestination,
  conferenceDestination,
  cqrDestination,
  dayNightDestination,
  ivrDestination,
  queueDestination,
  ringGroupDestination,
  timeConditionDestination,
} from '@centralino/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { SettingsStore } from '../../db/settings-store.ts';
import { HANGUP_DESTINATION } from '../destinations/catalogue.ts';
import { type Message, type MigrationMessageKey, msg } from './messages.ts';
import type { StepLog } from './state.ts';

/**
 * The destination check of contract §11.1, against what exists here now: a direct-extension or voicemail
 * destination is kept when that extension is a user's main extension (with a mailbox, for voicemail); hang up
 * and busy are kept; a day/night switch is kept when it was migrated; a queue is kept when a queue with its number
 * exists here, a ring group when a ring group with its number does; a conference is kept when a room with its number
 * exists here (migrated first, conference-steps.ts). Anything else (custom contexts, paging: objects
 * Centralino has no home for) becomes hang up with a warning naming the old destination in words. IVRs,
 * announcements, CQRs and time conditions get new ids here: the old id is looked up in the ids the migration gave
 * them (settings `migration_ids`).
 */
export class DestinationCheck {
  private constructor(
    private readonly extensions: Set<string>,
    private readonly mailboxes: Set<string>,
    private readonly switches: Set<number>,
    private readonly queues: Set<string>,
    private readonly ringGroups: Set<string>,
    readonly ids: MigratedIds,
    private readonly conferences = new Set<string>(),
  ) {}

  static async load(db: Kysely<Database>): Promise<DestinationCheck> {
    const stored = await new SettingsStore(db).get<Partial<MigratedIds>>(IDS_KEY);
    const ids: MigratedIds = {
      ivr: {},
      announcement: {},
      queue: {},
      ringgroup: {},
      cqr: {},
      recording: {},
      timegroup: {},
      timecondition: {},
      ...stored,
    };
    const [users, switches, queues, ringGroups] = await Promise.all([
      db
        .selectFrom('users')
        .select(['default_extension', 'voicemail_pin'])
        .where('default_extension', 'is not', null)
        .execute(),
      db.selectFrom('daynight').select('ext').execute(),
      db.selectFrom('queues').select('extension').execute(),
      db.selectFrom('ring_groups').select('extension').execute(),
    ]);
    return new DestinationCheck(
      new Set(users.map((u) => String(u.default_extension))),
      new Set(users.filter((u) => u.voicemail_pin !== null).map((u) => String(u.default_extension))),
      new Set(switches.map((s) => Number(s.ext))),
      new Set(queues.map((q) => q.extension)),
      new Set(ringGroups.map((g) => g.extension)),
      ids,
      new Set((await db.selectFrom('conferences').select('extension').execute()).map((r) => r.extension)),
    );
  }

  /** A queue created by the running step: destinations checked after it in the same step find it. */
  addQueue(oldNumber: string, number: string): void {
    this.queues.add(number);
    if (oldNumber !== number) this.ids.queue[oldNumber] = number;
  }

  /** A ring group created by the running step. */
  addRingGroup(number: string): void {
    this.ringGroups.add(number);
  }

  /**
   * `wait`: for a destination of one of `wait.kinds` (objects whose step has not run yet) that is not here yet,
   * `later` is called instead of warning, and hang up is kept until the link (pending.ts).
   */
  check(
    old: string | null | undefined,
    log: StepLog,
    wait?: { kinds: readonly LaterKind[]; later: (old: string) => void },
  ): string {
    const dest = (old ?? '').trim();
    if (dest === '') return HANGUP_DESTINATION;
    if (/^app-blackhole,[a-z]+,1$/.test(dest)) return dest;
    const direct = /^from-did-direct,(\d+),\d+$/.exec(dest);
    if (direct?.[1] && this.extensions.has(direct[1])) return `from-did-direct,${direct[1]},1`;
    const vm = /^ext-local,vm([bius])(\d+),\d+$/.exec(dest);
    // The old 'i' (instructions only) has no equivalent here: the unavailable greeting is the nearest.
    if (vm?.[2] && this.mailboxes.has(vm[2])) return `ext-local,vm${vm[1] === 'i' ? 'u' : vm[1]}${vm[2]},1`;
    const dn = /^app-daynight,(\d),\d+$/.exec(dest);
    if (dn && this.switches.has(Number(dn[1]))) return dayNightDestination(Number(dn[1]));
    const ivr = /^ivr-(\d+),s,\d+$/.exec(dest);
    const newIvr = ivr?.[1] ? this.ids.ivr[ivr[1]] : undefined;
    if (newIvr) return ivrDestination(newIvr);
    const ann = /^app-announcement-(\d+),s,\d+$/.exec(dest);
    const newAnn = ann?.[1] ? this.ids.announcement[ann[1]] : undefined;
    if (newAnn) return announcementDestination(newAnn);
    // A queue keeps its number when migrated; the map is there for one that had to take another.
    const queue = /^ext-queues,(\d+),\d+$/.exec(dest);
    const newQueue = queue?.[1] ? (this.ids.queue[queue[1]] ?? queue[1]) : undefined;
    if (newQueue && this.queues.has(newQueue)) return queueDestination(newQueue);
    // A ring group keeps its number (group-steps.ts); one migrated before issue 42 became a queue with it.
    const group = /^ext-group,(\d+),\d+$/.exec(dest);
    const groupNumber = group?.[1] ? this.ids.ringgroup[group[1]] : undefined;
    if (groupNumber && this.ringGroups.has(groupNumber)) return ringGroupDestination(groupNumber);
    if (groupNumber && this.queues.has(groupNumber)) return queueDestination(groupNumber);
    const cqr = /^nethcqr,(\d+),\d+$/.exec(dest);
    const newCqr = cqr?.[1] ? this.ids.cqr[cqr[1]] : undefined;
    if (newCqr) return cqrDestination(newCqr);
    const tc = /^timeconditions,(\d+),\d+$/.exec(dest);
    const newTc = tc?.[1] ? this.ids.timecondition[tc[1]] : undefined;
    if (newTc) return timeConditionDestination(newTc);
    const room = /^ext-meetme,(\d+),\d+$/.exec(dest);
    if (room?.[1] && this.conferences.has(room[1])) return conferenceDestination(room[1]);
    const kind = laterKind(dest);
    if (wait && kind && wait.kinds.includes(kind)) {
      wait.later(dest);
      return HANGUP_DESTINATION;
    }
    log.warnings.push(msg('destination_lost', { what: describeDestination(dest) }));
    return HANGUP_DESTINATION;
  }
}

/**
 * An old FreePBX destination (`context,exten,priority`) in words, for a line an administrator reads: "conference 600"
 * rather than `ext-meetme,600,1`. Something this does not know keeps its raw form, said to be one.
 */
export function describeDestination(old: string): Message {
  const dest = old.trim();
  for (const [pattern, key, param] of DESCRIBED) {
    const found = pattern.exec(dest)?.[1];
    if (found) return msg(key, { [param]: found });
  }
  // FreePBX's custom destinations and contexts: the context is what the administrator named.
  const [context = '', exten = ''] = dest.split(',');
  if (/^custom/.test(context) && exten) return msg('dest_custom', { context });
  return msg('dest_other', { raw: dest });
}

/** Old destinations by their context, with the line naming each and the parameter its number goes in. */
const DESCRIBED: [RegExp, MigrationMessageKey, 'number' | 'id'][] = [
  [/^ext-meetme,(\d+),/, 'dest_conference', 'number'],
  [/^from-did-direct,(\d+),/, 'dest_extension', 'number'],
  [/^ext-local,(\d+),/, 'dest_extension', 'number'],
  [/^ext-local,vm[a-z](\d+),/, 'dest_voicemail', 'number'],
  [/^app-daynight,(\d+),/, 'dest_daynight', 'number'],
  [/^ivr-(\d+),/, 'dest_ivr', 'id'],
  [/^app-announcement-(\d+),/, 'dest_announcement', 'id'],
  [/^ext-queues,(\d+),/, 'dest_queue', 'number'],
  [/^ext-group,(\d+),/, 'dest_ring_group', 'number'],
  [/^nethcqr,(\d+),/, 'dest_cqr', 'id'],
  [/^timeconditions,(\d+),/, 'dest_time_condition', 'id'],
  [/^ext-paging,(\d+),/, 'dest_paging', 'number'],
  [/^disa,(\d+),/, 'dest_disa', 'id'],
];

/** The kinds of object a destination may wait for, in the order their steps run. */
export const LATER_KINDS = ['queue', 'ivr', 'cqr', 'announcement', 'timecondition'] as const;
export type LaterKind = (typeof LATER_KINDS)[number];

/** Which of those an old destination names, if any. */
export function laterKind(old: string): LaterKind | null {
  const dest = old.trim();
  if (/^ext-queues,\d+,\d+$/.test(dest)) return 'queue';
  if (/^ivr-\d+,s,\d+$/.test(dest)) return 'ivr';
  if (/^nethcqr,\d+,\d+$/.test(dest)) return 'cqr';
  if (/^app-announcement-\d+,s,\d+$/.test(dest)) return 'announcement';
  if (/^timeconditions,\d+,\d+$/.test(dest)) return 'timecondition';
  return null;
}

/** The kinds whose step comes after the one of `kind` (its own excluded: a step links its own objects itself). */
export function kindsAfter(kind: LaterKind | 'group'): LaterKind[] {
  if (kind === 'group') return [...LATER_KINDS];
  return LATER_KINDS.slice(LATER_KINDS.indexOf(kind) + 1);
}

export const IDS_KEY = 'migration_ids';
/**
 * New id of each migrated IVR, announcement, CQR, recording, time group and time condition, by old id; queue numbers
 * by old number; the number each old ring group has here (a ring group's, or before issue 42 a queue's).
 */
export interface MigratedIds {
  ivr: Record<string, number>;
  announcement: Record<string, number>;
  queue: Record<string, string>;
  ringgroup: Record<string, string>;
  cqr: Record<string, number>;
  recording: Record<string, number>;
  timegroup: Record<string, number>;
  timecondition: Record<string, number>;
}
