import type { Pool, RowDataPacket } from 'mysql2/promise';
import type { Config } from '../../config.ts';
import { loadMysqlPromise } from '../../drivers.ts';

export type LegacyConfig = NonNullable<Config['migration']>;
// biome-ignore lint/suspicious/noExplicitAny: rows are typed by each query's caller
export type Row = any;

/**
 * The older system's databases on MariaDB/MySQL, read only. Table names are qualified with the database names of
 * the configuration (validated to letters, digits and underscores, and quoted); every value is a bound parameter.
 */
export class LegacySource {
  private pool: Pool | undefined;

  constructor(readonly config: LegacyConfig) {}

  private async connection(): Promise<Pool> {
    if (!this.pool) {
      const mysql = await loadMysqlPromise();
      const url = new URL(this.config.url.replace(/^mariadb:/, 'mysql:'));
      this.pool = mysql.createPool({
        host: url.hostname,
        port: Number(url.port || 3306),
        user: decodeURIComponent(url.username),
        password: decodeURIComponent(url.password),
        connectionLimit: 2,
        connectTimeout: 5000,
        // Dates as the old server wrote them ('YYYY-MM-DD HH:MM:SS', its local time), as Centralino's call records keep them.
        dateStrings: true,
        charset: 'utf8mb4',
      });
    }
    return this.pool;
  }

  /** `db`.`table` of one of the three databases. */
  table(db: 'pbx' | 'cdr' | 'cti', table: string): string {
    const name = db === 'pbx' ? this.config.pbxDb : db === 'cdr' ? this.config.cdrDb : this.config.ctiDb;
    return `\`${name}\`.\`${table}\``;
  }

  async query<T = Row>(sql: string, params: unknown[] = []): Promise<T[]> {
    const pool = await this.connection();
    const [rows] = await pool.query<RowDataPacket[]>(sql, params);
    return rows as unknown as T[];
  }

  /** Whether the old PBX database answers. */
  async reachable(): Promise<boolean> {
    try {
      await this.query(`SELECT 1 FROM ${this.table('pbx', 'users')} LIMIT 1`);
      return true;
    } catch {
      return false;
    }
  }

  /** Whether a table exists (an older system without CTI has no CTI tables). */
  async hasTable(db: 'pbx' | 'cdr' | 'cti', table: string): Promise<boolean> {
    const name = db === 'pbx' ? this.config.pbxDb : db === 'cdr' ? this.config.cdrDb : this.config.ctiDb;
    const rows = await this.query(
      'SELECT 1 AS x FROM information_schema.tables WHERE table_schema = ? AND table_name = ?',
      [name, table],
    );
    return rows.length > 0;
  }

  async close(): Promise<void> {
    await this.pool?.end();
    this.pool = undefined;
  }
}
