import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { startNginx as startNginxProcess } from '../apps/server/test/support/nginx.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/chromium.ts';
import { freePort } from '../e2e/server.ts';

// The benchmarks start the built server exactly as the browser tests do; on a shared, overloaded machine a
// start may take longer than the browser tests' 20 s.
export { freePort, startServer } from '../e2e/server.ts';

process.env.SERVER_START_TIMEOUT_MS ??= '120000';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)] as number;
}

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/**
 * Sends `total` requests with `concurrency` in flight from this Node process; returns latencies (ms) and
 * throughput. Only for requests too few or too slow to saturate anything (imports, cold starts): a Node
 * client tops out near 25k req/s on this kind of machine, so throughput figures come from wrk (below).
 */
export async function load(
  total: number,
  concurrency: number,
  send: () => Promise<Response>,
): Promise<{ p50: number; p95: number; p99: number; rps: number; errors: number }> {
  const latencies: number[] = [];
  let errors = 0;
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < total) {
      next++;
      const t0 = performance.now();
      const res = await send();
      await res.arrayBuffer();
      latencies.push(performance.now() - t0);
      if (!res.ok) errors++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    rps: total / seconds,
    errors,
  };
}

// ------------------------------------------------------------------------------------------------ wrk

/** The load generator: wrk (C, epoll), so that the client is not the limit (Debian: apt-get install wrk). */
export function wrkBinary(): string {
  const found = spawnSync('sh', ['-c', 'command -v wrk || ls /usr/bin/wrk 2>/dev/null'], { encoding: 'utf8' });
  const binary = found.stdout.trim().split('\n')[0];
  if (!binary) {
    console.error('wrk is not installed: the benchmarks use it as their load generator. Install it with');
    console.error('  sudo apt-get install wrk      (Debian/Ubuntu; or build https://github.com/wg/wrk)');
    process.exit(2);
  }
  return binary;
}

export interface WrkResult {
  requests: number;
  seconds: number;
  rps: number;
  /** Latency percentiles in ms. */
  p50: number;
  p95: number;
  p99: number;
  max: number;
  /** Non-2xx/3xx answers plus socket errors and timeouts. */
  errors: number;
}

export interface WrkRun {
  url: string;
  connections: number;
  /** Seconds (ignored when `once` is set). */
  duration?: number;
  threads?: number;
  /** Request paths (with an optional user agent each), spread round-robin over the connections. */
  paths?: { path: string; ua?: string }[];
  /** Fetch every path exactly once, then stop (first fetches). */
  once?: boolean;
  headers?: Record<string, string>;
}

/**
 * Every request is prepared once (wrk.format at init), so the Lua side costs next to nothing per request; a
 * thread starts at its own offset in the list. `done` prints the figures as one JSON line.
 */
const WRK_LUA = `
local reqs = {}
local i = 0
local once = false
local remaining = 0
local threads = {}

setup = function(thread)
  table.insert(threads, thread)
  thread:set("id", #threads)
end

init = function(args)
  local list, ua = args[1], nil
  once = args[2] == "once"
  local nthreads = tonumber(args[3]) or 1
  if list and list ~= "" then
    for line in io.lines(list) do
      local p, agent = line:match("^([^\\t]*)\\t?(.*)$")
      -- A headers table given to wrk.format replaces wrk.headers (-H): copy them in.
      local h = {}
      for name, value in pairs(wrk.headers) do h[name] = value end
      if agent ~= "" then h["User-Agent"] = agent end
      reqs[#reqs + 1] = wrk.format("GET", p, h)
    end
  end
  if #reqs == 0 then reqs[1] = wrk.format("GET", wrk.path) end
  if once then
    -- Each thread takes its share of the list, one request per path.
    local first = math.floor((id - 1) * #reqs / nthreads)
    local last = math.floor(id * #reqs / nthreads)
    local mine = {}
    for k = first + 1, last do mine[#mine + 1] = reqs[k] end
    reqs = mine
    remaining = #reqs
  else
    i = math.floor((id - 1) * #reqs / nthreads)
  end
end

request = function()
  i = i % #reqs + 1
  return reqs[i]
end

if ONCE then
  response = function(status, headers, body)
    remaining = remaining - 1
    if remaining == 0 then
      -- wrk itself would run for the whole duration: the parent times this line and stops it.
      io.write("WRK_THREAD_DONE\\n")
      io.flush()
      wrk.thread:stop()
    end
  end
end

done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('WRK_JSON {"requests":%d,"us":%d,"errors":%d,"p50":%f,"p95":%f,"p99":%f,"max":%f}\\n',
    summary.requests, summary.duration, e.connect + e.read + e.write + e.status + e.timeout,
    latency:percentile(50) / 1000, latency:percentile(95) / 1000, latency:percentile(99) / 1000, latency.max / 1000))
end
`;

/** Runs wrk once (in a child process, so the event loop of this one stays free). */
export async function wrk(run: WrkRun): Promise<WrkResult> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'centralino-wrk-'));
  try {
    const threads = run.threads ?? 1;
    // In "once" mode a request may not be sent after the last path: more connections than paths would repeat some.
    const paths = run.paths ?? [];
    const connections = run.once ? Math.min(run.connections, Math.max(threads, paths.length)) : run.connections;
    const script = path.join(dir, 'bench.lua');
    fs.writeFileSync(script, WRK_LUA.replace('if ONCE then', `if ${run.once ? 'true' : 'false'} then`));
    const list = path.join(dir, 'paths.txt');
    fs.writeFileSync(list, paths.map((p) => `${p.path}\t${p.ua ?? ''}`).join('\n'));
    const args = ['-t', String(threads), '-c', String(connections), '-d', `${run.once ? 120 : (run.duration ?? 5)}s`];
    args.push('--latency', '--timeout', '10s', '-s', script);
    for (const [name, value] of Object.entries(run.headers ?? {})) args.push('-H', `${name}: ${value}`);
    args.push(run.url, '--', paths.length > 0 ? list : '', run.once ? 'once' : 'loop', String(threads));
    const started = performance.now();
    let finished: number | undefined;
    const child = spawn(wrkBinary(), args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      if (run.once && finished === undefined && out.split('WRK_THREAD_DONE').length > threads) {
        finished = performance.now();
        child.kill('SIGINT');
      }
    });
    child.stderr.on('data', (d) => {
      out += d;
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    const line = out.split('\n').find((l) => l.startsWith('WRK_JSON '));
    if (!line) throw new Error(`wrk failed (${code}):\n${out}`);
    const r = JSON.parse(line.slice('WRK_JSON '.length)) as {
      requests: number;
      us: number;
      errors: number;
      p50: number;
      p95: number;
      p99: number;
      max: number;
    };
    // Once: from starting wrk (a few ms to connect) to the last answer.
    const seconds = finished !== undefined ? (finished - started) / 1000 : r.us / 1e6;
    return { ...r, seconds, rps: r.requests / seconds };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

// ------------------------------------------------------------------------------------------------ CPU time

/** Processes listening on a TCP port of this machine (ss -ltnp), with their children (nginx's workers). */
export function pidsOnPort(port: number): number[] {
  const out = spawnSync('ss', ['-ltnpH', `sport = :${port}`], { encoding: 'utf8' }).stdout;
  const pids = new Set([...out.matchAll(/pid=(\d+)/g)].map((m) => Number(m[1])));
  for (const pid of [...pids]) {
    try {
      for (const child of fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/)) {
        if (child) pids.add(Number(child));
      }
    } catch {
      // gone, or not ours
    }
  }
  return [...pids];
}

/** CPU time (user + system, all threads) the processes used so far, in ms (Linux /proc, 10 ms ticks). */
export function cpuMs(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // exited
    }
  }
  return ticks * 10;
}

/**
 * wrk against `url` while counting the server's CPU time: on a machine shared with other work, CPU time per
 * request is the figure that does not depend on how much of a core the server happened to get.
 */
export async function wrkWithCpu(run: WrkRun): Promise<WrkResult & { cpuUsPerRequest: number }> {
  const pids = pidsOnPort(Number(new URL(run.url).port));
  const before = cpuMs(pids);
  const result = await wrk(run);
  const used = cpuMs(pids) - before;
  return { ...result, cpuUsPerRequest: (used * 1000) / Math.max(1, result.requests) };
}

export const fmtWrk = (name: string, r: WrkResult & { cpuUsPerRequest?: number }, width = 44) =>
  `  ${name.padEnd(width)} ${r.rps.toFixed(0).padStart(7)} req/s   p50 ${r.p50.toFixed(2)} ms   p95 ${r.p95.toFixed(2)} ms` +
  `   p99 ${r.p99.toFixed(2)} ms   ${r.errors} errors` +
  (r.cpuUsPerRequest === undefined ? '' : `   ${r.cpuUsPerRequest.toFixed(1)} µs CPU/req`);

// ------------------------------------------------------------------------------------------------ nginx

/** Debian's nginx (nginx-light is enough), or undefined with a note on how to get it. */
export function nginxBinary(): string | undefined {
  const found = spawnSync('sh', ['-c', 'command -v nginx || ls /usr/sbin/nginx 2>/dev/null'], { encoding: 'utf8' });
  const binary = found.stdout.trim().split('\n')[0];
  if (!binary) {
    console.log('  nginx is not installed (sudo apt-get install nginx-light): no comparison with static serving');
  }
  return binary || undefined;
}

export interface Nginx {
  url: string;
  workers: number;
  stop(): Promise<void>;
}

/** Keep-alive as wrk uses it: one connection for the whole run (nginx's default closes one every 1,000 requests). */
export const NGINX_BENCH_HTTP = 'keepalive_requests 1000000;';

/**
 * nginx as a child process (apps/server/test/support/nginx.ts): `/provisioning/` serves `staticRoot` (the
 * same bytes the server sends) as static files with every help nginx has (open file cache, sendfile), and
 * `/ceiling` answers a 2-byte body from memory, the most any server can do on this machine with this generator.
 */
export async function startNginx(options: {
  staticRoot?: string;
  workers: number;
  /** nginx's open-file cache (default on): off, every request opens its file, as a first fetch does. */
  openFileCache?: boolean;
}): Promise<Nginx | undefined> {
  const binary = nginxBinary();
  if (!binary) return undefined;
  const port = await freePort();
  const files = options.staticRoot
    ? `location /provisioning/ { alias ${options.staticRoot}/; add_header Cache-Control private; }`
    : '';
  const url = `http://127.0.0.1:${port}`;
  const running = await startNginxProcess({
    workers: options.workers,
    probeUrl: `${url}/ceiling`,
    servers: `${NGINX_BENCH_HTTP}
  default_type text/plain;
  types { text/xml xml; text/plain cfg; }
  ${options.openFileCache === false ? '' : 'open_file_cache max=10000 inactive=60s;'}
  sendfile on;
  server {
    listen 127.0.0.1:${port};
    location = /ceiling { return 200 "ok"; }
    ${files}
  }`,
  });
  return { url, workers: options.workers, stop: () => running.stop() };
}

/** What wrk reaches against nginx's in-memory 2-byte answer: the generator's ceiling on this machine now. */
export async function ceiling(connections: number, seconds = 3): Promise<WrkResult | undefined> {
  const nginx = await startNginx({ workers: 1 });
  if (!nginx) return undefined;
  try {
    return await wrk({ url: `${nginx.url}/ceiling`, connections, duration: seconds });
  } finally {
    await nginx.stop();
  }
}

/**
 * Debian's Chromium with the browser tests' flags, on a page signed in as the administrator at `url`; or why
 * it cannot run (no Chromium, no web build).
 */
export async function signedInChromium(
  url: string,
  password: string,
): Promise<
  | {
      browser: import('@playwright/test').Browser;
      context: import('@playwright/test').BrowserContext;
      page: import('@playwright/test').Page;
    }
  | string
> {
  if (!fs.existsSync(CHROMIUM_PATH)) return `no ${CHROMIUM_PATH}`;
  if (!fs.existsSync(path.join(root, 'apps/web/dist/index.html'))) return 'no apps/web/dist: npm run build';
  const { chromium } = await import('@playwright/test');
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const context = await browser.newContext({ baseURL: url, locale: 'en-US' });
  const page = await context.newPage();
  await page.goto('/login');
  await page.getByLabel('User').fill('admin');
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((u) => !u.pathname.endsWith('/login'), { timeout: 30_000 });
  return { browser, context, page };
}

// ------------------------------------------------------------------------------------------------ PostgreSQL

/**
 * Runs `body` with the URL of a PostgreSQL database made for it and dropped after (BENCH_POSTGRES_URL names the
 * server; the local one by default). Without a reachable server it says so and skips.
 */
export async function onThrowawayPostgres(body: (databaseUrl: string) => Promise<void>): Promise<void> {
  const adminUrl = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const admin = new pg.Client({ connectionString: adminUrl });
  let database: string | undefined;
  try {
    await admin.connect();
    database = `centralino_bench_${randomBytes(4).toString('hex')}`;
    await admin.query(`create database ${database}`);
  } catch (error) {
    console.log(`\n### PostgreSQL skipped: ${(error as Error).message}`);
  }
  try {
    if (database) {
      const url = new URL(adminUrl);
      url.pathname = `/${database}`;
      await body(url.toString());
    }
  } finally {
    if (database) await admin.query(`drop database if exists ${database} with (force)`);
    await admin.end().catch(() => {});
  }
}
