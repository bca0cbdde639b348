// The managed PBX (issue 40): from `npm start`'s server process to a phone able to register; from a new user in the
// console to that user's phone registering on the running Asterisk, at BENCH_USERS users (default 1,000; run again
// with 10000); resident memory of the console and of Asterisk. Needs root (Asterisk runs as its own user), the build
// `npm install` makes, sipp, and the SIP ports 5060/5061/8089 free on this host.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { median, pidsOnPort, startServer } from './lib.ts';
import { type Headers, importAndWait, post, signIn, usersCsv } from './seed.ts';

const PASSWORD = 'bench-managed-password';
const USERS = Number(process.env.BENCH_USERS ?? 1000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SIPP = path.resolve(import.meta.dirname, '../apps/server/test/support/sipp');

if (typeof process.getuid === 'function' && process.getuid() !== 0) {
  console.log('managed-pbx: skipped (needs root: Asterisk runs as the asterisk user)');
  process.exit(0);
}
if (spawnSync('sipp', ['-v']).error) {
  console.log('managed-pbx: skipped (sipp is missing: apt-get install sip-tester)');
  process.exit(0);
}

type System = { state: string; pid: number | null; ami: string };
const system = async (url: string, headers: Headers) =>
  (await (await fetch(`${url}/api/pbx/system`, { headers })).json()) as System;

/** One REGISTER with sipp (digest auth, register-once.xml): true when it was answered 200. */
function register(account: string, secret: string): Promise<boolean> {
  return new Promise((resolve) => {
    const child: ChildProcess = spawn(
      'sipp',
      [
        '-sf',
        path.join(SIPP, 'register-once.xml'),
        '-i',
        '127.0.0.1',
        '-p',
        String(25000 + (Number(account) % 1000)),
        '-s',
        account,
        '-au',
        account,
        '-ap',
        secret,
        '-m',
        '1',
        '-timeout',
        '5s',
        '-timeout_error',
        '-nostdin',
        '127.0.0.1:5060',
      ],
      { stdio: 'ignore' },
    );
    child.once('exit', (code) => resolve(code === 0));
  });
}

/** The SIP password the console wrote for an account (as a phone's file gives it). */
function secretOf(dataDir: string, account: string): string | undefined {
  const etc = path.join(dataDir, 'asterisk');
  for (const f of fs.readdirSync(etc).filter((n) => n.startsWith('pjsip.users.'))) {
    const m = new RegExp(`\\[${account}-auth\\]\\(device-auth\\)\\nusername = \\d+\\npassword = (\\S+)`).exec(
      fs.readFileSync(path.join(etc, f), 'utf8'),
    );
    if (m) return m[1];
  }
  return undefined;
}

const rssKb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);

// At info, the server logs each apply (its phases and what it reloaded): the change-to-live figure's breakdown.
const server = await startServer({
  ADMIN_PASSWORD: PASSWORD,
  LOGIN_RATE_LIMIT: '1000',
  ASTERISK_MODE: 'managed',
  LOG_LEVEL: 'info',
});

type Applied = { msg: string; ms: number; phasesMs: Record<string, number>; reloaded: string[]; startedAt: number };
/** The applies the server logged that started at or after `since` (epoch ms). */
const appliesSince = (since: number): Applied[] =>
  server
    .output()
    .split('\n')
    .filter((l) => l.includes('PBX configuration applied') && l.startsWith('{'))
    .map((l) => JSON.parse(l) as Applied)
    .filter((a) => a.startedAt >= since);
try {
  const headers = await signIn(server.url, PASSWORD);
  await post(`${server.url}/api/configuration/mode`, headers, { mode: 'legacy' });
  const importMs = await importAndWait(server.url, headers, usersCsv(0, USERS));
  console.log(`managed-pbx: ${USERS} users imported in ${Math.round(importMs)} ms`);

  // Start to registrable: restart the server (Asterisk stops with it) and time until a phone's REGISTER gets 200.
  const account = String(10000 + 1);
  const starts: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    await server.restart();
    // From the spawn of the new server process (stopping the old one, and its Asterisk, is not counted).
    const before = server.launchedAt();
    const h = await signIn(server.url, PASSWORD);
    for (;;) {
      const s = await system(server.url, h);
      if (s.state === 'running') break;
      if (s.state === 'failed') throw new Error(`Asterisk failed: ${JSON.stringify(s)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    const secret = secretOf(server.dataDir, account);
    if (!secret) throw new Error(`no secret for ${account}`);
    for (;;) {
      if (await register(account, secret)) break;
      if (performance.now() - before > 60_000) throw new Error('no 200 to REGISTER within 60 s');
    }
    starts.push(performance.now() - before);
  }
  console.log(
    `managed-pbx: server start to a phone registered: median ${Math.round(median(starts))} ms (${starts.map(Math.round).join(', ')} ms; target < 5000)`,
  );

  // Change to live: a new user in the console, until that user's phone registers.
  const h = await signIn(server.url, PASSWORD);
  const changes: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const n = USERS + round;
    const ext = String(10000 + n);
    const before = performance.now();
    const wallBefore = Date.now();
    await post(`${server.url}/api/users`, h, { username: `new${n}`, fullname: `New ${n}` });
    await post(`${server.url}/api/mainextensions`, h, { username: `new${n}`, extension: ext });
    const posted = performance.now() - before;
    let written = 0;
    let attempts = 0;
    for (;;) {
      const secret = secretOf(server.dataDir, ext);
      if (secret && !written) written = performance.now() - before;
      if (secret) {
        attempts++;
        if (await register(ext, secret)) break;
      }
      if (performance.now() - before > 30_000) throw new Error(`${ext} could not register within 30 s`);
    }
    changes.push(performance.now() - before);
    // The server's log reaches this process a moment later (its stdout is a pipe).
    for (let i = 0; i < 100 && appliesSince(wallBefore).length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    const applies = appliesSince(wallBefore)
      .map(
        (a) =>
          `${a.ms} ms (${Object.entries(a.phasesMs)
            .map(([k, v]) => `${k} ${v}`)
            .join(', ')}; reloaded ${a.reloaded.join(' ') || 'nothing'})`,
      )
      .join(' + ');
    console.log(
      `  round ${round + 1}: API calls ${Math.round(posted)} ms, secret in the files at ${Math.round(written)} ms,` +
        ` registered at ${Math.round(changes.at(-1) ?? 0)} ms after ${attempts} REGISTER tries; applies: ${applies}`,
    );
  }
  console.log(
    `managed-pbx: new user to its phone registered at ${USERS} users: median ${Math.round(median(changes))} ms (${changes.map(Math.round).join(', ')} ms; target < 500)`,
  );

  const s = await system(server.url, h);
  const consolePid = pidsOnPort(Number(new URL(server.url).port))[0];
  console.log(
    `managed-pbx: resident memory at ${USERS} users: console ${consolePid ? Math.round(rssKb(consolePid) / 1024) : '?'} MB, Asterisk ${s.pid ? Math.round(rssKb(s.pid) / 1024) : '?'} MB`,
  );
} finally {
  await server.stop();
}
