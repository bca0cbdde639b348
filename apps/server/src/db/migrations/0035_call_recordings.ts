import type { Kysely, Migration } from 'kysely';

/**
 * Call recordings (issue 41, items 6–8). Users, inbound routes and queues each get a recording policy (`always`,
 * `never`, `on_demand`: the `*1` feature code, as before); a console account may be allowed to listen
 * (`readonly` accounts are not, unless this says so); a call whose recording the retention removed says so instead
 * of offering a broken player (`recording_deleted_at`, which the indexer's upsert leaves alone).
 */
export const callRecordings: Migration = {
  async up(db: Kysely<unknown>) {
    for (const table of ['users', 'inbound_routes', 'queues']) {
      await db.schema
        .alterTable(table)
        .addColumn('recording_policy', 'varchar(10)', (c) => c.notNull().defaultTo('on_demand'))
        .execute();
    }
    await db.schema
      .alterTable('admins')
      .addColumn('listen_recordings', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.alterTable('calls').addColumn('recording_deleted_at', 'bigint').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('calls').dropColumn('recording_deleted_at').execute();
    await db.schema.alterTable('admins').dropColumn('listen_recordings').execute();
    for (const table of ['users', 'inbound_routes', 'queues']) {
      await db.schema.alterTable(table).dropColumn('recording_policy').execute();
    }
  },
};
