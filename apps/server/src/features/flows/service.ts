import fs from 'node:fs/promises';
import {
  type Announcement,
  type AnnouncementWrite,
  announcementDestination,
  announcementWriteSchema,
  cqrDestination,
  DAYNIGHT_FEATURE_CODE,
  type DayNight,
  type DayNightWrite,
  dayNightDestination,
  dayNightWriteSchema,
  type Ivr,
  type IvrWrite,
  ivrDestination,
  ivrWriteSchema,
  type Recording,
  type RecordingPatch,
  recordingPatchSchema,
  timeConditionDestination,
  type UiLanguage,
} from '@centralino/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { AmiClient } from '../../pbx/ami/client.ts';
import { familyIfConnected, pbxNotConnected } from '../../pbx/live-state.ts';
import { recordingSoundPath } from '../../pbx/load.ts';
import { ensureReadableDir, writeAtomically } from '../../pbx/write-files.ts';
import { describeReferences, destinationList, type Reference, referencesTo } from '../destinations/catalogue.ts';
import { isUniqueViolation } from '../users/service.ts';
import { convertAudio } from './audio.ts';

type Db = Kysely<Database>;

export function nameTaken(name: string): AppError {
  return new AppError(
    409,
    'flow_exists',
    (lang) => (lang === 'it' ? `Il nome ${name} è già usato.` : `The name ${name} is already used.`),
    (lang) => ({ name: lang === 'it' ? 'Già usato' : 'Already used' }),
  );
}

/** The object (named per language) and who uses it, in the caller's language. */
export function inUse(what: Record<UiLanguage, string>, users: (lang: UiLanguage) => string): AppError {
  return new AppError(409, 'flow_in_use', (lang) =>
    lang === 'it'
      ? `${what.it} è usato da: ${users(lang)}. Assegna loro prima qualcos'altro.`
      : `${what.en} is used by: ${users(lang)}. Give them something else first.`,
  );
}

/** Runs a create or update in one transaction; a name another object of its kind holds answers 409 flow_exists. */
export async function namedWrite<T>(db: Db, name: string, run: (trx: Db) => Promise<T>): Promise<T> {
  try {
    return await db.transaction().execute(run);
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(name);
    throw error;
  }
}

/**
 * Refuses (409 flow_in_use, naming who) to remove the object behind `destination` while routes, users or flows send
 * calls to it; the object's own entries pointing back at it (`self`: its kind and name) do not keep it alive.
 */
export async function refuseWhileUsed(
  trx: Db,
  destination: string,
  self: { kind: Reference['kind']; name: string },
  what: Record<UiLanguage, string>,
): Promise<void> {
  const refs = (await referencesTo(trx, [destination])).filter((r) => !(r.kind === self.kind && r.label === self.name));
  if (refs.length > 0) throw inUse(what, (lang) => describeReferences(refs, lang));
}

interface RecordingUser {
  kind: 'announcement' | 'ivr';
  name: string;
}
const userLabel = (u: RecordingUser, lang: UiLanguage) =>
  `${u.kind === 'ivr' ? 'IVR' : lang === 'it' ? 'annuncio' : 'announcement'} ${u.name}`;

/** Where the console keeps recordings for Asterisk, and the group that must read them. */
export interface SoundsPlace {
  dir: string;
  gid: number | null;
}

/** Recordings (issue 26): converted audio kept in the database and written out as WAV for Asterisk. */
export class RecordingsService {
  constructor(
    private readonly db: Db,
    private readonly sounds: SoundsPlace,
  ) {}

  private file(id: number): string {
    return `${recordingSoundPath(this.sounds.dir, id)}.wav`;
  }

  private async write(id: number, wav: Uint8Array): Promise<void> {
    await ensureReadableDir(this.sounds.dir, this.sounds.gid);
    await writeAtomically(this.file(id), wav, this.sounds.gid);
  }

  /** Writes every recording again (after a restore, when a file of the same size may hold other audio). */
  async writeAll(): Promise<void> {
    const rows = await this.db.selectFrom('recordings').select(['id']).execute();
    for (const { id } of rows) {
      const row = await this.db
        .selectFrom('recordings')
        .select('audio')
        .where('id', '=', Number(id))
        .executeTakeFirst();
      if (row) await this.write(Number(id), row.audio);
    }
  }

  /** Writes every recording whose file is missing or differs in size (a new server, another process's upload). */
  async syncFiles(): Promise<void> {
    const rows = await this.db.selectFrom('recordings').select(['id']).execute();
    for (const { id } of rows) {
      const size = await fs
        .stat(this.file(Number(id)))
        .then((s) => s.size)
        .catch(() => -1);
      const row = await this.db
        .selectFrom('recordings')
        .select('audio')
        .where('id', '=', Number(id))
        .executeTakeFirst();
      if (row && row.audio.length !== size) await this.write(Number(id), row.audio);
    }
  }

  /** Who plays each recording: announcements and IVRs by name. */
  private async users(ids?: number[]): Promise<Map<number, RecordingUser[]>> {
    let announcements = this.db.selectFrom('announcements').select(['recording_id as id', 'description as name']);
    let ivrs = this.db.selectFrom('ivrs').select(['announcement as id', 'name']);
    if (ids) {
      announcements = announcements.where('recording_id', 'in', ids);
      ivrs = ivrs.where('announcement', 'in', ids);
    }
    const [a, i] = await Promise.all([
      announcements.where('recording_id', 'is not', null).orderBy('description').execute(),
      ivrs.where('announcement', 'is not', null).orderBy('name').execute(),
    ]);
    const out = new Map<number, RecordingUser[]>();
    const add = (id: unknown, user: RecordingUser) => out.set(Number(id), [...(out.get(Number(id)) ?? []), user]);
    for (const row of a) add(row.id, { kind: 'announcement', name: row.name });
    for (const row of i) add(row.id, { kind: 'ivr', name: row.name });
    return out;
  }

  async list(): Promise<Recording[]> {
    const [rows, users] = await Promise.all([
      this.db
        .selectFrom('recordings')
        .select((eb) => [
          'id',
          'displayname',
          'description',
          'duration_ms',
          eb.fn<number>('length', ['audio']).as('size'),
        ])
        .orderBy('displayname')
        .execute(),
      this.users(),
    ]);
    return rows.map((r) => ({
      id: Number(r.id),
      displayname: r.displayname,
      description: r.description,
      filename: recordingSoundPath(this.sounds.dir, Number(r.id)),
      duration_ms: Number(r.duration_ms),
      size: Number(r.size),
      used_by: (users.get(Number(r.id)) ?? []).map((u) => userLabel(u, 'en')),
    }));
  }

  async audio(id: number): Promise<Buffer> {
    const row = await this.db.selectFrom('recordings').select('audio').where('id', '=', id).executeTakeFirst();
    if (!row) throw new AppError(404, 'not_found');
    return Buffer.from(row.audio);
  }

  async create(input: { displayname: string; description?: string }, bytes: Uint8Array): Promise<number> {
    const meta = recordingPatchSchema.parse(input);
    const { wav, durationMs } = await convertAudio(bytes);
    const now = Date.now();
    let id: number;
    try {
      const row = await this.db
        .insertInto('recordings')
        .values({
          displayname: meta.displayname,
          description: meta.description ?? '',
          audio: wav,
          duration_ms: durationMs,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      id = Number(row.id);
    } catch (error) {
      if (isUniqueViolation(error)) throw nameTaken(meta.displayname);
      throw error;
    }
    await this.write(id, wav);
    return id;
  }

  /**
   * Audio recorded from a phone (*77, pbx/phone-recording.ts), converted like an upload: new audio for recording
   * `target`, or a new recording named after the extension and the time. Answers the recording's id.
   */
  async fromPhone(bytes: Uint8Array, target: number | 'new', caller: string): Promise<number> {
    const { wav, durationMs } = await convertAudio(bytes);
    const now = Date.now();
    if (target !== 'new') {
      const result = await this.db
        .updateTable('recordings')
        .set({ audio: wav, duration_ms: durationMs, updated_at: now })
        .where('id', '=', target)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) throw new AppError(404, 'not_found');
      await this.write(target, wav);
      return target;
    }
    const stamp = new Date(now).toISOString().slice(0, 19).replace('T', ' ');
    const base = `${caller ? `Recorded at ${caller}` : 'Recorded from a phone'} ${stamp}`;
    for (let attempt = 1; ; attempt++) {
      const displayname = attempt === 1 ? base : `${base} (${attempt})`;
      try {
        const row = await this.db
          .insertInto('recordings')
          .values({
            displayname,
            description: '',
            audio: wav,
            duration_ms: durationMs,
            created_at: now,
            updated_at: now,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await this.write(Number(row.id), wav);
        return Number(row.id);
      } catch (error) {
        if (!isUniqueViolation(error) || attempt >= 20) throw error;
      }
    }
  }

  async patch(id: number, patch: RecordingPatch): Promise<void> {
    try {
      const result = await this.db
        .updateTable('recordings')
        .set({
          displayname: patch.displayname,
          ...(patch.description === undefined ? {} : { description: patch.description }),
          updated_at: Date.now(),
        })
        .where('id', '=', id)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) throw new AppError(404, 'not_found');
    } catch (error) {
      if (isUniqueViolation(error)) throw nameTaken(patch.displayname);
      throw error;
    }
  }

  async remove(id: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('recordings').select('displayname').where('id', '=', id).executeTakeFirst();
      if (!row) throw new AppError(404, 'not_found');
      const users = (await new RecordingsService(trx, this.sounds).users([id])).get(id) ?? [];
      if (users.length > 0) {
        throw inUse({ en: `Recording ${row.displayname}`, it: `La registrazione ${row.displayname}` }, (lang) =>
          users.map((u) => userLabel(u, lang)).join(', '),
        );
      }
      await trx.deleteFrom('recordings').where('id', '=', id).execute();
    });
    await fs.rm(this.file(id), { force: true });
  }
}

/** A node of the call-flow graph: its destinations, and whether callers can leave it by dialling an extension. */
interface FlowNode {
  name: string;
  exits: string[];
  directDial: boolean;
  /** The caller does not choose (a day/night switch): every exit must have an end, not just one. */
  every?: boolean;
}

/**
 * Flows whose calls can never reach anything but other flows (announcement → announcement → …, or an IVR
 * whose every key, timeout and invalid choice leads back into the loop): they would keep a caller for ever.
 */
export function endlessFlows(nodes: Map<string, FlowNode>): string[] {
  const canEnd = new Set<string>();
  for (let changed = true; changed; ) {
    changed = false;
    for (const [key, node] of nodes) {
      if (canEnd.has(key)) continue;
      const ends = (d: string) => !nodes.has(d) || canEnd.has(d);
      if (node.directDial || (node.every ? node.exits.every(ends) : node.exits.some(ends))) {
        canEnd.add(key);
        changed = true;
      }
    }
  }
  return [...nodes.entries()].filter(([key]) => !canEnd.has(key)).map(([, n]) => n.name);
}

function unknownDestination(field: string, destination: string): (lang: UiLanguage) => Record<string, string> {
  return (lang) => ({
    [field]:
      lang === 'it'
        ? `La destinazione ${destination} non esiste (più)`
        : `The destination ${destination} does not exist (any more)`,
  });
}

/** Every flow object as a node of the call-flow graph. */
async function flowGraph(db: Db): Promise<Map<string, FlowNode>> {
  const [announcements, ivrs, entries, dayNight, conditions, cqrs, cqrEntries] = await Promise.all([
    db.selectFrom('announcements').select(['id', 'description', 'post_dest']).execute(),
    db.selectFrom('ivrs').select(['id', 'name', 'directdial', 'invalid_destination', 'timeout_destination']).execute(),
    db.selectFrom('ivr_entries').select(['ivr_id', 'dest']).execute(),
    db.selectFrom('daynight').selectAll().execute(),
    db.selectFrom('time_conditions').select(['id', 'name', 'true_dest', 'false_dest']).execute(),
    db.selectFrom('cqrs').select(['id', 'name', 'default_dest']).execute(),
    db.selectFrom('cqr_entries').select(['cqr_id', 'dest']).execute(),
  ]);
  const nodes = new Map<string, FlowNode>();
  for (const c of cqrs) {
    // The caller's record picks any entry, and the default is taken on no match: every exit must end.
    nodes.set(cqrDestination(Number(c.id)), {
      name: `caller query routing ${c.name}`,
      exits: [c.default_dest, ...cqrEntries.filter((e) => Number(e.cqr_id) === Number(c.id)).map((e) => e.dest)],
      directDial: false,
      every: true,
    });
  }
  for (const c of conditions) {
    // The time (or an override) picks one: both must lead somewhere.
    nodes.set(timeConditionDestination(Number(c.id)), {
      name: `time condition ${c.name}`,
      exits: [c.true_dest, c.false_dest],
      directDial: false,
      every: true,
    });
  }
  for (const d of dayNight) {
    // Either mode may be the current one: both must lead somewhere.
    nodes.set(dayNightDestination(Number(d.ext)), {
      name: `day/night ${d.name}`,
      exits: [d.day_dest, d.night_dest],
      directDial: false,
      every: true,
    });
  }
  for (const a of announcements) {
    nodes.set(announcementDestination(Number(a.id)), {
      name: `announcement ${a.description}`,
      exits: [a.post_dest],
      directDial: false,
    });
  }
  for (const i of ivrs) {
    nodes.set(ivrDestination(Number(i.id)), {
      name: `IVR ${i.name}`,
      exits: [
        i.invalid_destination,
        i.timeout_destination,
        ...entries.filter((e) => Number(e.ivr_id) === Number(i.id)).map((e) => e.dest),
      ],
      directDial: Number(i.directdial) === 1,
    });
  }
  return nodes;
}

/** Refuses (and so rolls back) a state with a destination that does not exist or a flow without an end. */
export async function checkFlowWrite(db: Db, destinations: [field: string, destination: string][]): Promise<void> {
  const known = new Set((await destinationList(db)).map((d) => d.destination));
  for (const [field, destination] of destinations) {
    if (!known.has(destination)) {
      throw new AppError(
        400,
        'validation',
        (lang) =>
          lang === 'it'
            ? `La destinazione ${destination} non esiste (più): scegline un'altra.`
            : `The destination ${destination} does not exist (any more): choose another one.`,
        unknownDestination(field, destination),
      );
    }
  }
  const endless = endlessFlows(await flowGraph(db));
  if (endless.length > 0) {
    throw new AppError(400, 'flow_loop', (lang) =>
      lang === 'it'
        ? `Le chiamate girerebbero per sempre tra: ${endless.join(', ')}. Fai arrivare almeno una scelta a un interno, un gruppo, una segreteria o alla chiusura.`
        : `Calls would go round for ever between: ${endless.join(', ')}. Let at least one choice reach an extension, a group, voicemail or a hang-up.`,
    );
  }
}

/** Announcements and IVRs (issue 26). Every write is checked against the whole flow graph before it commits. */
export class FlowsService {
  constructor(
    private readonly db: Db,
    /** Reads and flips the day/night modes (AstDB); undefined when no AMI connection is configured. */
    private readonly ami?: AmiClient,
  ) {}

  private async assertRecording(db: Db, id: number | null, field: string): Promise<void> {
    if (id === null) return;
    if (!(await db.selectFrom('recordings').select('id').where('id', '=', id).executeTakeFirst())) {
      throw new AppError(400, 'validation', undefined, (lang) => ({
        [field]: lang === 'it' ? 'Questa registrazione non esiste' : 'This recording does not exist',
      }));
    }
  }

  // ---- announcements

  async listAnnouncements(): Promise<Announcement[]> {
    const rows = await this.db.selectFrom('announcements').selectAll().orderBy('description').execute();
    return rows.map((r) => ({
      id: Number(r.id),
      description: r.description,
      recording_id: r.recording_id === null ? null : Number(r.recording_id),
      allow_skip: Number(r.allow_skip) === 1,
      post_dest: r.post_dest,
      return_ivr: Number(r.return_ivr) === 1,
      noanswer: Number(r.noanswer) === 1,
      repeat_msg: r.repeat_msg as Announcement['repeat_msg'],
      destination: announcementDestination(Number(r.id)),
    }));
  }

  private announcementRow(input: AnnouncementWrite) {
    const a = announcementWriteSchema.parse(input);
    return {
      parsed: a,
      row: {
        description: a.description,
        recording_id: a.recording_id,
        allow_skip: a.allow_skip ? 1 : 0,
        post_dest: a.post_dest,
        return_ivr: a.return_ivr ? 1 : 0,
        noanswer: a.noanswer ? 1 : 0,
        repeat_msg: a.repeat_msg,
      },
    };
  }

  async createAnnouncement(input: AnnouncementWrite): Promise<number> {
    const { parsed, row } = this.announcementRow(input);
    return namedWrite(this.db, parsed.description, async (trx) => {
      await this.assertRecording(trx, parsed.recording_id, 'recording_id');
      const created = await trx.insertInto('announcements').values(row).returning('id').executeTakeFirstOrThrow();
      await checkFlowWrite(trx, [['post_dest', parsed.post_dest]]);
      return Number(created.id);
    });
  }

  async updateAnnouncement(id: number, input: AnnouncementWrite): Promise<void> {
    const { parsed, row } = this.announcementRow(input);
    await namedWrite(this.db, parsed.description, async (trx) => {
      await this.assertRecording(trx, parsed.recording_id, 'recording_id');
      const result = await trx.updateTable('announcements').set(row).where('id', '=', id).executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) throw new AppError(404, 'not_found');
      await checkFlowWrite(trx, [['post_dest', parsed.post_dest]]);
    });
  }

  async removeAnnouncement(id: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('announcements').select('description').where('id', '=', id).executeTakeFirst();
      if (!row) throw new AppError(404, 'not_found');
      const refs = await referencesTo(trx, [announcementDestination(id)]);
      if (refs.length > 0) {
        throw inUse({ en: `Announcement ${row.description}`, it: `L'annuncio ${row.description}` }, (lang) =>
          describeReferences(refs, lang),
        );
      }
      await trx.deleteFrom('announcements').where('id', '=', id).execute();
    });
  }

  // ---- IVRs

  async listIvrs(): Promise<Ivr[]> {
    const [rows, entries] = await Promise.all([
      this.db.selectFrom('ivrs').selectAll().orderBy('name').execute(),
      this.db.selectFrom('ivr_entries').selectAll().orderBy('selection').execute(),
    ]);
    return rows.map((r) => ({
      id: Number(r.id),
      name: r.name,
      description: r.description,
      announcement: r.announcement === null ? null : Number(r.announcement),
      directdial: Number(r.directdial) === 1,
      timeout_time: Number(r.timeout_time),
      invalid_loops: Number(r.invalid_loops),
      invalid_destination: r.invalid_destination,
      timeout_loops: Number(r.timeout_loops),
      timeout_destination: r.timeout_destination,
      entries: entries
        .filter((e) => Number(e.ivr_id) === Number(r.id))
        .map((e) => ({ selection: e.selection as Ivr['entries'][number]['selection'], dest: e.dest })),
      destination: ivrDestination(Number(r.id)),
    }));
  }

  private async writeIvr(trx: Db, id: number | null, input: IvrWrite): Promise<number> {
    const v = ivrWriteSchema.parse(input);
    await this.assertRecording(trx, v.announcement, 'announcement');
    const row = {
      name: v.name,
      description: v.description,
      announcement: v.announcement,
      directdial: v.directdial ? 1 : 0,
      timeout_time: v.timeout_time,
      invalid_loops: v.invalid_loops,
      invalid_destination: v.invalid_destination,
      timeout_loops: v.timeout_loops,
      timeout_destination: v.timeout_destination,
    };
    let ivrId: number;
    if (id === null) {
      ivrId = Number((await trx.insertInto('ivrs').values(row).returning('id').executeTakeFirstOrThrow()).id);
    } else {
      const result = await trx.updateTable('ivrs').set(row).where('id', '=', id).executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) throw new AppError(404, 'not_found');
      ivrId = id;
      await trx.deleteFrom('ivr_entries').where('ivr_id', '=', id).execute();
    }
    if (v.entries.length > 0) {
      await trx
        .insertInto('ivr_entries')
        .values(v.entries.map((e) => ({ ivr_id: ivrId, selection: e.selection, dest: e.dest })))
        .execute();
    }
    await checkFlowWrite(trx, [
      ['invalid_destination', v.invalid_destination],
      ['timeout_destination', v.timeout_destination],
      ...v.entries.map((e, i): [string, string] => [`entries.${i}.dest`, e.dest]),
    ]);
    return ivrId;
  }

  createIvr(input: IvrWrite): Promise<number> {
    return namedWrite(this.db, input.name, (trx) => this.writeIvr(trx, null, input));
  }

  async updateIvr(id: number, input: IvrWrite): Promise<void> {
    await namedWrite(this.db, input.name, (trx) => this.writeIvr(trx, id, input));
  }

  async removeIvr(id: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('ivrs').select('name').where('id', '=', id).executeTakeFirst();
      if (!row) throw new AppError(404, 'not_found');
      // The IVR's own keys pointing back at it do not keep it alive.
      await refuseWhileUsed(
        trx,
        ivrDestination(id),
        { kind: 'ivr', name: row.name },
        { en: `IVR ${row.name}`, it: `L'IVR ${row.name}` },
      );
      await trx.deleteFrom('ivr_entries').where('ivr_id', '=', id).execute();
      await trx.deleteFrom('ivrs').where('id', '=', id).execute();
    });
  }

  // ---- day/night switches

  async listDayNight(): Promise<DayNight[]> {
    const [rows, modes] = await Promise.all([
      this.db.selectFrom('daynight').selectAll().orderBy('ext').execute(),
      // The modes Asterisk holds (AstDB DAYNIGHT/...); null when it cannot be asked.
      familyIfConnected(this.ami, 'DAYNIGHT'),
    ]);
    return rows.map((r) => ({
      ext: Number(r.ext),
      name: r.name,
      day_dest: r.day_dest,
      night_dest: r.night_dest,
      destination: dayNightDestination(Number(r.ext)),
      feature_code: `${DAYNIGHT_FEATURE_CODE}${r.ext}`,
      state: modes === null ? 'unknown' : modes.get(`C${r.ext}`) === 'NIGHT' ? 'night' : 'day',
    }));
  }

  async createDayNight(input: DayNightWrite): Promise<void> {
    const v = dayNightWriteSchema.parse(input);
    await namedWrite(this.db, v.name, async (trx) => {
      if (await trx.selectFrom('daynight').select('ext').where('ext', '=', v.ext).executeTakeFirst()) {
        throw new AppError(
          409,
          'flow_exists',
          (lang) =>
            lang === 'it'
              ? `Il commutatore ${v.ext} (${DAYNIGHT_FEATURE_CODE}${v.ext}) esiste già.`
              : `Switch ${v.ext} (${DAYNIGHT_FEATURE_CODE}${v.ext}) already exists.`,
          (lang) => ({ ext: lang === 'it' ? 'Già usato' : 'Already used' }),
        );
      }
      await trx
        .insertInto('daynight')
        .values({ ext: v.ext, name: v.name, day_dest: v.day_dest, night_dest: v.night_dest })
        .execute();
      await checkFlowWrite(trx, [
        ['day_dest', v.day_dest],
        ['night_dest', v.night_dest],
      ]);
    });
  }

  async updateDayNight(ext: number, input: DayNightWrite): Promise<void> {
    const v = dayNightWriteSchema.parse({ ...input, ext });
    await namedWrite(this.db, v.name, async (trx) => {
      const result = await trx
        .updateTable('daynight')
        .set({ name: v.name, day_dest: v.day_dest, night_dest: v.night_dest })
        .where('ext', '=', ext)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) throw new AppError(404, 'not_found');
      await checkFlowWrite(trx, [
        ['day_dest', v.day_dest],
        ['night_dest', v.night_dest],
      ]);
    });
  }

  async removeDayNight(ext: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('daynight').select('name').where('ext', '=', ext).executeTakeFirst();
      if (!row) throw new AppError(404, 'not_found');
      await refuseWhileUsed(
        trx,
        dayNightDestination(ext),
        { kind: 'daynight', name: row.name },
        { en: `Day/night switch ${row.name}`, it: `Il commutatore giorno/notte ${row.name}` },
      );
      await trx.deleteFrom('daynight').where('ext', '=', ext).execute();
    });
  }

  /** Sets the mode in Asterisk at once, as the feature code does (no reload: the dialplan reads AstDB). */
  async setDayNight(ext: number, state: 'day' | 'night'): Promise<void> {
    if (!(await this.db.selectFrom('daynight').select('ext').where('ext', '=', ext).executeTakeFirst())) {
      throw new AppError(404, 'not_found');
    }
    const ami = this.ami;
    if (ami?.state !== 'connected') throw pbxNotConnected(ami);
    await ami.action('DBPut', { Family: 'DAYNIGHT', Key: `C${ext}`, Val: state === 'night' ? 'NIGHT' : 'DAY' });
    await ami.command(`devstate change Custom:DAYNIGHT${ext} ${state === 'night' ? 'INUSE' : 'NOT_INUSE'}`);
  }
}
