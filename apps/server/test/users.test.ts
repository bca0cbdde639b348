import { describe, expect, it } from 'vitest';
import { DB_KINDS, expectError, useTestApp } from './helpers.ts';

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() - started > timeoutMs) return value;
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe.each(DB_KINDS)('users, directory and main extensions (%s)', (kind) => {
  const t = useTestApp(kind, { env: { EXTENSION_LIMIT: '4', LOCAL_DOMAIN: 'example.org' } });
  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: t.headers });
  const post = (url: string, payload: unknown, lang = 'en') =>
    t.app.inject({
      method: 'POST',
      url,
      headers: { ...t.headers, 'accept-language': lang },
      payload: payload as object,
    });
  const setExtension = (username: string, extension: string, lang?: string) =>
    post('/api/mainextensions', { username, extension }, lang);
  const userOf = async (username: string) => {
    const list = (await get(`/api/users/false?search=${username}`)).json() as {
      username: string;
      default_extension: string;
    }[];
    return list.find((u) => u.username === username);
  };

  it('starts with no directory, and refuses users until one is chosen', async () => {
    expect((await get('/api/configuration/userprovider')).json()).toEqual({ configured: 0 });
    expect((await get('/api/configuration/mode')).json()).toEqual({ result: 'unknown' });
    expectError(
      await post('/api/users', { username: 'alice', fullname: 'Alice Rossi' }),
      409,
      'directory_not_configured',
    );
  });

  it('installs the local directory as a task that reaches 100', async () => {
    const res = await post('/api/configuration/mode', { mode: 'legacy' });
    expect(res.statusCode).toBe(200);
    const taskId = res.json().result as string;
    expect(taskId).toMatch(/^[0-9a-f]{32}$/);
    const task = await waitFor(
      async () => (await get(`/api/tasks/${taskId}`)).json(),
      (v) => v.progress === 100,
    );
    expect(task).toMatchObject({ task: taskId, progress: 100 });
    expect((await get('/api/configuration/userprovider')).json()).toEqual({
      configured: 1,
      type: 'ldap',
      local: 1,
      domain: 'example.org',
    });
    expect((await get('/api/configuration/mode')).json()).toEqual({ result: 'legacy' });
    expectError(await get('/api/tasks/0123456789abcdef0123456789abcdef'), 404, 'not_found');
  });

  it('adds users with a random 8-character password of letters and digits', async () => {
    const res = await post('/api/users', { username: ' Alice ', fullname: 'Alice Rossi' });
    expect(res.statusCode).toBe(201);
    const alice = res.json();
    expect(alice).toMatchObject({ username: 'alice', displayname: 'Alice Rossi', default_extension: 'none' });
    expect(alice.password).toMatch(/^(?=.*[0-9])(?=.*[a-zA-Z])[a-zA-Z0-9]{8}$/);
    for (const [username, fullname] of [
      ['bob', 'Bob Bianchi'],
      ['carla', 'Carla Verdi'],
      ['dario', 'Dario Neri'],
      ['elena', 'Elena Gialli'],
    ]) {
      expect((await post('/api/users', { username, fullname })).statusCode).toBe(201);
    }
    expect((await get('/api/users/count')).json()).toBe(5);
  });

  it.each([
    ['a duplicate username', { username: 'alice', fullname: 'Other' }, 409, 'user_exists'],
    ['a username starting with a digit', { username: '1alice', fullname: 'X' }, 400, 'validation'],
    ['a filter-like username', { username: '*)(uid=*', fullname: 'X' }, 400, 'validation'],
    ['a system account', { username: 'Administrator', fullname: 'X' }, 400, 'username_reserved'],
    ['an empty full name', { username: 'zed', fullname: '  ' }, 400, 'validation'],
  ])('refuses %s and changes nothing', async (_, body, status, code) => {
    expectError(await post('/api/users', body), status, code);
    expect((await get('/api/users/count')).json()).toBe(5);
  });

  it('sets, keeps and renumbers a main extension', async () => {
    expect((await setExtension('alice', '201')).statusCode).toBe(201);
    expect((await userOf('alice'))?.default_extension).toBe('201');
    // Re-sending the same number changes nothing.
    expect((await setExtension('alice', '201')).statusCode).toBe(201);
    expect((await setExtension('alice', '210')).statusCode).toBe(201);
    expect((await userOf('alice'))?.default_extension).toBe('210');
  });

  it('refuses a number in use, in the user language, and keeps the old number', async () => {
    expect((await setExtension('bob', '202')).statusCode).toBe(201);
    const en = expectError(await setExtension('bob', '210'), 422, 'extension_in_use');
    expect(en.title).toBe('Extension already in use');
    expect(en.detail).toMatch(/^Extension 210 already in use by user \w+$/);
    const it = expectError(await setExtension('bob', '210', 'it'), 422, 'extension_in_use');
    expect(it.detail).toMatch(/^Interno 210 già in uso \(utente \w+\)$/);
    // A device number of alice's extension (92210) and the main number of a device range are taken too.
    expectError(await setExtension('bob', '92210'), 422, 'extension_in_use');
    expect((await userOf('bob'))?.default_extension).toBe('202');
  });

  it.each([['0201'], ['2'], ['1234567'], ['20a']])('refuses the malformed number %s', async (n) => {
    expectError(await setExtension('carla', n), 400, 'validation');
    expect((await userOf('carla'))?.default_extension).toBe('none');
  });

  it('answers 404 for an unknown user', async () => {
    expectError(await setExtension('nobody', '230'), 404, 'user_not_found');
  });

  it('enforces the licence for new extensions only, and reports the limits', async () => {
    expect((await get('/api/mainextensions/userlimits')).json()).toEqual({ configured: 2, limit: 4, configurable: 2 });
    expect((await setExtension('carla', '203')).statusCode).toBe(201);
    expect((await setExtension('dario', '204')).statusCode).toBe(201);
    expect((await get('/api/mainextensions/userlimits')).json()).toEqual({ configured: 4, limit: 4, configurable: 0 });
    expectError(await setExtension('elena', '205'), 403, 'licence_exhausted');
    expect((await userOf('elena'))?.default_extension).toBe('none');
    // Renumbering a configured user takes no new licence.
    expect((await setExtension('dario', '214')).statusCode).toBe(201);
  });

  it('removes an extension with an empty number or none', async () => {
    const res = await setExtension('dario', 'none');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'No extension specified' });
    expect((await userOf('dario'))?.default_extension).toBe('none');
  });

  it('pages, filters, sorts by number and searches on the server', async () => {
    const page = await get('/api/users/false?limit=2&offset=0&sort=extension&filter=configured');
    expect(page.headers['x-total-count']).toBe('3');
    expect(page.json().map((u: { username: string }) => u.username)).toEqual(['bob', 'carla']);
    const next = await get('/api/users/false?limit=2&offset=2&sort=extension&filter=configured');
    expect(next.json().map((u: { username: string }) => u.username)).toEqual(['alice']);
    const unconfigured = await get('/api/users/false?filter=unconfigured&limit=20');
    expect(unconfigured.json().map((u: { username: string }) => u.username)).toEqual(['dario', 'elena']);
    const search = await get('/api/users/false?search=ROSSI&limit=20');
    expect(search.json().map((u: { username: string }) => u.username)).toEqual(['alice']);
    const byNumber = await get('/api/users/false?search=203&limit=20');
    expect(byNumber.json().map((u: { username: string }) => u.username)).toEqual(['carla']);
    // LIKE wildcards in a search are literal characters.
    expect((await get('/api/users/false?search=%25&limit=20')).json()).toEqual([]);
    // A match lies within one user's name, user name and number: never across two users next to each other in the
    // list (alice's number, then bob's name), nor on a character that cannot be typed.
    const names = async (search: string) =>
      ((await get(`/api/users/false?search=${search}&limit=20`)).json() as { username: string }[]).map(
        (u) => u.username,
      );
    expect(await names('210')).toEqual(['alice']);
    expect(await names('bob')).toEqual(['bob']);
    expect(await names('210bob')).toEqual([]);
    expect(await names('210%20bob')).toEqual([]);
    expect(await names('%01')).toEqual([]);
    // A user whose name holds the text twice is one match; every user holding it is, in the list's order.
    const twice = await get('/api/users/false?search=a&limit=2');
    const all = (await get('/api/users/true')).json() as { username: string; displayname: string }[];
    const withA = all.filter((u) => `${u.username} ${u.displayname}`.toLowerCase().includes('a'));
    expect(twice.headers['x-total-count']).toBe(String(withA.length));
    expect((twice.json() as { username: string }[]).map((u) => u.username)).toEqual(
      withA
        .map((u) => u.username)
        .sort()
        .slice(0, 2),
    );
    // Searched again and again, a list is answered from an index of its three-letter sequences: the same answers.
    const keyOf = (u: { username: string; displayname: string; default_extension: string }) =>
      `${u.username} ${u.displayname} ${u.default_extension === 'none' ? '' : u.default_extension}`.toLowerCase();
    const users = (await get('/api/users/true')).json() as {
      username: string;
      displayname: string;
      default_extension: string;
    }[];
    for (let round = 0; round < 3; round++) {
      for (const needle of ['ali', 'alice', 'ice ro', 'ros', 'rossi 210', '210', '20', 'bob b', 'zzz', 'a a', 'xbo']) {
        const expected = users
          .filter((u) => keyOf(u).includes(needle))
          .map((u) => u.username)
          .sort();
        expect(await names(encodeURIComponent(needle)), needle).toEqual(expected);
      }
    }
    // Without limit: every user, as the original API answered.
    expect((await get('/api/users/true')).json()).toHaveLength(5);
  });

  it('searches follow writes that bypass the service (another process, a direct change) at once', async () => {
    const names = async (search: string, sort = 'username') =>
      ((await get(`/api/users/false?search=${search}&sort=${sort}&limit=20`)).json() as { username: string }[]).map(
        (u) => u.username,
      );
    expect(await names('bianchi')).toEqual(['bob']);
    const db = t.database.db;
    // Written straight into the table, as a second Centralino process on the same database would.
    await db
      .updateTable('users')
      .set({ displayname: 'Bob Quaglia', search_key: 'bob bob quaglia 202' })
      .where('username', '=', 'bob')
      .execute();
    expect(await names('bianchi')).toEqual([]);
    expect(await names('quaglia')).toEqual(['bob']);
    const created = Date.now();
    await db
      .insertInto('users')
      .values({
        username: 'zeno',
        displayname: 'Zeno Quaglia',
        source: 'local',
        extension_order: 999_999_999,
        search_key: 'zeno zeno quaglia ',
        created_at: created,
        updated_at: created,
      } as never)
      .execute();
    expect(await names('quaglia')).toEqual(['bob', 'zeno']);
    // In the list's order, with the filters, and paged with the total of every match.
    expect(await names('quaglia', 'extension')).toEqual(['bob', 'zeno']);
    const unconfigured = await get('/api/users/false?search=quaglia&filter=unconfigured&limit=20');
    expect(unconfigured.json().map((u: { username: string }) => u.username)).toEqual(['zeno']);
    const paged = await get('/api/users/false?search=quaglia&limit=1&offset=1');
    expect(paged.headers['x-total-count']).toBe('2');
    expect(paged.json().map((u: { username: string }) => u.username)).toEqual(['zeno']);
    await db.deleteFrom('users').where('username', '=', 'zeno').execute();
    expect(await names('quaglia')).toEqual(['bob']);
    await db
      .updateTable('users')
      .set({ displayname: 'Bob Bianchi', search_key: 'bob bob bianchi 202' })
      .where('username', '=', 'bob')
      .execute();
  });

  it('sets a local user password and remembers it for the report', async () => {
    expect((await post('/api/users/bob/password', { password: 'S3cret-pw' })).statusCode).toBe(201);
    expect((await get('/api/users/bob/password')).json()).toEqual({ result: 'S3cret-pw' });
    expectError(await post('/api/users/nobody/password', { password: 'x' }), 404, 'user_not_found');
    const report = (await get('/api/final')).json();
    expect(report.map((r: { default_extension: string }) => r.default_extension)).toEqual(['202', '203', '210']);
    expect(report[0]).toEqual({
      username: 'bob',
      displayname: 'Bob Bianchi',
      password: 'S3cret-pw',
      default_extension: '202',
      voicemailpwd: '',
    });
  });

  it('reports no sync for the local directory', async () => {
    expect((await get('/api/users/sync')).json()).toBe(false);
  });
});
