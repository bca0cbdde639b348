// Customer-card previews under load (issue 24): twenty heavy previews at once must not hold up the rest of the
// API (p99 < 100 ms meanwhile). wrk asks a signed-in list (GET /api/cti/customer_card/template) on 4
// connections, first with nothing else running, then while twenty clients preview without pause a card whose
// query counts a 100,000-step recursive CTE on the built-in call-records source, on SQLite and on PostgreSQL.
// The generator's ceiling (wrk against nginx's `return 200`) is stated.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { ceiling, fmtWrk, startServer, wrkBinary, wrkWithCpu } from './lib.ts';
import { type Headers, signIn } from './seed.ts';

wrkBinary();
const PASSWORD = 'bench-password-1';
const ADMIN_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const PREVIEWS = 20;
const HEAVY = Buffer.from(
  'with recursive n(x) as (select 1 union all select x + 1 from n where x < 100000) select count(*) as n from n',
).toString('base64');

async function preview(url: string, headers: Headers): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${url}/api/custcard/preview`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ dbconn_id: 2, template: 'table', query: HEAVY }),
  });
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`preview answered ${res.status}`);
  return performance.now() - started;
}

async function run(name: string, env: Record<string, string>) {
  console.log(`\n### ${name}`);
  const server = await startServer({ ADMIN_PASSWORD: PASSWORD, LOGIN_RATE_LIMIT: '1000', ...env });
  try {
    const url = server.url;
    const headers = await signIn(url, PASSWORD);
    const auth = { User: headers.User as string, Secretkey: headers.Secretkey as string };
    const load = { url, connections: 4, paths: [{ path: '/api/cti/customer_card/template' }], headers: auth };
    // The first previews start the readers (SQLite) or open the pool (PostgreSQL): not what is measured.
    await Promise.all([preview(url, headers), preview(url, headers)]);
    const idle = await wrkWithCpu({ ...load, duration: 5 });
    console.log(fmtWrk('API with nothing else running', idle, 40));
    let running = true;
    const times: number[] = [];
    const clients = Array.from({ length: PREVIEWS }, async () => {
      while (running) times.push(await preview(url, headers));
    });
    const during = await wrkWithCpu({ ...load, duration: 8 });
    running = false;
    await Promise.all(clients);
    times.sort((a, b) => a - b);
    console.log(fmtWrk(`API during ${PREVIEWS} previews`, during, 40));
    console.log(
      `  ${times.length} previews done, median ${(times[Math.floor(times.length / 2)] ?? 0).toFixed(0)} ms each; API p99 during them ${during.p99.toFixed(1)} ms (target < 100 ms: ${during.p99 < 100 ? 'met' : 'MISSED'})`,
    );
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
const top = await ceiling(4);
if (top) console.log(fmtWrk("generator's ceiling: wrk vs nginx `return 200`", top, 40));
