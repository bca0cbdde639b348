// Provisioning storm: 2,000 phones of mixed vendors fetch their configuration files from the built server,
// 64 clients at a time, first with their first-access token (cold: every file rendered), then with their
// steady-state token (cold again, and retiring the first-access token), then again (warm: from the cache).
// The same files are then served as static files by nginx (the Debian package, installed here when missing)
// with the same clients; the ratio server/nginx is the figure (target ≥ 0.5).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../e2e/server.ts';
import { percentile, startServer } from './lib.ts';

const PASSWORD = 'bench-password-1';
const PHONES = Number(process.env.BENCH_PHONES ?? 2000);
const CONCURRENCY = 64;

type Headers = Record<string, string>;

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

interface Fetch {
  path: string;
  ua: string;
}

async function api(url: string, method: string, headers: Headers, body?: unknown) {
  const res = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  return res.status === 204 ? undefined : res.json();
}

/** `total` GETs over 64 keep-alive connections; latencies in ms. */
async function storm(port: number, requests: Fetch[]) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const latencies: number[] = [];
  let errors = 0;
  let next = 0;
  const get = (req: Fetch) =>
    new Promise<number>((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port, path: req.path, agent, headers: { 'user-agent': req.ua } }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        })
        .on('error', reject);
    });
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < requests.length) {
        const req = requests[next++] as Fetch;
        const t0 = performance.now();
        const status = await get(req);
        latencies.push(performance.now() - t0);
        if (status !== 200) errors++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return { rps: requests.length / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99), errors };
}

const fmt = (name: string, r: Awaited<ReturnType<typeof storm>>) =>
  console.log(
    `  ${name.padEnd(34)} ${r.rps.toFixed(0).padStart(6)} req/s   p50 ${r.p50.toFixed(2)} ms   p99 ${r.p99.toFixed(2)} ms` +
      `   ${r.errors} errors`,
  );

function ensureNginx(): string | undefined {
  const found = spawnSync('sh', ['-c', 'command -v nginx || ls /usr/sbin/nginx 2>/dev/null'], { encoding: 'utf8' });
  const existing = found.stdout.trim().split('\n')[0];
  if (existing) return existing;
  if (process.getuid?.() !== 0) {
    console.log('  nginx is not installed and this is not root: skipping the nginx comparison');
    return undefined;
  }
  console.log('  installing nginx (Debian package) for the comparison…');
  // Keep the package from starting its own service while it installs.
  const policy = '/usr/sbin/policy-rc.d';
  const ownPolicy = !fs.existsSync(policy);
  if (ownPolicy) fs.writeFileSync(policy, '#!/bin/sh\nexit 101\n', { mode: 0o755 });
  try {
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    spawnSync('apt-get', ['update', '-qq'], { stdio: 'ignore', env });
    const res = spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'nginx'], {
      stdio: 'ignore',
      env,
    });
    if (res.status !== 0) {
      console.log('  nginx could not be installed (apt-get failed): skipping the nginx comparison');
      return undefined;
    }
  } finally {
    if (ownPolicy) fs.rmSync(policy, { force: true });
  }
  return fs.existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : undefined;
}

async function startNginx(binary: string, root: string, port: number) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'centralino-nginx-'));
  fs.chmodSync(dir, 0o755);
  const conf = path.join(dir, 'nginx.conf');
  // One worker, like the one Node process it is compared with.
  fs.writeFileSync(
    conf,
    `worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  default_type text/plain;
  types { text/xml xml; text/plain cfg; }
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  keepalive_requests 100000;
  sendfile on;
  server {
    listen 127.0.0.1:${port};
    location /provisioning/ { alias ${root}/; add_header Cache-Control private; }
  }
}
`,
  );
  const child = spawn(binary, ['-c', conf, '-p', dir], { stdio: 'ignore' });
  for (let i = 0; i < 100; i++) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/`);
      await res.arrayBuffer();
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return {
    port,
    stop: async () => {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGQUIT');
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

const server = await startServer({ ADMIN_PASSWORD: PASSWORD, LOGIN_RATE_LIMIT: '1000', TFTP_PORT: '0' });
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
    });
    await Promise.all(batch);
  }
  console.log(`  created in ${((performance.now() - created) / 1000).toFixed(1)} s`);

  const port = Number(new URL(server.url).port);
  const tok1Round = phones.map((p) => ({ path: `/provisioning/${p.tok1}/${p.file}`, ua: p.ua }));
  const tok2Round = phones.map((p) => ({ path: `/provisioning/${p.tok2}/${p.file}`, ua: p.ua }));
  // The server renders every phone's steady-state file in the background once the phones exist.
  await new Promise((r) => setTimeout(r, 1500 + PHONES * 3));
  console.log(`\n  ${PHONES} phones, ${CONCURRENCY} concurrent clients (keep-alive), one file per phone per round`);
  fmt('first access, tok1 (rendered now)', await storm(port, tok1Round));
  fmt('steady state, tok2 (first fetch)', await storm(port, tok2Round));
  const repeated = Array.from({ length: 5 }, () => tok2Round).flat();

  // The same bytes as static files for nginx.
  for (const p of phones) {
    const res = await fetch(`${server.url}/provisioning/${p.tok2}/${p.file}`, { headers: { 'user-agent': p.ua } });
    const dir = path.join(staticRoot, p.tok2);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, p.file), Buffer.from(await res.arrayBuffer()));
  }
  const nginx = ensureNginx();
  const running = nginx ? await startNginx(nginx, staticRoot, await freePort()) : undefined;
  try {
    // Alternate the two so that load from elsewhere on the machine hits both alike; compare medians.
    const ours: number[] = [];
    const theirs: number[] = [];
    for (let round = 1; round <= 3; round++) {
      const r = await storm(port, repeated);
      fmt(`steady state, tok2 (×5) round ${round}`, r);
      ours.push(r.rps);
      if (running) {
        const n = await storm(running.port, repeated);
        fmt(`nginx static files (×5) round ${round}`, n);
        theirs.push(n.rps);
      }
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[1] as number;
    if (running) {
      console.log(
        `\n  median: centralino ${median(ours).toFixed(0)} req/s, nginx ${median(theirs).toFixed(0)} req/s, ` +
          `ratio ${(median(ours) / median(theirs)).toFixed(2)} (target ≥ 0.5)`,
      );
    }
  } finally {
    await running?.stop();
  }
} finally {
  await server.stop();
  fs.rmSync(staticRoot, { recursive: true, force: true });
}
