import http from 'node:http';
import type { AddressInfo } from 'node:net';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAs, DB_KINDS, expectError, useTestApp } from './helpers.ts';

/** A real MariaDB source on this machine (root without password), in a database of its own. */
const MARIADB = { host: '127.0.0.1', port: 3306, user: 'root', password: '' };
const SOURCE_DB = `cz_phonebook_${process.pid}`;
let mariadb: mysql.Connection | undefined;
let mariadbMissing: string | undefined;

/** CSV files served over HTTP on loopback, as a web server would offer an export. */
const files = new Map<string, { body: Buffer; status?: number }>();
const web = http.createServer((req, res) => {
  const file = files.get(req.url ?? '');
  if (!file) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(file.status ?? 200, { 'content-type': 'text/csv' }).end(file.body);
});
let webUrl = '';

beforeAll(async () => {
  await new Promise<void>((r) => web.listen(0, '127.0.0.1', r));
  webUrl = `http://127.0.0.1:${(web.address() as AddressInfo).port}`;
  try {
    mariadb = await mysql.createConnection({ ...MARIADB, multipleStatements: true });
    await mariadb.query(`DROP DATABASE IF EXISTS ${SOURCE_DB}; CREATE DATABASE ${SOURCE_DB} CHARACTER SET utf8mb4;`);
    await mariadb.query(
      `CREATE TABLE ${SOURCE_DB}.crm (id INT PRIMARY KEY, first VARCHAR(50), last VARCHAR(50), firm VARCHAR(80), phone VARCHAR(30), mobile VARCHAR(30), since DATE)`,
    );
    await mariadb.query(`INSERT INTO ${SOURCE_DB}.crm VALUES
      (1, 'Mario', 'Rossi', 'ACME srl', '0721 000001', NULL, '2020-01-02'),
      (2, 'Anna', 'Bianchi', 'Bianchi & figli', NULL, '333 1234567', NULL),
      (3, 'Nobody', 'Nonumber', 'Ghost spa', NULL, NULL, NULL),
      (4, NULL, NULL, 'Only company', '0721 000004', NULL, NULL)`);
  } catch (error) {
    mariadbMissing = `MariaDB on 127.0.0.1:3306 is not reachable as root: ${(error as Error).message}`;
  }
});
afterAll(async () => {
  await mariadb?.query(`DROP DATABASE IF EXISTS ${SOURCE_DB}`).catch(() => {});
  await mariadb?.end();
  web.close();
});

const crmSource = {
  dbtype: 'mysql',
  host: MARIADB.host,
  port: String(MARIADB.port),
  user: MARIADB.user,
  password: MARIADB.password,
  dbname: SOURCE_DB,
  query: 'SELECT first, last, firm, phone, mobile, since FROM crm ORDER BY id',
  mapping: { first: 'name', last: 'name', firm: 'company', phone: 'workphone', mobile: 'cellphone' },
  type: 'CRM',
  interval: 60,
  enabled: true,
} as const;

describe.each(DB_KINDS)('phonebook sources (%s)', (kind) => {
  let clock = Date.UTC(2026, 10, 25, 9, 0, 0);
  const t = useTestApp(kind, { now: () => clock });
  const call = callAs(t);
  /** The current contacts of a source (through its contacts key), or of the extensions. */
  const contacts = async (source: string) => {
    const row = await t.database.db
      .selectFrom('phonebook_sources')
      .select('contacts_key')
      .where('id', '=', source)
      .executeTakeFirst();
    const key = source === 'extensions' ? source : (row?.contacts_key ?? `${source}@none`);
    return t.database.db
      .selectFrom('phonebook_contacts')
      .select(['name', 'company', 'workphone', 'cellphone', 'type'])
      .where('source_id', '=', key)
      .orderBy('id')
      .execute();
  };
  /** Every contact row of a source, current or left behind. */
  const allRowsOf = async (source: string) =>
    (
      await t.database.db
        .selectFrom('phonebook_contacts')
        .select('id')
        .where('source_id', 'like', `${source}@%`)
        .execute()
    ).length;

  it('lists the destination fields', async () => {
    const fields = (await call('GET', '/api/phonebook/fields')).json();
    expect(fields).toHaveLength(24);
    expect(fields.slice(0, 3)).toEqual(['cellphone', 'company', 'fax']);
  });

  it('checks a MariaDB source, saves it without handing its password around, and syncs it', async (ctx) => {
    if (mariadbMissing) ctx.skip(mariadbMissing);
    const preview = await call('POST', '/api/phonebook/test', crmSource);
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json()).toHaveLength(3);
    expect(preview.json()[0]).toEqual({
      first: 'Mario',
      last: 'Rossi',
      firm: 'ACME srl',
      phone: '0721 000001',
      mobile: '',
      since: '2020-01-02',
    });
    const bad = await call('POST', '/api/phonebook/test', { ...crmSource, query: 'SELECT * FROM nowhere' });
    expect(bad.json()).toMatchObject({ status: false, error: expect.stringContaining('ER_NO_SUCH_TABLE') });

    const created = await call('POST', '/api/phonebook/config', { ...crmSource, password: 'not-the-real-one' });
    expect(created.json()).toEqual({ id: 'custom_1' });
    // Saved with a wrong password on purpose, then corrected without ever reading it back in the list.
    const list = (await call('GET', '/api/phonebook/config')).json();
    expect(list.custom_1).toMatchObject({ type: 'CRM', interval: '60', enabled: true, has_password: true });
    expect(JSON.stringify(list)).not.toContain('not-the-real-one');
    expect((await call('GET', '/api/phonebook/config/custom_1/password')).json()).toEqual({
      password: 'not-the-real-one',
    });
    const failed = await call('POST', '/api/phonebook/syncnow/custom_1');
    expect(expectError(failed, 502, 'phonebook_source_failed').detail).toContain('ER_ACCESS_DENIED');
    expect((await call('POST', '/api/phonebook/config/custom_1', crmSource)).statusCode).toBe(200);

    const synced = await call('POST', '/api/phonebook/syncnow/custom_1');
    expect(synced.json()).toEqual({ status: true, contacts: 2, skipped: 2 });
    expect(await contacts('custom_1')).toEqual([
      { name: 'Mario Rossi', company: 'ACME srl', workphone: '0721 000001', cellphone: null, type: 'CRM' },
      { name: 'Anna Bianchi', company: 'Bianchi & figli', workphone: null, cellphone: '333 1234567', type: 'CRM' },
    ]);
    expect((await call('GET', '/api/phonebook/config')).json().custom_1.sync).toEqual({
      at: clock,
      contacts: 2,
      skipped: 2,
      error: null,
    });

    // The server goes away: the contacts stay, and the card says why.
    await call('POST', '/api/phonebook/config/custom_1', { ...crmSource, port: '1' });
    expectError(await call('POST', '/api/phonebook/syncnow/custom_1'), 502, 'phonebook_source_failed');
    expect(await contacts('custom_1')).toHaveLength(2);
    expect((await call('GET', '/api/phonebook/config')).json().custom_1.sync.error).toContain('ECONNREFUSED');
    await call('POST', '/api/phonebook/config/custom_1', crmSource);
    // A second sync replaces the first one's contacts, leaving none behind.
    expect((await call('POST', '/api/phonebook/syncnow/custom_1')).json()).toMatchObject({ contacts: 2 });
    expect(await allRowsOf('custom_1')).toBe(2);
  });

  it('reads CSV files over HTTP, detecting the delimiter and the encoding, and refuses bad input', async () => {
    files.set('/semicolon.csv', {
      body: Buffer.concat([
        Buffer.from([0xef, 0xbb, 0xbf]),
        Buffer.from('Nome;Telefono;Azienda\n"Lucia Neri";0721 100;Neri snc\nSenza Numero;;X\n'),
      ]),
    });
    files.set('/latin1.csv', { body: Buffer.from('name\tphone\nNicolò Bassi\t0721 200\n', 'latin1') });
    files.set('/gone.csv', { body: Buffer.from(''), status: 500 });
    const semicolon = (
      await call('POST', '/api/phonebook/test', { dbtype: 'csv', url: `${webUrl}/semicolon.csv` })
    ).json();
    expect(semicolon).toEqual([
      { Nome: 'Lucia Neri', Telefono: '0721 100', Azienda: 'Neri snc' },
      { Nome: 'Senza Numero', Telefono: '', Azienda: 'X' },
    ]);
    const latin = (await call('POST', '/api/phonebook/test', { dbtype: 'csv', url: `${webUrl}/latin1.csv` })).json();
    expect(latin).toEqual([{ name: 'Nicolò Bassi', phone: '0721 200' }]);
    expect((await call('POST', '/api/phonebook/test', { dbtype: 'csv', url: `${webUrl}/gone.csv` })).json()).toEqual({
      status: false,
      error: `Cannot download ${webUrl}/gone.csv: HTTP 500`,
    });
    // Not a file on the server's disk, nor another scheme.
    expect((await call('POST', '/api/phonebook/test', { dbtype: 'csv', url: 'file:///etc/passwd' })).json()).toEqual({
      status: false,
      error: 'Only uploaded files can be read',
    });
    const refused = await call(
      'POST',
      '/api/phonebook/config',
      { dbtype: 'csv', url: 'ftp://x/y.csv', mapping: { a: 'company' }, interval: 45 },
      { 'accept-language': 'it' },
    );
    expect(Object.keys(expectError(refused, 400, 'validation').fields ?? {}).sort()).toEqual([
      'interval',
      'mapping',
      'url',
    ]);
    expect(refused.json().fields.mapping).toBe('Associa almeno il nome');

    const id = (
      await call('POST', '/api/phonebook/config', {
        dbtype: 'csv',
        url: `${webUrl}/semicolon.csv`,
        mapping: { Nome: 'name', Telefono: 'workphone', Azienda: 'company' },
        type: 'Suppliers',
        interval: 15,
        enabled: true,
      })
    ).json().id as string;
    expect((await call('POST', `/api/phonebook/syncnow/${id}`)).json()).toEqual({
      status: true,
      contacts: 1,
      skipped: 1,
    });
    expect(await contacts(id)).toEqual([
      { name: 'Lucia Neri', company: 'Neri snc', workphone: '0721 100', cellphone: null, type: 'Suppliers' },
    ]);
  });

  it('syncs an uploaded file, and deleting the source removes its contacts and the file', async () => {
    const boundary = 'cz-boundary';
    const body = [
      `--${boundary}`,
      'Content-Disposition: form-data; name="0"; filename="list.csv"',
      'Content-Type: text/csv',
      '',
      'name,workphone\nUgo Verdi,0721 300',
      `--${boundary}--`,
      '',
    ].join('\r\n');
    const upload = await t.app.inject({
      method: 'POST',
      url: '/api/phonebook/uploadfile',
      headers: { ...t.headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: body,
    });
    expect(upload.statusCode, upload.body).toBe(200);
    const uri = upload.json().uri as string;
    expect(uri).toMatch(/^file:\/\/\/.*\/phonebook\/[0-9a-f]{24}\.csv$/);
    const id = (
      await call('POST', '/api/phonebook/config', {
        dbtype: 'csv',
        url: uri,
        mapping: { name: 'name', workphone: 'workphone' },
        enabled: false,
      })
    ).json().id as string;
    expect((await call('POST', `/api/phonebook/syncnow/${id}`)).json()).toMatchObject({ contacts: 1 });
    const fs = await import('node:fs');
    const file = new URL(uri).pathname;
    expect(fs.existsSync(file)).toBe(true);
    expect(fs.statSync(file).mode & 0o077).toBe(0);
    expect((await call('DELETE', `/api/phonebook/config/${id}`)).statusCode).toBe(200);
    expect(await allRowsOf(id)).toBe(0);
    expect(fs.existsSync(file)).toBe(false);
    expectError(await call('POST', `/api/phonebook/syncnow/${id}`), 404, 'not_found');
  });

  it('syncs enabled sources when their interval has passed, on the clock the server keeps', async () => {
    files.set('/timed.csv', { body: Buffer.from('name,phone\nTimed One,0721 400\n') });
    const id = (
      await call('POST', '/api/phonebook/config', {
        dbtype: 'csv',
        url: `${webUrl}/timed.csv`,
        mapping: { name: 'name', phone: 'workphone' },
        interval: 30,
        enabled: true,
      })
    ).json().id as string;
    const sync = async () => {
      const res = await call('GET', '/api/phonebook/config');
      return res.json()[id].sync.at as number | null;
    };
    // Nothing ran yet: a new enabled source is due at once.
    const before = await sync();
    expect(before).toBeNull();
    await t.app.phonebook.tick();
    expect(await sync()).toBe(clock);
    expect(await contacts(id)).toHaveLength(1);
    files.set('/timed.csv', { body: Buffer.from('name,phone\nTimed One,0721 400\nTimed Two,0721 401\n') });
    clock += 29 * 60_000;
    await t.app.phonebook.tick();
    expect(await contacts(id)).toHaveLength(1);
    clock += 60_000;
    await t.app.phonebook.tick();
    expect(await contacts(id)).toHaveLength(2);
  });

  it('puts the PBX users with their extensions in the phonebook, and follows their changes', async () => {
    expect((await call('POST', '/api/configuration/mode', { mode: 'legacy' })).statusCode).toBe(200);
    for (let i = 0; i < 100 && (await call('GET', '/api/configuration/userprovider')).json().configured !== 1; i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    await call('POST', '/api/users', { username: 'alice', fullname: 'Alice Rossi' });
    await call('POST', '/api/mainextensions', { username: 'alice', extension: '201' });
    await call('POST', '/api/users', { username: 'bob', fullname: 'Bob Bianchi' });
    await t.app.phonebook.tick();
    expect(await contacts('extensions')).toEqual([
      { name: 'Alice Rossi', company: null, workphone: '201', cellphone: null, type: 'extension' },
    ]);
    clock += 1000;
    await call('POST', '/api/mainextensions', { username: 'bob', extension: '202' });
    await t.app.phonebook.tick();
    expect((await contacts('extensions')).map((c) => c.workphone)).toEqual(['201', '202']);
  });

  it('lists the phonebook the phones see, searched and paged, without the rows of another generation', async () => {
    const lines = ['name,phone,firm,mail'];
    for (let i = 1; i <= 30; i++)
      lines.push(`Zeta Contact ${String(i).padStart(2, '0')},0722 ${500 + i},Zeta spa,z${i}@zeta.example`);
    lines.push('Percent 100%,0722 600,Per_cent,');
    files.set('/listed.csv', { body: Buffer.from(`${lines.join('\n')}\n`) });
    const id = (
      await call('POST', '/api/phonebook/config', {
        dbtype: 'csv',
        url: `${webUrl}/listed.csv`,
        mapping: { name: 'name', phone: 'workphone', firm: 'company', mail: 'workemail' },
        type: 'Listed',
        enabled: true,
      })
    ).json().id as string;
    // Before its first sync nothing of the source is listed; rows of a generation not (or no longer) current never are.
    await t.database.db
      .insertInto('phonebook_contacts')
      .values({ source_id: `${id}@stale`, name: 'Zeta Stale', workphone: '0722 999', type: 'Listed' })
      .execute();
    const page = async (query: string) => {
      const res = await call('GET', `/api/phonebook/contacts?${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { items: { name: string; workphone: string; type: string }[]; total: number };
    };
    expect(await page('search=zeta')).toEqual({ items: [], total: 0 });
    expect((await call('POST', `/api/phonebook/syncnow/${id}`)).json()).toMatchObject({ contacts: 31 });

    const first = await page('search=ZETA%20contact&limit=20');
    expect(first.total).toBe(30);
    expect(first.items).toHaveLength(20);
    expect(first.items[0]).toMatchObject({ name: 'Zeta Contact 01', workphone: '0722 501', type: 'Listed' });
    const rest = await page('search=zeta contact&offset=20&limit=20');
    expect(rest.items.map((c) => c.name)).toEqual(
      Array.from({ length: 10 }, (_, i) => `Zeta Contact ${String(21 + i).padStart(2, '0')}`),
    );
    // By number, company and e-mail too; % and _ are the characters themselves, not patterns.
    expect((await page('search=0722%20517')).items.map((c) => c.name)).toEqual(['Zeta Contact 17']);
    expect((await page('search=z30%40zeta')).items.map((c) => c.name)).toEqual(['Zeta Contact 30']);
    expect((await page('search=100%25')).items.map((c) => c.name)).toEqual(['Percent 100%']);
    expect((await page('search=per_cent')).total).toBe(1);
    expect((await page('search=r_e')).total).toBe(0); // as a pattern, it would match 'Percent'
    expect((await page('search=stale')).total).toBe(0);
    // A quote in the search is text, not SQL.
    expect((await page(`search=${encodeURIComponent("' or 1=1 --")}`)).total).toBe(0);
    // Without a search: every contact the phones see, the PBX users among them (Alice, from the test above).
    const everyone = (await page('limit=200')).items;
    expect(everyone.map((c) => c.name)).toContain('Zeta Contact 05');
    expect(everyone).toContainEqual(expect.objectContaining({ name: 'Alice Rossi', type: 'extension' }));

    expectError(await call('GET', '/api/phonebook/contacts?limit=1000'), 400, 'validation');
    expectError(await t.app.inject({ method: 'GET', url: '/api/phonebook/contacts' }), 401, 'unauthorized');
    // Deleting the source takes its contacts out of the list.
    expect((await call('DELETE', `/api/phonebook/config/${id}`)).statusCode).toBe(200);
    expect((await page('search=zeta')).total).toBe(0);
  });

  it('has the PBX extensions as its only built-in source, and says so', async () => {
    expect((await call('GET', '/api/phonebook/sources')).json()).toEqual({
      extensions: true,
      nethcti: false,
      speeddial: false,
    });
    expect((await call('POST', '/api/phonebook/sources/speeddial/disabled')).statusCode).toBe(200);
    const refused = expectError(await call('POST', '/api/phonebook/sources/nethcti/enabled'), 400, 'validation');
    expect(refused.detail).toBe('Centralino has no CTI contacts to put in the phonebook.');
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/phonebook/config' });
    expect(anonymous.statusCode).toBe(401);
  });
});
