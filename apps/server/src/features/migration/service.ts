import type { MigrationDryRun, MigrationStatus, PbxApplyRecord, UiLanguage } from '@centralino/contract';
import type { DatabaseHandle } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import type { CsvService } from '../csv/service.ts';
import type { CtiService } from '../cti/service.ts';
import type { RecordingsService } from '../flows/service.ts';
import type { GatewaysService } from '../gateways/service.ts';
import { CdrCopy } from './cdr.ts';
import { cdrWriter } from './cdr-writer.ts';
import { ConfigMigration, type StepAnswer } from './config-steps.ts';
import { dryRun } from './dryrun.ts';
import { msg, textMessage } from './messages.ts';
import { StepProgress } from './resume.ts';
import { type LegacyConfig, LegacySource } from './source.ts';
import { MigrationState, StepLog } from './state.ts';
import { UsersMigration } from './users.ts';

/** Migration from the older system (contract §11): the status machine and the three groups of steps. */
export class MigrationService {
  readonly state: MigrationState;
  private readonly source: LegacySource | undefined;
  private readonly parts: { users: UsersMigration; config: ConfigMigration; cdr: CdrCopy } | undefined;

  private readonly db: DatabaseHandle['db'];
  private readonly applyNow: () => Promise<PbxApplyRecord | null>;

  constructor(
    database: DatabaseHandle,
    legacy: LegacyConfig | undefined,
    deps: {
      cti: CtiService;
      csv: CsvService;
      gateways: GatewaysService;
      recordings: RecordingsService;
      /** Marks the PBX configuration changed, applies it and answers the apply's record (with the validator's verdict). */
      applyNow: () => Promise<PbxApplyRecord | null>;
      log?: { error(obj: object, msg: string): void; info(obj: object, msg: string): void };
    },
  ) {
    const db = database.db;
    this.db = db;
    this.applyNow = deps.applyNow;
    this.state = new MigrationState(db);
    if (legacy) {
      this.source = new LegacySource(legacy);
      this.parts = {
        users: new UsersMigration(db, this.source, this.state, deps.cti, deps.csv),
        config: new ConfigMigration(db, this.source, this.state, deps.gateways, deps.recordings),
        cdr: new CdrCopy(db, cdrWriter(database), this.source, this.state, deps.log),
      };
    }
  }

  /** True only when the old databases answer and the migration is not finished. */
  async isMigration(): Promise<boolean> {
    if (!this.source) return false;
    if ((await this.state.status()) === 'done') return false;
    return this.source.reachable();
  }

  private get steps() {
    if (!this.parts) throw new AppError(409, 'migration_not_configured');
    return this.parts;
  }

  get users(): UsersMigration {
    return this.steps.users;
  }
  get config(): ConfigMigration {
    return this.steps.config;
  }
  get cdr(): CdrCopy {
    return this.steps.cdr;
  }

  /** What the migration would do, read from the whole old system; nothing is written (dryrun.ts). */
  dryRun(lang: UiLanguage): Promise<MigrationDryRun> {
    if (!this.source) throw new AppError(409, 'migration_not_configured');
    return dryRun(this.db, this.source, this.users, lang);
  }

  /**
   * The last configuration step (contract order): the steps before it changed only the database, so the PBX is
   * applied here, once, and the validator's verdict becomes the report's "PBX configuration check".
   */
  async postMigration(): Promise<StepAnswer> {
    const answer = await this.config.postMigration();
    const log = new StepLog();
    const record = await this.applyNow();
    if (!record) log.errors.push(msg('pbx_failed', { reason: 'no apply' }));
    else if (record.ok) log.infos.push(msg('pbx_valid'));
    else if (record.problems.length > 0) {
      log.errors.push(
        msg('pbx_invalid', { count: record.problems.length }),
        ...(record.error ?? '')
          .split('\n')
          .slice(1)
          .map((line) => textMessage(line)),
      );
    } else log.errors.push(msg('pbx_failed', { reason: record.error ?? '' }));
    // Run again, the section holds the last verdict only; with it the step has ended (its list of saved templates
    // goes: resume.ts).
    await this.db.transaction().execute(async (trx) => {
      await this.state.record('pbxConfigurationCheck', log, trx, { replace: true });
      await StepProgress.finish(trx, 'postMigration');
    });
    const step = answer.body;
    const check = log.result();
    return {
      code: answer.code,
      body: (lang) => {
        const own = step(lang);
        const verdict = check(lang);
        return { ...own, infos: [...own.infos, ...verdict.infos], warnings: [...own.warnings, ...verdict.errors] };
      },
    };
  }

  async setStatus(status: MigrationStatus): Promise<void> {
    await this.state.setStatus(status);
  }

  /** A copy of the call records interrupted by a restart goes on. */
  async start(): Promise<void> {
    await this.parts?.cdr.resume();
  }

  async close(): Promise<void> {
    await this.parts?.cdr.stop();
    await this.source?.close();
  }
}
