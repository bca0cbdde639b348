import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';

const EVENTS = ['insert', 'update', 'delete'] as const;

/**
 * A counter every change to the users table moves, kept by the database itself (triggers), so a copy of the
 * users held in memory (the list's search index) knows when it is stale whoever wrote: a service, an import, a
 * directory sync, another process on the same PostgreSQL. It moves in the writer's transaction.
 */
export const usersVersion: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('users_version')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('n', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
    await sql`insert into users_version (id, n) values (1, 0)`.execute(db);
    if (db.getExecutor().adapter instanceof PostgresAdapter) {
      await sql`create function users_version_bump() returns trigger language plpgsql as $$
        begin update users_version set n = n + 1 where id = 1; return null; end $$`.execute(db);
      // Once per statement: an import of 5,000 rows moves it once per statement, not 5,000 times.
      for (const event of EVENTS) {
        await sql
          .raw(
            `create trigger users_version_${event} after ${event} on users for each statement execute function users_version_bump()`,
          )
          .execute(db);
      }
    } else {
      for (const event of EVENTS) {
        await sql
          .raw(
            `create trigger users_version_${event} after ${event} on users begin update users_version set n = n + 1 where id = 1; end`,
          )
          .execute(db);
      }
    }
  },
  async down(db: Kysely<unknown>) {
    for (const event of EVENTS)
      await sql
        .raw(
          `drop trigger if exists users_version_${event}${db.getExecutor().adapter instanceof PostgresAdapter ? ' on users' : ''}`,
        )
        .execute(db);
    if (db.getExecutor().adapter instanceof PostgresAdapter)
      await sql`drop function if exists users_version_bump()`.execute(db);
    await db.schema.dropTable('users_version').execute();
  },
};
