import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, HTTPMethods, LightMyRequestResponse, RouteOptions } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { buildApp } from '../src/app.ts';
import { type Config, loadConfig } from '../src/config.ts';
import { type DatabaseHandle, migrateToLatest, openDatabase } from '../src/db/database.ts';
import { hashPassword } from '../src/features/auth/password.ts';
import { ADMIN_USERNAME, type AuthService } from '../src/features/auth/service.ts';
import type { GoogleSpeechOptions } from '../src/features/cloud-speech/service.ts';
import type { JobRunner } from '../src/jobs/runner.ts';
import type { ManagedPbx } from '../src/pbx/engine.ts';
import { freePort } from './support/slapd.ts';

export type DbKind = 'sqlite' | 'postgres';
/** Every integration suite runs once per database: `describe.each(DB_KINDS)`. */
export const DB_KINDS: DbKind[] = ['sqlite', 'postgres'];

export const ADMIN_PASSWORD = 'test-admin-password';

/** Server-level connection used to create and drop the per-suite databases. */
export const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

/** A database of its own for one suite: a temp DATA_DIR for SQLite, a fresh database for PostgreSQL. */
export interface TestDatabase {
  kind: DbKind;
  /** Always a fresh temp directory (holds the SQLite file; unused by PostgreSQL). */
  dataDir: string;
  databaseUrl: string | undefined;
  /** Environment selecting this database, for loadConfig. */
  env: Record<string, string>;
  drop(): Promise<void>;
}

async function withAdminClient<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => {});
    const reason = error instanceof Error ? error.message || error.name : String(error);
    throw new Error(
      `PostgreSQL is not reachable at ${POSTGRES_ADMIN_URL} (${reason}). The PostgreSQL integration tests need it: ` +
        'start PostgreSQL (trust auth for user postgres) or point TEST_POSTGRES_URL at a server where the user may ' +
        'create databases.',
    );
  }
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

export async function createTestDatabase(kind: DbKind): Promise<TestDatabase> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'centralino-test-'));
  const removeDir = () => fs.rmSync(dataDir, { recursive: true, force: true });
  if (kind === 'sqlite') {
    return { kind, dataDir, databaseUrl: undefined, env: { DATA_DIR: dataDir }, drop: async () => removeDir() };
  }
  const name = `centralino_test_${randomBytes(6).toString('hex')}`;
  try {
    await withAdminClient((client) => client.query(`CREATE DATABASE "${name}"`));
  } catch (error) {
    removeDir();
    throw error;
  }
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  return {
    kind,
    dataDir,
    databaseUrl,
    env: { DATA_DIR: dataDir, DATABASE_URL: databaseUrl },
    drop: async () => {
      removeDir();
      await withAdminClient(async (client) => {
        // FORCE (PostgreSQL 13+) ends any connection a failed test left open.
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      });
    },
  };
}

export interface TestApp {
  app: FastifyInstance;
  auth: AuthService;
  config: Config;
  database: DatabaseHandle;
  /** The app's background jobs (main.ts fails those of a stopped process at start: `jobs.watchInterrupted()`). */
  jobs: JobRunner;
  /** Closes the app and its database connection; the test database itself stays (see TestDatabase.drop). */
  close(): Promise<void>;
}

export interface StartOptions {
  /** Extra environment for loadConfig (e.g. LOGIN_RATE_LIMIT). */
  env?: Record<string, string>;
  /** Clock for session expiry. */
  now?: () => number;
  onRoute?: (route: RouteOptions) => void;
  /** Where the server reaches Google for voicemail transcription (a loopback double). */
  googleSpeech?: GoogleSpeechOptions;
  /** Runs after the app is built and before it is ready (to add test-only routes). */
  beforeReady?: (app: FastifyInstance) => void | Promise<void>;
  /** Create the admin with ADMIN_PASSWORD (default true). */
  ensureAdmin?: boolean;
  /** Managed mode: the Asterisk main.ts would have found, and what is missing beside it. */
  managedPbx?: ManagedPbx;
}

// scrypt costs ~50-150 ms; hash the test password once per worker rather than once per database.
let adminHash: Promise<string> | undefined;

/** The admin with ADMIN_PASSWORD, as AuthService.ensureAdmin creates it (which has tests of its own). */
async function seedAdmin(database: DatabaseHandle): Promise<void> {
  adminHash ??= hashPassword(ADMIN_PASSWORD);
  const now = Date.now();
  await database.db
    .insertInto('admins')
    .values({ username: ADMIN_USERNAME, password_hash: await adminHash, created_at: now, updated_at: now })
    .onConflict((oc) => oc.column('username').doNothing())
    .execute();
}

export async function startApp(testDb: TestDatabase, options: StartOptions = {}): Promise<TestApp> {
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    // Suites log in many times from the same address; the rate-limit test lowers this.
    LOGIN_RATE_LIMIT: '1000',
    // Test files run in parallel, and any of them may switch the phonebook services on.
    PHONEBOOK_LDAP_PORT: String(await freePort()),
    PHONEBOOK_LDAPS_PORT: String(await freePort()),
    ...testDb.env,
    ...options.env,
  });
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  expect(database.kind).toBe(testDb.kind);
  try {
    await migrateToLatest(database.db);
    const { app, auth, jobs } = await buildApp({
      config,
      database,
      logger: false,
      now: options.now,
      onRoute: options.onRoute,
      googleSpeech: options.googleSpeech,
      managedPbx: options.managedPbx,
    });
    if (options.ensureAdmin ?? true) await seedAdmin(database);
    await options.beforeReady?.(app);
    await app.ready();
    return {
      app,
      auth,
      config,
      database,
      jobs,
      close: async () => {
        await app.close();
        await database.close();
      },
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}

/**
 * Gives the suite one database and one app (built in beforeAll, closed and dropped in afterAll), and
 * the headers of a signed-in admin (unless signIn is false). Read the returned fields inside tests only.
 */
export function useTestApp(
  kind: DbKind,
  options: StartOptions & { signIn?: boolean } = {},
): TestApp & { testDb: TestDatabase; headers: AuthHeaders } {
  const holder = {} as TestApp & { testDb: TestDatabase; headers: AuthHeaders };
  failEveryTestIfSetupFails(async () => {
    holder.testDb = await createTestDatabase(kind);
    Object.assign(holder, await startApp(holder.testDb, options));
    // Signed in here rather than in a beforeAll of the suite, which would run even when this setup failed.
    if (options.signIn ?? true) holder.headers = await login(holder.app);
  });
  afterAll(async () => {
    await holder.close?.();
    await holder.testDb?.drop();
  });
  return holder;
}

/**
 * `call(method, url, payload?, headers?)`: a request as the suite's signed-in administrator, the extra headers
 * laid over the sign-in ones. Reads `t` at call time (its app exists only once the suite's setup ran).
 */
export function callAs(t: { app: FastifyInstance; headers: AuthHeaders }) {
  return (
    method: HTTPMethods,
    url: string,
    payload?: unknown,
    headers: Record<string, string> = {},
  ): Promise<LightMyRequestResponse> =>
    t.app.inject({
      method,
      url,
      headers: { ...t.headers, ...headers },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
}

/** A fresh database for the suite, for tests that open and close apps themselves. */
export function useTestDatabase(kind: DbKind): { current: TestDatabase } {
  const holder = {} as { current: TestDatabase };
  failEveryTestIfSetupFails(async () => {
    holder.current = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await holder.current?.drop();
  });
  return holder;
}

/**
 * Runs the suite setup once; if it fails (e.g. PostgreSQL is down) every test of the suite fails
 * with that error, instead of being reported as skipped.
 */
function failEveryTestIfSetupFails(setup: () => Promise<void>) {
  let setupError: unknown;
  beforeAll(async () => {
    try {
      await setup();
    } catch (error) {
      setupError = error;
    }
  });
  beforeEach(() => {
    if (setupError) throw setupError;
  });
}

export type AuthHeaders = { user: string; secretkey: string };

/** Signs in and returns the headers that authenticate the following requests. */
export async function login(app: FastifyInstance, username = 'admin', password = ADMIN_PASSWORD): Promise<AuthHeaders> {
  const res = await app.inject({ method: 'POST', url: '/api/login', payload: { username, password } });
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json() as { user: string; secretkey: string };
  return { user: body.user, secretkey: body.secretkey };
}

/** Asserts the one error shape of the API and returns it. */
export function expectError(res: LightMyRequestResponse, status: number, code: string) {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const body = res.json() as { title: unknown; detail: unknown; code: unknown; fields?: Record<string, string> };
  expect(body.code).toBe(code);
  expect(typeof body.title).toBe('string');
  expect(body.title).not.toBe('');
  expect(typeof body.detail).toBe('string');
  expect(body.detail).not.toBe('');
  const allowed = ['code', 'detail', 'fields', 'title'];
  expect(Object.keys(body).filter((key) => !allowed.includes(key))).toEqual([]);
  return body as { title: string; detail: string; code: string; fields?: Record<string, string> };
}
