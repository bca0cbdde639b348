import http from 'node:http';
import net from 'node:net';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECK_DEADLINE_MS } from '../src/features/card-sources/connect.ts';
import { callAs, DB_KINDS, expectError, POSTGRES_ADMIN_URL, useTestApp } from './helpers.ts';
import { freePort } from './support/slapd.ts';

/** Real servers on this machine: MariaDB (root, no password) and PostgreSQL (trust auth). */
const MARIADB = { host: '127.0.0.1', port: 3306, user: 'root', password: '' };
const MARIADB_DB = `cz_cards_${process.pid}`;
const PG_DB = `cz_cards_${process.pid}`;
let setupError: string | undefined;
/** A port on loopback nobody listens on (taken from the OS and released). */
let refusedPort = 0;

async function pgAdmin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  refusedPort = await freePort();
  try {
    const mariadb = await mysql.createConnection(MARIADB);
    await mariadb.query(`DROP DATABASE IF EXISTS ${MARIADB_DB}`);
    await mariadb.query(`CREATE DATABASE ${MARIADB_DB}`);
    await mariadb.end();
    await pgAdmin(async (c) => {
      await c.query(`DROP DATABASE IF EXISTS ${PG_DB}`);
      await c.query(`CREATE DATABASE ${PG_DB}`);
    });
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

const mariadbSource = () => ({
  type: 'mysql',
  host: MARIADB.host,
  port: String(MARIADB.port),
  user: MARIADB.user,
  pass: MARIADB.password,
  name: MARIADB_DB,
});
const postgresSource = () => ({ type: 'postgres', host: '127.0.0.1', port: 5432, user: 'postgres', name: PG_DB });

/** Every key at any depth of a JSON value. */
function keysOf(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) keysOf(v, out);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      out.push(k);
      keysOf(v, out);
    }
  }
  return out;
}

describe.each(DB_KINDS)('customer-card sources (%s)', (kind) => {
  const t = useTestApp(kind);
  const call = callAs(t);
  const list = async () => (await call('GET', '/api/cti/dbconn')).json() as Record<string, unknown>[];
  const requireServers = () => {
    if (setupError) throw new Error(setupError);
  };

  it('lists the two built-in sources on a new system, and refuses to change or delete them', async () => {
    const sources = await list();
    expect(sources.map(({ id, name, type, builtin }) => ({ id, name, type, builtin }))).toEqual([
      { id: 1, name: 'phonebook', type: 'centralino', builtin: true },
      { id: 2, name: 'asteriskcdrdb', type: 'centralino', builtin: true },
    ]);
    expect(sources[0]).toMatchObject({ host: null, port: null, user: null, has_password: false });
    for (const id of [1, 2]) {
      expectError(await call('DELETE', `/api/cti/dbconn/${id}`), 409, 'card_source_builtin');
      expectError(await call('PUT', `/api/cti/dbconn/${id}`, { name: 'renamed' }), 409, 'card_source_builtin');
      // Their check is a select on Centralino's own database.
      const check = await call('POST', '/api/dbconn/test', { id });
      expect(check.statusCode, check.body).toBe(200);
      expect(check.json().status).toBe(true);
    }
    const italian = expectError(
      await call('DELETE', '/api/cti/dbconn/1', undefined, { 'accept-language': 'it' }),
      409,
      'card_source_builtin',
    );
    expect(italian.detail).toMatch(/sorgenti di sistema/);
    expect((await list()).length).toBe(2);
    // A new source may not take a built-in name.
    requireServers();
    expectError(
      await call('POST', '/api/cti/dbconn', { ...mariadbSource(), name: 'phonebook' }),
      409,
      'card_source_exists',
    );
  });

  it('answers the contract map of types', async () => {
    const res = await call('GET', '/api/cti/dbconn/type');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      mysql: 'MySQL',
      postgres: 'PostgreSQL',
      'mssql:7_4': 'SQL Server 2012/2014',
      'mssql:7_3_A': 'SQL Server 2008 R2',
      'mssql:7_3_B': 'SQL Server 2008',
      'mssql:7_2': 'SQL Server 2005',
      'mssql:7_1': 'SQL Server 2000',
    });
  });

  it('checks real MariaDB and PostgreSQL connections, and says why a wrong one fails', async () => {
    requireServers();
    for (const source of [mariadbSource(), postgresSource()]) {
      const ok = await call('POST', '/api/dbconn/test', source);
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json()).toMatchObject({ status: true });
    }
    // Wrong password (MariaDB: PostgreSQL here trusts every local connection, so it ignores passwords).
    const denied = expectError(
      await call('POST', '/api/dbconn/test', { ...mariadbSource(), pass: 'wrong' }),
      503,
      'card_source_failed',
    );
    expect(denied.detail).toBe(
      `The connection check failed. The database server at 127.0.0.1:${MARIADB.port} refused the sign-in: check the user name, password and database name.`,
    );
    const deniedIt = expectError(
      await call('POST', '/api/dbconn/test', { ...mariadbSource(), pass: 'wrong' }, { 'accept-language': 'it' }),
      503,
      'card_source_failed',
    );
    expect(deniedIt.title).toBe('Sorgente non raggiungibile');
    expect(deniedIt.detail).toMatch(/ha rifiutato l'accesso: controlla nome utente, password e nome del database\.$/);
    // A database that does not exist, on both servers.
    for (const source of [mariadbSource(), postgresSource()]) {
      const missing = expectError(
        await call('POST', '/api/dbconn/test', { ...source, name: 'cz_no_such_db' }),
        503,
        'card_source_failed',
      );
      expect(missing.detail).toMatch(/refused the sign-in: check the user name, password and database name\.$/);
      expect(missing.detail).not.toMatch(/cz_no_such_db|does not exist|Unknown database/);
    }
  });

  it('answers one message with host:port for a refused, a silent and a wrong-service port, for every driver', async () => {
    // A TCP server that accepts and never says a word, and an HTTP server: neither is a database.
    const silentSockets = new Set<net.Socket>();
    const silent = net.createServer((socket) => {
      silentSockets.add(socket);
      socket.on('close', () => silentSockets.delete(socket));
      socket.on('error', () => {});
    });
    const web = http.createServer((_req, res) => res.writeHead(404, { server: 'nginx/1.99-marker' }).end('no'));
    web.on('clientError', (_err, socket) =>
      socket.end('HTTP/1.1 400 Bad Request\r\nServer: nginx/1.99-marker\r\n\r\n'),
    );
    const listen = (server: net.Server) =>
      new Promise<number>((resolve) =>
        server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port)),
      );
    const ports = { refused: refusedPort, silent: await listen(silent), 'wrong service': await listen(web) };
    try {
      const types = ['mysql', 'postgres', 'mssql:7_4', 'mssql:7_1'];
      const checks = Object.entries(ports).flatMap(([what, port]) =>
        types.flatMap((type) =>
          (['en', 'it'] as const).map(async (lang) => {
            const started = Date.now();
            const res = await call(
              'POST',
              '/api/dbconn/test',
              { type, host: '127.0.0.1', port: String(port), user: 'sa', pass: 'x', name: 'crm' },
              { 'accept-language': lang },
            );
            return { what, type, lang, port, res, ms: Date.now() - started };
          }),
        ),
      );
      for (const { what, type, lang, port, res, ms } of await Promise.all(checks)) {
        const failed = expectError(res, 503, 'card_source_failed');
        const expected =
          lang === 'it'
            ? `La verifica della connessione non è riuscita. Impossibile connettersi a un server di database su 127.0.0.1:${port}.`
            : `The connection check failed. Could not connect to a database server at 127.0.0.1:${port}.`;
        expect(failed.detail, `${what} ${type} ${lang}`).toBe(expected);
        // Bounded: the connect timeout (2 s) ends a silent server's check, well inside the 6 s deadline.
        expect(ms, `${what} ${type}`).toBeLessThan(CHECK_DEADLINE_MS + 1_000);
      }
    } finally {
      for (const socket of silentSockets) socket.destroy();
      await Promise.all([silent, web].map((s) => new Promise((resolve) => s.close(resolve))));
    }
  });

  it('speaks TDS to whatever answers: a MariaDB port is not mistaken for a SQL Server', async () => {
    requireServers();
    const res = await call('POST', '/api/dbconn/test', {
      type: 'mssql:7_4',
      host: '127.0.0.1',
      port: 3306,
      user: 'sa',
      pass: 'x',
      name: 'crm',
    });
    const failed = expectError(res, 503, 'card_source_failed');
    expect(failed.detail).toBe(
      'The connection check failed. Could not connect to a database server at 127.0.0.1:3306.',
    );
  });

  it('creates, lists, changes and deletes a source; the password is never answered', async () => {
    requireServers();
    const secret = `pw-${process.pid}-marker`;
    const answers: unknown[] = [];
    const created = await call('POST', '/api/cti/dbconn', mariadbSource());
    expect(created.statusCode, created.body).toBe(200);
    answers.push(created.json());
    const source = created.json() as { id: number };
    expect(created.json()).toMatchObject({
      name: MARIADB_DB,
      type: 'mysql',
      host: '127.0.0.1',
      port: 3306,
      user: 'root',
      has_password: false,
      builtin: false,
    });
    expect(source.id).toBeGreaterThan(2);
    expect(new Date((created.json() as { creation: string }).creation).getTime()).not.toBeNaN();

    // The same database name again: 409 before any connection is tried.
    const duplicate = expectError(await call('POST', '/api/cti/dbconn', mariadbSource()), 409, 'card_source_exists');
    expect(duplicate.fields).toEqual({ name: 'exists' });

    // Save only after a successful check: a source that does not answer is not saved.
    const refused = expectError(
      await call('POST', '/api/cti/dbconn', { ...postgresSource(), name: 'cz_elsewhere', port: refusedPort }),
      422,
      'card_source_failed',
    );
    expect(refused.detail).toBe(
      `The source was not saved. Could not connect to a database server at 127.0.0.1:${refusedPort}.`,
    );
    expect((await list()).length).toBe(3);

    // Changing the password to a wrong one is refused and keeps the stored one.
    expectError(await call('PUT', `/api/cti/dbconn/${source.id}`, { pass: secret }), 422, 'card_source_failed');
    const stored = await t.database.db
      .selectFrom('card_sources')
      .select('password')
      .where('id', '=', source.id)
      .executeTakeFirstOrThrow();
    expect(stored.password).toBe('');

    // Moved to PostgreSQL (a whole new connection); the stored password is checked with it through `id`.
    const moved = await call('PUT', `/api/cti/dbconn/${source.id}`, {
      ...postgresSource(),
      pass: secret,
      id: 'ignored',
      creation: 'ignored',
    });
    expect(moved.statusCode, moved.body).toBe(200);
    answers.push(moved.json());
    expect(moved.json()).toMatchObject({
      id: source.id,
      type: 'postgres',
      port: 5432,
      user: 'postgres',
      has_password: true,
    });
    const byId = await call('POST', '/api/dbconn/test', { id: source.id });
    expect(byId.statusCode, byId.body).toBe(200);
    answers.push(byId.json());
    // Fields given with the id are laid over the stored source.
    expectError(
      await call('POST', '/api/dbconn/test', { id: source.id, port: refusedPort }),
      503,
      'card_source_failed',
    );

    const listed = await call('GET', '/api/cti/dbconn');
    answers.push(listed.json());
    for (const answer of [...answers, listed.body, moved.body]) {
      expect(JSON.stringify(answer)).not.toContain(secret);
    }
    expect(keysOf(listed.json()).filter((k) => /^pass(word)?$/.test(k))).toEqual([]);

    const removed = await call('DELETE', `/api/cti/dbconn/${source.id}`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json()).toBeNull();
    expect((await list()).map((s) => s.id)).toEqual([1, 2]);
    expectError(await call('DELETE', `/api/cti/dbconn/${source.id}`), 404, 'not_found');
    expectError(await call('PUT', `/api/cti/dbconn/${source.id}`, { name: 'x' }), 404, 'not_found');
    expectError(await call('POST', '/api/dbconn/test', { id: source.id }), 404, 'not_found');
  });

  it('refuses bad input with field errors in English and Italian', async () => {
    const bad = expectError(
      await call('POST', '/api/cti/dbconn', { type: 'oracle', host: 'a b', port: '70000', user: '', name: 'x\ny' }),
      400,
      'validation',
    );
    expect(bad.fields).toMatchObject({
      type: 'Choose a database type',
      host: 'A host name or IP address, without spaces',
      port: 'A port from 1 to 65535',
      user: 'User is required',
      name: expect.stringMatching(/control characters/),
    });
    const badIt = expectError(
      await call('POST', '/api/cti/dbconn', { type: 'oracle', port: 'x', name: 'crm' }, { 'accept-language': 'it' }),
      400,
      'validation',
    );
    expect(badIt.fields).toMatchObject({
      type: 'Scegli un tipo di database',
      host: "L'host è obbligatorio",
      port: 'Una porta da 1 a 65535',
      user: "L'utente è obbligatorio",
    });
    // The check needs the whole connection when no id is given.
    const partial = expectError(await call('POST', '/api/dbconn/test', { type: 'mysql' }), 400, 'validation');
    expect(Object.keys(partial.fields ?? {}).sort()).toEqual(['host', 'name', 'port', 'user']);
    expectError(await call('PUT', '/api/cti/dbconn/3', { pass: 'a\u0000b' }), 400, 'validation');
    expectError(await call('PUT', '/api/cti/dbconn/abc', {}), 400, 'validation');
    expectError(await call('DELETE', '/api/cti/dbconn/0'), 400, 'validation');
    // No built-in type through the API.
    expectError(await call('POST', '/api/cti/dbconn', { ...mariadbSource(), type: 'centralino' }), 400, 'validation');
  });

  it('refuses every route without a valid key', async () => {
    const routes: [string, string][] = [
      ['GET', '/api/cti/dbconn'],
      ['GET', '/api/cti/dbconn/type'],
      ['POST', '/api/cti/dbconn'],
      ['PUT', '/api/cti/dbconn/1'],
      ['DELETE', '/api/cti/dbconn/3'],
      ['POST', '/api/dbconn/test'],
    ];
    for (const [method, url] of routes) {
      const anonymous = await t.app.inject({
        method: method as 'GET',
        url,
        payload: method === 'GET' ? undefined : {},
      });
      expectError(anonymous, 401, 'unauthorized');
      const forged = await t.app.inject({
        method: method as 'GET',
        url,
        headers: { user: 'admin', secretkey: 'not-a-key' },
        ...(method === 'GET' ? {} : { payload: mariadbSource() }),
      });
      expectError(forged, 401, 'unauthorized');
    }
    expect((await list()).length).toBe(2);
  });
});
