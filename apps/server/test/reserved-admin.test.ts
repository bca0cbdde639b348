import { describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, DB_KINDS, expectError, login, useTestApp } from './helpers.ts';

const b64 = (text: string) => Buffer.from(text).toString('base64');

/**
 * POST /api/users/admin/password is the console administrator's password route; a directory user named
 * admin would reach it instead of its own. No directory user may be called admin.
 */
describe.each(DB_KINDS)('admin is never a directory user (%s)', (kind) => {
  const t = useTestApp(kind);
  const post = (url: string, payload: object, lang = 'en') =>
    t.app.inject({ method: 'POST', url, headers: { ...t.headers, 'accept-language': lang }, payload });

  it('refuses admin (any case) as a local user with username_reserved in en and it', async () => {
    expect((await post('/api/configuration/mode', { mode: 'legacy' })).statusCode).toBe(200);
    for (let i = 0; i < 100; i++) {
      const res = await t.app.inject({ method: 'GET', url: '/api/configuration/userprovider', headers: t.headers });
      if (res.json().configured === 1) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    for (const username of ['admin', ' Admin ', 'ADMINISTRATOR', 'guest']) {
      const body = expectError(await post('/api/users', { username, fullname: 'Not Me' }), 400, 'username_reserved');
      expect(body.title).toBe('Reserved user name');
      expect(body.detail).toContain('reserved for the console administrator');
    }
    const it = expectError(
      await post('/api/users', { username: 'admin', fullname: 'X' }, 'it'),
      400,
      'username_reserved',
    );
    expect(it.title).toBe('Nome utente riservato');
    expect(it.detail).toContain("riservato all'amministratore della console");
    // A name that merely starts with admin is fine.
    expect((await post('/api/users', { username: 'admin2', fullname: 'Second Admin' })).statusCode).toBe(201);
  });

  it('rejects an admin row of a CSV import and imports the others', async () => {
    const file = `username,fullname,extension\nadmin,Fake Admin,210\nnora,Nora Blu,211\n`;
    const res = await post('/api/csv/csvimport/preview', { file: `data:text/csv;base64,${b64(file)}` });
    expect(res.statusCode, res.body).toBe(200);
    const rows = res.json().rows as { username: string; action: string; errors: string[] }[];
    const admin = rows.find((r) => r.username === 'admin');
    expect(admin?.errors.length).toBeGreaterThan(0);
    expect(rows.find((r) => r.username === 'nora')?.action).toBe('create');
  });

  it('keeps POST /api/users/admin/password for the administrator', async () => {
    const res = await post('/api/users/admin/password', {
      password: 'a-new-admin-password',
      current_password: ADMIN_PASSWORD,
    });
    expect(res.statusCode, res.body).toBe(201);
    await login(t.app, 'admin', 'a-new-admin-password');
    expectError(
      await t.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { username: 'admin', password: ADMIN_PASSWORD },
      }),
      401,
      'login_failed',
    );
    const users = await t.database.db.selectFrom('users').select('username').execute();
    expect(users.map((u) => u.username)).not.toContain('admin');
  });
});
