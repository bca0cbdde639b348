import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';
import { counterTrigger } from './0031_table_versions.ts';

/**
 * The tables whose changed rows are named in `row_changes`, with the column that names a row. The PBX model reads
 * these whole (10,000 users, 20,000 devices): with the rows named, a change to one user re-reads that user only
 * (pbx/model-rows.ts). Other tables keep their counter alone (0031).
 */
export const LOGGED_ROWS = { users: 'id', pbx_secrets: 'extension', devices: 'id' } as const;

const EVENTS = ['insert', 'update', 'delete'] as const;

/**
 * Each change to a table of `LOGGED_ROWS` writes the key of every row it touched (before and after an update) with
 * the table's counter value that change produced (0031's `table_versions.n`), in the writer's transaction.
 *
 * Why the counter's value and not a sequence: on PostgreSQL a sequence number is taken at once but committed later,
 * so a reader could see number 6 committed while 5 is still to come, and miss 5 for good. The counter's row stays
 * locked by its writer until commit, so the next writer of that table takes its value only after the previous one
 * committed: commit order is number order, and every entry up to a counter value a reader has seen is visible to it.
 * SQLite has one writer at a time, so the same holds there.
 *
 * `table_versions.forgotten`: entries up to that value may have been deleted (pbx/model-rows.ts trims the log); a
 * reader that kept rows older than that reads the table whole again.
 */
export const rowChanges: Migration = {
  async up(db: Kysely<unknown>) {
    const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
    await db.schema
      .createTable('row_changes')
      .addColumn('name', 'varchar(64)', (c) => c.notNull())
      .addColumn('version', 'bigint', (c) => c.notNull())
      .addColumn('key', 'varchar(255)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('row_changes_name_version').on('row_changes').columns(['name', 'version']).execute();
    await db.schema
      .alterTable('table_versions')
      .addColumn('forgotten', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
    if (postgres) {
      // One function for every logged table; the key column is the trigger's argument, the rows its transition
      // tables (one trigger per event: PostgreSQL allows transition tables only on single-event triggers).
      await sql`create function row_changes_log() returns trigger language plpgsql as $$
        declare v bigint;
        begin
          update table_versions set n = n + 1 where name = TG_TABLE_NAME returning n into v;
          if TG_OP = 'INSERT' then
            execute format('insert into row_changes (name, version, key) select %L, %s, %I::text from new_rows',
              TG_TABLE_NAME, v, TG_ARGV[0]);
          elsif TG_OP = 'DELETE' then
            execute format('insert into row_changes (name, version, key) select %L, %s, %I::text from old_rows',
              TG_TABLE_NAME, v, TG_ARGV[0]);
          else
            execute format('insert into row_changes (name, version, key) select %L, %s, k from '
              || '(select %I::text as k from old_rows union select %I::text from new_rows) as keys',
              TG_TABLE_NAME, v, TG_ARGV[0], TG_ARGV[0]);
          end if;
          return null;
        end $$`.execute(db);
    }
    for (const [table, key] of Object.entries(LOGGED_ROWS)) {
      for (const event of EVENTS) {
        const trigger = `table_versions_${table}_${event}`;
        await sql.raw(`drop trigger ${trigger}${postgres ? ` on ${table}` : ''}`).execute(db);
        if (postgres) {
          const transition =
            event === 'insert'
              ? 'new table as new_rows'
              : event === 'delete'
                ? 'old table as old_rows'
                : 'old table as old_rows new table as new_rows';
          await sql
            .raw(
              `create trigger ${trigger} after ${event} on ${table} referencing ${transition} ` +
                `for each statement execute function row_changes_log('${key}')`,
            )
            .execute(db);
          continue;
        }
        const log = (row: 'NEW' | 'OLD', when = '') =>
          `insert into row_changes (name, version, key) select '${table}', n, ${row}.${key} from table_versions ` +
          `where name = '${table}'${when};`;
        const body =
          event === 'insert'
            ? log('NEW')
            : event === 'delete'
              ? log('OLD')
              : `${log('OLD')} ${log('NEW', ` and NEW.${key} is not OLD.${key}`)}`;
        await sql
          .raw(
            `create trigger ${trigger} after ${event} on ${table} begin ` +
              `update table_versions set n = n + 1 where name = '${table}'; ${body} end`,
          )
          .execute(db);
      }
    }
  },
  async down(db: Kysely<unknown>) {
    const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
    for (const table of Object.keys(LOGGED_ROWS)) {
      for (const event of EVENTS) {
        await sql.raw(`drop trigger table_versions_${table}_${event}${postgres ? ` on ${table}` : ''}`).execute(db);
        await sql.raw(counterTrigger(table, event, postgres)).execute(db);
      }
    }
    if (postgres) await sql`drop function row_changes_log()`.execute(db);
    await db.schema.alterTable('table_versions').dropColumn('forgotten').execute();
    await db.schema.dropTable('row_changes').execute();
  },
};
