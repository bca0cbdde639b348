// Cold start of the built server and latency of authenticated API calls (SQLite, loopback). The GET is loaded
// with wrk (its ceiling here printed alongside); the POSTs, few and slow, from this process.
import { ceiling, fmtWrk, load, startServer, wrk, wrkBinary } from './lib.ts';

wrkBinary();

const PASSWORD = 'bench-password-1';

const starts: number[] = [];
for (let i = 0; i < 3; i++) {
  const server = await startServer({ ADMIN_PASSWORD: PASSWORD });
  starts.push(server.coldStartMs);
  await server.stop();
}
console.log(`cold start (first start, new database, 3 runs): ${starts.map((s) => s.toFixed(0)).join(', ')} ms`);

const server = await startServer({ ADMIN_PASSWORD: PASSWORD, LOGIN_RATE_LIMIT: '1000' });
try {
  const login = await fetch(`${server.url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: PASSWORD }),
  });
  const { user, secretkey } = (await login.json()) as { user: string; secretkey: string };
  const headers = { User: user, Secretkey: secretkey };

  const fmt = (name: string, r: Awaited<ReturnType<typeof load>>) =>
    console.log(
      `${name}: p50 ${r.p50.toFixed(2)} ms, p95 ${r.p95.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms, ` +
        `${r.rps.toFixed(0)} req/s, ${r.errors} errors`,
    );

  await load(500, 8, () => fetch(`${server.url}/api/configuration/wizard`, { headers })); // warm-up
  console.log(
    fmtWrk(
      'GET /api/configuration/wizard (wrk, 16 connections, 5 s)',
      await wrk({ url: `${server.url}/api/configuration/wizard`, connections: 16, duration: 5, headers }),
      56,
    ),
  );
  const top = await ceiling(16);
  if (top) console.log(fmtWrk('ceiling: wrk vs nginx `return 200` (2 bytes)', top, 56));
  fmt(
    'POST /api/configuration/wizard (2,000 requests, 8 concurrent)',
    await load(2000, 8, () =>
      fetch(`${server.url}/api/configuration/wizard`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ status: 'true', step: 3 }),
      }),
    ),
  );
  fmt(
    'POST /api/login (100 requests, 4 concurrent; scrypt)',
    await load(100, 4, () =>
      fetch(`${server.url}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password: PASSWORD }),
      }),
    ),
  );
} finally {
  await server.stop();
}
