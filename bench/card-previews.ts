// Customer-card previews under load (issue 24): twenty heavy previews at once must not hold up the rest of the
// API (p99 < 100 ms meanwhile). wrk asks a signed-in list (GET /api/cti/customer_card/template) on 4
// connections, first with nothing else running, then while twenty clients preview without pause a card whose
// query counts a 100,000-step recursive CTE on the built-in call-records source, on SQLite and on PostgreSQL.
// The generator's ceiling (wrk against nginx's `return 200`) is stated.
import { ceiling, fmtWrk, onThrowawayPostgres, startServer, wrkBinary, wrkWithCpu } from './lib.ts';
import { type Headers, signIn } from './seed.ts';

wrkBinary();
const PASSWORD = 'bench-password-1';
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

await onThrowawayPostgres((url) => run('PostgreSQL', { DATABASE_URL: url }));
const top = await ceiling(4);
if (top) console.log(fmtWrk("generator's ceiling: wrk vs nginx `return 200`", top, 40));
