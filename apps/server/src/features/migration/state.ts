import type { MigrationReport, MigrationStatus, MigrationStepResult, UiLanguage } from '@centralino/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { SettingsStore } from '../../db/settings-store.ts';
import { type Message, msg, renderMessage } from './messages.ts';

const STATUS_KEY = 'migration_status';

/** A step's answer, rendered in the language of the request that receives it. */
export type StepBody = (lang: UiLanguage) => MigrationStepResult;

/** What a step found, in the three lists every step answers with (catalogue keys: messages.ts). */
export class StepLog {
  readonly errors: Message[] = [];
  readonly warnings: Message[] = [];
  readonly infos: Message[] = [];

  result(status: boolean | null = this.errors.length === 0): StepBody {
    return (lang) => {
      const render = (list: Message[]) => list.map((m) => renderMessage(m, lang));
      return { status, errors: render(this.errors), warnings: render(this.warnings), infos: render(this.infos) };
    };
  }
}

/** A stored report row's line: its key and parameters, or (a row older than migration 0030) its English text. */
function storedMessage(row: { message: string; message_key: string | null; params: string | null }): Message {
  if (!row.message_key) return msg('text', { text: row.message });
  try {
    return { key: row.message_key, params: row.params ? JSON.parse(row.params) : undefined } as Message;
  } catch {
    return msg('text', { text: row.message });
  }
}

/** The migration status (one settings row) and the report of what the steps could not migrate. */
export class MigrationState {
  private readonly settings: SettingsStore;

  constructor(private readonly db: Kysely<Database>) {
    this.settings = new SettingsStore(db);
  }

  async status(): Promise<MigrationStatus> {
    return (await this.settings.get<MigrationStatus>(STATUS_KEY)) ?? 'ready';
  }

  async setStatus(status: MigrationStatus, db: Kysely<Database> = this.db): Promise<void> {
    await this.settings.set(STATUS_KEY, status, db);
  }

  /**
   * Stores what a step found under its name — errors, warnings and infos (the spec's report shows all three; the
   * original kept only the first two, contract §11.3). A step run again (resumed after a restart, or repeated) adds
   * only the lines the report does not hold yet, so nothing is listed twice and what the first run said stays; when
   * it succeeds, the errors of the runs before are gone (they are no longer true). `replace` drops the step's
   * earlier lines first (a verdict, or a list the administrator made again). Pass the step's transaction so that
   * its lines commit with its writes.
   */
  async record(
    step: string,
    log: StepLog,
    db: Kysely<Database> = this.db,
    options: { replace?: boolean } = {},
  ): Promise<void> {
    const now = Date.now();
    if (options.replace) await db.deleteFrom('migration_report').where('step', '=', step).execute();
    else if (log.errors.length === 0) {
      await db.deleteFrom('migration_report').where('step', '=', step).where('type', '=', 'errors').execute();
    }
    const held = new Set(
      (
        await db
          .selectFrom('migration_report')
          .select(['type', 'message', 'message_key', 'params'])
          .where('step', '=', step)
          .execute()
      ).map((r) => `${r.type}\n${r.message_key ?? ''}\n${r.params ?? ''}\n${r.message_key ? '' : r.message}`),
    );
    // The English text stays in `message` (what an older reader shows); the key and parameters are what is rendered.
    const row = (type: 'errors' | 'warnings' | 'infos') => (m: Message) => ({
      step,
      type,
      message: renderMessage(m, 'en').slice(0, 1000),
      message_key: m.key,
      params: m.params ? JSON.stringify(m.params) : null,
      created_at: now,
    });
    const rows = [
      ...log.errors.map(row('errors')),
      ...log.warnings.map(row('warnings')),
      ...log.infos.map(row('infos')),
    ].filter((r) => {
      const key = `${r.type}\n${r.message_key}\n${r.params ?? ''}\n`;
      if (held.has(key)) return false;
      held.add(key);
      return true;
    });
    for (let i = 0; i < rows.length; i += 200) {
      await db
        .insertInto('migration_report')
        .values(rows.slice(i, i + 200))
        .execute();
    }
  }

  /** The report in the reader's language (English for rows written before the catalogue). */
  async report(lang: UiLanguage = 'en'): Promise<MigrationReport> {
    const rows = await this.db
      .selectFrom('migration_report')
      .select(['step', 'type', 'message', 'message_key', 'params'])
      .orderBy('id')
      .execute();
    const out: MigrationReport = {};
    for (const r of rows) {
      const entry = out[r.step] ?? {};
      entry[r.type] = [...(entry[r.type] ?? []), renderMessage(storedMessage(r), lang)];
      out[r.step] = entry;
    }
    return out;
  }
}
