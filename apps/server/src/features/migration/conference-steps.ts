import { CONFERENCE_MAX_MEMBERS, conferenceWriteSchema } from '@centralino/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { ConferencesService } from '../conferences/service.ts';
import { describe, msg, schemaRefusal } from './messages.ts';
import { migratedClass } from './music-steps.ts';
import type { LegacySource } from './source.ts';
import type { StepLog } from './state.ts';

type Trx = Kysely<Database>;

/** FreePBX meetme option letters kept here; the others (w, c, o, T, s, …) have no counterpart and are reported. */
const KEPT_OPTIONS = new Set(['M', 'I', 'i', 'q', 'r']);

/**
 * FreePBX `meetme` rooms → conference rooms, through the conferences service in the step's transaction (the
 * numbering rules refuse a number a user took). Runs before the ring groups and everything else that may send calls
 * to a room, so their `ext-meetme,<n>,1` destinations find it (destinations.ts). Options: M music while alone, I/i
 * join and leave announcements (q quiet: none), r recording.
 */
export async function migrateConferences(trx: Trx, source: LegacySource, log: StepLog): Promise<void> {
  if (!(await source.hasTable('pbx', 'meetme'))) {
    log.infos.push(msg('conferences_none'));
    return;
  }
  const rooms = await source.query<{
    exten: string;
    options: string | null;
    userpin: string | null;
    adminpin: string | null;
    description: string | null;
    joinmsg_id: number | null;
    music: string | null;
    users: number | string | null;
  }>(
    `SELECT exten, options, userpin, adminpin, description, joinmsg_id, music, users
       FROM ${source.table('pbx', 'meetme')} ORDER BY CAST(exten AS UNSIGNED), exten`,
  );
  if (rooms.length === 0) {
    log.infos.push(msg('conferences_none'));
    return;
  }
  const existing = new Set((await trx.selectFrom('conferences').select('extension').execute()).map((r) => r.extension));
  const service = new ConferencesService(trx);
  for (const room of rooms) {
    const number = String(room.exten).trim();
    const description = (room.description ?? '').trim();
    const label = description
      ? msg('conference_label', { number, description })
      : msg('conference_label_bare', { number });
    if (existing.has(number)) {
      log.warnings.push(msg('label_exists', { label }));
      continue;
    }
    const options = (room.options ?? '').trim();
    const dropped = [...new Set(options.split(''))].filter((o) => o.trim() && !KEPT_OPTIONS.has(o));
    if (dropped.length > 0) log.warnings.push(msg('conference_options_dropped', { label, options: dropped.join('') }));
    const users = Number.parseInt(String(room.users ?? '0'), 10) || 0;
    const maxMembers = Math.min(CONFERENCE_MAX_MEMBERS, Math.max(0, users));
    if (users > CONFERENCE_MAX_MEMBERS) {
      log.warnings.push(msg('conference_members_limited', { label, old: users, new: maxMembers }));
    }
    if (Number(room.joinmsg_id ?? 0) > 0) log.warnings.push(msg('conference_joinmsg_dropped', { label }));
    const music = (room.music ?? '').trim();
    const musicClass = (await migratedClass(trx, music)) ?? 'default';
    if (
      options.includes('M') &&
      musicClass === 'default' &&
      music !== '' &&
      music !== 'default' &&
      music !== 'inherit'
    ) {
      log.warnings.push(msg('music_missing', { label, music }));
    }
    const body = conferenceWriteSchema.safeParse({
      extension: number,
      name: (description || `Conference ${number}`).slice(0, 80),
      user_pin: (room.userpin ?? '').trim(),
      admin_pin: (room.adminpin ?? '').trim(),
      max_members: maxMembers,
      music_when_alone: options.includes('M'),
      music_class: musicClass,
      announce_join_leave: !options.includes('q') && (options.includes('I') || options.includes('i')),
      record: options.includes('r'),
    });
    if (!body.success) {
      log.errors.push(msg('with_reason', { subject: label, reason: schemaRefusal(body.error) }));
      continue;
    }
    try {
      await service.createIn(trx, body.data);
    } catch (error) {
      log.errors.push(msg('with_reason', { subject: label, reason: describe(error) }));
      continue;
    }
    existing.add(number);
    log.infos.push(msg('label_migrated', { label }));
  }
}
