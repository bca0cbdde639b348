// Call history (issue 41) at 1,000,000 call records (BENCH_CALL_RECORDS), SQLite and PostgreSQL. The records (a
// year of a 200-extension office, bench/call-records.ts) go straight into `cdr` while the server is stopped (one
// SQLite transaction; PostgreSQL COPY through psql), as the migration's copy or the spool would leave them; the
// server's indexer then builds `calls` and the bench times that (GET /api/calls/backlog down to 0). Figures:
// - indexing: from the server's spawn to an empty backlog, records and calls per second;
// - wrk, 16 connections (BENCH_CONNECTIONS), BENCH_SECONDS a round, 3 rounds alternating with nginx sending the very
//   bytes the server answered from a file: the first page (GET /api/calls), a filtered page (inbound missed calls
//   of the last 30 days), a user's calls (extension=201); target p95 < 100 ms; and wrk's ceiling (nginx's "ok");
// - export of every call (GET /api/calls/export): time, rows, size, and the server's resident memory sampled from
//   /proc every 20 ms meanwhile; target: peak growth over the start < 50 MB.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { CDR_COLUMNS, CONTACT_COLUMNS, CONTACTS, callRecords, EXTENSIONS, phonebookContacts } from './call-records.ts';
import {
  ceiling,
  fmtWrk,
  median,
  onThrowawayPostgres,
  pidsOnPort,
  startNginx,
  startServer,
  type WrkResult,
  wrk,
  wrkBinary,
  wrkWithCpu,
} from './lib.ts';
import { QUEUE_LOG_COLUMNS, queueLogRows } from './queue-log.ts';
import { importAndWait, post, signIn } from './seed.ts';

wrkBinary();
const RECORDS = Number(process.env.BENCH_CALL_RECORDS ?? 1_000_000);
/** Queue-log rows (the call reports' queue figures): a year of callers, about four rows each. */
const QUEUE_LOG = Number(process.env.BENCH_QUEUE_LOG ?? 1_000_000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = 3;
const PASSWORD = 'bench-password-1';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const pad = (n: number) => String(n).padStart(2, '0');
const day = (ms: number) => {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
};

/** One SQLite transaction (the server is stopped): the fastest way in, as a bulk copy would do it. */
function seedSqlite(file: string) {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  const insert = db.prepare(
    `insert into cdr (${CDR_COLUMNS.join(', ')}) values (${CDR_COLUMNS.map(() => '?').join(', ')})`,
  );
  const contact = db.prepare(
    `insert into phonebook_contacts (${CONTACT_COLUMNS.join(', ')}) values (${CONTACT_COLUMNS.map(() => '?').join(', ')})`,
  );
  const queueEvent = db.prepare(
    `insert into queue_log (${QUEUE_LOG_COLUMNS.join(', ')}) values (${QUEUE_LOG_COLUMNS.map(() => '?').join(', ')})`,
  );
  db.transaction(() => {
    for (const row of callRecords(RECORDS)) insert.run(row);
    for (const row of phonebookContacts()) contact.run(row);
    for (const row of queueLogRows(QUEUE_LOG)) queueEvent.run(row);
  })();
  db.close();
}

/** COPY through psql, fed as the generator makes the rows (text format: the values hold no tab or backslash). */
async function seedPostgres(url: string) {
  await copy(url, `cdr (${CDR_COLUMNS.join(', ')})`, callRecords(RECORDS));
  await copy(url, `phonebook_contacts (${CONTACT_COLUMNS.join(', ')})`, phonebookContacts());
  await copy(url, `queue_log (${QUEUE_LOG_COLUMNS.join(', ')})`, queueLogRows(QUEUE_LOG));
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('analyze');
  await client.end();
}

async function copy(url: string, table: string, rows: Iterable<(string | number | null)[]>) {
  const child = spawn('psql', [url, '-v', 'ON_ERROR_STOP=1', '-qc', `\\copy ${table} from stdin`], {
    stdio: ['pipe', 'inherit', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  let chunk = '';
  for (const row of rows) {
    chunk += `${row.map((v) => v ?? '\\N').join('\t')}\n`;
    if (chunk.length > 1 << 20) {
      if (!child.stdin.write(chunk)) await new Promise((r) => child.stdin.once('drain', r));
      chunk = '';
    }
  }
  child.stdin.end(chunk);
  const code = await exited;
  if (code !== 0) throw new Error(`psql \\copy exited ${code}`);
}

/** Resident set size of a process, MB (VmRSS; VmHWM its peak so far). */
function memory(pid: number): { rss: number; hwm: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: kb('VmRSS') / 1024, hwm: kb('VmHWM') / 1024 };
}

async function run(label: string, env: Record<string, string>, seed: (dataDir: string) => Promise<void> | void) {
  console.log(`\n### ${label}`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'centralino-bench-calls-'));
  const settings = { ADMIN_PASSWORD: PASSWORD, LOGIN_RATE_LIMIT: '1000', DATA_DIR: dataDir, ...env };
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'centralino-bench-calls-static-'));
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  try {
    // First start: the schema, and the users whose names the history shows (27x and 28x clash with feature codes).
    server = await startServer(settings);
    let headers = await signIn(server.url, PASSWORD);
    await post(`${server.url}/api/configuration/mode`, headers, { mode: 'legacy' });
    // The directory is set up in the background (on PostgreSQL the import asked at once found none yet).
    for (;;) {
      const res = await fetch(`${server.url}/api/configuration/userprovider`, { headers });
      if (((await res.json()) as { configured: number }).configured === 1) break;
      await sleep(50);
    }
    const csv = ['username,fullname,extension,password,mobile,voicemail'];
    for (const ext of EXTENSIONS) csv.push(`user${ext},Person ${ext} Surname,${ext},Pw${ext}x-bench,,`);
    await importAndWait(server.url, headers, Buffer.from(csv.join('\n')).toString('base64'));
    await server.stop();

    let t0 = performance.now();
    await seed(dataDir);
    const seedMs = performance.now() - t0;
    console.log(
      `  seeded ${RECORDS.toLocaleString('en')} call records into cdr, ${QUEUE_LOG.toLocaleString('en')} queue-log rows and ${CONTACTS.toLocaleString('en')} phonebook contacts in ${s(seedMs)}`,
    );

    // Second start: the indexer takes the whole backlog in.
    const live = await startServer(settings);
    server = live;
    const spawned = live.launchedAt();
    headers = await signIn(live.url, PASSWORD);
    const auth = { User: headers.User as string, Secretkey: headers.Secretkey as string };
    const get = (p: string) => fetch(`${live.url}${p}`, { headers: auth });
    for (;;) {
      const { records } = (await (await get('/api/calls/backlog')).json()) as { records: number };
      if (records === 0) break;
      await sleep(250);
    }
    const indexMs = performance.now() - spawned;
    const port = Number(new URL(live.url).port);
    const [pid] = pidsOnPort(port);
    if (!pid) throw new Error('no server process');

    const baseline = memory(pid);
    let peak = baseline.rss;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        peak = Math.max(peak, memory(pid).rss);
        await sleep(20);
      }
    })();
    t0 = performance.now();
    let calls = 0;
    const exported = await get('/api/calls/export');
    // Counted while it streams, never held: the CSV's lines are the calls (plus the header).
    let bytes = 0;
    let firstByteMs = 0;
    for await (const part of exported.body as unknown as AsyncIterable<Uint8Array>) {
      if (bytes === 0) firstByteMs = performance.now() - t0;
      bytes += part.length;
      for (const b of part) if (b === 10) calls++;
    }
    const exportMs = performance.now() - t0;
    sampling = false;
    await sampler;
    calls -= 1;
    const after = memory(pid);
    console.log(
      `  indexed: ${RECORDS.toLocaleString('en')} records → ${calls.toLocaleString('en')} calls in ${s(indexMs)} from the server's spawn` +
        ` (${Math.round(RECORDS / (indexMs / 1000)).toLocaleString('en')} records/s)`,
    );

    // Call reports (issue 41 item 9): the last 30 days, then a whole year; the first ask cold, then five more.
    for (const [label, days] of [
      ['30 days', 30],
      ['365 days', 365],
    ] as const) {
      const url = `/api/calls/reports?from=${day(Date.now() - (days - 1) * 86_400_000)}&to=${day(Date.now())}`;
      const times: number[] = [];
      let summary = '';
      for (let i = 0; i < 6; i++) {
        const t1 = performance.now();
        const res = await get(url);
        const body = (await res.json()) as {
          totals: { calls: number };
          queues: { offered: number }[];
          agents: unknown[];
          trunks: { peak: number }[];
        };
        times.push(performance.now() - t1);
        if (res.status !== 200) throw new Error(`${url}: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
        summary =
          `${body.totals.calls.toLocaleString('en')} calls, ${body.queues.reduce((n, q) => n + q.offered, 0).toLocaleString('en')} queue callers` +
          ` in ${body.queues.length} queues, ${body.agents.length} agent rows, ${body.trunks.length} trunks (peak ${Math.max(0, ...body.trunks.map((t) => t.peak))})`;
      }
      const warm = times.slice(1).sort((a, b) => a - b);
      console.log(
        `  report over ${label} (${summary}): first ${times[0]?.toFixed(0)} ms, then median ${median(warm).toFixed(0)} ms,` +
          ` max ${warm.at(-1)?.toFixed(0)} ms (target < 1 s for 30 days)`,
      );
    }

    const now = Date.now();
    const scenarios = [
      { name: 'first page', path: '/api/calls' },
      {
        name: 'inbound missed, last 30 days',
        path: `/api/calls?direction=inbound&result=missed&from=${day(now - 30 * 86_400_000)}&to=${day(now)}`,
      },
      { name: 'extension=201', path: '/api/calls?extension=201' },
    ];
    const staticRoot = path.join(work, 'static');
    fs.mkdirSync(staticRoot, { recursive: true });
    fs.chmodSync(work, 0o755);
    for (const [i, scenario] of scenarios.entries()) {
      const res = await get(scenario.path);
      const body = Buffer.from(await res.arrayBuffer());
      if (res.status !== 200) throw new Error(`${scenario.path}: ${res.status} ${body.toString().slice(0, 300)}`);
      const { rows } = JSON.parse(body.toString()) as { rows: { callerName: string; calledName: string }[] };
      const contacts = rows.filter((r) => /^Contact /.test(r.callerName) || /^Contact /.test(r.calledName)).length;
      if (rows.length !== 50) throw new Error(`${scenario.path}: ${rows.length} rows, not a full page`);
      fs.writeFileSync(path.join(staticRoot, `page${i}.json`), body);
      console.log(
        `  ${scenario.name}: ${scenario.path} (${(body.length / 1024).toFixed(1)} kB, 50 rows, ${contacts} named from the phonebook)`,
      );
    }
    const nginx = await startNginx({ workers: 1, staticRoot });
    if (!nginx) throw new Error('nginx is needed for the reference (apt-get install nginx-light)');
    try {
      // Warm-up, not measured.
      await wrk({ url: live.url, connections: CONNECTIONS, duration: 2, paths: scenarios, headers: auth });
      console.log(`  wrk ${CONNECTIONS} connections, ${SECONDS} s a round, ${ROUNDS} rounds alternating with nginx:`);
      for (const [i, scenario] of scenarios.entries()) {
        const ours: (WrkResult & { cpuUsPerRequest: number })[] = [];
        const theirs: WrkResult[] = [];
        for (let round = 0; round < ROUNDS; round++) {
          ours.push(
            await wrkWithCpu({
              url: live.url,
              connections: CONNECTIONS,
              duration: SECONDS,
              paths: [scenario],
              headers: auth,
            }),
          );
          theirs.push(
            await wrk({
              url: nginx.url,
              connections: CONNECTIONS,
              duration: SECONDS,
              paths: [{ path: `/provisioning/page${i}.json` }],
            }),
          );
        }
        const mid = (list: WrkResult[]) =>
          [...list].sort((a, b) => a.rps - b.rps)[Math.floor(list.length / 2)] as WrkResult;
        console.log(fmtWrk(`${scenario.name} (median round)`, mid(ours), 40));
        console.log(fmtWrk('  nginx, the same bytes (median round)', mid(theirs), 40));
        console.log(
          `    p95 per round: ${ours.map((r) => r.p95.toFixed(1)).join(', ')} ms (target < 100 ms); ` +
            `${(median(ours.map((r) => r.rps)) / median(theirs.map((r) => r.rps))).toFixed(3)}× nginx (medians)`,
        );
        const errors = ours.reduce((n, r) => n + r.errors, 0);
        if (errors > 0) console.log(`    ${errors} errors from Centralino`);
      }
    } finally {
      await nginx.stop();
    }
    const top = await ceiling(CONNECTIONS);
    if (top) console.log(fmtWrk(`wrk's ceiling (nginx "ok", ${CONNECTIONS} connections)`, top, 40));

    console.log(
      `  export (GET /api/calls/export, every call): ${calls.toLocaleString('en')} rows, ${(bytes / 1e6).toFixed(1)} MB in ${s(exportMs)}` +
        ` (first byte ${firstByteMs.toFixed(0)} ms, ${Math.round(calls / (exportMs / 1000)).toLocaleString('en')} rows/s)`,
    );
    console.log(
      `    server RSS: ${baseline.rss.toFixed(0)} MB at the start, peak ${peak.toFixed(0)} MB (growth ${(peak - baseline.rss).toFixed(1)} MB; target < 50 MB),` +
        ` ${after.rss.toFixed(0)} MB after; VmHWM ${baseline.hwm.toFixed(0)} → ${after.hwm.toFixed(0)} MB`,
    );
    console.log(
      `  load average: ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
  } finally {
    await server?.stop();
    // BENCH_KEEP_DB: a copy of the SQLite database for a closer look at a query (EXPLAIN QUERY PLAN, timings).
    const db = path.join(dataDir, 'centralino.db');
    if (process.env.BENCH_KEEP_DB && fs.existsSync(db)) fs.copyFileSync(db, process.env.BENCH_KEEP_DB);
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(work, { recursive: true, force: true });
  }
}

const databases = (process.env.BENCH_DATABASES ?? 'sqlite,postgres').split(',');
if (databases.includes('sqlite')) {
  await run('SQLite', {}, (dataDir) => seedSqlite(path.join(dataDir, 'centralino.db')));
}
if (databases.includes('postgres')) {
  await onThrowawayPostgres((url) => run('PostgreSQL', { DATABASE_URL: url }, () => seedPostgres(url)));
}
