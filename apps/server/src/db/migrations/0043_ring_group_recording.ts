import type { Kysely, Migration } from 'kysely';

/**
 * A ring group's call recording policy (issue 42, like a queue's: always, never or on demand). Existing groups get
 * 'on_demand', what they did before: nothing recorded unless someone presses *1.
 */
export const ringGroupRecording: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('ring_groups')
      .addColumn('recording_policy', 'varchar(10)', (c) => c.notNull().defaultTo('on_demand'))
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('ring_groups').dropColumn('recording_policy').execute();
  },
};
