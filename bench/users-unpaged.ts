// The unpaged users list at 50,000 users (BENCH_USERS): GET /api/users/false without limit, what the older console
// asks for (every user, about 10 MB of JSON). Targets: an answer within 1 s, and the server's event loop never held
// up more than 50 ms. Seeded through the API (CSV imports of 5,000). Figures:
// - after a change (the answer is made again): the first request's time, brotli and plain, with the event loop's
//   longest delay meanwhile (monitorEventLoopDelay in the server, bench/loop-delay.mjs) and a health call's latency;
// - kept (no change since): wrk, BENCH_CONNECTIONS (4) connections, brotli and plain, against nginx sending the
//   very bytes the server sent as a static file (the reference, same run, alternating), with the loop's longest delay
//   and the latency of health calls made meanwhile on their own connection; and wrk's ceiling (nginx's 2-byte answer).
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import {
  ceiling,
  fmtWrk,
  median,
  onThrowawayPostgres,
  percentile,
  pidsOnPort,
  root,
  startNginx,
  startServer,
  type WrkResult,
  wrk,
  wrkBinary,
  wrkWithCpu,
} from './lib.ts';
import { importAndWait, post, signIn, usersCsv } from './seed.ts';

wrkBinary();
const USERS = Number(process.env.BENCH_USERS ?? 50_000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 4);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = 3;
const PASSWORD = 'bench-password-1';
const LIST = '/api/users/false';

/** seed.ts's users (extension 10000 + i for the first 10,000: more would meet feature codes), the rest without one. */
function csv(from: number, count: number): string {
  if (from + count <= 10_000) return usersCsv(from, count);
  const lines = ['username,fullname,extension,password,mobile,voicemail'];
  for (let i = from; i < from + count; i++) {
    lines.push(`user${i},Person ${i} Surname${i % 97},,Pw${i}x,00393331${String(i).padStart(6, '0')},`);
  }
  return Buffer.from(lines.join('\n')).toString('base64');
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'centralino-unpaged-'));
const loopFile = path.join(work, 'loop.json');
process.env.SERVER_NODE_ARGS = `${process.env.SERVER_NODE_ARGS ?? ''} --import ${path.join(root, 'bench/loop-delay.mjs')}`;
async function run(label: string, env: Record<string, string>) {
  console.log(`\n### ${label}`);
  const server = await startServer({
    ADMIN_PASSWORD: PASSWORD,
    LOGIN_RATE_LIMIT: '1000',
    LOOP_DELAY_FILE: loopFile,
    ...env,
  });
  const serverPid = pidsOnPort(Number(new URL(server.url).port))[0];

  /** The event loop's delays since the last call (the server writes them on SIGUSR2). */
  async function loopDelay(): Promise<{ max: number; p99: number; p50: number; samples: number }> {
    fs.rmSync(loopFile, { force: true });
    if (serverPid) process.kill(serverPid, 'SIGUSR2');
    for (let i = 0; i < 200 && !fs.existsSync(loopFile); i++) await new Promise((r) => setTimeout(r, 10));
    return JSON.parse(fs.readFileSync(loopFile, 'utf8'));
  }

  /** Health calls every 20 ms on a connection of their own while `during` runs: their latencies (ms). */
  async function probed<T>(
    during: () => Promise<T>,
  ): Promise<{ result: T; health: { p50: number; p99: number; max: number; n: number } }> {
    const latencies: number[] = [];
    let running = true;
    const probe = (async () => {
      while (running) {
        const t0 = performance.now();
        await (await fetch(`${server.url}/api/health`)).arrayBuffer();
        latencies.push(performance.now() - t0);
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const result = await during();
    running = false;
    await probe;
    latencies.sort((a, b) => a - b);
    return {
      result,
      health: {
        p50: percentile(latencies, 50),
        p99: percentile(latencies, 99),
        max: latencies.at(-1) ?? Number.NaN,
        n: latencies.length,
      },
    };
  }

  const fmtLoop = (l: { max: number; p99: number }) => `event loop: longest delay ${l.max} ms, p99 ${l.p99} ms`;
  const fmtHealth = (h: { p50: number; p99: number; max: number; n: number }) =>
    `health calls meanwhile (${h.n}): p50 ${h.p50.toFixed(1)} ms, p99 ${h.p99.toFixed(1)} ms, max ${h.max.toFixed(1)} ms`;

  try {
    const headers = await signIn(server.url, PASSWORD);
    const auth = { User: headers.User as string, Secretkey: headers.Secretkey as string };
    await post(`${server.url}/api/configuration/mode`, headers, { mode: 'legacy' });
    const seeding = performance.now();
    for (let from = 0; from < USERS; from += 5000) {
      await importAndWait(server.url, headers, csv(from, Math.min(5000, USERS - from)));
    }
    console.log(`  seeded ${USERS} users by CSV import in ${((performance.now() - seeding) / 1000).toFixed(1)} s`);

    /** The list as the server sends it (raw bytes: fetch would decode a compressed answer). */
    const fetchList = (encoding: string) =>
      new Promise<{ ms: number; status: number; total: number; bytes: Buffer }>((resolve, reject) => {
        const t0 = performance.now();
        http
          .get(`${server.url}${LIST}`, { headers: { ...auth, 'accept-encoding': encoding } }, (res) => {
            const parts: Buffer[] = [];
            res.on('data', (d: Buffer) => parts.push(d));
            res.on('end', () =>
              resolve({
                ms: performance.now() - t0,
                status: res.statusCode ?? 0,
                total: Number(res.headers['x-total-count']),
                bytes: Buffer.concat(parts),
              }),
            );
            res.on('error', reject);
          })
          .on('error', reject);
      });
    /** Until the PBX apply the change asked for is done: it runs in the server too, and is not the list's work. */
    const applied = async () => {
      for (;;) {
        const res = await fetch(`${server.url}/api/pbx/apply`, { headers: auth });
        const status = (await res.json()) as { state: string; dirty?: boolean };
        if (status.state === 'idle' && !status.dirty) return;
        await new Promise((r) => setTimeout(r, 50));
      }
    };

    // After a change: each round renames one user (through the API), then asks for the list once.
    console.log(`\n  after a change (the answer made again), ${ROUNDS} rounds each:`);
    for (const encoding of ['br', 'identity']) {
      const times: number[] = [];
      let worstLoop = 0;
      let worstHealth = 0;
      for (let round = 0; round < ROUNDS; round++) {
        await post(`${server.url}/api/mainextensions`, headers, {
          username: 'user1',
          extension: String(70000 + round + (encoding === 'br' ? 0 : 10)),
        });
        await applied();
        await loopDelay();
        const { result, health } = await probed(() => fetchList(encoding));
        const loop = await loopDelay();
        if (result.status !== 200) throw new Error(`list answered ${result.status}`);
        times.push(result.ms);
        worstLoop = Math.max(worstLoop, loop.max);
        worstHealth = Math.max(worstHealth, health.max);
      }
      console.log(
        `  ${encoding.padEnd(9)} first request ${median(times).toFixed(0)} ms (median; ${times.map((t) => t.toFixed(0)).join(', ')})` +
          `   longest event-loop delay ${worstLoop} ms   slowest health call ${worstHealth.toFixed(1)} ms`,
      );
    }

    // Kept: the same bytes again and again. The reference is nginx sending those very bytes from a file.
    const staticRoot = path.join(work, 'static');
    fs.mkdirSync(staticRoot, { recursive: true });
    // nginx's workers run as another user.
    fs.chmodSync(work, 0o755);
    const sizes: Record<string, number> = {};
    for (const encoding of ['br', 'identity']) {
      const { total, bytes } = await fetchList(encoding);
      if (total !== USERS) throw new Error(`the list has ${total} users, not ${USERS}`);
      fs.writeFileSync(path.join(staticRoot, `users.${encoding}`), bytes);
      sizes[encoding] = bytes.length;
    }
    console.log(
      `\n  answer: ${((sizes.identity ?? 0) / 1e6).toFixed(2)} MB of JSON, ${((sizes.br ?? 0) / 1e6).toFixed(2)} MB brotli (quality 4)`,
    );
    const nginx = await startNginx({ workers: 1, staticRoot });
    if (!nginx) throw new Error('nginx is needed for the reference (apt-get install nginx-light)');
    try {
      console.log(
        `  kept (no change since), wrk ${CONNECTIONS} connections, ${SECONDS} s a round, ${ROUNDS} rounds alternating:`,
      );
      for (const encoding of ['br', 'identity']) {
        const ours: (WrkResult & { cpuUsPerRequest: number })[] = [];
        const theirs: WrkResult[] = [];
        let worstLoop = { max: 0, p99: 0 };
        let health = { p50: 0, p99: 0, max: 0, n: 0 };
        for (let round = 0; round < ROUNDS; round++) {
          await loopDelay();
          const measured = await probed(() =>
            wrkWithCpu({
              url: server.url,
              connections: CONNECTIONS,
              duration: SECONDS,
              paths: [{ path: LIST }],
              headers: { ...auth, 'Accept-Encoding': encoding },
            }),
          );
          const loop = await loopDelay();
          if (loop.max > worstLoop.max) worstLoop = loop;
          if (measured.health.max > health.max) health = measured.health;
          ours.push(measured.result);
          theirs.push(
            await wrk({
              url: nginx.url,
              connections: CONNECTIONS,
              duration: SECONDS,
              paths: [{ path: `/provisioning/users.${encoding}` }],
            }),
          );
        }
        const best = (list: WrkResult[]) =>
          [...list].sort((a, b) => a.rps - b.rps)[Math.floor(list.length / 2)] as WrkResult;
        const server50 = best(ours);
        const nginx50 = best(theirs);
        console.log(fmtWrk(`Centralino, ${encoding} (median round)`, server50, 34));
        console.log(fmtWrk(`nginx, the same bytes (median round)`, nginx50, 34));
        console.log(
          `    ratio ${(median(ours.map((r) => r.rps)) / median(theirs.map((r) => r.rps))).toFixed(2)}× nginx (medians)   ${fmtLoop(worstLoop)}   ${fmtHealth(health)}`,
        );
        const errors = ours.reduce((n, r) => n + r.errors, 0);
        if (errors > 0) console.log(`    ${errors} errors from Centralino`);
      }
    } finally {
      await nginx.stop();
    }
    const top = await ceiling(CONNECTIONS);
    if (top) console.log(fmtWrk(`wrk's ceiling (nginx "ok", ${CONNECTIONS} connections)`, top, 34));
    console.log(
      `  load average: ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
  } finally {
    await server.stop();
  }
}

const databases = (process.env.BENCH_DATABASES ?? 'sqlite,postgres').split(',');
try {
  if (databases.includes('sqlite')) await run('SQLite', {});
  if (databases.includes('postgres')) await onThrowawayPostgres((url) => run('PostgreSQL', { DATABASE_URL: url }));
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
