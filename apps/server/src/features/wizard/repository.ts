import type { WizardState } from '@centralino/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

const ROW_ID = 1;

export class WizardRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async get(): Promise<WizardState | undefined> {
    const row = await this.db
      .selectFrom('wizard')
      .select(['step', 'status'])
      .where('id', '=', ROW_ID)
      .executeTakeFirst();
    return row ? { step: Number(row.step), status: row.status } : undefined;
  }

  async set(state: WizardState): Promise<void> {
    await this.db
      .insertInto('wizard')
      .values({ id: ROW_ID, ...state })
      .onConflict((oc) => oc.column('id').doUpdateSet(state))
      .execute();
  }
}
