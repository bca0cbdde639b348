// Users at scale: a 5,000-row CSV import end to end through the API, then list / search / page
// requests over 10,000 users (targets: import under 10 s, p95 under 20 ms per list request).
// Runs on SQLite, and on PostgreSQL when it is reachable (BENCH_POSTGRES_URL or the local default).
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { load, startServer } from './lib.ts';

const PASSWORD = 'bench-password-1';
const ADMIN_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

type Headers = Record<string, string>;

async function signIn(url: string): Promise<Headers> {
  const res = await fetch(`${url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: PASSWORD }),
  });
  const { user, secretkey } = (await res.json()) as { user: string; secretkey: string };
  return { User: user, Secretkey: secretkey, 'content-type': 'application/json' };
}

async function post(url: string, headers: Headers, body: unknown) {
  const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return res.json();
}

function csv(from: number, count: number): string {
  const lines = ['username,fullname,extension,password,mobile,voicemail'];
  for (let i = from; i < from + count; i++) {
    lines.push(
      `user${i},Person ${i} Surname${i % 97},${10000 + i},Pw${i}x,00393331${String(i).padStart(6, '0')},${i % 3 === 0 ? 'TRUE' : ''}`,
    );
  }
  return Buffer.from(lines.join('\n')).toString('base64');
}

async function importAndWait(url: string, headers: Headers, file: string): Promise<{ ms: number; status: unknown }> {
  const started = performance.now();
  await post(`${url}/api/csv/csvimport`, headers, { file });
  for (;;) {
    const res = await fetch(`${url}/api/csv/csvimport`, { headers });
    const status = (await res.json()) as { result: number };
    if (status.result === 100 || status.result === -1) return { ms: performance.now() - started, status };
    await new Promise((r) => setTimeout(r, 50));
  }
}

const fmt = (name: string, r: Awaited<ReturnType<typeof load>>) =>
  console.log(
    `  ${name}: p50 ${r.p50.toFixed(2)} ms, p95 ${r.p95.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms, ` +
      `${r.rps.toFixed(0)} req/s, ${r.errors} errors`,
  );

async function run(label: string, env: Record<string, string>) {
  console.log(`\n### ${label}`);
  const server = await startServer({ ADMIN_PASSWORD: PASSWORD, LOGIN_RATE_LIMIT: '1000', ...env });
  try {
    const headers = await signIn(server.url);
    await post(`${server.url}/api/configuration/mode`, headers, { mode: 'legacy' });
    await new Promise((r) => setTimeout(r, 200));

    // The measured import: 5,000 new users with extensions, passwords, mobiles, voicemail.
    const first = await importAndWait(server.url, headers, csv(0, 5000));
    console.log(
      `  CSV import, 5,000 rows (create): ${(first.ms / 1000).toFixed(2)} s → ${JSON.stringify(first.status).slice(0, 80)}`,
    );
    // Second half to reach 10,000 users (also timed: the file is checked against 5,000 existing users).
    const second = await importAndWait(server.url, headers, csv(5000, 5000));
    console.log(`  CSV import, 5,000 more rows over 5,000 users: ${(second.ms / 1000).toFixed(2)} s`);
    const preview = performance.now();
    await post(`${server.url}/api/csv/csvimport/preview`, headers, { file: csv(0, 5000) });
    console.log(
      `  CSV preview of 5,000 existing rows over 10,000 users: ${(performance.now() - preview).toFixed(0)} ms`,
    );

    const get = (path: string) => () => fetch(`${server.url}${path}`, { headers });
    await load(300, 8, get('/api/users/false?limit=20&sort=extension')); // warm-up
    // One request at a time: the server's own time per request (plus loopback).
    fmt(
      'first page, sort by extension (1,000 req, sequential)',
      await load(1000, 1, get('/api/users/false?limit=20&sort=extension')),
    );
    fmt(
      'page at offset 9,000, configured filter (1,000 req, sequential)',
      await load(1000, 1, get('/api/users/false?limit=20&offset=9000&filter=configured&sort=extension')),
    );
    fmt(
      'search by name fragment (1,000 req, sequential)',
      await load(1000, 1, get('/api/users/false?limit=20&search=surname42')),
    );
    fmt(
      'first page, sort by extension (2,000 req, 8 concurrent)',
      await load(2000, 8, get('/api/users/false?limit=20&sort=extension')),
    );
    fmt(
      'page at offset 9,000, configured filter (2,000 req, 8 concurrent)',
      await load(2000, 8, get('/api/users/false?limit=20&offset=9000&filter=configured&sort=extension')),
    );
    let n = 0;
    fmt(
      'search by name fragment, varying (2,000 req, 8 concurrent)',
      await load(2000, 8, () => {
        n++;
        return fetch(`${server.url}/api/users/false?limit=20&search=surname${n % 97}&sort=username`, { headers });
      }),
    );
    fmt(
      'search matching nothing (2,000 req, 8 concurrent)',
      await load(2000, 8, get('/api/users/false?limit=20&search=zzzz')),
    );
    fmt(
      'GET /api/mainextensions/userlimits (2,000 req, 8 concurrent)',
      await load(2000, 8, get('/api/mainextensions/userlimits')),
    );
    const all = performance.now();
    const res = await fetch(`${server.url}/api/users/true`, { headers });
    const body = await res.arrayBuffer();
    console.log(
      `  GET /api/users/true, all 10,000 users unpaged (original contract): ${(performance.now() - all).toFixed(0)} ms, ${(body.byteLength / 1024 / 1024).toFixed(1)} MB`,
    );
    const exported = performance.now();
    await (await fetch(`${server.url}/api/csv/csvexport`, { headers })).arrayBuffer();
    console.log(`  CSV export of 10,000 users: ${(performance.now() - exported).toFixed(0)} ms`);
  } finally {
    await server.stop();
  }
}

await run('SQLite', {});

const admin = new pg.Client({ connectionString: ADMIN_URL });
let database: string | undefined;
try {
  await admin.connect();
  database = `centralino_bench_${randomBytes(4).toString('hex')}`;
  await admin.query(`create database ${database}`);
} catch (error) {
  console.log(`\n### PostgreSQL skipped: ${(error as Error).message}`);
}
if (database) {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${database}`;
  try {
    await run('PostgreSQL', { DATABASE_URL: url.toString() });
  } finally {
    await admin.query(`drop database if exists ${database} with (force)`);
  }
}
await admin.end().catch(() => {});
