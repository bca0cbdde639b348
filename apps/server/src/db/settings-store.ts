import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';

/** Small key/value store for system settings; values are JSON. */
export class SettingsStore {
  constructor(private readonly db: Kysely<Database>) {}

  async get<T>(key: string): Promise<T | undefined> {
    const row = await this.db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
    return row ? (JSON.parse(row.value) as T) : undefined;
  }

  async set(key: string, value: unknown, db: Kysely<Database> = this.db): Promise<void> {
    const json = JSON.stringify(value);
    await db
      .insertInto('settings')
      .values({ key, value: json })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: json }))
      .execute();
  }
}
