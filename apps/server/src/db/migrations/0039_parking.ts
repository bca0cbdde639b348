import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';
import { countChanges } from './0031_table_versions.ts';

/**
 * Call parking (issue 42 item 2): a res_parking lot dialled at its number, with `slots` consecutive slot numbers
 * from first_slot, a timeout in seconds and where a timed-out call goes (null: back to whoever parked it). The PBX
 * model reads the table, so it gets a change counter like the other call flows (0031).
 */
export const PARKING_MODEL_TABLES = ['parking_lots'] as const;

export const parking: Migration = {
  async up(db: Kysely<unknown>) {
    const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
    const serial = postgres ? sql`serial` : sql`integer`;
    await db.schema
      .createTable('parking_lots')
      .addColumn('id', serial, (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
      .addColumn('extension', 'varchar(20)', (c) => c.notNull().unique())
      .addColumn('name', 'varchar(80)', (c) => c.notNull().unique())
      .addColumn('first_slot', 'varchar(20)', (c) => c.notNull())
      .addColumn('slots', 'integer', (c) => c.notNull())
      .addColumn('timeout', 'integer', (c) => c.notNull())
      .addColumn('timeout_dest', 'varchar(200)')
      .addColumn('music_class', 'varchar(80)', (c) => c.notNull().defaultTo('default'))
      .execute();
    await db.schema.createIndex('parking_lots_timeout_dest').on('parking_lots').column('timeout_dest').execute();
    await countChanges(db, PARKING_MODEL_TABLES);
  },
  async down(db: Kysely<unknown>) {
    const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
    for (const event of ['insert', 'update', 'delete'])
      await sql
        .raw(`drop trigger if exists table_versions_parking_lots_${event}${postgres ? ' on parking_lots' : ''}`)
        .execute(db);
    await sql`delete from table_versions where name = 'parking_lots'`.execute(db);
    await db.schema.dropTable('parking_lots').execute();
  },
};
