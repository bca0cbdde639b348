import type { MigrationReport, MigrationStatus, MigrationStepResult } from '@centralino/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { SettingsStore } from '../../db/settings-store.ts';

const STATUS_KEY = 'migration_status';

/** What a step found, in the three lists every step answers with. */
export class StepLog {
  readonly errors: string[] = [];
  readonly warnings: string[] = [];
  readonly infos: string[] = [];

  result(status: boolean | null = this.errors.length === 0): MigrationStepResult {
    return { status, errors: this.errors, warnings: this.warnings, infos: this.infos };
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
   * Stores a step's errors and warnings under its name (infos are answered, not stored: contract §11.3, except for
   * the PBX configuration check, whose verdict is part of the report even when it is "valid": `infos`).
   */
  async record(step: string, log: StepLog, db: Kysely<Database> = this.db, infos = false): Promise<void> {
    const now = Date.now();
    const rows = [
      ...(infos ? log.infos : []).map((message) => ({
        step,
        type: 'infos' as const,
        message: message.slice(0, 1000),
        created_at: now,
      })),
      ...log.errors.map((message) => ({
        step,
        type: 'errors' as const,
        message: message.slice(0, 1000),
        created_at: now,
      })),
      ...log.warnings.map((message) => ({
        step,
        type: 'warnings' as const,
        message: message.slice(0, 1000),
        created_at: now,
      })),
    ];
    for (let i = 0; i < rows.length; i += 200) {
      await db
        .insertInto('migration_report')
        .values(rows.slice(i, i + 200))
        .execute();
    }
  }

  async report(): Promise<MigrationReport> {
    const rows = await this.db
      .selectFrom('migration_report')
      .select(['step', 'type', 'message'])
      .orderBy('id')
      .execute();
    const out: MigrationReport = {};
    for (const r of rows) {
      const entry = out[r.step] ?? {};
      entry[r.type] = [...(entry[r.type] ?? []), r.message];
      out[r.step] = entry;
    }
    return out;
  }
}
