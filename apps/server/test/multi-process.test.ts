import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './helpers.ts';
import { severalSample, startNginx } from './support/nginx.ts';
import { freePort } from './support/slapd.ts';

/**
 * Two real server processes (src/main.ts under tsx, as `npm start` runs the bundle of it) on one throwaway
 * PostgreSQL database, sharing DATA_DIR as two processes on one host would, each on its own port: what a load
 * balancer in front of them needs to hold (issue 28). SQLite is one process by design (its file is not shared).
 */

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const PASSWORD = 'multi-process-test-password';

interface Server {
  name: string;
  port: number;
  child: ChildProcess;
  /** Everything the process wrote (pino JSON lines and the start banner). */
  output: () => string;
  url: (p: string) => string;
}

async function startServer(name: string, db: TestDatabase): Promise<Server> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: db.dataDir,
      DATABASE_URL: db.databaseUrl,
      ADMIN_PASSWORD: PASSWORD,
      TFTP_PORT: '0',
      ASTERISK_MODE: 'off',
      PHONEBOOK_LDAP_PORT: String(await freePort()),
      PHONEBOOK_LDAPS_PORT: String(await freePort()),
      LOGIN_RATE_LIMIT: '1000',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => {
    output += d;
  });
  child.stderr?.on('data', (d) => {
    output += d;
  });
  const server: Server = {
    name,
    port,
    child,
    output: () => output,
    url: (p) => `http://127.0.0.1:${port}${p}`,
  };
  for (let i = 0; i < 600 && !/Centralino listening/.test(output); i++) {
    if (child.exitCode !== null) throw new Error(`${name} exited: ${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  if (!/Centralino listening/.test(output)) throw new Error(`${name} did not start: ${output}`);
  return server;
}

async function stop(server: Server | undefined): Promise<void> {
  if (!server || server.child.exitCode !== null || server.child.signalCode !== null) return;
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGTERM');
  await exited;
}

type Headers = Record<string, string>;

async function call(server: Server, method: string, p: string, headers: Headers = {}, body?: unknown) {
  const res = await fetch(server.url(p), {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, text, json: json as Record<string, unknown> };
}

async function signIn(server: Server): Promise<Headers> {
  const res = await call(server, 'POST', '/api/login', {}, { username: 'admin', password: PASSWORD });
  expect(res.status, res.text).toBe(200);
  return { User: String(res.json.user), Secretkey: String(res.json.secretkey) };
}

async function until<T>(read: () => Promise<T>, done: (v: T) => boolean, timeoutMs: number, what: string): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`${what}: still ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The applies a process logged, as [start, end] in milliseconds. */
function appliesOf(server: Server): { startedAt: number; finishedAt: number; generation: number }[] {
  return server
    .output()
    .split('\n')
    .filter((line) => line.includes('"PBX configuration applied"'))
    .map((line) => JSON.parse(line) as { startedAt: number; finishedAt: number; generation: number });
}

const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);

/** A CSV file of users with those extensions (chosen clear of the feature codes' *NN prefixes). */
const csvOf = (numbers: number[], prefix: string) =>
  Buffer.from(numbers.map((n) => `${prefix}${n},${prefix} ${n},${n}`).join('\n')).toString('base64');

describe('several server processes on one database (sqlite)', () => {
  it.skip('SQLite is one server process: its database file is not shared, so there is nothing to coordinate', () => {});
});

describe('several server processes on one PostgreSQL', () => {
  let db: TestDatabase;
  let a: Server | undefined;
  let b: Server | undefined;
  let ha: Headers;
  let hb: Headers;
  let sqlClient: pg.Client;

  beforeAll(async () => {
    db = await createTestDatabase('postgres');
    // Both start together, as a service manager would start them: migrations and the first administrator once.
    [a, b] = await Promise.all([startServer('A', db), startServer('B', db)]);
    sqlClient = new pg.Client({ connectionString: db.databaseUrl });
    await sqlClient.connect();
  }, 90_000);

  afterAll(async () => {
    await sqlClient?.end().catch(() => {});
    await Promise.all([stop(a), stop(b)]);
    await db?.drop();
  }, 60_000);

  const A = () => a as Server;
  const B = () => b as Server;

  it('a key signed in on one process works on the other, and signing out on one ends it on both', async () => {
    ha = await signIn(A());
    const onB = await call(B(), 'GET', '/api/login', ha);
    expect(onB.status, onB.text).toBe(200);
    expect(onB.json.user).toBe('admin');
    // A second key, signed in on B, ended on A: B refuses it at once.
    const other = await signIn(B());
    expect((await call(A(), 'GET', '/api/logout', other)).status).toBeLessThan(300);
    expect((await call(B(), 'GET', '/api/login', other)).status).toBe(401);
    hb = await signIn(B());
  });

  it('a change made on A reaches a dashboard stream on B within 2 s', async () => {
    // The local directory, so that users can be made (a job itself, whichever process runs it).
    expect((await call(A(), 'POST', '/api/configuration/mode', ha, { mode: 'legacy' })).status).toBe(200);
    await until(
      () => call(B(), 'GET', '/api/configuration/userprovider', hb),
      (r) => r.json?.configured === 1,
      20_000,
      'the local directory',
    );
    const controller = new AbortController();
    const stream = await fetch(B().url('/api/dashboard/events'), { headers: hb, signal: controller.signal });
    expect(stream.status).toBe(200);
    const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let seen = '';
    // One read at a time: a read given up on by a timeout still receives the next chunk.
    let reading: ReturnType<typeof reader.read> | undefined;
    const next = async (pattern: RegExp, timeoutMs: number) => {
      const deadline = Date.now() + timeoutMs;
      while (!pattern.test(seen)) {
        const left = deadline - Date.now();
        if (left <= 0) return false;
        reading ??= reader.read();
        const chunk = await Promise.race([
          reading,
          new Promise<undefined>((r) => setTimeout(() => r(undefined), left)),
        ]);
        if (!chunk) continue;
        reading = undefined;
        if (chunk.done) return pattern.test(seen);
        seen += decoder.decode(chunk.value);
      }
      return true;
    };
    try {
      expect(await next(/event: pbx/, 5000), seen).toBe(true);
      expect(
        (await call(A(), 'POST', '/api/users', ha, { username: 'streamed', fullname: 'Streamed User' })).status,
      ).toBe(201);
      // What the setup changed is announced first (coalesced): let it pass.
      await new Promise((r) => setTimeout(r, 1000));
      await next(/$^/, 100);
      seen = '';
      const changed = Date.now();
      // The dashboard shows users with an extension: giving one is what its viewers must see.
      const ext = await call(A(), 'POST', '/api/mainextensions', ha, { username: 'streamed', extension: '360' });
      expect(ext.status, ext.text).toBe(201);
      expect(await next(/event: users/, 2000), seen).toBe(true);
      const took = Date.now() - changed;
      expect(took).toBeLessThan(2000);
      console.log(`a change on A reached B's dashboard stream after ${took} ms`);
      const page = await call(B(), 'GET', '/api/dashboard/users?search=streamed', hb);
      expect(page.status, page.text).toBe(200);
      expect(JSON.stringify(page.json)).toContain('Streamed User');
    } finally {
      controller.abort();
    }
  });

  it('an import started on both processes at once runs once', async () => {
    // Long enough (500 users) that neither process finishes before the other asks.
    const file = csvOf(range(2000, 500), 'cont');
    const [onA, onB] = await Promise.all([
      call(A(), 'POST', '/api/csv/csvimport', ha, { file }),
      call(B(), 'POST', '/api/csv/csvimport', hb, { file }),
    ]);
    expect([onA.status, onB.status].sort(), `${onA.text} ${onB.text}`).toEqual([200, 409]);
    expect((onA.status === 409 ? onA : onB).json.code).toBe('import_running');
    await until(
      () => call(B(), 'GET', '/api/csv/csvimport', hb),
      (r) => r.json?.result === 100,
      30_000,
      'the import',
    );
    const jobs = await sqlClient.query("select count(*)::int as n from jobs where kind like '%import%'");
    expect(jobs.rows[0].n).toBe(1);
    const status = await call(A(), 'GET', '/api/csv/csvimport', ha);
    expect(status.json).toMatchObject({ result: 100, created: 500 });
  });

  it('writes on both processes apply one at a time, and the files end with the last write', async () => {
    const made = async (server: Server, headers: Headers, from: number) => {
      for (let n = from; n < from + 8; n++) {
        const user = await call(server, 'POST', '/api/users', headers, {
          username: `apply${n}`,
          fullname: `Apply ${n}`,
        });
        expect(user.status, user.text).toBe(201);
        const ext = await call(server, 'POST', '/api/mainextensions', headers, {
          username: `apply${n}`,
          extension: String(n),
        });
        expect(ext.status, ext.text).toBe(201);
      }
    };
    await Promise.all([made(A(), ha, 401), made(B(), hb, 411)]);
    for (const [server, headers] of [
      [A(), ha],
      [B(), hb],
    ] as const) {
      await until(
        () => call(server, 'GET', '/api/pbx/apply', headers),
        (r) => r.json?.state === 'idle',
        60_000,
        `${server.name}'s applies`,
      );
    }
    const applies = [...appliesOf(A()), ...appliesOf(B())].sort((x, y) => x.startedAt - y.startedAt);
    expect(appliesOf(A()).length).toBeGreaterThan(0);
    expect(appliesOf(B()).length).toBeGreaterThan(0);
    for (let i = 1; i < applies.length; i++) {
      // One apply at a time across both processes: each starts after the previous one finished.
      expect(applies[i]?.startedAt, JSON.stringify(applies)).toBeGreaterThanOrEqual(applies[i - 1]?.finishedAt ?? 0);
    }
    console.log(
      `applies: ${appliesOf(A()).length} by A, ${appliesOf(B()).length} by B, none overlapping (longest ${Math.max(
        ...applies.map((x) => x.finishedAt - x.startedAt),
      )} ms)`,
    );
    const state = await sqlClient.query('select generation, applied_generation from pbx_apply where id = 1');
    expect(Number(state.rows[0].applied_generation)).toBe(Number(state.rows[0].generation));
    // The files hold every user made on either process: the last apply read the last write.
    const dir = path.join(db.dataDir, 'asterisk');
    const text = fs
      .readdirSync(dir)
      .filter((name) => name.endsWith('.conf'))
      .map((name) => fs.readFileSync(path.join(dir, name), 'utf8'))
      .join('\n');
    for (const n of [...range(401, 8), ...range(411, 8)]) expect(text, String(n)).toContain(`[${n}]`);
  }, 120_000);

  it("a provisioning change made on A is in the phone's file B serves within 2 s", async () => {
    const V1 = '/api/provisioning/v1';
    const mac = '00-15-65-AA-BB-CD';
    const ua = 'Yealink SIP-T46S 66.86.0.15 00:15:65:aa:bb:cd';
    const phone = await call(A(), 'POST', `${V1}/phones`, ha, { mac, model: 'yealink-T46' });
    expect(phone.status, phone.text).toBeLessThan(300);
    const fetchFromB = async () => {
      const res = await fetch(B().url(`/provisioning/${phone.json.tok2}/001565aabbcd.cfg`), {
        headers: { 'user-agent': ua },
      });
      expect(res.status).toBe(200);
      return res.text();
    };
    const patch = (adminpw: string) => call(A(), 'PATCH', `${V1}/defaults`, ha, { adminpw });
    expect((await patch('before-change-1')).status).toBeLessThan(300);
    await until(fetchFromB, (text) => text.includes('before-change-1'), 5000, "B's first file");
    // Served again from B's memory ...
    expect(await fetchFromB()).toContain('before-change-1');
    // ... until A changes what it says.
    const changed = Date.now();
    expect((await patch('after-change-2')).status).toBeLessThan(300);
    await until(fetchFromB, (text) => text.includes('after-change-2'), 2000, "B's file after the change");
    console.log(`a provisioning change on A was in B's phone file after ${Date.now() - changed} ms`);
  });

  it("behind the README's nginx sample: requests reach both processes with one key, and events are not held back", async () => {
    const port = await freePort();
    const nginx = await startNginx({
      servers: severalSample(port, [A().port, B().port]),
      probeUrl: `http://127.0.0.1:${port}/api/health`,
    });
    const front: Server = { ...A(), name: 'nginx', url: (p) => `http://127.0.0.1:${port}${p}` };
    const controller = new AbortController();
    try {
      const headers = await signIn(front);
      const served = (server: Server) => (server.output().match(/"url":"\/api\/login"/g) ?? []).length;
      const before = [served(A()), served(B())];
      for (let i = 0; i < 10; i++) expect((await call(front, 'GET', '/api/login', headers)).status).toBe(200);
      // Both processes answered some of them, with the one key.
      expect(served(A())).toBeGreaterThan(before[0] as number);
      expect(served(B())).toBeGreaterThan(before[1] as number);
      const stream = await fetch(front.url('/api/dashboard/events'), { headers, signal: controller.signal });
      expect(stream.status).toBe(200);
      const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
      const decoder = new TextDecoder();
      let seen = '';
      const first = await reader.read();
      seen += decoder.decode(first.value);
      expect(seen).toContain('event: pbx');
      // A change through the front, whichever process takes it, reaches this stream, whichever process holds it.
      const changed = Date.now();
      expect(
        (await call(front, 'POST', '/api/users', headers, { username: 'fronted', fullname: 'Front' })).status,
      ).toBe(201);
      const ext = await call(front, 'POST', '/api/mainextensions', headers, { username: 'fronted', extension: '370' });
      expect(ext.status, ext.text).toBe(201);
      const deadline = Date.now() + 2000;
      while (!seen.includes('event: users') && Date.now() < deadline) {
        const chunk = await Promise.race([
          reader.read(),
          new Promise<undefined>((r) => setTimeout(() => r(undefined), deadline - Date.now())),
        ]);
        if (!chunk || chunk.done) break;
        seen += decoder.decode(chunk.value);
      }
      expect(seen).toContain('event: users');
      console.log(`through nginx, a change reached the dashboard stream after ${Date.now() - changed} ms`);
    } finally {
      controller.abort();
      await nginx.stop();
    }
  });

  it('a job of a process killed mid-way is marked failed by the other, which may then run it again', async () => {
    const file = csvOf([...range(1000, 1000), ...range(3000, 1000), ...range(6000, 1000)], 'kill');
    expect((await call(A(), 'POST', '/api/csv/csvimport', ha, { file })).status).toBe(200);
    // Mid-way: some users committed, the job still running.
    await until(
      () => call(A(), 'GET', '/api/csv/csvimport', ha),
      (r) => typeof r.json?.result === 'number' && (r.json.result as number) > 0,
      30_000,
      'the import on A',
    );
    const running = await call(B(), 'GET', '/api/csv/csvimport', hb);
    expect(running.json.result, running.text).toBeGreaterThan(0);
    expect(running.json.result).toBeLessThan(100);
    A().child.kill('SIGKILL');
    const killed = Date.now();
    // B leaves a job alone while its process may be alive, then fails it (claim rule: 30 s of silence).
    const failed = await until(
      () => call(B(), 'GET', '/api/csv/csvimport', hb),
      (r) => r.json?.result === -1,
      60_000,
      'the interrupted import on B',
    );
    console.log(`B marked the killed process's job failed ${Date.now() - killed} ms after the kill`);
    expect(failed.json.interrupted).toBe(true);
    expect(JSON.stringify(failed.json.failures)).toMatch(/interrupted \(the server process running it stopped\)/);
    const row = await sqlClient.query(
      "select status, error from jobs where kind like '%import%' order by created_at desc",
    );
    expect(row.rows[0]).toMatchObject({
      status: 'failed',
      error: 'Interrupted: the server process running it stopped',
    });
    // The kind is free again: the same file on B finishes what A committed.
    expect((await call(B(), 'POST', '/api/csv/csvimport', hb, { file })).status).toBe(200);
    const done = await until(
      () => call(B(), 'GET', '/api/csv/csvimport', hb),
      (r) => r.json?.result === 100 || r.json?.result === -1,
      120_000,
      'the import again on B',
    );
    expect(done.json, done.text).toMatchObject({ result: 100 });
    const users = await sqlClient.query("select count(*)::int as n from users where username like 'kill%'");
    expect(users.rows[0].n).toBe(3000);
  }, 240_000);
});
