import fs from 'node:fs/promises';
import path from 'node:path';
import { cardTemplateName } from '@centralino/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { convertEjsTemplate } from '../custcards/ejs.ts';
import { describe, msg } from './messages.ts';
import type { StepProgress } from './resume.ts';
import type { LegacySource } from './source.ts';
import type { StepLog } from './state.ts';

type Trx = Kysely<Database>;

/** The central phonebook's source id of the contacts copied from the old CTI phonebook. */
export const MIGRATED_CTI_SOURCE = 'nethcti-migrated';

const CONTACT_COLUMNS = [
  'owner_id',
  'type',
  'name',
  'company',
  'title',
  'notes',
  'cellphone',
  'workphone',
  'homephone',
  'fax',
  'workemail',
  'homeemail',
  'homestreet',
  'homecity',
  'workstreet',
  'workcity',
  'url',
] as const;
const CHUNK = 400;

/**
 * The old CTI phonebook (`cti_phonebook`) → the central phonebook, as contacts of their own source. Centralino's
 * phonebook is read by every phone and the LDAP directory, so a private contact (one user's own) is not copied: the
 * report counts them. Run again, it replaces what it copied before, never doubling a contact.
 */
export async function migrateCtiPhonebook(trx: Trx, source: LegacySource, log: StepLog): Promise<void> {
  if (!(await source.hasTable('cti', 'cti_phonebook'))) {
    log.infos.push(msg('phonebook_none'));
    return;
  }
  const rows = await source.query<Record<(typeof CONTACT_COLUMNS)[number], string | null>>(
    `SELECT ${CONTACT_COLUMNS.join(', ')} FROM ${source.table('cti', 'cti_phonebook')} ORDER BY id`,
  );
  const shared = rows.filter((r) => (r.type ?? '').trim().toLowerCase() !== 'private');
  await trx.deleteFrom('phonebook_contacts').where('source_id', '=', MIGRATED_CTI_SOURCE).execute();
  const text = (v: string | null, max: number) => (v ?? '').trim().slice(0, max) || null;
  for (let i = 0; i < shared.length; i += CHUNK) {
    await trx
      .insertInto('phonebook_contacts')
      .values(
        shared.slice(i, i + CHUNK).map((r) => ({
          source_id: MIGRATED_CTI_SOURCE,
          ...Object.fromEntries(CONTACT_COLUMNS.map((c) => [c, text(r[c], c === 'notes' ? 2000 : 255)])),
          type: 'public',
        })),
      )
      .execute();
  }
  log.infos.push(msg('phonebook_migrated', { count: shared.length }));
  const personal = rows.length - shared.length;
  if (personal > 0) {
    log.warnings.push(msg('phonebook_private', { count: personal }));
  }
}

/**
 * The old CTI's customer-card templates (EJS files, `*.ejs`, in MIGRATION_CTI_TEMPLATES_DIR) → card templates here,
 * converted to Liquid by reading them (convertEjsTemplate), never by running them. A template that cannot be
 * converted is reported with its name and the line at fault; the administrator rewrites it by hand.
 */
export async function migrateCardTemplates(
  trx: Trx,
  dir: string | undefined,
  log: StepLog,
  progress: Pick<StepProgress, 'savedByThisStep' | 'saved'>,
): Promise<void> {
  if (!dir) {
    log.infos.push(msg('templates_no_dir'));
    return;
  }
  const files = (await fs.readdir(dir, { withFileTypes: true }).catch(() => []))
    .filter((f) => f.isFile() && f.name.endsWith('.ejs'))
    .map((f) => f.name)
    .sort();
  if (files.length === 0) {
    log.infos.push(msg('templates_none'));
    return;
  }
  const taken = new Set((await trx.selectFrom('card_templates').select('name').execute()).map((t) => t.name));
  const now = Date.now();
  for (const file of files) {
    // NethCTI named its card templates decorator_cc_<name>.ejs.
    const name = cardTemplateName(file.replace(/\.ejs$/, '').replace(/^decorator_cc_/, ''));
    if (!name) {
      log.warnings.push(msg('template_bad_name', { file }));
      continue;
    }
    if (taken.has(name)) {
      // Saved by this step's run whose PBX apply was cut short: what that run would have said.
      if (progress.savedByThisStep(name)) log.infos.push(msg('template_migrated', { name }));
      else log.warnings.push(msg('template_exists', { name }));
      continue;
    }
    let html: string;
    try {
      html = convertEjsTemplate(await fs.readFile(path.join(dir, file), 'utf8'));
    } catch (error) {
      log.warnings.push(msg('template_failed', { name, reason: describe(error) }));
      continue;
    }
    await trx
      .insertInto('card_templates')
      .values({ name, custom: 1, builtin: 0, html, created_at: now, updated_at: now })
      .execute();
    await progress.saved(name);
    taken.add(name);
    log.infos.push(msg('template_migrated', { name }));
  }
}
