// A phonebook source at scale (issue 23): a MariaDB table of 100,000 contacts synced into the central phonebook.
// Target: the sync < 30 s, and the API stays responsive meanwhile (p99 < 100 ms). wrk requests a signed-in API
// list (GET /api/phonebook/config) with 4 connections during the sync; the same load is measured idle first,
// and the generator's ceiling against nginx's 2-byte answer is stated.
import mysql from 'mysql2/promise';
import { ceiling, fmtWrk, startServer, wrkBinary, wrkWithCpu } from './lib.ts';
import { post, signIn } from './seed.ts';

wrkBinary();
const CONTACTS = 100_000;
const PASSWORD = 'bench-password-1';
const DB = `cz_bench_phonebook_${process.pid}`;

let maria: mysql.Connection;
try {
  maria = await mysql.createConnection({
    host: '127.0.0.1',
    port: 3306,
    user: 'root',
    password: '',
    multipleStatements: true,
  });
} catch (error) {
  console.log(`  skipped: MariaDB on 127.0.0.1:3306 is not reachable as root (${(error as Error).message})`);
  process.exit(0);
}
await maria.query(`DROP DATABASE IF EXISTS ${DB}; CREATE DATABASE ${DB} CHARACTER SET utf8mb4;`);
await maria.query(
  `CREATE TABLE ${DB}.contacts (id INT PRIMARY KEY, name VARCHAR(80), company VARCHAR(80), phone VARCHAR(30), mobile VARCHAR(30), email VARCHAR(80))`,
);
for (let i = 0; i < CONTACTS; i += 5000) {
  const rows = Array.from({ length: 5000 }, (_, k) => {
    const n = i + k;
    return [
      n,
      `Contact ${n} Surname${n % 997}`,
      `Company ${n % 5000}`,
      `0721${String(n).padStart(6, '0')}`,
      n % 3 ? `333${String(n).padStart(7, '0')}` : null,
      `c${n}@example.com`,
    ];
  });
  await maria.query(`INSERT INTO ${DB}.contacts VALUES ?`, [rows]);
}

const server = await startServer({ ADMIN_PASSWORD: PASSWORD, LOGIN_RATE_LIMIT: '1000' });
try {
  const url = server.url;
  const headers = await signIn(url, PASSWORD);
  const auth = { User: headers.User as string, Secretkey: headers.Secretkey as string };
  const { id } = (await post(`${url}/api/phonebook/config`, headers, {
    dbtype: 'mysql',
    host: '127.0.0.1',
    port: '3306',
    user: 'root',
    password: '',
    dbname: DB,
    query: 'SELECT name, company, phone, mobile, email FROM contacts',
    mapping: { name: 'name', company: 'company', phone: 'workphone', mobile: 'cellphone', email: 'workemail' },
    type: 'CRM',
    interval: 1440,
    enabled: false,
  })) as { id: string };
  const load = { url, connections: 4, paths: [{ path: '/api/phonebook/config' }], headers: auth };
  const idle = await wrkWithCpu({ ...load, duration: 5 });
  console.log(fmtWrk('API while idle', idle, 40));
  const runs: number[] = [];
  for (let run = 0; run < 2; run++) {
    const started = performance.now();
    const sync = post(`${url}/api/phonebook/syncnow/${id}`, headers, {}).then((r) => {
      runs.push(performance.now() - started);
      return r as { contacts: number; skipped: number };
    });
    const during = await wrkWithCpu({ ...load, duration: 6 });
    const outcome = await sync;
    console.log(fmtWrk(`API during sync ${run + 1}`, during, 40));
    console.log(
      `  sync ${run + 1}: ${outcome.contacts.toLocaleString('en')} contacts (${outcome.skipped} skipped) in ${((runs.at(-1) ?? 0) / 1000).toFixed(1)} s (target < 30 s: ${(runs.at(-1) ?? 0) < 30_000 ? 'met' : 'MISSED'}); API p99 during it ${during.p99.toFixed(1)} ms (target < 100 ms: ${during.p99 < 100 ? 'met' : 'MISSED'})`,
    );
  }
  const top = await ceiling(4);
  if (top) console.log(fmtWrk("generator's ceiling: wrk vs nginx `return 200`", top, 40));
} finally {
  await server.stop();
  await maria.query(`DROP DATABASE IF EXISTS ${DB}`);
  await maria.end();
}
