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
    (
      await t.database.db
        .selectFrom('admins')
        .select('password_hash')
        .where('username', '=', 'admin')
        .executeTakeFirstOrThrow()
    ).password_hash;

  it('refuses a password shorter than 8 characters in English and Italian, and changes nothing', async () => {
    const caller = await login(t.app);
    const other = await login(t.app);
    const before = await storedHash();

    const res = await t.app.inject({
      method: 'POST',
      url: URL,
      headers: caller,
      payload: { password: 'short7!', current_password: ADMIN_PASSWORD },
    });
    const body = expectError(res, 400, 'validation');
    expect(body.detail).toBe('The administrator password must be at least 8 characters long.');
    expect(body.fields).toEqual({ password: body.detail });

    const itEmpty = await t.app.inject({
      method: 'POST',
      url: URL,
      headers: { ...caller, 'accept-language': 'it-IT,it;q=0.9' },
      payload: { password: '', current_password: ADMIN_PASSWORD },
    });
    const itBody = expectError(itEmpty, 400, 'validation');
    expect(itBody.title).toBe('Richiesta non valida');
    expect(Object.keys(itBody.fields ?? {})).toEqual(['password']);

    const itShort = await t.app.inject({
      method: 'POST',
      url: URL,
      headers: { ...caller, 'accept-language': 'it' },
      payload: { password: '1234567', current_password: ADMIN_PASSWORD },
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

    const res = await t.app.inject({
      method: 'POST',
      url: URL,
      headers: caller,
      payload: { password: newPassword, current_password: ADMIN_PASSWORD },
    });
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
      payload: { password: ADMIN_PASSWORD, current_password: newPassword },
    });
    expect(again.statusCode).toBe(201);
    expect(await tryLogin(ADMIN_PASSWORD)).toBe(200);
    expect(await tryLogin(newPassword)).toBe(401);
    expect(await status(caller)).toBe(200);
  });

  it('accepts exactly 8 characters, counted as characters rather than bytes', async () => {
    const headers = await login(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: URL,
      headers,
      payload: { password: 'pàsswörd', current_password: ADMIN_PASSWORD },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(await tryLogin('pàsswörd')).toBe(200);
    const back = await t.app.inject({
      method: 'POST',
      url: URL,
      headers,
      payload: { password: ADMIN_PASSWORD, current_password: 'pàsswörd' },
    });
    expect(back.statusCode).toBe(201);
  });
  it('asks for the current password: missing is 400, wrong is 403, in English and Italian; nothing changes', async () => {
    const caller = await login(t.app);
    const other = await login(t.app);
    const before = await storedHash();
    const change = (payload: object, lang = 'en') =>
      t.app.inject({ method: 'POST', url: URL, headers: { ...caller, 'accept-language': lang }, payload });

    const missing = expectError(await change({ password: 'New-admin-pass-3' }), 400, 'current_password_required');
    expect(missing.detail).toMatch(/^To change your own password, type your current password/);
    expect(missing.fields).toEqual({ current_password: 'Type your current password' });
    const missingIt = expectError(
      await change({ password: 'New-admin-pass-3', current_password: '' }, 'it'),
      400,
      'current_password_required',
    );
    expect(missingIt.title).toBe('Password attuale richiesta');
    expect(missingIt.detail).toMatch(/^Per cambiare la tua password inserisci la password attuale/);

    const wrong = expectError(
      await change({ password: 'New-admin-pass-3', current_password: 'not-the-password' }),
      403,
      'current_password_wrong',
    );
    expect(wrong.title).toBe('Current password is wrong');
    expect(wrong.fields).toEqual({ current_password: 'The current password is not right' });
    const wrongIt = expectError(
      await change({ password: 'New-admin-pass-3', current_password: 'not-the-password' }, 'it'),
      403,
      'current_password_wrong',
    );
    expect(wrongIt.detail).toMatch(/^La password attuale \(o il codice\) non è corretta/);
    // A code is no proof for an account without a second factor.
    expectError(await change({ password: 'New-admin-pass-3', code: '123456' }), 403, 'current_password_wrong');

    expect(await storedHash()).toBe(before);
    expect(await status(other)).toBe(200);
    expect(await status(caller)).toBe(200);
    expect(await tryLogin(ADMIN_PASSWORD)).toBe(200);
  });

  it("an administrator resets another account's password without its current one, but not their own that way", async () => {
    const caller = await login(t.app);
    const create = await t.app.inject({
      method: 'POST',
      url: '/api/admin/accounts',
      headers: caller,
      payload: { username: 'ops', password: 'ops-password-1', role: 'admin' },
    });
    expect(create.statusCode, create.body).toBe(201);
    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/admin/accounts/ops/password',
      headers: caller,
      payload: { password: 'ops-password-2' },
    });
    expect(reset.statusCode, reset.body).toBe(200);
    await login(t.app, 'ops', 'ops-password-2');

    const before = await storedHash();
    const own = expectError(
      await t.app.inject({
        method: 'POST',
        url: '/api/admin/accounts/admin/password',
        headers: { ...caller, 'accept-language': 'it' },
        payload: { password: 'New-admin-pass-5' },
      }),
      400,
      'current_password_required',
    );
    expect(own.detail).toMatch(/^La tua password si cambia in Impostazioni/);
    expect(await storedHash()).toBe(before);
    expect(await status(caller)).toBe(200);
  });

  // Last: the account stays locked for the rest of the suite.
  it('counts wrong current passwords in the sign-in throttle, so a stolen key cannot guess the password', async () => {
    const caller = await login(t.app);
    const answers: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: URL,
        headers: caller,
        payload: { password: 'New-admin-pass-4', current_password: `guess-${i}` },
      });
      answers.push(res.statusCode);
    }
    expect(answers.slice(0, 4)).toEqual([403, 403, 403, 403]);
    expect(answers.at(-1)).toBe(429);
    // Locked: even the right password waits, and nothing changed.
    const locked = await t.app.inject({
      method: 'POST',
      url: URL,
      headers: caller,
      payload: { password: 'New-admin-pass-4', current_password: ADMIN_PASSWORD },
    });
    expectError(locked, 429, 'login_locked');
    expect(locked.headers['retry-after']).toMatch(/^\d+$/);
  });
});
