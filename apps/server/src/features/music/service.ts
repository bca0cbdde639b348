import fs from 'node:fs/promises';
import path from 'node:path';
import {
  MUSIC_DEFAULT_CLASS,
  MUSIC_MAX_FILES,
  type MusicClass,
  type MusicClassWrite,
  type MusicPlayOrder,
  musicClassWriteSchema,
  musicFileName,
  type UiLanguage,
} from '@centralino/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { musicClassDir } from '../../pbx/load.ts';
import { ensureReadableDir, writeAtomically } from '../../pbx/write-files.ts';
import { convertAudio } from '../flows/audio.ts';
import { inUse, namedWrite, type SoundsPlace } from '../flows/service.ts';
import { isUniqueViolation } from '../users/service.ts';
import { describeMusicUse, musicUses } from './uses.ts';

type Db = Kysely<Database>;

const notRenamed = () =>
  new AppError(
    400,
    'validation',
    (lang) =>
      lang === 'it'
        ? 'Una classe musicale non cambia nome: creane una nuova.'
        : 'A music class keeps its name: create a new one instead.',
    (lang) => ({ name: lang === 'it' ? 'Non si può cambiare' : 'Cannot be changed' }),
  );

const fileTaken = (name: string) =>
  new AppError(
    409,
    'flow_exists',
    (lang) =>
      lang === 'it' ? `La classe ha già un file di nome ${name}.` : `The class already has a file named ${name}.`,
    (lang) => ({ file: lang === 'it' ? 'Già presente' : 'Already there' }),
  );

const tooManyFiles = () =>
  new AppError(400, 'validation', (lang) =>
    lang === 'it'
      ? `Una classe contiene al massimo ${MUSIC_MAX_FILES} file.`
      : `A class holds at most ${MUSIC_MAX_FILES} files.`,
  );

/**
 * Music on hold classes (issue 42 item 6): uploads converted as recordings are (flows/audio.ts), kept in the database
 * and written out to `<sounds>/moh/<class>/<file>.wav`, the folder musiconhold.conf gives the class. The `default`
 * class is the distribution's and has no row: it is listed first, with no files of ours.
 */
export class MusicService {
  constructor(
    private readonly db: Db,
    private readonly sounds: SoundsPlace,
  ) {}

  private dir(name: string): string {
    return musicClassDir(this.sounds.dir, name);
  }

  private async writeFile(className: string, fileName: string, wav: Uint8Array): Promise<void> {
    const dir = this.dir(className);
    await ensureReadableDir(this.sounds.dir, this.sounds.gid);
    await ensureReadableDir(path.dirname(dir), this.sounds.gid);
    await ensureReadableDir(dir, this.sounds.gid);
    await writeAtomically(path.join(dir, `${fileName}.wav`), wav, this.sounds.gid);
  }

  /** Writes every class's files that are missing or differ in size (a new server, another process's upload). */
  async syncFiles(force = false): Promise<void> {
    const rows = await this.db
      .selectFrom('music_files')
      .innerJoin('music_classes', 'music_classes.id', 'music_files.class_id')
      .select((eb) => [
        'music_files.id as id',
        'music_files.name as file',
        'music_classes.name as class',
        eb.fn<number>('length', ['music_files.audio']).as('size'),
      ])
      .execute();
    for (const row of rows) {
      const size = await fs
        .stat(path.join(this.dir(row.class), `${row.file}.wav`))
        .then((s) => s.size)
        .catch(() => -1);
      if (!force && size === Number(row.size)) continue;
      const audio = await this.db
        .selectFrom('music_files')
        .select('audio')
        .where('id', '=', Number(row.id))
        .executeTakeFirst();
      if (audio) await this.writeFile(row.class, row.file, audio.audio);
    }
  }

  async list(lang: UiLanguage = 'en'): Promise<MusicClass[]> {
    const [classes, files, uses] = await Promise.all([
      this.db.selectFrom('music_classes').selectAll().orderBy('name').execute(),
      this.db
        .selectFrom('music_files')
        .select((eb) => ['id', 'class_id', 'name', 'duration_ms', eb.fn<number>('length', ['audio']).as('size')])
        .orderBy('name')
        .execute(),
      musicUses(this.db),
    ]);
    const usedBy = (name: string) => (uses.get(name) ?? []).map((u) => describeMusicUse(u, lang));
    return [
      {
        id: 0,
        name: MUSIC_DEFAULT_CLASS,
        builtin: true,
        play_order: 'alpha',
        files: [],
        used_by: usedBy(MUSIC_DEFAULT_CLASS),
      },
      ...classes.map((c) => ({
        id: Number(c.id),
        name: c.name,
        builtin: false,
        play_order: c.play_order as MusicPlayOrder,
        files: files
          .filter((f) => Number(f.class_id) === Number(c.id))
          .map((f) => ({ id: Number(f.id), name: f.name, duration_ms: Number(f.duration_ms), size: Number(f.size) })),
        used_by: usedBy(c.name),
      })),
    ];
  }

  create(input: MusicClassWrite): Promise<number> {
    const v = musicClassWriteSchema.parse(input);
    const now = Date.now();
    return namedWrite(this.db, v.name, async (trx) => {
      const row = await trx
        .insertInto('music_classes')
        .values({ name: v.name, play_order: v.play_order, created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      return Number(row.id);
    });
  }

  async update(id: number, input: MusicClassWrite): Promise<void> {
    const v = musicClassWriteSchema.parse(input);
    await this.db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('music_classes').select('name').where('id', '=', id).executeTakeFirst();
      if (!row) throw new AppError(404, 'not_found');
      if (row.name !== v.name) throw notRenamed();
      await trx
        .updateTable('music_classes')
        .set({ play_order: v.play_order, updated_at: Date.now() })
        .where('id', '=', id)
        .execute();
    });
  }

  /** Refused while a queue, route, trunk or room plays it, naming them. */
  async remove(id: number): Promise<void> {
    const name = await this.db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('music_classes').select('name').where('id', '=', id).executeTakeFirst();
      if (!row) throw new AppError(404, 'not_found');
      const uses = (await musicUses(trx, [row.name])).get(row.name) ?? [];
      if (uses.length > 0) {
        throw inUse({ en: `Music class ${row.name}`, it: `La classe musicale ${row.name}` }, (lang) =>
          uses.map((u) => describeMusicUse(u, lang)).join(', '),
        );
      }
      await trx.deleteFrom('music_files').where('class_id', '=', id).execute();
      await trx.deleteFrom('music_classes').where('id', '=', id).execute();
      return row.name;
    });
    await fs.rm(this.dir(name), { recursive: true, force: true });
  }

  /** Converts and adds an uploaded file, named after the upload; answers the file's id. */
  async addFile(classId: number, uploadedName: string, bytes: Uint8Array): Promise<number> {
    const cls = await this.db.selectFrom('music_classes').select('name').where('id', '=', classId).executeTakeFirst();
    if (!cls) throw new AppError(404, 'not_found');
    const name = musicFileName(uploadedName);
    const { wav, durationMs } = await convertAudio(bytes);
    let id: number;
    try {
      id = await this.db.transaction().execute(async (trx) => {
        const count = await trx
          .selectFrom('music_files')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('class_id', '=', classId)
          .executeTakeFirstOrThrow();
        if (Number(count.n) >= MUSIC_MAX_FILES) throw tooManyFiles();
        const row = await trx
          .insertInto('music_files')
          .values({ class_id: classId, name, audio: wav, duration_ms: durationMs, created_at: Date.now() })
          .returning('id')
          .executeTakeFirstOrThrow();
        return Number(row.id);
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw fileTaken(name);
      throw error;
    }
    await this.writeFile(cls.name, name, wav);
    return id;
  }

  private async fileRow(classId: number, fileId: number) {
    const row = await this.db
      .selectFrom('music_files')
      .innerJoin('music_classes', 'music_classes.id', 'music_files.class_id')
      .select(['music_files.name as file', 'music_classes.name as class'])
      .where('music_files.id', '=', fileId)
      .where('music_files.class_id', '=', classId)
      .executeTakeFirst();
    if (!row) throw new AppError(404, 'not_found');
    return row;
  }

  async audio(classId: number, fileId: number): Promise<Buffer> {
    await this.fileRow(classId, fileId);
    const row = await this.db.selectFrom('music_files').select('audio').where('id', '=', fileId).executeTakeFirst();
    if (!row) throw new AppError(404, 'not_found');
    return Buffer.from(row.audio);
  }

  async removeFile(classId: number, fileId: number): Promise<void> {
    const row = await this.fileRow(classId, fileId);
    await this.db.deleteFrom('music_files').where('id', '=', fileId).execute();
    await fs.rm(path.join(this.dir(row.class), `${row.file}.wav`), { force: true });
  }
}
