import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS, expectError, useTestApp } from './helpers.ts';
import { settingsFor, startSlapd, type TestSlapd } from './support/slapd.ts';

describe.each(DB_KINDS)('external directory through the API (%s)', (kind) => {
  // Each database gets its own directory: the tests below change it.
  let slapd: TestSlapd;
  beforeAll(async () => {
    slapd = await startSlapd();
    await slapd.addUsers([
      { uid: 'mrossi', givenName: 'Mario', sn: 'Rossi', mail: 'mario@example.com' },
      { uid: 'lverdi', givenName: 'Laura', sn: 'Verdi' },
      { uid: 'admin', sn: 'Administrator' }, // a system account: never a PBX user
    ]);
  });
  afterAll(async () => {
    await slapd?.stop();
  });
  const t = useTestApp(kind);
  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: t.headers });
  const post = (url: string, payload: unknown) =>
    t.app.inject({ method: 'POST', url, headers: t.headers, payload: payload as object });
  const usernames = async () =>
    ((await get('/api/users/false?sort=username')).json() as { username: string }[]).map((u) => u.username);
  const waitForSync = async () => {
    for (let i = 0; i < 200 && (await get('/api/users/sync')).json() === true; i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    expect((await get('/api/users/sync')).json()).toBe(false);
  };

  it('tests a connection and maps its failures to clear errors', async () => {
    const ok = await post('/api/configuration/directory/test', { settings: settingsFor(slapd), username: 'mrossi' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ users: 3, found: { username: 'mrossi', displayname: 'Mario Rossi' } });
    const bad = await post('/api/configuration/directory/test', {
      settings: settingsFor(slapd, { bindPassword: 'wrong' }),
    });
    expectError(bad, 422, 'directory_bind_failed');
    const escaped = await post('/api/configuration/directory/test', { settings: settingsFor(slapd), username: '*' });
    expect(escaped.json().found).toBeNull();
    expectError(
      await post('/api/configuration/directory/test', { settings: { ...settingsFor(slapd), userFilter: 'uid=*' } }),
      400,
      'validation',
    );
    // Nothing was stored by testing.
    expect((await get('/api/configuration/userprovider')).json()).toEqual({ configured: 0 });
  });

  it('refuses to save a directory that does not answer', async () => {
    expectError(
      await post('/api/configuration/directory', settingsFor(slapd, { bindPassword: 'wrong' })),
      422,
      'directory_bind_failed',
    );
    expect((await get('/api/configuration/userprovider')).json()).toEqual({ configured: 0 });
  });

  it('saves the directory, mirrors its users and keeps the bind password write-only', async () => {
    const res = await post('/api/configuration/directory', settingsFor(slapd));
    expect(res.statusCode, res.body).toBe(200);
    await waitForSync();
    expect(await usernames()).toEqual(['lverdi', 'mrossi']);
    expect((await get('/api/configuration/userprovider')).json()).toEqual({
      configured: 1,
      type: 'ldap',
      local: 0,
      domain: 'example.com',
    });
    expect((await get('/api/configuration/mode')).json()).toEqual({ result: 'uc' });
    const stored = (await get('/api/configuration/directory')).json();
    expect(stored.bindPassword).toBe('');
    expect(stored.bindDn).toBe(slapd.adminDn);
    // Saving again with an empty password keeps the stored one.
    expect((await post('/api/configuration/directory', { ...stored, bindPassword: '' })).statusCode).toBe(200);
    await waitForSync();
  });

  it('keeps users and passwords in the directory: no local users, no password changes', async () => {
    expectError(await post('/api/users', { username: 'new', fullname: 'New User' }), 409, 'directory_read_only');
    expectError(await post('/api/users/mrossi/password', { password: 'x' }), 409, 'directory_read_only');
    expectError(await post('/api/configuration/mode', { mode: 'legacy' }), 409, 'validation');
  });

  it('follows the directory on the next sync, keeping extensions of users that stay', async () => {
    expect((await post('/api/mainextensions', { username: 'lverdi', extension: '250' })).statusCode).toBe(201);
    await slapd.addUser({ uid: 'nnuovo', givenName: 'Nina', sn: 'Nuovo' });
    // GET /users/true starts a sync, as the original did.
    expect((await get('/api/users/true')).statusCode).toBe(200);
    await waitForSync();
    expect(await usernames()).toEqual(['lverdi', 'mrossi', 'nnuovo']);
    const laura = (await get('/api/users/false?search=lverdi')).json()[0];
    expect(laura).toMatchObject({ default_extension: '250', source: 'ldap', has_password: false });
    expect(laura).not.toHaveProperty('password');
  });
});
