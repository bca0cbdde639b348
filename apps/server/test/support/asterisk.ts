import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import dgram from 'node:dgram';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { asteriskTier } from '../../../../scripts/asterisk-tier.mjs';

/**
 * The real-PBX tier: a real Asterisk (built once by scripts/ensure-asterisk.mjs) and the real console
 * (apps/server/src/main.ts) talking over AMI, in a network namespace of their own; sipp plays the
 * phones (inside the namespace) and the SIP providers (outside, on addresses of a veth pair, found by
 * Asterisk through a small DNS server this process answers).
 */

const exec = promisify(execFile);
const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../../../..');
export const SIPP_DIR = path.join(here, 'sipp');

export const tier = asteriskTier();
/** Why the tier cannot run here ('' when it can). */
export const skipReason: string = tier.ready ? '' : tier.reason;
if (skipReason) console.log(`Real-Asterisk tests skipped: ${skipReason}`);

export const ADMIN_PASSWORD = 'tier-admin-password';
const AMI = { username: 'centralino', secret: 'tier-ami-secret' };
const CONSOLE_PORT = 18080;

export interface SippRun {
  /** The port sipp listens on. */
  port: number;
  /** Resolves with sipp's exit code once it ends (kill() ends it). */
  done: Promise<number | null>;
  /** The SIP messages sipp sent and received so far. */
  trace(): string;
  /** Final answers sipp received to its requests, e.g. [401, 200]. */
  responses(): number[];
  /** Requests sipp received (INVITE, CANCEL, ...). */
  requests(): string[];
  kill(): void;
}

export interface AsteriskLab {
  ns: string;
  /** Address of the namespace (Asterisk, console) on the veth pair. */
  pbxIp: string;
  /** Provider addresses outside the namespace, by DNS name. */
  providers: Record<string, string>;
  consoleUrl: string;
  dirs: { root: string; data: string; etc: string; varlib: string; spool: string; run: string; log: string };
  /** CLI command over the run's control socket. */
  rx(command: string): Promise<string>;
  /** Console REST call as the administrator. */
  api<T = unknown>(method: string, url: string, body?: unknown): Promise<{ status: number; body: T }>;
  /** Asterisk's messages log (notice, warning, error) so far. */
  messages(): string;
  /** sipp inside the namespace (phones) or on a provider address (`onHost`). */
  sipp(options: {
    scenario: string;
    /** Scenario for requests outside its own calls (a phone answering INVITEs after registering). */
    ooc?: string;
    /** Runs until killed (a phone, a provider); otherwise sipp gives up after 60 s. */
    keep?: boolean;
    args: string[];
    remote?: string;
    onHost?: { ip: string; port: number };
  }): SippRun;
  /** Polls until check() answers truthy (no fixed sleeps). */
  until<T>(what: string, check: () => Promise<T | undefined | null | false>, timeoutMs?: number): Promise<T>;
  /** Stops the console (SIGTERM, as a service manager does), Asterisk running on; `until` must wait for startConsole. */
  stopConsole(): Promise<void>;
  /** Starts the console again (with more environment, if given) and signs in anew. */
  startConsole(env?: Record<string, string>): Promise<void>;
  close(): Promise<void>;
}

const run = (cmd: string, args: string[]) =>
  execFileSync(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], timeout: 20_000 }).toString();

function ensureAsteriskUser(): void {
  try {
    run('getent', ['group', 'asterisk']);
  } catch {
    run('groupadd', ['--system', 'asterisk']);
  }
  try {
    run('getent', ['passwd', 'asterisk']);
  } catch {
    run('useradd', ['--system', '-g', 'asterisk', '-M', '-d', '/nonexistent', '-s', '/usr/sbin/nologin', 'asterisk']);
  }
}

/** One second of silence, 8 kHz 16-bit mono WAV: music on hold needs at least one file. */
function silenceWav(): Buffer {
  const samples = 8000;
  const b = Buffer.alloc(44 + samples * 2);
  b.write('RIFF', 0);
  b.writeUInt32LE(36 + samples * 2, 4);
  b.write('WAVEfmt ', 8);
  b.writeUInt32LE(16, 16);
  b.writeUInt16LE(1, 20);
  b.writeUInt16LE(1, 22);
  b.writeUInt32LE(8000, 24);
  b.writeUInt32LE(16000, 28);
  b.writeUInt16LE(2, 32);
  b.writeUInt16LE(16, 34);
  b.write('data', 36);
  b.writeUInt32LE(samples * 2, 40);
  return b;
}

/** A DNS server answering A queries for the given names; every other question gets an empty answer. */
function dnsServer(ip: string, names: Record<string, string>): Promise<dgram.Socket> {
  const socket = dgram.createSocket('udp4');
  socket.on('message', (msg, rinfo) => {
    if (msg.length < 12) return;
    let offset = 12;
    const labels: string[] = [];
    while (offset < msg.length && msg[offset] !== 0) {
      const len = msg[offset] as number;
      labels.push(msg.subarray(offset + 1, offset + 1 + len).toString());
      offset += len + 1;
    }
    const questionEnd = offset + 5;
    const qtype = msg.readUInt16BE(offset + 1);
    const name = labels.join('.').toLowerCase();
    const address = names[name];
    const answer = address !== undefined && qtype === 1;
    const header = Buffer.alloc(12);
    msg.copy(header, 0, 0, 2);
    // Response, recursion available; NXDOMAIN for names we do not know.
    header.writeUInt16BE(0x8180 | (address === undefined ? 3 : 0), 2);
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(answer ? 1 : 0, 6);
    const question = msg.subarray(12, questionEnd);
    const parts = [header, question];
    if (answer) {
      const rr = Buffer.alloc(16);
      rr.writeUInt16BE(0xc00c, 0);
      rr.writeUInt16BE(1, 2);
      rr.writeUInt16BE(1, 4);
      rr.writeUInt32BE(60, 6);
      rr.writeUInt16BE(4, 10);
      address.split('.').forEach((o, i) => {
        rr.writeUInt8(Number(o), 12 + i);
      });
      parts.push(rr);
    }
    socket.send(Buffer.concat(parts), rinfo.port, rinfo.address);
  });
  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(53, ip, () => resolve(socket));
  });
}

function parseTrace(text: string): { responses: number[]; requests: string[] } {
  const responses: number[] = [];
  const requests: string[] = [];
  for (const block of text.split(/-{20,}.*\n/)) {
    const m = /message received \[\d+\] bytes :\s*\n\s*\n?(.*)/.exec(block);
    if (!m) continue;
    const first = (m[1] ?? '').trim();
    const status = /^SIP\/2\.0 (\d{3})/.exec(first);
    if (status) responses.push(Number(status[1]));
    else {
      const method = /^([A-Z]+) /.exec(first);
      if (method) requests.push(method[1] as string);
    }
  }
  return { responses, requests };
}

export async function startAsteriskLab(
  options: {
    /** DNS names of SIP providers, each given an address outside the namespace. */
    providers?: string[];
    /** More environment for the console; a function is given the run's directory. */
    env?: (root: string) => Record<string, string>;
    /**
     * The console runs Asterisk itself (ASTERISK_MODE=managed, every folder its default under DATA_DIR), as
     * `npm start` does, instead of the lab starting one beside it.
     */
    managed?: boolean;
  } = {},
): Promise<AsteriskLab> {
  const started = Date.now();
  const children: ChildProcess[] = [];
  const cleanups: (() => void | Promise<void>)[] = [];
  const running = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;
  const close = async () => {
    process.off('exit', atExit);
    for (const child of [...children].reverse()) {
      if (running(child) && child.pid) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
        await exited;
        clearTimeout(timer);
      }
    }
    for (const c of cleanups.splice(0).reverse()) {
      try {
        await c();
      } catch {}
    }
  };
  // A worker that ends without afterAll (a timed-out hook, a crash) must not leave Asterisk, the
  // console or the namespace behind.
  const atExit = () => {
    for (const child of children) if (running(child)) child.kill('SIGKILL');
    for (const c of cleanups.splice(0).reverse()) {
      try {
        void c();
      } catch {}
    }
  };
  process.once('exit', atExit);
  try {
    ensureAsteriskUser();
    const gid = Number(run('getent', ['group', 'asterisk']).split(':')[2]);
    const uid = Number(run('getent', ['passwd', 'asterisk']).split(':')[2]);

    // Directories: the console's DATA_DIR, the configuration it writes, Asterisk's own state.
    const root = fs.mkdtempSync(path.join(os.tmpdir(), `cz-ast-${process.pid}-`));
    // KEEP_ASTERISK_LAB=1 keeps the run's files (logs, configuration, sipp traces) to look at afterwards.
    cleanups.push(() =>
      process.env.KEEP_ASTERISK_LAB
        ? console.log(`Asterisk lab files kept in ${root}`)
        : fs.rmSync(root, { recursive: true, force: true }),
    );
    fs.chownSync(root, 0, gid);
    fs.chmodSync(root, 0o750);
    const data = path.join(root, 'data');
    // Managed: where the console puts Asterisk's folders by default (config.ts, pbx/managed/layout.ts).
    const dirs = options.managed
      ? {
          root,
          data,
          etc: path.join(data, 'asterisk'),
          varlib: path.join(data, 'pbx/lib'),
          astdata: path.join(data, 'pbx/data'),
          spool: path.join(data, 'pbx/spool'),
          run: path.join(data, 'pbx/run'),
          log: path.join(data, 'pbx/log'),
        }
      : {
          root,
          data,
          etc: path.join(root, 'etc'),
          varlib: path.join(root, 'varlib'),
          astdata: path.join(root, 'astdata'),
          spool: path.join(root, 'spool'),
          run: path.join(root, 'run'),
          log: path.join(root, 'log'),
        };
    if (!options.managed) {
      fs.mkdirSync(dirs.data, { mode: 0o700 });
      for (const d of [dirs.varlib, dirs.spool, dirs.run, dirs.log]) {
        fs.mkdirSync(d, { mode: 0o750 });
        fs.chownSync(d, uid, gid);
      }
      // Installed data: the build's XML documentation (read at start) and one music-on-hold file.
      fs.mkdirSync(path.join(dirs.astdata, 'moh'), { recursive: true, mode: 0o755 });
      fs.symlinkSync(
        path.join(tier.prefix, 'var/lib/asterisk/documentation'),
        path.join(dirs.astdata, 'documentation'),
      );
      fs.writeFileSync(path.join(dirs.astdata, 'moh', 'silence.wav'), silenceWav(), { mode: 0o644 });
      fs.chmodSync(dirs.astdata, 0o755);
    }

    // Network: a namespace with loopback, joined to this one by a veth pair.
    const id = process.pid;
    const ns = `cz-ast-${id}`;
    const hostIf = `czh${id}`.slice(0, 15);
    const nsIf = `czn${id}`.slice(0, 15);
    const subnet = `10.${200 + (id % 50)}.${Math.floor(id / 50) % 250}`;
    const hostIp = `${subnet}.1`;
    const pbxIp = `${subnet}.2`;
    run('ip', ['netns', 'add', ns]);
    cleanups.push(() => {
      run('ip', ['netns', 'del', ns]);
    });
    run('ip', ['link', 'add', hostIf, 'type', 'veth', 'peer', 'name', nsIf]);
    cleanups.push(() => {
      try {
        run('ip', ['link', 'del', hostIf]);
      } catch {}
    });
    run('ip', ['link', 'set', nsIf, 'netns', ns]);
    run('ip', ['addr', 'add', `${hostIp}/24`, 'dev', hostIf]);
    const providers: Record<string, string> = {};
    (options.providers ?? []).forEach((name, i) => {
      providers[name] = `${subnet}.${11 + i}`;
      run('ip', ['addr', 'add', `${subnet}.${11 + i}/24`, 'dev', hostIf]);
    });
    run('ip', ['link', 'set', hostIf, 'up']);
    run('ip', ['-n', ns, 'link', 'set', 'lo', 'up']);
    run('ip', ['-n', ns, 'addr', 'add', `${pbxIp}/24`, 'dev', nsIf]);
    run('ip', ['-n', ns, 'link', 'set', nsIf, 'up']);
    // `ip netns exec` mounts these over /etc/resolv.conf and /etc/hosts for what runs inside.
    const netnsEtc = path.join('/etc/netns', ns);
    fs.mkdirSync(netnsEtc, { recursive: true });
    cleanups.push(() => fs.rmSync(netnsEtc, { recursive: true, force: true }));
    fs.writeFileSync(path.join(netnsEtc, 'resolv.conf'), `nameserver ${hostIp}\n`);
    // As on a real host: its own name resolves, and a default route exists (Asterisk's RTP finds its
    // address for ICE by resolving the host name, then A.ROOT-SERVERS.NET and routing towards it).
    fs.writeFileSync(path.join(netnsEtc, 'hosts'), `127.0.0.1 localhost\n${pbxIp} ${os.hostname()}\n`);
    run('ip', ['-n', ns, 'route', 'add', 'default', 'via', hostIp]);
    const dns = await dnsServer(hostIp, { ...providers, 'a.root-servers.net': '198.41.0.4' });
    cleanups.push(() => new Promise<void>((r) => dns.close(() => r())));

    // The console, inside the namespace, configured to write for this Asterisk and to reach its AMI.
    const consoleLog = fs.openSync(path.join(root, 'console.log'), 'a');
    const common = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      PORT: String(CONSOLE_PORT),
      HOST: '0.0.0.0',
      DATA_DIR: dirs.data,
      ADMIN_PASSWORD,
      LOG_LEVEL: 'info',
      TFTP_PORT: '0',
    };
    const managedEnv = { ...common, ASTERISK_MODE: 'managed', ASTERISK_CACHE_DIR: tier.cacheRoot };
    const externalEnv = {
      ...common,
      ASTERISK_CONFIG_DIR: dirs.etc,
      ASTERISK_GROUP: 'asterisk',
      ASTERISK_USER: 'asterisk',
      ASTERISK_MODULES_DIR: path.join(tier.prefix, 'lib/asterisk/modules'),
      ASTERISK_VARLIB_DIR: dirs.varlib,
      ASTERISK_DATA_DIR: dirs.astdata,
      ASTERISK_SPOOL_DIR: dirs.spool,
      ASTERISK_RUN_DIR: dirs.run,
      ASTERISK_LOG_DIR: dirs.log,
      AMI_HOST: '127.0.0.1',
      AMI_PORT: '5038',
      AMI_USERNAME: AMI.username,
      AMI_SECRET: AMI.secret,
    };
    const env = { ...(options.managed ? managedEnv : externalEnv), ...options.env?.(root) };
    const spawnConsole = (more: Record<string, string> = {}) => {
      const child = spawn('ip', ['netns', 'exec', ns, process.execPath, '--import', 'tsx', 'apps/server/src/main.ts'], {
        cwd: repo,
        env: { ...env, ...more },
        stdio: ['ignore', consoleLog, consoleLog],
      });
      children.push(child);
      return child;
    };
    let consoleProcess = spawnConsole();
    const consoleUrl = `http://${pbxIp}:${CONSOLE_PORT}`;

    const until = async <T>(
      what: string,
      check: () => Promise<T | undefined | null | false>,
      timeoutMs = 30_000,
    ): Promise<T> => {
      const end = Date.now() + timeoutMs;
      let last: unknown;
      for (let delay = 50; ; delay = Math.min(delay * 2, 500)) {
        try {
          const value = await check();
          if (value) return value;
        } catch (error) {
          last = error;
        }
        if (Date.now() > end) throw new Error(`timed out waiting for ${what}${last ? ` (${String(last)})` : ''}`);
        if (consoleProcess.exitCode !== null) {
          throw new Error(
            `the console exited: ${fs.readFileSync(path.join(root, 'console.log'), 'utf8').slice(-2000)}`,
          );
        }
        await new Promise((r) => setTimeout(r, delay));
      }
    };

    let headers: Record<string, string> = {};
    const api = async <T>(method: string, url: string, body?: unknown) => {
      const res = await fetch(`${consoleUrl}${url}`, {
        method,
        headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
    };
    const signIn = async () => {
      // A busy machine compiles and starts the console slowly: this returns the moment it answers.
      await until('the console to answer', async () => (await fetch(`${consoleUrl}/api/health`)).ok, 120_000);
      const login = await api<{ secretkey: string }>('POST', '/api/login', {
        username: 'admin',
        password: ADMIN_PASSWORD,
      });
      if (login.status !== 200) throw new Error(`login failed: ${JSON.stringify(login.body)}`);
      headers = { User: 'admin', Secretkey: login.body.secretkey };
    };
    await signIn();

    // Asterisk starts once the console has written its configuration, as its own user.
    const conf = path.join(dirs.etc, 'asterisk.conf');
    await until('the first apply', async () => fs.existsSync(conf), 60_000);
    const asteriskOut = fs.openSync(path.join(root, 'asterisk.out'), 'a');
    // Managed: the console starts it; the lab only talks to it.
    const asterisk = options.managed
      ? undefined
      : spawn('ip', ['netns', 'exec', ns, path.join(tier.prefix, 'sbin/asterisk'), '-f', '-C', conf], {
          stdio: ['ignore', asteriskOut, asteriskOut],
        });
    if (asterisk) children.push(asterisk);
    const rx = async (command: string) => {
      const { stdout } = await exec(
        'ip',
        ['netns', 'exec', ns, path.join(tier.prefix, 'sbin/asterisk'), '-C', conf, '-rx', command],
        { timeout: 15_000 },
      );
      return stdout;
    };
    await until(
      'Asterisk to boot',
      async () => {
        if (asterisk && asterisk.exitCode !== null) {
          throw new Error(`Asterisk exited: ${fs.readFileSync(path.join(root, 'asterisk.out'), 'utf8').slice(-3000)}`);
        }
        return /Fully Booted|Asterisk has fully booted/i.test(await rx('core waitfullybooted'));
      },
      60_000,
    );
    await until(
      'the console to connect to AMI',
      async () => (await api<{ engine: string }>('GET', '/api/pbx/apply')).body.engine === 'connected',
      45_000,
    );

    let port = 21000;
    const sipp: AsteriskLab['sipp'] = ({ scenario, ooc, keep, args, remote, onHost }) => {
      if (!onHost) port += 10;
      const p = onHost ? onHost.port : port;
      const traceFile = path.join(root, `sipp-${p}-${Date.now()}.msg`);
      const base = [
        '-sf',
        path.join(SIPP_DIR, scenario),
        ...(ooc ? ['-oocsf', path.join(SIPP_DIR, ooc)] : []),
        '-i',
        onHost ? onHost.ip : '127.0.0.1',
        '-p',
        String(p),
        '-mp',
        String(onHost ? 40000 + (p % 1000) * 4 : p + 2),
        '-trace_msg',
        '-message_file',
        traceFile,
        '-nostdin',
        ...(keep ? [] : ['-timeout_error', '-timeout', '60s']),
        ...args,
        ...(remote ? [remote] : []),
      ];
      const child = onHost
        ? spawn('sipp', base, { stdio: 'ignore' })
        : spawn('ip', ['netns', 'exec', ns, 'sipp', ...base], { stdio: 'ignore' });
      children.push(child);
      const done = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      const trace = () => (fs.existsSync(traceFile) ? fs.readFileSync(traceFile, 'utf8') : '');
      return {
        port: p,
        done,
        trace,
        responses: () => parseTrace(trace()).responses,
        requests: () => parseTrace(trace()).requests,
        kill: () => child.kill('SIGTERM'),
      };
    };

    console.log(`Asterisk lab ready in ${Date.now() - started} ms (namespace ${ns}, ${root})`);
    return {
      ns,
      pbxIp,
      providers,
      consoleUrl,
      dirs,
      rx,
      api,
      messages: () => {
        const file = path.join(dirs.log, 'messages');
        return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
      },
      sipp,
      until,
      stopConsole: async () => {
        const child = consoleProcess;
        if (child.exitCode !== null || child.signalCode !== null) return;
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      },
      startConsole: async (more?: Record<string, string>) => {
        consoleProcess = spawnConsole(more);
        await signIn();
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * The PJSIP objects the console wrote, by type (endpoint, aor, auth, identify, registration), read
 * from the files in `etc`: a section's type is its `type =` line or that of the template it uses.
 */
export function configuredPjsipObjects(etc: string): Map<string, Set<string>> {
  const sections: { name: string; templates: string[]; isTemplate: boolean; type?: string }[] = [];
  for (const file of fs.readdirSync(etc).filter((f) => /^pjsip.*\.conf$/.test(f) && f !== 'pjsip_notify.conf')) {
    for (const line of fs.readFileSync(path.join(etc, file), 'utf8').split('\n')) {
      const header = /^\[([^\]]+)\](?:\(([^)]*)\))?/.exec(line);
      if (header) {
        const options = (header[2] ?? '').split(',').filter(Boolean);
        sections.push({
          name: header[1] as string,
          isTemplate: options.includes('!'),
          templates: options.filter((o) => o !== '!'),
        });
        continue;
      }
      const type = /^type\s*=\s*(\S+)/.exec(line);
      const current = sections.at(-1);
      if (type && current) current.type = type[1];
    }
  }
  const templates = new Map(sections.filter((s) => s.isTemplate).map((s) => [s.name, s]));
  const typeOf = (s: (typeof sections)[number]): string | undefined =>
    s.type ??
    s.templates
      .map((t) => templates.get(t))
      .map((t) => (t ? typeOf(t) : undefined))
      .find(Boolean);
  const out = new Map<string, Set<string>>();
  for (const s of sections) {
    const type = s.isTemplate ? undefined : typeOf(s);
    if (!type) continue;
    if (!out.has(type)) out.set(type, new Set());
    out.get(type)?.add(s.name);
  }
  return out;
}

/**
 * Object names listed by `pjsip show endpoints|aors|auths|identifies` (lines `Label:  name...`), or by
 * `pjsip show registrations` (label '': lines `  name/sip:server ...`).
 */
export function listedPjsipObjects(output: string, label: string): Set<string> {
  const line = label ? new RegExp(`^\\s*${label}:\\s+([^\\s/<]+)`, 'gm') : /^\s*([^\s/<]+)\/sips?:/gm;
  const names = new Set<string>();
  for (const m of output.matchAll(line)) names.add(m[1] as string);
  return names;
}

/**
 * The local directory, then each user with its main extension, through the API as an installer makes them
 * (`[username, extension, fullname?]`, the full name defaulting to the user name).
 */
export async function seedLocalUsers(
  lab: AsteriskLab,
  users: readonly (readonly [username: string, extension: string, fullname?: string])[],
): Promise<void> {
  const api = async (url: string, body: unknown) => {
    const res = await lab.api('POST', url, body);
    if (res.status >= 300) throw new Error(`POST ${url}: ${res.status} ${JSON.stringify(res.body)}`);
  };
  await api('/api/configuration/mode', { mode: 'legacy' });
  await lab.until('the local directory', async () => {
    const r = await lab.api<{ configured: number }>('GET', '/api/configuration/userprovider');
    return r.body.configured === 1;
  });
  for (const [username, extension, fullname] of users) {
    await api('/api/users', { username, fullname: fullname ?? username });
    await api('/api/mainextensions', { username, extension });
  }
}

/** The SIP passwords the console wrote for these 2xx device accounts, once every one of them is in the file. */
export function deviceSecrets(lab: AsteriskLab, extensions: readonly string[]): Promise<Record<string, string>> {
  return lab.until('the accounts to be written', async () => {
    const file = path.join(lab.dirs.etc, 'pjsip.users.2xx.conf');
    if (!fs.existsSync(file)) return undefined;
    const found: Record<string, string> = Object.fromEntries(
      [
        ...fs.readFileSync(file, 'utf8').matchAll(/\[(\d+)-auth\]\(device-auth\)\nusername = \d+\npassword = (\S+)/g),
      ].map((m) => [m[1], m[2]]),
    );
    return extensions.every((e) => found[e]) ? found : undefined;
  });
}

/** A SIP provider played by sipp on the lab's address for `name`, until the lab closes. */
export function startProvider(lab: AsteriskLab, name: string, scenario: string): SippRun {
  return lab.sipp({ scenario, keep: true, args: [], onHost: { ip: lab.providers[name] as string, port: 5060 } });
}
