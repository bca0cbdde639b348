import { describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, DB_KINDS, expectError, login, useTestApp } from './helpers.ts';

const URL = '/api/users/admin/password';

describe.each(DB_KINDS)('administrator password change (%s)', (kind) => {
  const t = useTestApp(kind, { signIn: false });

  const status = async (headers: { user: string; secretkey: string }) =>
    (await t.app.inject({ method: 'GET', url: '/api/login', headers })).statusCode;
  const tryLogin = async (password: string) =>
    (await t.app.inject({ method: 'POST', url: '/api/login', payload: { username: 'admin', password } })).statusCode;
  const storedHash = async () =>
    (await t.database.db.selectFrom('admins').select('password_hash').executeTakeFirstOrThrow()).password_hash;

  it('refuses a password shorter than 8 characters in English and Italian, and changes nothing', async () => {
    const caller = await login(t.app);
    const other = await login(t.app);
    const before = await storedHash();

    const res = await t.app.inject({ method: 'POST', url: URL, headers: caller, payload: { password: 'short7!' } });
    const body = expectError(res, 400, 'validation');
    expect(body.detail).toBe('The administrator password must be at least 8 characters long.');
    expect(body.fields).toEqual({ password: body.detail });

    const itEmpty = await t.app.inject({
      method: 'POST',
      url: URL,
      headers: { ...caller, 'accept-language': 'it-IT,it;q=0.9' },
      payload: { password: '' },
    });
    const itBody = expectError(itEmpty, 400, 'validation');
    expect(itBody.title).toBe('Richiesta non valida');
    expect(Object.keys(itBody.fields ?? {})).toEqual(['password']);

    const itShort = await t.app.inject({
      method: 'POST',
      url: URL,
      headers: { ...caller, 'accept-language': 'it' },
      payload: { password: '1234567' },
    });
    expect(expectError(itShort, 400, 'validation').detail).toBe(
      "La password dell'amministratore deve contenere almeno 8 caratteri.",
    );

    expect(await storedHash()).toBe(before);
    expect(await tryLogin(ADMIN_PASSWORD)).toBe(200);
    expect(await status(other)).toBe(200);
    expect(await status(caller)).toBe(200);
  });

  it.each([
    ['no body', undefined],
    ['no password', {}],
    ['a number', { password: 123456789 }],
    ['an overlong password', { password: 'x'.repeat(129) }],
  ])('answers 400 validation for %s', async (_case, payload) => {
    const headers = await login(t.app);
    const res = await t.app.inject({ method: 'POST', url: URL, headers, payload });
    expectError(res, 400, 'validation');
  });

  it('refuses unauthenticated callers and callers with a revoked key', async () => {
    const before = await storedHash();
    expectError(
      await t.app.inject({ method: 'POST', url: URL, payload: { password: 'long-enough-1' } }),
      401,
      'unauthorized',
    );
    const res = await t.app.inject({
      method: 'POST',
      url: URL,
      headers: { user: 'admin', secretkey: 'not-a-key' },
      payload: { password: 'long-enough-1' },
    });
    expectError(res, 401, 'unauthorized');
    expect(await storedHash()).toBe(before);
  });

  it('stores the new password, revokes the other sessions and keeps the caller signed in', async () => {
    const caller = await login(t.app);
    const others = [await login(t.app), await login(t.app)];
    const newPassword = 'New-admin-pass-2';

    const res = await t.app.inject({ method: 'POST', url: URL, headers: caller, payload: { password: newPassword } });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toEqual({ success: true });

    const hash = await storedHash();
    expect(hash).toMatch(/^scrypt\$/);
    expect(hash).not.toContain(newPassword);

    expect(await tryLogin(ADMIN_PASSWORD)).toBe(401);
    expect(await tryLogin(newPassword)).toBe(200);
    for (const headers of others) expect(await status(headers)).toBe(401);
    expect(await status(caller)).toBe(200);
    // The caller's key keeps working for other calls too, and can change the password again.
    const again = await t.app.inject({
      method: 'POST',
      url: URL,
      headers: caller,
      payload: { password: ADMIN_PASSWORD },
    });
    expect(again.statusCode).toBe(201);
    expect(await tryLogin(ADMIN_PASSWORD)).toBe(200);
    expect(await tryLogin(newPassword)).toBe(401);
    expect(await status(caller)).toBe(200);
  });

  it('accepts exactly 8 characters, counted as characters rather than bytes', async () => {
    const headers = await login(t.app);
    const res = await t.app.inject({ method: 'POST', url: URL, headers, payload: { password: 'pàsswörd' } });
    expect(res.statusCode, res.body).toBe(201);
    expect(await tryLogin('pàsswörd')).toBe(200);
    const back = await t.app.inject({ method: 'POST', url: URL, headers, payload: { password: ADMIN_PASSWORD } });
    expect(back.statusCode).toBe(201);
  });
});
