import type { ColumnDefinitionBuilder, Kysely, Migration } from 'kysely';

const COLUMNS: [string, 'integer' | 'varchar(120)', (c: ColumnDefinitionBuilder) => ColumnDefinitionBuilder][] = [
  ['ring_time', 'integer', (c) => c.notNull().defaultTo(0)],
  ['call_waiting', 'integer', (c) => c.notNull().defaultTo(1)],
  ['call_group', 'varchar(120)', (c) => c.notNull().defaultTo('')],
  ['pickup_group', 'varchar(120)', (c) => c.notNull().defaultTo('')],
  ['busy_dest', 'varchar(120)', (c) => c],
  ['noanswer_dest', 'varchar(120)', (c) => c],
  ['unavailable_dest', 'varchar(120)', (c) => c],
];

/**
 * What the bulk editor sets on a user's calls: ring time, call waiting, numeric call/pickup groups and where
 * busy, unanswered and unreachable calls go. The renderer already knew these; until now nothing stored them,
 * so every user rang with the defaults.
 */
export const userCallSettings: Migration = {
  async up(db: Kysely<unknown>) {
    for (const [column, type, build] of COLUMNS) {
      await db.schema.alterTable('users').addColumn(column, type, build).execute();
    }
  },
  async down(db: Kysely<unknown>) {
    for (const [column] of COLUMNS) await db.schema.alterTable('users').dropColumn(column).execute();
  },
};
