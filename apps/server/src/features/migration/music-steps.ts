import { MUSIC_DEFAULT_CLASS, MUSIC_RINGING, musicClassNameSchema } from '@centralino/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { msg } from './messages.ts';
import type { LegacySource } from './source.ts';
import type { StepLog } from './state.ts';

type Trx = Kysely<Database>;

/** A class name as this console takes it: FreePBX kept what its page typed, lower-cased, without spaces or quotes. */
function className(old: string): string {
  return old
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^[-_]+|-+$/g, '')
    .slice(0, 40);
}

/**
 * FreePBX `music` categories → music classes (names and play order), before the rooms and the queues, which then
 * keep the class they played. The audio lived in the old machine's moh folder, which the migration does not reach:
 * each class is created empty and the report says its files are to be uploaded (an empty class plays the default).
 * Answers old category → new class name, for the steps that follow.
 */
export async function migrateMusicClasses(trx: Trx, source: LegacySource, log: StepLog): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  if (!(await source.hasTable('pbx', 'music'))) return names;
  const rows = await source.query<{ category: string | null; type: string | null; random: number | string | null }>(
    `SELECT category, type, random FROM ${source.table('pbx', 'music')} ORDER BY category`,
  );
  const existing = new Set((await trx.selectFrom('music_classes').select('name').execute()).map((r) => r.name));
  for (const row of rows) {
    const old = (row.category ?? '').trim();
    if (old === '' || old === MUSIC_DEFAULT_CLASS || old === 'none') continue;
    if ((row.type ?? 'files') !== 'files') {
      log.warnings.push(msg('music_class_not_files', { name: old, type: row.type ?? '' }));
      continue;
    }
    const name = className(old);
    const parsed = musicClassNameSchema.safeParse(name);
    if (!parsed.success || name === MUSIC_RINGING) {
      log.errors.push(msg('with_reason', { subject: msg('music_class_label', { name: old }), reason: name }));
      continue;
    }
    if (name !== old) log.warnings.push(msg('music_class_renamed', { old, name }));
    names.set(old, name);
    if (existing.has(name)) {
      log.warnings.push(msg('label_exists', { label: msg('music_class_label', { name }) }));
      continue;
    }
    const now = Date.now();
    await trx
      .insertInto('music_classes')
      .values({
        name,
        play_order: Number(row.random) === 1 ? 'random' : 'alpha',
        created_at: now,
        updated_at: now,
      })
      .execute();
    existing.add(name);
    log.infos.push(msg('label_migrated', { label: msg('music_class_label', { name }) }));
    log.warnings.push(msg('music_files_not_copied', { name }));
  }
  return names;
}

/** The class a migrated object plays: a migrated class by its new name, else the default. */
export async function migratedClass(trx: Trx, old: string | null | undefined): Promise<string | null> {
  const name = className((old ?? '').trim());
  if (name === '' || name === MUSIC_DEFAULT_CLASS || name === 'inherit') return MUSIC_DEFAULT_CLASS;
  const row = await trx.selectFrom('music_classes').select('name').where('name', '=', name).executeTakeFirst();
  return row ? row.name : null;
}
