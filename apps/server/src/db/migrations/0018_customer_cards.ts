import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';
import { BUILTIN_TEMPLATES } from './seed/card-templates.ts';

/** The built-in phonebook source reads this view: the central phonebook as the PBX users and sources leave it. */
const PHONEBOOK_VIEW = `create view phonebook as
  select c.* from phonebook_contacts c
  where c.source_id = 'extensions'
     or c.source_id in (select s.contacts_key from phonebook_sources s where s.contacts_key is not null)`;

/** The original's default Identity card (contract §6.7): contacts one of whose numbers ends with the caller's. */
const IDENTITY_QUERY = `SELECT * FROM phonebook
WHERE REPLACE(homephone, ' ', '') LIKE '%$NUMBER'
   OR REPLACE(workphone, ' ', '') LIKE '%$NUMBER'
   OR REPLACE(cellphone, ' ', '') LIKE '%$NUMBER'
   OR REPLACE(fax, ' ', '') LIKE '%$NUMBER'`;

/** Last calls (contract §6.7): the last 10 answered calls from or to the number, newest first. */
function lastCallsQuery(postgres: boolean): string {
  const date = postgres ? "to_char(calldate, 'DD/MM/YYYY')" : "strftime('%d/%m/%Y', calldate)";
  const time = postgres ? "to_char(calldate, 'HH24:MI:SS')" : "strftime('%H:%M:%S', calldate)";
  return `SELECT ${date} AS date, ${time} AS time, clid, src, dst, uniqueid, duration, billsec, disposition,
  CASE WHEN src = '$NUMBER' THEN 'in' ELSE 'out' END AS direction
FROM cdr
WHERE (src = '$NUMBER' OR dst = '$NUMBER') AND disposition = 'ANSWERED'
ORDER BY calldate DESC
LIMIT 10`;
}

/**
 * Customer cards (contract api-admin §6.4–6.7): templates (Liquid text in the database, not files), cards (a
 * query on a source, a template, and a `cc_*` permission of the customer_card macro that profiles hold), the
 * call records the built-in `asteriskcdrdb` source reads (Asterisk's standard CDR columns; filled by the PBX
 * side, empty until then), and the `phonebook` view the built-in `phonebook` source reads.
 */
export const customerCards: Migration = {
  async up(db: Kysely<unknown>) {
    const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
    const serial = isPostgres ? sql`serial` : sql`integer`;
    const now = Date.now();
    await db.schema
      .createTable('card_templates')
      /** Lower case, letters and digits (cardTemplateName); unique whether custom or not. */
      .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('custom', 'integer', (c) => c.notNull())
      /** One of the four shipped templates: changed but never deleted. */
      .addColumn('builtin', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('html', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    for (const [name, html] of Object.entries(BUILTIN_TEMPLATES)) {
      await sql`insert into card_templates (name, custom, builtin, html, created_at, updated_at)
        values (${name}, 0, 1, ${html}, ${now}, ${now})`.execute(db);
    }

    await db.schema
      .createTable('customer_cards')
      .addColumn('id', serial, (c) => (isPostgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
      .addColumn('name', 'varchar(64)', (c) => c.notNull())
      /** cc_<name>, fixed at creation (renaming a card keeps it, as the original). */
      .addColumn('permission', 'varchar(80)', (c) => c.notNull().unique())
      .addColumn('query', 'text', (c) => c.notNull())
      .addColumn('template', 'varchar(64)', (c) => c.notNull().references('card_templates.name'))
      .addColumn('dbconn_id', 'integer', (c) => c.notNull().references('card_sources.id'))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('customer_cards_template').on('customer_cards').column('template').execute();
    await db.schema.createIndex('customer_cards_dbconn').on('customer_cards').column('dbconn_id').execute();
    // Inserted in this order into the fresh table: ids 1 and 2, as the original's default data.
    const defaults = [
      { name: 'Identity', permission: 'cc_identity', query: IDENTITY_QUERY, template: 'identity', dbconn: 1 },
      {
        name: 'Last calls',
        permission: 'cc_lastcalls',
        query: lastCallsQuery(isPostgres),
        template: 'lastcalls',
        dbconn: 2,
      },
    ];
    for (const card of defaults) {
      await sql`insert into customer_cards (name, permission, query, template, dbconn_id, created_at)
        values (${card.name}, ${card.permission}, ${card.query}, ${card.template}, ${card.dbconn}, ${now})`.execute(db);
    }

    await db.schema
      .createTable('cdr')
      .ifNotExists()
      .addColumn('id', serial, (c) => (isPostgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
      .addColumn('calldate', 'timestamp', (c) => c.notNull())
      .addColumn('clid', 'varchar(80)', (c) => c.notNull().defaultTo(''))
      .addColumn('src', 'varchar(80)', (c) => c.notNull().defaultTo(''))
      .addColumn('dst', 'varchar(80)', (c) => c.notNull().defaultTo(''))
      .addColumn('dcontext', 'varchar(80)', (c) => c.notNull().defaultTo(''))
      .addColumn('channel', 'varchar(80)', (c) => c.notNull().defaultTo(''))
      .addColumn('dstchannel', 'varchar(80)', (c) => c.notNull().defaultTo(''))
      .addColumn('lastapp', 'varchar(80)', (c) => c.notNull().defaultTo(''))
      .addColumn('lastdata', 'varchar(80)', (c) => c.notNull().defaultTo(''))
      .addColumn('duration', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('billsec', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('disposition', 'varchar(45)', (c) => c.notNull().defaultTo(''))
      .addColumn('amaflags', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('accountcode', 'varchar(20)', (c) => c.notNull().defaultTo(''))
      .addColumn('uniqueid', 'varchar(150)', (c) => c.notNull().defaultTo(''))
      .addColumn('userfield', 'varchar(255)', (c) => c.notNull().defaultTo(''))
      .execute();
    await db.schema.createIndex('cdr_calldate').ifNotExists().on('cdr').column('calldate').execute();
    await db.schema.createIndex('cdr_src').ifNotExists().on('cdr').column('src').execute();
    await db.schema.createIndex('cdr_dst').ifNotExists().on('cdr').column('dst').execute();

    await sql.raw(PHONEBOOK_VIEW).execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`drop view if exists phonebook`.execute(db);
    await db.schema.dropTable('customer_cards').execute();
    await db.schema.dropTable('card_templates').execute();
    await db.schema.dropTable('cdr').ifExists().execute();
  },
};
