import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';

/**
 * A trigram index for the users list's search (a fragment anywhere in name, full name or number: LIKE '%x%',
 * which a b-tree cannot help). On 10,000 users a search read every row twice (page and total); with trigrams
 * it reads the matching rows only. SQLite: an FTS5 trigram table over users.search_key, kept by triggers.
 * PostgreSQL: pg_trgm's GIN index, which the planner uses for LIKE by itself; where the extension may not be
 * created (a database user without the right), the search keeps scanning, as before.
 */
export const usersSearch: Migration = {
  async up(db: Kysely<unknown>) {
    if (db.getExecutor().adapter instanceof PostgresAdapter) {
      await sql`savepoint users_search`.execute(db);
      try {
        await sql`create extension if not exists pg_trgm`.execute(db);
        await sql`create index users_search_trgm on users using gin (search_key gin_trgm_ops)`.execute(db);
        await sql`release savepoint users_search`.execute(db);
      } catch {
        await sql`rollback to savepoint users_search`.execute(db);
      }
      return;
    }
    await sql`create virtual table users_search using fts5(search_key, content='users', content_rowid='id', tokenize='trigram')`.execute(
      db,
    );
    await sql`insert into users_search(users_search) values ('rebuild')`.execute(db);
    await sql`create trigger users_search_insert after insert on users begin
      insert into users_search(rowid, search_key) values (new.id, new.search_key);
    end`.execute(db);
    await sql`create trigger users_search_delete after delete on users begin
      insert into users_search(users_search, rowid, search_key) values ('delete', old.id, old.search_key);
    end`.execute(db);
    await sql`create trigger users_search_update after update of search_key on users begin
      insert into users_search(users_search, rowid, search_key) values ('delete', old.id, old.search_key);
      insert into users_search(rowid, search_key) values (new.id, new.search_key);
    end`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    if (db.getExecutor().adapter instanceof PostgresAdapter) {
      await sql`drop index if exists users_search_trgm`.execute(db);
      return;
    }
    await sql`drop trigger if exists users_search_insert`.execute(db);
    await sql`drop trigger if exists users_search_delete`.execute(db);
    await sql`drop trigger if exists users_search_update`.execute(db);
    await sql`drop table if exists users_search`.execute(db);
  },
};
