import fs from 'node:fs/promises';
import path from 'node:path';
import { recordingPatchSchema } from '@centralino/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { SettingsStore } from '../../db/settings-store.ts';
import { AppError } from '../../errors.ts';
import type { RecordingsService } from '../flows/service.ts';
import { DestinationCheck, IDS_KEY } from './destinations.ts';
import { describe, type Localized, type Message, msg } from './messages.ts';
import type { StepProgress } from './resume.ts';
import type { LegacySource } from './source.ts';
import type { StepLog } from './state.ts';

/** Extensions the old system saved recordings with that the upload conversion reads (it sniffs the bytes). */
const AUDIO_EXTENSIONS = ['.wav', '.WAV', '.mp3', '.ogg'];
/** Asterisk's own formats the old system may have kept a recording in, which the upload conversion does not take. */
const OTHER_EXTENSIONS = ['.gsm', '.ulaw', '.alaw', '.sln', '.g722', '.g729'];

/**
 * The file of one old recording: FreePBX stores `custom/welcome` (no extension) relative to the sounds folder, or
 * to a language folder under it. `other` names the extension of a file there in a format the conversion does not
 * read; null when none is there. A name leading outside the folder is never followed.
 */
export async function findOldAudio(
  soundsDir: string,
  filename: string,
): Promise<{ file: string } | { other: string } | null> {
  const root = path.resolve(soundsDir);
  const languages = await fs
    .readdir(root, { withFileTypes: true })
    .then((entries) => entries.filter((e) => e.isDirectory() && /^[a-z]{2}(_[A-Z]{2})?$/.test(e.name)))
    .catch(() => []);
  const bases = [root, ...languages.map((l) => path.join(root, l.name))];
  const stem = filename.replace(/\.(wav|mp3|ogg|gsm|ulaw|alaw|sln)$/i, '');
  const isFile = (file: string) =>
    fs.stat(file).then(
      (s) => s.isFile(),
      () => false,
    );
  for (const base of bases) {
    for (const ext of AUDIO_EXTENSIONS) {
      const file = path.resolve(base, `${stem}${ext}`);
      if (!file.startsWith(`${root}${path.sep}`)) return null;
      if (await isFile(file)) return { file };
    }
  }
  for (const base of bases) {
    for (const ext of OTHER_EXTENSIONS) {
      if (await isFile(path.resolve(base, `${stem}${ext}`))) return { other: ext };
    }
  }
  return null;
}

/** Why the upload conversion refused a file, in the report's words. */
function refusal(error: unknown): Message | Localized {
  if (error instanceof AppError && error.code === 'audio_converter_missing') return msg('sox_missing');
  if (error instanceof AppError && error.code === 'audio_invalid') {
    return error.detail ? describe(error) : msg('not_audio');
  }
  return describe(error);
}

/**
 * The old system recordings (`recordings` plus their audio files in MIGRATION_SOUNDS_DIR), each converted and saved
 * as an upload is (RecordingsService.create: sox to 8 kHz mono WAV, the length limit, the sound file for Asterisk).
 * Each recording is saved on its own: one the converter refuses is reported and the others are kept. The IVRs,
 * migrated before, get the greeting their old menu played; the announcements, migrated after, find theirs by id.
 */
export async function migrateRecordings(
  db: Kysely<Database>,
  source: LegacySource,
  recordings: Pick<RecordingsService, 'create'>,
  soundsDir: string | undefined,
  log: StepLog,
  progress: Pick<StepProgress, 'savedByThisStep' | 'saving' | 'saved'>,
): Promise<void> {
  const rows = await source.query<{ id: number; displayname: string; filename: Buffer | string; description: string }>(
    `SELECT id, displayname, filename, description FROM ${source.table('pbx', 'recordings')} ORDER BY id`,
  );
  if (rows.length === 0) {
    log.infos.push(msg('recordings_none'));
    return;
  }
  const check = await DestinationCheck.load(db);
  const names = new Map(
    (await db.selectFrom('recordings').select(['id', 'displayname']).execute()).map((r) => [
      r.displayname,
      Number(r.id),
    ]),
  );
  for (const r of rows) {
    const name = (r.displayname || `Recording ${r.id}`).trim().slice(0, 50);
    // One recording may chain several files (`custom/a&custom/b`): the first is what callers heard first.
    const files = String(r.filename ?? '')
      .split('&')
      .filter((f) => f.trim() !== '');
    const first = files[0]?.trim();
    const migrated = () => {
      if (files.length > 1) log.warnings.push(msg('recording_first_part', { name, file: first ?? '' }));
      log.infos.push(msg('recording_migrated', { name }));
    };
    const had = names.get(name);
    if (had !== undefined) {
      check.ids.recording[String(r.id)] = had;
      // Saved by this step's run that was cut short (its audio file is written again at start: syncFiles).
      if (progress.savedByThisStep(name)) migrated();
      else log.warnings.push(msg('recording_exists', { name }));
      continue;
    }
    if (!soundsDir || !first) {
      log.warnings.push(msg(soundsDir ? 'recording_no_file' : 'recording_no_dir', { name }));
      continue;
    }
    const found = await findOldAudio(soundsDir, first);
    if (!found) {
      log.warnings.push(msg('recording_audio_missing', { name, file: first }));
      continue;
    }
    if ('other' in found) {
      log.warnings.push(msg('recording_audio_other', { name, format: found.other }));
      continue;
    }
    const meta = recordingPatchSchema.safeParse({
      displayname: name,
      description: (r.description ?? '').slice(0, 200),
    });
    if (!meta.success) {
      log.warnings.push(msg('recording_failed', { name, reason: meta.error.issues.map((i) => i.message).join('; ') }));
      continue;
    }
    try {
      const audio = await fs.readFile(found.file);
      await progress.saving(name);
      const id = await recordings.create(meta.data, audio);
      await progress.saved(name);
      check.ids.recording[String(r.id)] = id;
      names.set(name, id);
      migrated();
    } catch (error) {
      log.warnings.push(msg('recording_failed', { name, reason: refusal(error) }));
    }
  }
  await new SettingsStore(db).set(IDS_KEY, check.ids);
  await linkIvrGreetings(db, source, check, log);
}

/** Each migrated IVR without a greeting gets the recording its old menu played, or a warning naming it. */
async function linkIvrGreetings(
  db: Kysely<Database>,
  source: LegacySource,
  check: DestinationCheck,
  log: StepLog,
): Promise<void> {
  const menus = await source.query<{ id: number; name: string; announcement: number | null }>(
    `SELECT id, name, announcement FROM ${source.table('pbx', 'ivr_details')} WHERE announcement IS NOT NULL AND announcement <> 0`,
  );
  for (const m of menus) {
    const ivr = check.ids.ivr[String(m.id)];
    if (ivr === undefined) continue;
    const recording = check.ids.recording[String(m.announcement)];
    if (recording === undefined) {
      log.warnings.push(msg('ivr_greeting', { name: m.name }));
      continue;
    }
    await db
      .updateTable('ivrs')
      .set({ announcement: recording })
      .where('id', '=', ivr)
      .where('announcement', 'is', null)
      .execute();
  }
}
