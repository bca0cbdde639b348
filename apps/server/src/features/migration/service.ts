import type { MigrationStatus } from '@centralino/contract';
import type { DatabaseHandle } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import type { CsvService } from '../csv/service.ts';
import type { CtiService } from '../cti/service.ts';
import type { RecordingsService } from '../flows/service.ts';
import type { GatewaysService } from '../gateways/service.ts';
import { CdrCopy } from './cdr.ts';
import { cdrWriter } from './cdr-writer.ts';
import { ConfigMigration } from './config-steps.ts';
import { type LegacyConfig, LegacySource } from './source.ts';
import { MigrationState } from './state.ts';
import { UsersMigration } from './users.ts';

/** Migration from the older system (contract §11): the status machine and the three groups of steps. */
export class MigrationService {
  readonly state: MigrationState;
  private readonly source: LegacySource | undefined;
  private readonly parts: { users: UsersMigration; config: ConfigMigration; cdr: CdrCopy } | undefined;

  constructor(
    database: DatabaseHandle,
    legacy: LegacyConfig | undefined,
    deps: {
      cti: CtiService;
      csv: CsvService;
      gateways: GatewaysService;
      recordings: RecordingsService;
      changed: () => void;
      log?: { error(obj: object, msg: string): void; info(obj: object, msg: string): void };
    },
  ) {
    const db = database.db;
    this.state = new MigrationState(db);
    if (legacy) {
      this.source = new LegacySource(legacy);
      this.parts = {
        users: new UsersMigration(db, this.source, this.state, deps.cti, deps.csv),
        config: new ConfigMigration(db, this.source, this.state, deps.changed, deps.gateways, deps.recordings),
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
