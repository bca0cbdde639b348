import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fromBase64, toBase64 } from '@centralino/contract';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CardQueryRunner } from '../src/features/custcards/run-query.ts';
import { bindNumber } from '../src/features/custcards/sql-lex.ts';
import { callAs, DB_KINDS, expectError, POSTGRES_ADMIN_URL, useTestApp } from './helpers.ts';

/** Real servers on this machine: MariaDB (root, no password) and PostgreSQL (trust auth), as card-sources.test.ts. */
const MARIADB = { host: '127.0.0.1', port: 3306, user: 'root', password: '' };
const MARIADB_DB = `cz_custcards_${process.pid}`;
const PG_DB = `cz_custcards_pg_${process.pid}`;
let setupError: string | undefined;

async function pgAdmin<T>(run: (client: pg.Client) => Promise<T>, database?: string): Promise<T> {
  const url = new URL(POSTGRES_ADMIN_URL);
  if (database) url.pathname = `/${database}`;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

const CONTACTS_SQL = [
  'CREATE TABLE contacts (id integer primary key, name varchar(100), phone varchar(40))',
  "INSERT INTO contacts VALUES (1, 'Alice <script>alert(1)</script>', '+39 0721 111'), (2, 'Bob', '0721222'), (3, 'Carol', '333444')",
];

beforeAll(async () => {
  try {
    const mariadb = await mysql.createConnection(MARIADB);
    await mariadb.query(`DROP DATABASE IF EXISTS ${MARIADB_DB}`);
    await mariadb.query(`CREATE DATABASE ${MARIADB_DB}`);
    await mariadb.query(`USE ${MARIADB_DB}`);
    for (const statement of CONTACTS_SQL) await mariadb.query(statement);
    // A function that writes: a SELECT calling it must be stopped by the read-only transaction.
    await mariadb.query(
      "CREATE FUNCTION bump() RETURNS INT MODIFIES SQL DATA BEGIN INSERT INTO contacts VALUES (99, 'x', 'y'); RETURN 1; END",
    );
    await mariadb.end();
    await pgAdmin(async (c) => {
      await c.query(`DROP DATABASE IF EXISTS ${PG_DB}`);
      await c.query(`CREATE DATABASE ${PG_DB}`);
    });
    await pgAdmin(async (c) => {
      for (const statement of CONTACTS_SQL) await c.query(statement);
      await c.query(
        "CREATE FUNCTION bump() RETURNS integer LANGUAGE sql AS $$ INSERT INTO contacts VALUES (99, 'x', 'y') RETURNING 1 $$",
      );
    }, PG_DB);
  } catch (error) {
    setupError = `MariaDB or PostgreSQL not reachable: ${(error as Error).message}`;
  }
});
afterAll(async () => {
  const mariadb = await mysql.createConnection(MARIADB).catch(() => undefined);
  await mariadb?.query(`DROP DATABASE IF EXISTS ${MARIADB_DB}`).catch(() => {});
  await mariadb?.end();
  await pgAdmin((c) => c.query(`DROP DATABASE IF EXISTS ${PG_DB} WITH (FORCE)`)).catch(() => {});
});

async function contactCount(kind: 'mysql' | 'postgres'): Promise<number> {
  if (kind === 'mysql') {
    const c = await mysql.createConnection({ ...MARIADB, database: MARIADB_DB });
    const [rows] = await c.query('SELECT count(*) AS n FROM contacts');
    await c.end();
    return Number((rows as { n: number }[])[0]?.n);
  }
  return pgAdmin(async (c) => Number((await c.query('SELECT count(*) AS n FROM contacts')).rows[0].n), PG_DB);
}

describe('$NUMBER binding', () => {
  it('never leaves the number in the SQL and splits literals into concatenations', () => {
    const q = "select * from t where a like '%$NUMBER' and b = $NUMBER -- $NUMBER\nand c = 'x''$NUMBER'";
    expect(bindNumber(q, 'postgres').sql).toBe(
      "select * from t where a like ('%' || $1::text) and b = $1::text -- $NUMBER\nand c = ('x''' || $1::text)",
    );
    expect(bindNumber(q, 'mysql').sql).toBe(
      "select * from t where a like CONCAT('%', ?) and b = ? -- $NUMBER\nand c = CONCAT('x''', ?)",
    );
    expect(bindNumber(q, 'mysql').placeholders).toBe(3);
    expect(bindNumber(q, 'mssql').sql).toContain("('%' + @number)");
    expect(bindNumber(q, 'sqlite').sql).toContain("('%' || @number)");
    // A backslash escape (MySQL) does not end the literal early.
    expect(bindNumber("select 'it\\'s $NUMBER'", 'mysql').sql).toBe("select CONCAT('it\\'s ', ?)");
    // Dollar quoting on PostgreSQL is a literal, and $NUMBERS is not $NUMBER.
    expect(bindNumber('select $$ $NUMBER $$, $NUMBERS', 'postgres').placeholders).toBe(0);
    expect(bindNumber('select 1; drop table x', 'postgres').multipleStatements).toBe(true);
    expect(bindNumber('select 1;  -- end', 'postgres')).toMatchObject({
      multipleStatements: false,
      sql: 'select 1  -- end',
    });
  });
});

describe('a caller number that is SQL', () => {
  // The API accepts only digits, + * # and spaces as a test number, but the CTI will hand over whatever caller
  // ID a call brings: the runner itself must keep it a value.
  const runner = new CardQueryRunner({ kind: 'sqlite', location: '/nonexistent' });
  afterAll(() => runner.close());

  it.each(['mysql', 'postgres'] as const)('returns no extra rows and changes nothing on %s', async (engine) => {
    if (setupError) throw new Error(setupError);
    const connection =
      engine === 'mysql'
        ? { type: 'mysql' as const, ...MARIADB, name: MARIADB_DB }
        : { type: 'postgres' as const, host: '127.0.0.1', port: 5432, user: 'postgres', password: '', name: PG_DB };
    const target = { kind: 'external' as const, connection };
    const queries = [
      "select name from contacts where phone = '$NUMBER'",
      'select name from contacts where phone = $NUMBER',
      "select name from contacts where phone like '%$NUMBER%'",
      'select name from contacts where phone = "$NUMBER"',
    ].slice(0, engine === 'mysql' ? 4 : 3);
    for (const attack of [
      "' or 1=1 --",
      "'; drop table contacts; --",
      "x' union select phone from contacts --",
      '1 or 1=1',
      '" or ""="',
      "\\' or 1=1 #",
    ]) {
      for (const query of queries) {
        const result = await runner.run(target, query, attack);
        expect(result.rows, `${query} with ${attack}`).toEqual([]);
      }
    }
    expect(await contactCount(engine)).toBe(3);
    // The same queries find the row whose number is given.
    expect((await runner.run(target, queries[0] as string, '0721222')).rows).toEqual([{ name: 'Bob' }]);
  });
});

describe.each(DB_KINDS)('customer cards (%s)', (kind) => {
  const t = useTestApp(kind);
  const call = callAs(t);
  const requireServers = () => {
    if (setupError) throw new Error(setupError);
  };
  const preview = (body: Record<string, unknown>, headers?: Record<string, string>) =>
    call('POST', '/api/custcard/preview', body, headers);
  const html = (res: { json(): unknown }) => fromBase64((res.json() as { html: string }).html);
  let mariadbId = 0;
  let postgresId = 0;

  it('ships the four templates and the two default cards', async () => {
    const templates = (await call('GET', '/api/cti/customer_card/template')).json() as Record<string, unknown>[];
    expect(templates.map((x) => [x.name, x.custom, x.color, x.builtin])).toEqual([
      ['identity', false, 'red', true],
      ['lastcalls', false, 'red', true],
      ['statistics', false, 'red', true],
      ['table', false, 'red', true],
    ]);
    const cards = (await call('GET', '/api/cti/customer_card')).json() as Record<string, unknown>[];
    expect(cards.map((c) => [c.id, c.name, c.dbconn_id, c.template, c.profiles])).toEqual([
      [1, 'Identity', 1, { name: 'identity', custom: false }, []],
      [2, 'Last calls', 2, { name: 'lastcalls', custom: false }, []],
    ]);
    expect(fromBase64(cards[0]?.query as string)).toMatch(/FROM phonebook/);
  });

  it('runs the default cards on the built-in sources, read-only', async () => {
    await t.database.db
      .insertInto('phonebook_contacts')
      .values({ source_id: 'extensions', name: 'Dario <b>', workphone: '0721 555 123', type: 'extension' })
      .execute();
    const identity = await preview({
      dbconn_id: 1,
      template: 'identity',
      query: toBase64(
        fromBase64(((await call('GET', '/api/cti/customer_card')).json() as { query: string }[])[0]?.query ?? ''),
      ),
      number: '0721 555123',
    });
    expect(identity.statusCode, identity.body).toBe(200);
    expect(identity.json().rows).toMatchObject([{ name: 'Dario <b>', workphone: '0721 555 123' }]);
    expect(html(identity)).toContain('Dario &lt;b&gt;');
    // The shipped templates' labels follow the language of whoever looks at the card.
    expect(html(identity)).toContain('<dt>Work</dt>');
    const italian = await preview(
      { dbconn_id: 1, template: 'identity', query: toBase64('select * from phonebook'), number: '' },
      { 'accept-language': 'it-IT,it;q=0.9' },
    );
    expect(html(italian)).toContain('<dt>Ufficio</dt>');
    const cards = (await call('GET', '/api/cti/customer_card')).json() as { query: string }[];
    const lastCalls = await preview({ dbconn_id: 2, template: 'lastcalls', query: cards[1]?.query, number: '201' });
    expect(lastCalls.statusCode, lastCalls.body).toBe(200);
    expect(lastCalls.json()).toMatchObject({ rows: [], truncated: false });
    expect(html(lastCalls)).toContain('No calls yet');
    const ultime = await preview(
      { dbconn_id: 2, template: 'lastcalls', query: cards[1]?.query, number: '201' },
      { 'accept-language': 'it' },
    );
    expect(html(ultime)).toContain('Ancora nessuna chiamata');
    expect(html(ultime)).toContain('Ultime chiamate');
    // The built-in sources read only their own view or table.
    const secrets = expectError(
      await preview({ dbconn_id: 1, template: 'table', query: toBase64('select * from admins') }),
      422,
      'card_query_failed',
    );
    expect(secrets.detail).toMatch(/reads only phonebook; the query names admins/);
    for (const query of [
      'select * from cdr, "sessions"',
      "select * from 'admins'",
      'select * from main.ADMINS',
      'select * from `users`',
      ...(kind === 'postgres'
        ? [
            'select * from U&"\\0061dmins"',
            "select * from query_to_xml('select * from admins', true, false, '')",
            'select * from pg_authid',
          ]
        : []),
    ]) {
      const res = await preview({ dbconn_id: 2, template: 'table', query: toBase64(query) });
      expectError(res, 422, 'card_query_failed');
    }
    // A write is refused.
    for (const query of ['delete from cdr', 'with x as (select 1) delete from cdr', 'select 1; delete from cdr']) {
      expectError(await preview({ dbconn_id: 2, template: 'table', query: toBase64(query) }), 422, 'card_query_failed');
    }
  });

  it('stops a long query at the row limit and a slow one at the timeout', async () => {
    const many = await preview({
      dbconn_id: 2,
      template: 'table',
      query: toBase64(
        'with recursive n(x) as (select 1 union all select x + 1 from n where x < 100000) select x from n',
      ),
    });
    expect(many.statusCode, many.body).toBe(200);
    expect(many.json().rows.length).toBe(100);
    expect(many.json().truncated).toBe(true);
    const started = Date.now();
    const slow = expectError(
      await preview({
        dbconn_id: 2,
        template: 'table',
        query: toBase64(
          kind === 'postgres'
            ? 'select count(*) from generate_series(1, 100000) a, generate_series(1, 100000) b'
            : 'with recursive n(x) as (select 1 union all select x + 1 from n) select count(*) from n',
        ),
      }),
      422,
      'card_query_timeout',
    );
    expect(slow.detail).toMatch(/did not finish within 5 seconds/);
    expect(slow.detail).not.toBe('');
    expect(Date.now() - started).toBeLessThan(8_000);
  }, 20_000);

  it('keeps templates in a sandbox and escapes values', async () => {
    const attempts: [string, number | null][] = [
      ['{{ results.constructor }}|{{ results.first.constructor.constructor }}|{{ results.__proto__ }}', 200],
      ["{{ 'x' | constructor }}", 400],
      ["{% include '/etc/passwd' %}", 400],
      ["{% render '/etc/passwd' %}", 400],
      ["{% layout '/etc/passwd' %}", 400],
    ];
    for (const [text, status] of attempts) {
      const res = await preview({
        dbconn_id: 2,
        html: toBase64(text),
        query: toBase64("select '<script>x</script>' as v"),
      });
      expect(res.statusCode, `${text}: ${res.body}`).toBe(status);
      if (status === 200) expect(html(res)).toBe('||');
      else expect(res.json().code).toBe('card_template_invalid');
    }
    const escaped = await preview({
      dbconn_id: 2,
      html: toBase64('{{ results.first.v }} {{ results.first.v | raw }}'),
      query: toBase64("select '<script>x</script>' as v"),
    });
    expect(html(escaped)).toBe('&lt;script&gt;x&lt;/script&gt; <script>x</script>');
    // A template that runs away stops at its memory limit, and says so.
    const runaway = expectError(
      await preview({
        dbconn_id: 2,
        html: toBase64('ok\n{% for i in (1..100000000) %}xxxxxxxxxx{% endfor %}'),
        query: toBase64('select 1 as v'),
      }),
      400,
      'card_render_too_large',
    );
    expect(runaway.detail).toMatch(/^The template used more memory than a card may \(128 MB/);
  });

  it('bounds what a template may cost (1 MB of HTML, 2 s) and keeps answering while the worst one renders', async () => {
    const hundred = toBase64(
      'with recursive n(x) as (select 1 union all select x + 1 from n where x < 100) select x from n',
    );
    const nested = (depth: number, body: string) =>
      `${'{% for r in results %}'.repeat(depth)}${body}${'{% endfor %}'.repeat(depth)}`;
    // 100 x 100 paragraphs: 470 kB is a card, 2 MB is not (stopped as it passes 1 MB, not rendered whole).
    const fits = await preview({ dbconn_id: 2, html: toBase64(nested(2, `<p>${'x'.repeat(40)}</p>`)), query: hundred });
    expect(fits.statusCode, fits.body).toBe(200);
    expect(html(fits)).toHaveLength(470_000);
    const large = expectError(
      await preview({ dbconn_id: 2, html: toBase64(nested(2, `<p>${'x'.repeat(200)}</p>`)), query: hundred }),
      400,
      'card_render_too_large',
    );
    expect(large.detail).toBe(
      'The template makes a card larger than 1 MB of HTML and was stopped: show fewer rows or less text.',
    );
    const largeIt = expectError(
      await preview(
        { dbconn_id: 2, html: toBase64(nested(2, `<p>${'x'.repeat(200)}</p>`)), query: hundred },
        { 'accept-language': 'it' },
      ),
      400,
      'card_render_too_large',
    );
    expect(largeIt).toMatchObject({
      title: 'Scheda troppo grande',
      detail: expect.stringMatching(/^Il modello produce una scheda più grande di 1 MB/),
    });

    // The worst a template can do to time: 100^4 steps that write nothing, stopped at 2 s. Meanwhile the health
    // check answers, again and again, before the preview does.
    const loop = monitorEventLoopDelay({ resolution: 5 });
    loop.enable();
    let pending = true;
    const looping = preview({ dbconn_id: 2, html: toBase64(nested(4, '')), query: hundred }).finally(() => {
      pending = false;
    });
    const health: number[] = [];
    while (pending) {
      const started = performance.now();
      const res = await t.app.inject({ method: 'GET', url: '/api/health' });
      expect(res.statusCode).toBe(200);
      if (pending) health.push(performance.now() - started);
      await new Promise((resolve) => setImmediate(resolve));
    }
    loop.disable();
    const refused = expectError(await looping, 400, 'card_render_timeout');
    expect(refused.detail).toBe(
      'The template took longer than 2 s and was stopped: look for loops that repeat too often (loops inside loops, for example).',
    );
    const slowest = Math.max(...health);
    console.log(
      `health checks during a 2 s template: ${health.length}, slowest ${slowest.toFixed(1)} ms; event loop delay max ${(loop.max / 1e6).toFixed(1)} ms`,
    );
    // Hundreds on a quiet machine (each ~1 ms); the bound is loose (a shared, loaded machine delays timers too): a
    // template rendered on the request thread held it for the whole 2 s.
    expect(health.length).toBeGreaterThan(10);
    expect(loop.max / 1e6).toBeLessThan(1_000);
    const italian = expectError(
      await preview({ dbconn_id: 2, html: toBase64(nested(4, '')), query: hundred }, { 'accept-language': 'it' }),
      400,
      'card_render_timeout',
    );
    expect(italian).toMatchObject({
      title: 'Modello troppo lento',
      detail: expect.stringMatching(/^Il modello ha impiegato più di 2 s/),
    });
  }, 30_000);

  it('creates, changes and deletes templates, with the line of an error', async () => {
    const created = await call('POST', '/api/cti/customer_card/template', {
      name: 'My Card',
      custom: true,
      html: toBase64('<!-- color: green -->\n{% for r in results %}{{ r.name }}{% endfor %}'),
    });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json()).toMatchObject({ name: 'mycard', custom: true, color: 'green', builtin: false });
    expectError(
      await call('POST', '/api/cti/customer_card/template', { name: 'mycard', html: toBase64('x') }),
      409,
      'card_template_exists',
    );
    const broken = expectError(
      await call('PUT', '/api/cti/customer_card/template/mycard_custom', { html: toBase64('a\nb\n{% for x in %}') }),
      400,
      'card_template_invalid',
    );
    expect(broken.detail).toMatch(/^Line 3: /);
    const brokenIt = expectError(
      await call(
        'PUT',
        '/api/cti/customer_card/template/mycard',
        { html: toBase64('\n{% if %}') },
        { 'accept-language': 'it' },
      ),
      400,
      'card_template_invalid',
    );
    expect(brokenIt.detail).toMatch(/^Riga 2: /);
    const renamedInBody = await call('PUT', '/api/cti/customer_card/template/mycard_custom', {
      name: 'identity',
      custom: false,
      html: toBase64('<!-- color: blue -->\nhello'),
    });
    expect(renamedInBody.json()).toMatchObject({ name: 'mycard', color: 'blue' });
    expectError(
      await call('PUT', '/api/cti/customer_card/template/nothere', { html: toBase64('x') }),
      404,
      'not_found',
    );
    expectError(await call('DELETE', '/api/cti/customer_card/template/table'), 409, 'card_template_builtin');
    expect((await call('DELETE', '/api/cti/customer_card/template/mycard_custom')).statusCode).toBe(200);
  });

  it('converts templates of the older system (EJS) and refuses what it cannot', async () => {
    const ejs = [
      '<!-- color: blue -->',
      '<% results.forEach(function (row) { %>',
      "<% if (row.type === 'public' && row.company) { %><b><%= row.company %></b><% } else { %>-<% } %>",
      '<% }); %>',
      '<% for (var i = 0; i < results.length; i++) { %><%= results[i].name %><% } %>',
    ].join('\n');
    const res = await call('POST', '/api/cti/customer_card/template/convert', { html: toBase64(ejs) });
    expect(res.statusCode, res.body).toBe(200);
    const liquid = fromBase64(res.json().html);
    expect(liquid).toBe(
      [
        '<!-- color: blue -->',
        '{% for row in results %}',
        "{% if row.type == 'public' and row.company %}<b>{{ row.company }}</b>{% else %}-{% endif %}",
        '{% endfor %}',
        '{% for row_0 in results %}{{ row_0.name }}{% endfor %}',
      ].join('\n'),
    );
    // The converted text renders as the old one did, values escaped.
    const shown = await preview({
      dbconn_id: 2,
      html: res.json().html,
      query: toBase64("select 'public' as type, '<ACME>' as company, 'Ann' as name"),
    });
    expect(html(shown).replace(/\s+/g, '')).toBe('<!--color:blue--><b>&lt;ACME&gt;</b>Ann');
    for (const lang of ['en', 'it']) {
      const refused = expectError(
        await call(
          'POST',
          '/api/cti/customer_card/template/convert',
          { html: toBase64("<p>\n<% var fs = require('fs') %>\n</p>") },
          { 'accept-language': lang },
        ),
        400,
        'card_template_unconvertible',
      );
      expect(refused.detail).toMatch(lang === 'it' ? /^Riga 2: .*require/ : /^Line 2: .*require/);
    }
  });

  it('creates cards with their permission and profiles, and refuses deleting what they use', async () => {
    requireServers();
    const source = await call('POST', '/api/cti/dbconn', {
      type: 'mysql',
      host: MARIADB.host,
      port: MARIADB.port,
      user: MARIADB.user,
      pass: '',
      name: MARIADB_DB,
    });
    expect(source.statusCode, source.body).toBe(200);
    mariadbId = source.json().id;
    const pgSource = await call('POST', '/api/cti/dbconn', {
      type: 'postgres',
      host: '127.0.0.1',
      port: 5432,
      user: 'postgres',
      name: PG_DB,
    });
    expect(pgSource.statusCode, pgSource.body).toBe(200);
    postgresId = pgSource.json().id;
    await call('POST', '/api/cti/customer_card/template', { name: 'crm', html: toBase64('{{ results.size }}') });

    const invalid = expectError(
      await call('POST', '/api/cti/customer_card', { name: '', query: '', template: '', dbconn_id: '', profiles: [] }),
      400,
      'validation',
    );
    expect(Object.keys(invalid.fields ?? {}).sort()).toEqual(['dbconn_id', 'name', 'profiles', 'query', 'template']);
    const unknown = expectError(
      await call('POST', '/api/cti/customer_card', {
        name: 'CRM',
        query: toBase64('select 1'),
        template: 'nope',
        dbconn_id: 99,
        profiles: [1, 77],
      }),
      422,
      'validation',
    );
    expect(Object.keys(unknown.fields ?? {}).sort()).toEqual(['dbconn_id', 'profiles', 'template']);

    const created = await call('POST', '/api/cti/customer_card', {
      name: 'C.R.M.',
      query: toBase64('select name from contacts where phone = $NUMBER'),
      template: 'crm_custom',
      dbconn_id: String(mariadbId),
      profiles: ['1', 2],
    });
    expect(created.statusCode, created.body).toBe(200);
    const card = created.json();
    expect(card).toMatchObject({
      name: 'C.R.M.',
      template: { name: 'crm', custom: true },
      dbconn_id: mariadbId,
      profiles: [1, 2],
    });
    expectError(
      await call('POST', '/api/cti/customer_card', {
        ...(created.json() as Record<string, unknown>),
        template: 'crm',
        profiles: [1],
        name: 'crm',
      }),
      409,
      'card_exists',
    );
    // The profiles show the permission in the customer_card macro.
    const profile = (await call('GET', '/api/cti/profiles/1')).json();
    const permissions = profile.macro_permissions.customer_card.permissions as {
      name: string;
      value: boolean;
      id: number;
    }[];
    expect(permissions.find((p) => p.name === 'cc_crm')).toMatchObject({ value: true, id: card.permission_id });
    expect(permissions.find((p) => p.name === 'cc_identity')).toMatchObject({ value: false });

    // Filters: by source, by template with or without _custom.
    expect(
      (await call('GET', `/api/cti/customer_card?dbconn_id=${mariadbId}`)).json().map((c: { id: number }) => c.id),
    ).toEqual([card.id]);
    for (const ref of ['crm', 'crm_custom']) {
      expect((await call('GET', `/api/cti/customer_card?template=${ref}`)).json().length).toBe(1);
    }
    const blocked = expectError(
      await call('DELETE', '/api/cti/customer_card/template/crm'),
      409,
      'card_template_in_use',
    );
    expect(blocked.detail).toContain("'C.R.M.'");
    const sourceBlocked = expectError(
      await call('DELETE', `/api/cti/dbconn/${mariadbId}`, undefined, { 'accept-language': 'it' }),
      409,
      'card_source_in_use',
    );
    expect(sourceBlocked.detail).toMatch(/usata dalle schede 'C.R.M.'/);

    // Change: profiles replaced, template and source moved; renaming keeps the permission.
    const changed = await call('PUT', `/api/cti/customer_card/${card.id}`, {
      id: card.id,
      creation: 'ignored',
      name: 'CRM 2',
      profiles: [3],
      template: { name: 'table', custom: false },
      dbconn_id: postgresId,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({
      name: 'CRM 2',
      profiles: [3],
      template: { name: 'table' },
      dbconn_id: postgresId,
    });
    expect((await call('DELETE', '/api/cti/customer_card/template/crm')).statusCode).toBe(200);
    expect((await call('DELETE', `/api/cti/dbconn/${mariadbId}`)).statusCode).toBe(200);
    expectError(await call('PUT', '/api/cti/customer_card/999', { name: 'x' }), 404, 'not_found');

    expect((await call('DELETE', `/api/cti/customer_card/${card.id}`)).statusCode).toBe(200);
    const links = await t.database.db
      .selectFrom('cti_profile_permissions')
      .selectAll()
      .where('permission', '=', 'cc_crm')
      .execute();
    expect(links).toEqual([]);
    expectError(await call('DELETE', `/api/cti/customer_card/${card.id}`), 404, 'not_found');
    // The MariaDB source again, for the previews below.
    mariadbId = (
      await call('POST', '/api/cti/dbconn', {
        type: 'mysql',
        host: MARIADB.host,
        port: MARIADB.port,
        user: 'root',
        pass: '',
        name: MARIADB_DB,
      })
    ).json().id;
  });

  it.each(['mysql', 'postgres'] as const)(
    'previews on a real %s source; $NUMBER is bound, never SQL',
    async (engine) => {
      requireServers();
      const id = engine === 'mysql' ? mariadbId : postgresId;
      const query = toBase64(
        "select name, phone from contacts where replace(phone, ' ', '') like '%$NUMBER' order by id",
      );
      const ok = await preview({ dbconn_id: id, template: 'table', query, number: '0721 111' });
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json()).toMatchObject({
        columns: ['name', 'phone'],
        rows: [{ name: 'Alice <script>alert(1)</script>' }],
        truncated: false,
      });
      expect(html(ok)).toContain('Alice &lt;script&gt;');
      expect(html(ok)).not.toContain('<script>alert');
      // The test number is normalised: 0039 → +39.
      const plus = await preview({
        dbconn_id: id,
        template: 'table',
        query: toBase64("select name from contacts where replace(phone, ' ', '') = '$NUMBER'"),
        number: '0039 0721 111',
      });
      expect(plus.json().rows).toEqual([{ name: 'Alice <script>alert(1)</script>' }]);

      for (const attack of [
        "' or 1=1 --",
        "'; drop table contacts; --",
        "111' union select name, phone from contacts --",
      ]) {
        for (const q of [
          "select name from contacts where phone = '$NUMBER'",
          'select name from contacts where phone = $NUMBER',
          "select name from contacts where phone like '%$NUMBER%'",
        ]) {
          const res = await preview({
            dbconn_id: id,
            template: 'table',
            query: toBase64(q),
            number: attack.replace(/[^0-9+*# ]/g, ''),
          });
          expect(res.statusCode, res.body).toBe(200);
          // The schema refuses such a number at the boundary; the raw binding is checked below.
        }
        const raw = await preview({
          dbconn_id: id,
          template: 'table',
          query: toBase64("select name from contacts where phone = '$NUMBER'"),
          number: attack,
        });
        expectError(raw, 400, 'validation');
      }
      expect(await contactCount(engine)).toBe(3);

      // A write, many rows and a slow query.
      const write = expectError(
        await preview({ dbconn_id: id, template: 'table', query: toBase64("update contacts set name = 'x'") }),
        422,
        'card_query_failed',
      );
      expect(write.detail).toMatch(/SELECT/);
      // A write hidden in a read (a function that inserts): refused by the read-only transaction.
      const hidden = expectError(
        await preview({ dbconn_id: id, template: 'table', query: toBase64('select bump() as n') }),
        422,
        'card_query_failed',
      );
      expect(hidden.detail).toMatch(/read-only|READ ONLY/);
      if (engine === 'postgres') {
        expectError(
          await preview({
            dbconn_id: id,
            template: 'table',
            query: toBase64('with d as (delete from contacts returning *) select * from d'),
          }),
          422,
          'card_query_failed',
        );
      }
      expect(await contactCount(engine)).toBe(3);
      const series =
        engine === 'postgres'
          ? 'select g from generate_series(1, 100000) g'
          : 'with recursive n(x) as (select 1 union all select x + 1 from n where x < 100000) select x from n';
      const many = await preview({ dbconn_id: id, template: 'table', query: toBase64(series) });
      expect(many.statusCode, many.body).toBe(200);
      expect(many.json()).toMatchObject({ truncated: true });
      expect(many.json().rows.length).toBe(100);
      const started = Date.now();
      const slow = expectError(
        await preview({
          dbconn_id: id,
          template: 'table',
          query: toBase64(engine === 'postgres' ? 'select pg_sleep(20)' : 'select sleep(20)'),
        }),
        422,
        'card_query_timeout',
      );
      expect(slow.detail).toMatch(/did not finish within 5 seconds/);
      expect(Date.now() - started).toBeLessThan(9_000);
      // A syntax error is readable, in Italian too.
      const syntax = expectError(
        await preview(
          { dbconn_id: id, template: 'table', query: toBase64('select from from') },
          { 'accept-language': 'it' },
        ),
        422,
        'card_query_failed',
      );
      expect(syntax.detail).toMatch(/^La query non è riuscita: /);
    },
    30_000,
  );

  it('serves other requests while 20 previews run', async () => {
    requireServers();
    const builtinSlow = toBase64(
      'with recursive n(x) as (select 1 union all select x + 1 from n where x < 100000) select count(*) as n from n',
    );
    const externalSlow = toBase64('select pg_sleep(0.5) as s');
    // A server that has shown previews before: its query processes are running (the slow test above killed one).
    await Promise.all([1, 2].map(() => preview({ dbconn_id: 2, template: 'table', query: toBase64('select 1 as n') })));
    // How long the event loop was held: what previews must not do, whatever the databases' load.
    const loop = monitorEventLoopDelay({ resolution: 5 });
    loop.enable();
    // Mostly the built-in source (its own pool or child processes); four external ones, each a fresh connection
    // with the contract's 2 s connect timeout, which a machine at load 20 does not always meet for twenty at once.
    const previews = Array.from({ length: 20 }, (_, i) =>
      preview({
        dbconn_id: i % 5 === 0 ? postgresId : 2,
        template: 'table',
        query: i % 5 === 0 ? externalSlow : builtinSlow,
      }),
    );
    const latencies: number[] = [];
    let running = true;
    const all = Promise.all(previews).finally(() => {
      running = false;
    });
    while (running || latencies.length < 10) {
      const started = performance.now();
      const res = await call('GET', '/api/cti/customer_card/template');
      latencies.push(performance.now() - started);
      expect(res.statusCode).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    for (const res of await all) expect(res.statusCode, res.body).toBe(200);
    loop.disable();
    latencies.sort((a, b) => a - b);
    const p99 = latencies[Math.floor(latencies.length * 0.99)] ?? 0;
    const loopP99 = loop.percentile(99) / 1e6;
    console.log(
      `previews in parallel: ${latencies.length} other requests, p50 ${latencies[Math.floor(latencies.length / 2)]?.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms; event loop delay p99 ${loopP99.toFixed(1)} ms`,
    );
    // Quiet machine: requests p99 30-80 ms, event loop p99 under 20 ms. The requests also wait for a database the
    // previews keep busy, and this machine is shared with other suites and browsers (load 15-25 seen), which
    // delays timers too, so the bounds are loose: they catch a preview that holds the thread, not a busy box.
    expect(p99, `p99 ${p99.toFixed(1)} ms of ${latencies.length}`).toBeLessThan(2_000);
    expect(loopP99).toBeLessThan(250);
  }, 60_000);

  it('answers a source that does not answer as a readable error (PostgreSQL, MySQL, SQL Server)', async () => {
    // No SQL Server on this machine: its driver path (tedious, the TDS version of the type) is run against a
    // refused port, which proves the connection attempt and the error answer, not a query.
    for (const type of ['postgres', 'mysql', 'mssql:7_4', 'mssql:7_1']) {
      const row = await t.database.db
        .insertInto('card_sources')
        .values({
          name: `gone_${type}`,
          type,
          host: '127.0.0.1',
          port: 1,
          user: 'x',
          password: '',
          builtin: 0,
          created_at: 0,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      for (const lang of ['en', 'it']) {
        const res = expectError(
          await preview(
            { dbconn_id: row.id, template: 'table', query: toBase64('select 1') },
            { 'accept-language': lang },
          ),
          503,
          'card_source_failed',
        );
        // One honest answer naming host and port, never the driver's own words (no port scanner: issue 37).
        expect(res.detail, type).toMatch(
          lang === 'it'
            ? /Impossibile connettersi a un server di database su 127\.0\.0\.1:1\b/
            : /Could not connect to a database server at 127\.0\.0\.1:1\b/,
        );
        expect(res.detail, type).not.toMatch(/ECONNREFUSED|refused|rifiutata/i);
      }
    }
  });

  it('requires a key', async () => {
    for (const [method, url] of [
      ['GET', '/api/cti/customer_card'],
      ['GET', '/api/cti/customer_card/template'],
      ['POST', '/api/custcard/preview'],
      ['DELETE', '/api/cti/customer_card/1'],
    ] as const) {
      expectError(
        await t.app.inject({ method, url, payload: method === 'POST' ? {} : undefined }),
        401,
        'unauthorized',
      );
    }
  });
});
