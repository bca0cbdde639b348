import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { ConfigError, loadConfig } from '../src/config.ts';
import { migrateToLatest, openDatabase } from '../src/db/database.ts';
import { hashPassword } from '../src/features/auth/password.ts';
import {
  ADMIN_PASSWORD,
  DB_KINDS,
  expectError,
  startApp,
  type TestApp,
  type TestDatabase,
  useTestDatabase,
} from './helpers.ts';

const OTHER_PASSWORD = 'other-admin-password';

async function addAdmin(t: TestApp, username: string, password: string) {
  const now = Date.now();
  await t.database.db
    .insertInto('admins')
    .values({ username, password_hash: await hashPassword(password), created_at: now, updated_at: now })
    .execute();
}

let address = 0;
/** A sign-in from a fresh client address each time (a botnet, or many users behind many NATs). */
function signIn(t: TestApp, username: string, password: string, headers: Record<string, string> = {}) {
  address++;
  return t.app.inject({
    method: 'POST',
    url: '/api/login',
    remoteAddress: `198.51.${Math.floor(address / 250) % 250}.${(address % 250) + 1}`,
    headers,
    payload: { username, password },
  });
}

describe.each(DB_KINDS)('per-account sign-in throttle (%s)', (kind) => {
  const db = useTestDatabase(kind);

  async function withApp(clock: { now: number }, run: (t: TestApp) => Promise<void>, shared = false) {
    const t = await startApp(db.current, { env: { LOGIN_RATE_LIMIT: '3' }, now: () => clock.now });
    try {
      if (!shared) await t.database.db.deleteFrom('login_throttle').execute();
      await run(t);
    } finally {
      await t.close();
    }
  }

  it('refuses an account attacked from many addresses, says when to retry, and lets another account in', async () => {
    const clock = { now: Date.UTC(2026, 0, 1, 10, 0, 0) };
    await withApp(clock, async (t) => {
      await addAdmin(t, 'operator', OTHER_PASSWORD);
      // Five wrong guesses, each from its own address: the per-address limit (3) never triggers.
      for (let i = 0; i < 5; i++) expectError(await signIn(t, 'admin', `guess-${i}`), 401, 'login_failed');
      // Even the right password is refused now, from yet another address, without checking it.
      const locked = await signIn(t, 'admin', ADMIN_PASSWORD);
      const body = expectError(locked, 429, 'login_locked');
      expect(body.title).toBe('Too many failed sign-ins');
      expect(body.detail).toBe(
        'Too many failed sign-ins with this user name: sign-ins are paused. Try again in 30 seconds (at 10:00 UTC).',
      );
      expect(locked.headers['retry-after']).toBe('30');
      const it = expectError(await signIn(t, 'ADMIN ', 'x', { 'accept-language': 'it' }), 429, 'login_locked');
      expect(it.title).toBe('Troppi accessi non riusciti');
      expect(it.detail).toContain('Riprova tra 30 secondi (alle 10:00 UTC)');
      expect(t.auth.lockedRefusals).toBe(2);

      // Another account is not affected.
      expect((await signIn(t, 'operator', OTHER_PASSWORD)).statusCode).toBe(200);

      // After the delay the right password works, and the success clears the count.
      clock.now += 30_000;
      expect((await signIn(t, 'admin', ADMIN_PASSWORD)).statusCode).toBe(200);
      for (let i = 0; i < 4; i++) expectError(await signIn(t, 'admin', `again-${i}`), 401, 'login_failed');
      expect((await signIn(t, 'admin', ADMIN_PASSWORD)).statusCode).toBe(200);
    });
  });

  it('doubles the delay with each further failure, up to 15 minutes', async () => {
    const clock = { now: Date.UTC(2026, 0, 1, 11, 0, 0) };
    await withApp(clock, async (t) => {
      for (let i = 0; i < 5; i++) await signIn(t, 'admin', `guess-${i}`);
      const waits: string[] = [];
      for (let round = 0; round < 8; round++) {
        const refused = await signIn(t, 'admin', 'wrong');
        expectError(refused, 429, 'login_locked');
        const wait = Number(refused.headers['retry-after']);
        waits.push(String(wait));
        clock.now += wait * 1000;
        expectError(await signIn(t, 'admin', 'wrong'), 401, 'login_failed');
      }
      expect(waits).toEqual(['30', '60', '120', '240', '480', '900', '900', '900']);
      const it = expectError(await signIn(t, 'admin', 'x', { 'accept-language': 'it' }), 429, 'login_locked');
      expect(it.detail).toContain('Riprova tra 15 minuti');
    });
  });

  it('answers an unknown user name exactly like an existing one', async () => {
    const clock = { now: Date.UTC(2026, 0, 1, 12, 0, 0) };
    await withApp(clock, async (t) => {
      const answers = async (username: string) => {
        const out: string[] = [];
        for (let i = 0; i < 7; i++) {
          const res = await signIn(t, username, `guess-${i}`);
          out.push(`${res.statusCode} ${res.json().code} ${res.json().detail} ${res.headers['retry-after'] ?? ''}`);
        }
        return out;
      };
      expect(await answers('nobody')).toEqual(await answers('admin'));
    });
  });

  it('lets no more than the free attempts through when guesses arrive in parallel', async () => {
    const clock = { now: Date.UTC(2026, 0, 1, 13, 0, 0) };
    await withApp(clock, async (t) => {
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => signIn(t, 'admin', `p-${i}`)));
      const codes = results.map((res) => res.statusCode);
      expect(codes.filter((c) => c === 401)).toHaveLength(5);
      expect(codes.filter((c) => c === 429)).toHaveLength(15);
    });
  });

  it('is shared by server processes on the same database, and stores no user name', async () => {
    const clock = { now: Date.UTC(2026, 0, 1, 14, 0, 0) };
    await withApp(clock, async (a) => {
      await withApp(
        clock,
        async (b) => {
          for (let i = 0; i < 5; i++) await signIn(i % 2 ? a : b, 'shared-name', `guess-${i}`);
          expectError(await signIn(b, 'shared-name', 'x'), 429, 'login_locked');
          expectError(await signIn(a, 'shared-name', 'x'), 429, 'login_locked');
          const rows = await a.database.db.selectFrom('login_throttle').selectAll().execute();
          expect(JSON.stringify(rows)).not.toContain('shared-name');
          // A day later the forgotten rows are purged at start.
          clock.now += 25 * 60 * 60_000;
          await a.auth.purgeIdleSessions();
          expect(await a.database.db.selectFrom('login_throttle').selectAll().execute()).toEqual([]);
        },
        true,
      );
    });
  });

  it('keeps the per-address limit, and the admin still signs in from another address', async () => {
    const clock = { now: Date.UTC(2026, 0, 1, 15, 0, 0) };
    await withApp(clock, async (t) => {
      const from = (remoteAddress: string, password: string) =>
        t.app.inject({
          method: 'POST',
          url: '/api/login',
          remoteAddress,
          payload: { username: 'admin', password },
        });
      for (let i = 0; i < 3; i++) expectError(await from('203.0.113.9', `guess-${i}`), 401, 'login_failed');
      expectError(await from('203.0.113.9', ADMIN_PASSWORD), 429, 'rate_limited');
      // 3 failures are under the per-account limit: the administrator elsewhere is not locked out.
      expect((await from('203.0.113.10', ADMIN_PASSWORD)).statusCode).toBe(200);
    });
  });
});

describe.each(DB_KINDS)('sign-in logs and start (%s)', (kind) => {
  const db = useTestDatabase(kind);

  async function appWithLogs(testDb: TestDatabase, lines: string[]) {
    const config = loadConfig({ LOG_LEVEL: 'info', LOGIN_RATE_LIMIT: '1000', ...testDb.env });
    const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
    await migrateToLatest(database.db);
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const { app, auth } = await buildApp({ config, database, logger: { level: 'info', stream } });
    await auth.ensureAdmin(ADMIN_PASSWORD);
    await app.ready();
    return {
      app,
      auth,
      close: async () => {
        await app.close();
        await database.close();
      },
    };
  }

  it('builds the decoy hash before the first request and never logs the typed user name', async () => {
    const lines: string[] = [];
    const t = await appWithLogs(db.current, lines);
    try {
      // The first failed sign-in of an unknown name must not pay for building the decoy.
      expect(t.auth.decoyReady).toBe(true);
      const typed = 'Typed-Secret-Name';
      for (let i = 0; i < 6; i++) {
        await t.app.inject({ method: 'POST', url: '/api/login', payload: { username: typed, password: 'pw-123' } });
      }
      await t.app.inject({ method: 'POST', url: '/api/login', payload: { username: 'admin', password: 'nope' } });
      const log = lines.join('');
      expect(log).toContain('login failed');
      expect(log).toContain('login refused: account throttled');
      expect(log.toLowerCase()).not.toContain(typed.toLowerCase());
      expect(log).not.toContain('"username":"admin"');
      const refusal = lines.map((line) => JSON.parse(line)).find((entry) => entry.msg.startsWith('login refused'));
      expect(refusal).toMatchObject({ account: expect.stringMatching(/^[0-9a-f]{16}$/), refusals: 1 });
    } finally {
      await t.close();
    }
  });
});

describe('TRUST_PROXY', () => {
  it('is off by default', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
  });

  it.each([
    ['true', true],
    ['2', 2],
    ['127.0.0.1', ['127.0.0.1']],
    ['10.0.0.0/8, ::1,192.168.1.1/32', ['10.0.0.0/8', '::1', '192.168.1.1/32']],
  ])('reads %s', (value, expected) => {
    expect(loadConfig({ TRUST_PROXY: value }).trustProxy).toEqual(expected);
  });

  it.each(['yes', '0', '11', 'proxy.example.com', '10.0.0.0/33', '10.0.0.1,', '1.2.3.4/8/8'])(
    'refuses %s with a clear message',
    (value) => {
      expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(ConfigError);
      try {
        loadConfig({ TRUST_PROXY: value });
      } catch (error) {
        expect((error as ConfigError).problems).toEqual([
          `TRUST_PROXY must be false, true, a number of proxies (1-10) or a comma-separated list of proxy addresses (IP or CIDR) (got "${value}")`,
        ]);
      }
    },
  );
});

describe('TRUST_PROXY in use', () => {
  const db = useTestDatabase('sqlite');

  it('counts the per-address limit by X-Forwarded-For from a trusted proxy only', async () => {
    const t = await startApp(db.current, { env: { LOGIN_RATE_LIMIT: '2', TRUST_PROXY: '127.0.0.1' } });
    try {
      const via = (remoteAddress: string, client: string) =>
        t.app.inject({
          method: 'POST',
          url: '/api/login',
          remoteAddress,
          headers: { 'x-forwarded-for': client },
          payload: { username: 'admin', password: ADMIN_PASSWORD },
        });
      // Behind the trusted proxy each client has its own budget.
      for (const client of ['192.0.2.1', '192.0.2.1', '192.0.2.2', '192.0.2.2']) {
        expect((await via('127.0.0.1', client)).statusCode).toBe(200);
      }
      expectError(await via('127.0.0.1', '192.0.2.1'), 429, 'rate_limited');
      // An untrusted peer cannot pick its address with the header.
      expect((await via('203.0.113.5', '192.0.2.50')).statusCode).toBe(200);
      expect((await via('203.0.113.5', '192.0.2.51')).statusCode).toBe(200);
      expectError(await via('203.0.113.5', '192.0.2.52'), 429, 'rate_limited');
    } finally {
      await t.close();
    }
  });
});
