// A phonebook source at scale (issue 23): a MariaDB table of 100,000 contacts synced into the central phonebook.
// Target: the sync < 30 s, and the API stays responsive meanwhile (p99 < 100 ms). wrk requests a signed-in API
// list (GET /api/phonebook/config) with 4 connections during the sync; the same load is measured idle first,
// and the generator's ceiling against nginx's 2-byte answer is stated.
import { ceiling, fmtWrk, startServer, wrkBinary, wrkWithCpu } from './lib.ts';
import { mariadbContacts, mariadbSource, post, signIn } from './seed.ts';

wrkBinary();
const CONTACTS = 100_000;
const PASSWORD = 'bench-password-1';
const DB = `cz_bench_phonebook_${process.pid}`;

const maria = await mariadbContacts(DB, CONTACTS);
if (!maria) process.exit(0);

const server = await startServer({ ADMIN_PASSWORD: PASSWORD, LOGIN_RATE_LIMIT: '1000' });
try {
  const url = server.url;
  const headers = await signIn(url, PASSWORD);
  const auth = { User: headers.User as string, Secretkey: headers.Secretkey as string };
  const id = await mariadbSource(url, headers, DB);
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
