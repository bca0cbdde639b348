import type { Kysely, Migration } from 'kysely';

/**
 * Day/night switches (issue 26): switch `ext` (0–9, toggled by feature code *28<ext>) sends calls to its day or its
 * night destination. The current mode lives in Asterisk's AstDB (DAYNIGHT/C<ext>), so a toggle needs no reload.
 */
export const dayNight: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('daynight')
      .addColumn('ext', 'integer', (c) => c.primaryKey())
      .addColumn('name', 'varchar(80)', (c) => c.notNull().unique())
      .addColumn('day_dest', 'varchar(200)', (c) => c.notNull())
      .addColumn('night_dest', 'varchar(200)', (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('daynight').execute();
  },
};
