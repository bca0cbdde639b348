import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  ADMIN_PASSWORD,
  type AuthHeaders,
  DB_KINDS,
  expectError,
  login,
  startApp,
  useTestApp,
  useTestDatabase,
} from './helpers.ts';

describe.each(DB_KINDS)('auth (%s)', (kind) => {
  describe('login and keys', () => {
    const t = useTestApp(kind);

    it('issues a key that signs in automatically with GET /api/login', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { username: 'admin', password: ADMIN_PASSWORD },
      });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.user).toBe('admin');
      expect(body.secretkey).toMatch(/^[\w-]{32,}$/);
      expect(Object.keys(body).sort()).toEqual(['secretkey', 'user']);

      const check = await t.app.inject({
        method: 'GET',
        url: '/api/login',
        headers: { User: 'admin', Secretkey: body.secretkey },
      });
      expect(check.statusCode).toBe(200);
      expect(check.json()).toEqual({ success: true, user: 'admin', role: 'admin', listen_recordings: true });
    });

    it('issues a different key on every login, each usable on its own', async () => {
      const a = await login(t.app);
      const b = await login(t.app);
      expect(a.secretkey).not.toBe(b.secretkey);
      for (const headers of [a, b]) {
        expect((await t.app.inject({ method: 'GET', url: '/api/login', headers })).statusCode).toBe(200);
      }
    });

    it.each([
      ['wrong password', 'admin', 'not-the-password'],
      ['unknown user', 'nobody', ADMIN_PASSWORD],
    ])('refuses a %s with login_failed', async (_case, username, password) => {
      const res = await t.app.inject({ method: 'POST', url: '/api/login', payload: { username, password } });
      const body = expectError(res, 401, 'login_failed');
      expect(body.title).toBe('Cannot login');
      expect(body.detail).toBe('Incorrect username or password');
    });

    it('answers in Italian when the browser asks for it', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/login',
        headers: { 'accept-language': 'it-IT,it;q=0.9,en;q=0.8' },
        payload: { username: 'admin', password: 'wrong-password' },
      });
      const body = expectError(res, 401, 'login_failed');
      expect(body.title).toBe('Impossibile accedere');
      expect(body.detail).toBe('Nome utente o password errati');
    });

    it.each([
      ['no body', undefined, ['body']],
      ['an empty object', {}, ['password', 'username']],
      ['no password', { username: 'admin' }, ['password']],
      ['no username', { password: ADMIN_PASSWORD }, ['username']],
      ['an empty username', { username: '  ', password: ADMIN_PASSWORD }, ['username']],
      ['an empty password', { username: 'admin', password: '' }, ['password']],
      ['a number as password', { username: 'admin', password: 12345678 }, ['password']],
    ])('answers 400 validation with fields for %s', async (_case, payload, fields) => {
      const res = await t.app.inject({ method: 'POST', url: '/api/login', payload });
      const body = expectError(res, 400, 'validation');
      expect(Object.keys(body.fields ?? {}).sort()).toEqual(fields);
    });

    it('treats the username case-insensitively and ignores surrounding spaces', async () => {
      for (const username of ['ADMIN', ' Admin ']) {
        const headers = await login(t.app, username);
        expect(headers.user).toBe('admin');
        const check = await t.app.inject({
          method: 'GET',
          url: '/api/login',
          headers: { User: username.toUpperCase(), Secretkey: headers.secretkey },
        });
        expect(check.statusCode).toBe(200);
      }
    });

    it('keeps the password case-sensitive', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { username: 'admin', password: ADMIN_PASSWORD.toUpperCase() },
      });
      expectError(res, 401, 'login_failed');
    });

    it.each([
      ['no headers', {}],
      ['a wrong key', { User: 'admin', Secretkey: 'wrong' }],
      ['a key without user', { Secretkey: 'wrong' }],
      ['an overlong key', { User: 'admin', Secretkey: 'x'.repeat(5000) }],
    ])('refuses GET /api/login with %s', async (_case, headers) => {
      const res = await t.app.inject({ method: 'GET', url: '/api/login', headers });
      expectError(res, 401, 'unauthorized');
    });

    it('refuses a valid key presented with another user name', async () => {
      const { secretkey } = await login(t.app);
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/login',
        headers: { User: 'root', Secretkey: secretkey },
      });
      expectError(res, 401, 'unauthorized');
    });

    it('revokes the key on logout, and only that key', async () => {
      const kept = await login(t.app);
      const headers = await login(t.app);
      const out = await t.app.inject({ method: 'GET', url: '/api/logout', headers });
      expect(out.statusCode).toBe(200);
      expect(out.json()).toEqual({ success: true });

      expectError(await t.app.inject({ method: 'GET', url: '/api/login', headers }), 401, 'unauthorized');
      expectError(await t.app.inject({ method: 'GET', url: '/api/logout', headers }), 401, 'unauthorized');
      expect((await t.app.inject({ method: 'GET', url: '/api/login', headers: kept })).statusCode).toBe(200);
    });

    it('stores only hashes of the keys', async () => {
      const { secretkey } = await login(t.app);
      const rows = await t.database.db.selectFrom('sessions').selectAll().execute();
      expect(rows.length).toBeGreaterThan(0);
      const dump = JSON.stringify(rows);
      expect(dump).not.toContain(secretkey);
      const keyHash = createHash('sha256').update(secretkey).digest('hex');
      expect(rows.map((row) => row.key_hash)).toContain(keyHash);
    });

    it('stores the password as a salted scrypt hash', async () => {
      const rows = await t.database.db.selectFrom('admins').selectAll().execute();
      expect(rows.map((row) => row.username)).toEqual(['admin']);
      const hash = rows[0]!.password_hash;
      expect(hash).toMatch(/^scrypt\$\d+\$\d+\$\d+\$[\w-]{16,}\$[\w-]{64,}$/);
      expect(hash).not.toContain(ADMIN_PASSWORD);
    });
  });

  describe('idle expiry', () => {
    const db = useTestDatabase(kind);

    it('expires a key after SESSION_IDLE_MINUTES without use, and keeps a used one alive', async () => {
      let clock = 1_700_000_000_000;
      const minutes = (n: number) => n * 60_000;
      const t = await startApp(db.current, { env: { SESSION_IDLE_MINUTES: '5' }, now: () => clock });
      try {
        const active = await login(t.app);
        const idle = await login(t.app);
        const check = async (headers: AuthHeaders) =>
          (await t.app.inject({ method: 'GET', url: '/api/login', headers })).statusCode;

        // Used every 4 minutes for 20 minutes: each use restarts the idle window.
        for (let i = 0; i < 5; i++) {
          clock += minutes(4);
          expect(await check(active)).toBe(200);
        }
        // Unused for 20 minutes: gone, and its row removed.
        expect(await check(idle)).toBe(401);

        clock += minutes(5) + 1;
        expect(await check(active)).toBe(401);
        clock -= minutes(5);
        // Expired keys stay expired even if the clock were to go back: the row is deleted.
        expect(await check(active)).toBe(401);
        expect(await t.database.db.selectFrom('sessions').selectAll().execute()).toEqual([]);
      } finally {
        await t.close();
      }
    });

    it('keeps a key alive with a one-minute idle window while it is in use', async () => {
      let clock = 1_700_000_000_000;
      const t = await startApp(db.current, { env: { SESSION_IDLE_MINUTES: '1' }, now: () => clock });
      try {
        const headers = await login(t.app);
        for (let i = 0; i < 6; i++) {
          clock += 30_000;
          const res = await t.app.inject({ method: 'GET', url: '/api/login', headers });
          expect(res.statusCode, `after ${(i + 1) * 30} s`).toBe(200);
        }
        clock += 61_000;
        expectError(await t.app.inject({ method: 'GET', url: '/api/login', headers }), 401, 'unauthorized');
      } finally {
        await t.close();
      }
    });

    it('purges idle sessions at start', async () => {
      let clock = 1_700_000_000_000;
      const t = await startApp(db.current, { env: { SESSION_IDLE_MINUTES: '5' }, now: () => clock });
      try {
        await login(t.app);
        clock += 60_000;
        const fresh = await login(t.app);
        clock += 4.5 * 60_000;
        await t.auth.purgeIdleSessions();
        const rows = await t.database.db.selectFrom('sessions').select('key_hash').execute();
        expect(rows).toEqual([{ key_hash: createHash('sha256').update(fresh.secretkey).digest('hex') }]);
      } finally {
        await t.close();
      }
    });
  });

  describe('rate limit', () => {
    const t = useTestApp(kind, { env: { LOGIN_RATE_LIMIT: '3' }, signIn: false });

    it('answers 429 rate_limited to the 4th login attempt from one address within a minute', async () => {
      for (let i = 0; i < 3; i++) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/login',
          payload: { username: 'admin', password: `wrong-${i}` },
        });
        expectError(res, 401, 'login_failed');
      }
      // Even the right password is refused now.
      const limited = await t.app.inject({
        method: 'POST',
        url: '/api/login',
        headers: { 'accept-language': 'it' },
        payload: { username: 'admin', password: ADMIN_PASSWORD },
      });
      const body = expectError(limited, 429, 'rate_limited');
      expect(body.title).toBe('Troppi tentativi');

      // Another address is not affected.
      const other = await t.app.inject({
        method: 'POST',
        url: '/api/login',
        remoteAddress: '192.0.2.7',
        payload: { username: 'admin', password: ADMIN_PASSWORD },
      });
      expect(other.statusCode).toBe(200);
    });
  });

  describe('ensureAdmin', () => {
    const db = useTestDatabase(kind);

    it('creates the admin once with ADMIN_PASSWORD and never overrides it', async () => {
      const t = await startApp(db.current, { ensureAdmin: false });
      try {
        expect(await t.auth.ensureAdmin('first-password')).toEqual({ created: true });
        expect(await t.auth.ensureAdmin('second-password')).toEqual({ created: false });
        expect(await t.auth.ensureAdmin(undefined)).toEqual({ created: false });
        await login(t.app, 'admin', 'first-password');
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/login',
          payload: { username: 'admin', password: 'second-password' },
        });
        expectError(res, 401, 'login_failed');
        expect(await t.database.db.selectFrom('admins').select('username').execute()).toHaveLength(1);
      } finally {
        await t.close();
      }
      // A restart on the same database keeps the first password too.
      const again = await startApp(db.current, { ensureAdmin: false });
      try {
        expect(await again.auth.ensureAdmin('third-password')).toEqual({ created: false });
        await login(again.app, 'admin', 'first-password');
      } finally {
        await again.close();
      }
    });
  });

  describe('ensureAdmin without ADMIN_PASSWORD', () => {
    const db = useTestDatabase(kind);

    it('generates a 16-character password that signs in', async () => {
      const t = await startApp(db.current, { ensureAdmin: false });
      try {
        const result = await t.auth.ensureAdmin(undefined);
        expect(result.created).toBe(true);
        expect(result.generatedPassword).toMatch(/^[A-Za-z0-9]{16}$/);
        await login(t.app, 'admin', result.generatedPassword);
        expect(await t.auth.ensureAdmin(undefined)).toEqual({ created: false });
      } finally {
        await t.close();
      }
    });
  });
});
