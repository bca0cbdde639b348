// Provisioning storm: 2,000 phones of mixed vendors fetch their configuration files from the built server over
// 64 keep-alive connections, with wrk as the load generator (a Lua script spreads the requests over the phones'
// URLs). Measured: each phone's first access (tok1, once each), its first steady-state fetch (tok2, once each,
// retiring tok1), the steady state (tok2, round and round for a few seconds), and the first fetches after a change
// that dropped every rendered file. nginx serves the same bytes as static files in the same run, with one worker
// (as the one Node process) and with one per core; the figure is the ratio to nginx (target ≥ 0.5, p99 < 50 ms).
// The ceiling is what wrk gets from nginx's in-memory 2-byte answer: no server can be measured above it here.
// The same rounds run through nginx in front of the server with the README's configuration
// (docs/nginx-centralino.conf, PHONE_FILES_DIR): what a phone gets when the files are served from disk.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { lookupId } from '../apps/server/src/config.ts';
import { frontSample, type RunningNginx, startNginx as startFront } from '../apps/server/test/support/nginx.ts';
import {
  ceiling,
  cpuMs,
  fmtWrk,
  freePort,
  median,
  NGINX_BENCH_HTTP,
  type Nginx,
  pidsOnPort,
  startNginx,
  startServer,
  type WrkResult,
  wrk,
  wrkBinary,
  wrkWithCpu,
} from './lib.ts';

wrkBinary();
const PASSWORD = 'bench-password-1';
const PHONES = Number(process.env.BENCH_PHONES ?? 2000);
const CONNECTIONS = 64;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
/** Node processes serving phones (the server is one process). */
const SERVER_PROCESSES = 1;
type Headers = Record<string, string>;

async function api(url: string, method: string, headers: Headers, body?: unknown) {
  const res = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  return res.status === 204 ? undefined : res.json();
}

const VENDORS = [
  { oui: '001565', model: 'yealink-T46', file: (m: string) => `${m}.cfg`, ua: 'Yealink SIP-T46S 66.86.0.15' },
  { oui: '000413', model: 'snom-D785', file: (m: string) => `${m}.xml`, ua: 'snomD785-SIP/10.1.159.12' },
  { oui: '0c383e', model: 'fanvil-X5U', file: (m: string) => `${m}.cfg`, ua: 'Fanvil X5U 2.12.1' },
  { oui: 'e0e656', model: 'nethesis-NPX5', file: (m: string) => `${m}.cfg`, ua: 'Nethesis NP-X5 2.4.13.1' },
  { oui: '7c2f80', model: 'gigaset-Maxwell4', file: (m: string) => `${m}.xml`, ua: 'Gigaset Maxwell 4 2.32.1' },
  { oui: '005058', model: 'sangoma-S505', file: (m: string) => `cfg${m}.xml`, ua: 'Sangoma S505 V3.0.4.80' },
  { oui: '0c1105', model: 'akuvox-SPR63G', file: (m: string) => `${m}.cfg`, ua: 'Akuvox SP-R63G 63.0.1.1' },
  { oui: '000b82', model: null, file: (m: string) => `cfg${m}.xml`, ua: 'Grandstream GXP2170 1.0.11.23' },
];

// Files for the front nginx: somewhere its workers (www-data when we are root) may enter.
const frontParent = fs.mkdtempSync(path.join(os.tmpdir(), 'centralino-front-'));
fs.chmodSync(frontParent, 0o711);
const frontRoot = path.join(frontParent, 'phone-files');
const asRoot = process.getuid?.() === 0 && lookupId('group', 'www-data') !== null;
// At info, as installed: phone files are counted, not logged per request (the API calls of the set-up are).
const server = await startServer({
  ADMIN_PASSWORD: PASSWORD,
  LOGIN_RATE_LIMIT: '1000',
  TFTP_PORT: '0',
  LOG_LEVEL: 'info',
  PHONE_FILES_DIR: frontRoot,
  // nginx logs phones' first steady-state fetches it answered from disk there (the README's place).
  PHONE_FILES_FIRST_USE_LOG: path.join(frontRoot, 'first-use.log'),
  ...(asRoot ? { PHONE_FILES_GROUP: 'www-data' } : {}),
});
const warms = () => server.output().split('phone files ready in memory').length - 1;
let warmsSeen = 0;
/** Call right after the last change: the server renders again a second after the changes stop. */
const changed = () => {
  warmsSeen = warms();
};
/** Waits for the server's 'phone files ready in memory' that follows the last change. */
async function warmed() {
  const count = warms;
  const started = performance.now();
  while (count() <= warmsSeen && performance.now() - started < 300_000) await new Promise((r) => setTimeout(r, 100));
  warmsSeen = count();
  console.log(`  phone files ready in memory (${((performance.now() - started) / 1000).toFixed(1)} s waited)`);
}
const staticRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'centralino-static-'));
// nginx workers run as an unprivileged user: the tree must be readable by others.
fs.chmodSync(staticRoot, 0o755);
try {
  const login = (await api(
    `${server.url}/api/login`,
    'POST',
    { 'content-type': 'application/json' },
    {
      username: 'admin',
      password: PASSWORD,
    },
  )) as { user: string; secretkey: string };
  const headers = { User: login.user, Secretkey: login.secretkey, 'content-type': 'application/json' };
  const v1 = `${server.url}/api/provisioning/v1`;
  await api(`${v1}/defaults`, 'PATCH', headers, { hostname: 'pbx.example.com', ldap_base: 'dc=phonebook,dc=nh' });

  console.log(`  creating ${PHONES} phones of ${VENDORS.length} vendors…`);
  const phones: { tok1: string; tok2: string; file: string; ua: string }[] = [];
  const macs: string[] = [];
  const created = performance.now();
  for (let i = 0; i < PHONES; i += 32) {
    const batch = Array.from({ length: Math.min(32, PHONES - i) }, async (_, j) => {
      const n = i + j;
      const vendor = VENDORS[n % VENDORS.length] as (typeof VENDORS)[number];
      // Nethesis models come from the 4th octet: keep it 01 (NP-X5).
      const suffix = n.toString(16).padStart(6, '0');
      const short = `${vendor.oui}${vendor.oui === 'e0e656' ? `01${suffix.slice(2)}` : suffix}`;
      const ext = String(20000 + n);
      const phone = (await api(`${v1}/phones`, 'POST', headers, {
        mac: short,
        model: vendor.model,
        display_name: vendor.model ?? 'Grandstream',
        variables: {
          account_extension_1: ext,
          account_username_1: ext,
          account_password_1: `secret-${ext}`,
          account_display_name_1: `User ${n} <${ext}>`,
          account_encryption_1: n % 2 === 0 ? '1' : '',
          // Phones without a model have no keys to set.
          ...(vendor.model ? { linekey_type_3: 'blf', linekey_value_3: String(20000 + ((n + 1) % PHONES)) } : {}),
        },
      })) as { tok1: string; tok2: string };
      phones[n] = { tok1: phone.tok1, tok2: phone.tok2, file: vendor.file(short), ua: vendor.ua };
      macs[n] = short;
    });
    await Promise.all(batch);
  }
  changed();
  console.log(`  created in ${((performance.now() - created) / 1000).toFixed(1)} s`);

  const url = server.url;
  const tok1Paths = phones.map((p) => ({ path: `/provisioning/${p.tok1}/${p.file}`, ua: p.ua }));
  const tok2Paths = phones.map((p) => ({ path: `/provisioning/${p.tok2}/${p.file}`, ua: p.ua }));
  // The server renders every phone's files in the background once the phones exist (two per phone while tok1
  // lives) and logs when it is done.
  await warmed();

  // The same bytes as static files for nginx.
  for (const p of phones) {
    const res = await fetch(`${url}/provisioning/${p.tok2}/${p.file}`, { headers: { 'user-agent': p.ua } });
    const dir = path.join(staticRoot, p.tok2);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, p.file), Buffer.from(await res.arrayBuffer()));
  }
  /** Gives every phone a new first-access token, so that a first access is real again (a first tok2 fetch retired it). */
  const rotateTok1 = async () => {
    for (let i = 0; i < PHONES; i += 32) {
      await Promise.all(
        phones.slice(i, i + 32).map(async (p, j) => {
          await api(`${v1}/phones/${encodeURIComponent(macs[i + j] as string)}/tok1`, 'POST', {
            User: headers.User,
            Secretkey: headers.Secretkey,
          });
          const phone = (await api(`${v1}/phones/${encodeURIComponent(macs[i + j] as string)}`, 'GET', headers)) as {
            tok1: string;
          };
          p.tok1 = phone.tok1;
        }),
      );
    }
    changed();
    for (let i = 0; i < PHONES; i++) {
      const p = phones[i] as (typeof phones)[number];
      (tok1Paths[i] as { path: string }).path = `/provisioning/${p.tok1}/${p.file}`;
    }
    // Each phone's files are rendered again in the background after its change.
    await warmed();
  };
  // The static copy fetched each tok2 once: rotate for the tok1 round.
  await rotateTok1();

  const nginx1 = await startNginx({ staticRoot, workers: SERVER_PROCESSES });
  const nginxN = await startNginx({ staticRoot, workers: os.availableParallelism() });
  const serverPort = Number(new URL(url).port);
  const startFrontWith = async (workers: number) => {
    const port = await freePort();
    const front = `http://127.0.0.1:${port}`;
    const running = await startFront({
      // The README's configuration, with the keep-alive the static nginx gets too.
      servers: `${NGINX_BENCH_HTTP}\n${frontSample(frontRoot, port, serverPort)}`,
      probeUrl: `${front}/api/health`,
      user: asRoot ? 'www-data' : undefined,
      workers,
    });
    return { url: front, workers, running };
  };
  let front1: { url: string; workers: number; running: RunningNginx } | undefined;
  let frontN: typeof front1;
  const rows: string[] = [];
  const print = (name: string, r: WrkResult) => {
    console.log(fmtWrk(name, r));
  };
  try {
    const top = await ceiling(CONNECTIONS);
    if (top) print('ceiling: wrk vs nginx `return 200` (2 bytes)', top);

    // Once through the list: compared with nginx once through the same list (median of three, it is short).
    // Without the open-file cache: on a phone's first fetch nginx opens the file, where the cache would hold it
    // open from the earlier runs (nginx stays warm otherwise: a new nginx per run was slower than the front server).
    const onceNginx = async (n: Nginx | undefined) => {
      if (!n) return undefined;
      const cold = await startNginx({ staticRoot, workers: n.workers, openFileCache: false });
      if (!cold) return undefined;
      const runs: WrkResult[] = [];
      try {
        for (let i = 0; i < 3; i++)
          runs.push(await wrk({ url: cold.url, connections: CONNECTIONS, paths: tok2Paths, once: true }));
      } finally {
        await cold.stop();
      }
      return runs.sort((a, b) => a.rps - b.rps)[1] as WrkResult;
    };
    const ratio = (ours: number, theirs: WrkResult | undefined) =>
      theirs ? `${(ours / theirs.rps).toFixed(2)}×` : 'n/a';

    const first = await wrk({ url, connections: CONNECTIONS, paths: tok1Paths, once: true });
    print('first access, tok1, once each', first);
    const firstTok2 = await wrk({ url, connections: CONNECTIONS, paths: tok2Paths, once: true });
    print('first steady-state fetch, tok2, once each', firstTok2);

    // Through the front nginx: first accesses again (new tok1), the tok1 files from disk, the first tok2 fetch from
    // disk too (provisioning-first, reported to the server, which retires tok1), then everything from disk.
    await rotateTok1();
    front1 = await startFrontWith(SERVER_PROCESSES);
    frontN = await startFrontWith(os.availableParallelism());
    const frontFirst = await wrk({ url: front1.url, connections: CONNECTIONS, paths: tok1Paths, once: true });
    print('front (1 worker): first access, tok1, once each', frontFirst);
    const serverPids = pidsOnPort(serverPort);
    const cpuBefore = cpuMs(serverPids);
    const frontFirstTok2 = await wrk({ url: front1.url, connections: CONNECTIONS, paths: tok2Paths, once: true });
    const cpuDuring = cpuMs(serverPids) - cpuBefore;
    print('front (1 worker): first tok2 fetch, once each', frontFirstTok2);
    // The reports arrive a moment later; each file moves into the served tree after a pause in reports (up to a
    // second: PhoneFileExport.promoteSoon), so the wait stops only once nothing moved for longer than that.
    const served = () => tok2Paths.filter((p) => fs.existsSync(path.join(frontRoot, p.path))).length;
    for (let i = 0, last = -1, still = 0; i < 100 && served() < PHONES && still < 8; i++) {
      const now = served();
      still = now === last ? still + 1 : 0;
      last = now;
      await new Promise((r) => setTimeout(r, 200));
    }
    const diskPaths = tok2Paths.filter((p) => fs.existsSync(path.join(frontRoot, p.path)));
    console.log(`  steady-state files on disk for the front: ${diskPaths.length} of ${PHONES}`);
    // What the reports cost the server (retiring tok1, moving files), while nginx served and after.
    console.log(
      `  server CPU: ${cpuDuring} ms during the round, ${cpuMs(serverPids) - cpuBefore} ms until the files settled ` +
        `(${(((cpuMs(serverPids) - cpuBefore) * 1000) / PHONES).toFixed(0)} µs a phone, 10 ms ticks)`,
    );
    const diskOnly = await wrkWithCpu({
      url: front1.url,
      connections: CONNECTIONS,
      paths: diskPaths,
      duration: SECONDS,
    });
    print('front (1 worker), only files on disk', diskOnly);
    const staticSame = nginx1
      ? await wrkWithCpu({ url: nginx1.url, connections: CONNECTIONS, paths: diskPaths, duration: SECONDS })
      : undefined;
    if (staticSame) print('nginx (1 worker), the same files', staticSame);
    const nginxOnce = await onceNginx(nginx1);
    if (nginxOnce) print(`nginx (${SERVER_PROCESSES} worker), once each`, nginxOnce);
    const nginxOnceN = await onceNginx(nginxN);
    if (nginxOnceN) print(`nginx (${nginxN?.workers} workers), once each`, nginxOnceN);

    // Steady state: alternate with nginx so that load from elsewhere on the machine hits both alike.
    type Measured = Awaited<ReturnType<typeof wrkWithCpu>>;
    const ours: Measured[] = [];
    const theirs: Measured[] = [];
    const theirsN: Measured[] = [];
    const fronts: Measured[] = [];
    const frontsN: Measured[] = [];
    for (let round = 1; round <= 3; round++) {
      const r = await wrkWithCpu({ url, connections: CONNECTIONS, paths: tok2Paths, duration: SECONDS });
      print(`steady state, tok2, ${SECONDS} s, round ${round}`, r);
      ours.push(r);
      if (nginx1) {
        const n = await wrkWithCpu({ url: nginx1.url, connections: CONNECTIONS, paths: tok2Paths, duration: SECONDS });
        print(`nginx (${SERVER_PROCESSES} worker), round ${round}`, n);
        theirs.push(n);
      }
      if (nginxN) {
        const n = await wrkWithCpu({ url: nginxN.url, connections: CONNECTIONS, paths: tok2Paths, duration: SECONDS });
        print(`nginx (${nginxN.workers} workers), round ${round}`, n);
        theirsN.push(n);
      }
      for (const [f, list] of [
        [front1, fronts],
        [frontN, frontsN],
      ] as const) {
        const n = await wrkWithCpu({ url: f.url, connections: CONNECTIONS, paths: tok2Paths, duration: SECONDS });
        print(`front (${f.workers} workers), round ${round}`, n);
        list.push(n);
      }
    }

    // A change to the defaults drops every rendered file: the next fetches render on demand.
    await api(`${v1}/defaults`, 'PATCH', headers, { ldap_base: 'dc=phonebook2,dc=nh' });
    const afterChange = await wrk({ url, connections: CONNECTIONS, paths: tok2Paths, once: true });
    print('tok2 once each, just after a change to the defaults', afterChange);
    await api(`${v1}/defaults`, 'PATCH', headers, { ldap_base: 'dc=phonebook3,dc=nh' });
    const frontAfterChange = await wrk({ url: front1.url, connections: CONNECTIONS, paths: tok2Paths, once: true });
    print('front: tok2 once each, just after a change', frontAfterChange);

    const mid = (list: WrkResult[]) => median(list.map((r) => r.rps));
    const p99 = (list: WrkResult[]) => median(list.map((r) => r.p99));
    rows.push(
      `  first access (tok1, once each): ${first.rps.toFixed(0)} req/s, p99 ${first.p99.toFixed(1)} ms; ` +
        `ratio to nginx ${ratio(first.rps, nginxOnce)} (1 worker), ${ratio(first.rps, nginxOnceN)} (${nginxN?.workers ?? '?'} workers)`,
      `  first steady-state fetch (tok2, once each): ${firstTok2.rps.toFixed(0)} req/s, p99 ${firstTok2.p99.toFixed(1)} ms; ` +
        `ratio ${ratio(firstTok2.rps, nginxOnce)} (1 worker), ${ratio(firstTok2.rps, nginxOnceN)} (${nginxN?.workers ?? '?'} workers)`,
      `  steady state (median of 3): ${mid(ours).toFixed(0)} req/s, p99 ${p99(ours).toFixed(1)} ms; ratio ` +
        `${theirs.length ? `${(mid(ours) / mid(theirs)).toFixed(2)}×` : 'n/a'} (nginx 1 worker ${mid(theirs).toFixed(0)} req/s), ` +
        `${theirsN.length ? `${(mid(ours) / mid(theirsN)).toFixed(2)}×` : 'n/a'} (nginx ${nginxN?.workers ?? '?'} workers ${mid(theirsN).toFixed(0)} req/s)`,
      `  CPU time per steady-state request (median; does not depend on the share of a core each got): ` +
        `server ${median(ours.map((r) => r.cpuUsPerRequest)).toFixed(1)} µs, nginx ${median(theirs.map((r) => r.cpuUsPerRequest)).toFixed(1)} µs ` +
        `(ratio ${(median(theirs.map((r) => r.cpuUsPerRequest)) / median(ours.map((r) => r.cpuUsPerRequest))).toFixed(2)}×)`,
      `  after a change (every file rendered on demand): ${afterChange.rps.toFixed(0)} req/s, p99 ${afterChange.p99.toFixed(1)} ms`,
      '  through the front nginx (README configuration, files from PHONE_FILES_DIR):',
      `    first access (tok1 from disk, once each): ${frontFirst.rps.toFixed(0)} req/s, p99 ${frontFirst.p99.toFixed(1)} ms; ` +
        `ratio to static nginx ${ratio(frontFirst.rps, nginxOnce)} (1 worker)`,
      `    first tok2 fetch (from disk, reported to the server, once each): ${frontFirstTok2.rps.toFixed(0)} req/s, p99 ${frontFirstTok2.p99.toFixed(1)} ms; ` +
        `ratio ${ratio(frontFirstTok2.rps, nginxOnce)} (1 worker)`,
      `    steady state (median of 3): 1 worker ${mid(fronts).toFixed(0)} req/s, p99 ${p99(fronts).toFixed(1)} ms, ratio ` +
        `${theirs.length ? `${(mid(fronts) / mid(theirs)).toFixed(2)}×` : 'n/a'}; ${frontN.workers} workers ${mid(frontsN).toFixed(0)} req/s, ` +
        `p99 ${p99(frontsN).toFixed(1)} ms, ratio ${theirsN.length ? `${(mid(frontsN) / mid(theirsN)).toFixed(2)}×` : 'n/a'}`,
      `    after a change (handed to the server until written again): ${frontAfterChange.rps.toFixed(0)} req/s, p99 ${frontAfterChange.p99.toFixed(1)} ms`,
      `  ceiling (wrk vs nginx in-memory answer): ${top ? `${top.rps.toFixed(0)} req/s` : 'n/a'}; targets: ratio ≥ 0.5, p99 < 50 ms`,
    );
    console.log(
      `\n  ${PHONES} phones, ${CONNECTIONS} keep-alive connections, wrk 1 thread, ${os.availableParallelism()} cores\n${rows.join('\n')}`,
    );
  } finally {
    await nginx1?.stop();
    await nginxN?.stop();
    await front1?.running.stop();
    await frontN?.running.stop();
  }
} finally {
  await server.stop();
  fs.rmSync(staticRoot, { recursive: true, force: true });
  fs.rmSync(frontParent, { recursive: true, force: true });
}
