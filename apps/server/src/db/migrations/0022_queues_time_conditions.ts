import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';

/**
 * Call queues (issue 26): a queue is dialled at its extension (ext-queues,<extension>,1), rings its static members
 * and the dynamic agents logged in with *45<extension>, and after max_wait seconds goes to its failover destination.
 * Time groups (ranges as GotoIfTime reads them) and time conditions (timeconditions,<id>,1: one destination while
 * the group matches, another otherwise; the override lives in AstDB TC/<id>).
 */
export const queuesTimeConditions: Migration = {
  async up(db: Kysely<unknown>) {
    const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
    const serial = isPostgres ? sql`serial` : sql`integer`;
    await db.schema
      .createTable('queues')
      .addColumn('id', serial, (c) => (isPostgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
      .addColumn('extension', 'varchar(20)', (c) => c.notNull().unique())
      .addColumn('name', 'varchar(80)', (c) => c.notNull().unique())
      .addColumn('strategy', 'varchar(20)', (c) => c.notNull())
      .addColumn('ring_time', 'integer', (c) => c.notNull())
      .addColumn('max_wait', 'integer', (c) => c.notNull())
      .addColumn('failover_dest', 'varchar(200)', (c) => c.notNull())
      .addColumn('music', 'varchar(20)', (c) => c.notNull())
      .addColumn('announce_position', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.createIndex('queues_failover_dest').on('queues').column('failover_dest').execute();
    await db.schema
      .createTable('queue_members')
      .addColumn('queue_id', 'integer', (c) => c.notNull().references('queues.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('kind', 'varchar(10)', (c) => c.notNull())
      .addPrimaryKeyConstraint('queue_members_pk', ['queue_id', 'user_id', 'kind'])
      .execute();
    await db.schema.createIndex('queue_members_user').on('queue_members').column('user_id').execute();

    await db.schema
      .createTable('time_groups')
      .addColumn('id', serial, (c) => (isPostgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
      .addColumn('name', 'varchar(80)', (c) => c.notNull().unique())
      .execute();
    await db.schema
      .createTable('time_group_ranges')
      .addColumn('group_id', 'integer', (c) => c.notNull().references('time_groups.id').onDelete('cascade'))
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('hours', 'varchar(20)', (c) => c.notNull())
      .addColumn('weekdays', 'varchar(20)', (c) => c.notNull())
      .addColumn('mdays', 'varchar(20)', (c) => c.notNull())
      .addColumn('months', 'varchar(20)', (c) => c.notNull())
      .addPrimaryKeyConstraint('time_group_ranges_pk', ['group_id', 'position'])
      .execute();
    await db.schema
      .createTable('time_conditions')
      .addColumn('id', serial, (c) => (isPostgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
      .addColumn('name', 'varchar(80)', (c) => c.notNull().unique())
      .addColumn('time_group_id', 'integer', (c) => c.notNull().references('time_groups.id'))
      .addColumn('true_dest', 'varchar(200)', (c) => c.notNull())
      .addColumn('false_dest', 'varchar(200)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('time_conditions_group').on('time_conditions').column('time_group_id').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('time_conditions').execute();
    await db.schema.dropTable('time_group_ranges').execute();
    await db.schema.dropTable('time_groups').execute();
    await db.schema.dropTable('queue_members').execute();
    await db.schema.dropTable('queues').execute();
  },
};
