import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'ldapts';
import type { Log as Logger } from '../../log.ts';
import { PHONEBOOK_BASE_DN, PHONEBOOK_BIND_DN, sshaPassword } from './entries.ts';

export const SLAPD_BINARY = '/usr/sbin/slapd';
const SCHEMAS = ['core', 'cosine', 'inetorgperson'];
/** Entries a phone gets for one search; phones show a few dozen, and a one-letter search must stay quick. */
export const PHONEBOOK_SIZE_LIMIT = 250;
/** Seconds slapd spends on one search, and keeps an idle phone connection. */
const TIME_LIMIT = 10;
const IDLE_TIMEOUT = 120;
const START_TIMEOUT_MS = 15_000;
const MAX_BACKOFF_MS = 30_000;

export type SlapdState = 'stopped' | 'starting' | 'running' | 'failed';

export interface SlapdListen {
  host: string;
  /** Plain LDAP, anonymous and read-only. */
  ldapPort?: number;
  /** LDAP over TLS, read-only after a bind as the phonebook user. */
  ldapsPort?: number;
  tls?: { cert: Buffer; key: Buffer };
}

/** SIGTERM, then SIGKILL if the child is still there after 3 s; resolves when it exited. */
export function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 3000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/**
 * The hosts of the listener URLs. Named one by one: with `ldap://:port/` slapd starts even when the IPv4 port is
 * taken, as long as it could bind IPv6.
 */
function urlHosts(host: string): string[] {
  if (host === '0.0.0.0' || host === '') return ['0.0.0.0'];
  if (host === '::') return ['0.0.0.0', '[::]'];
  return [net.isIPv6(host) ? `[${host}]` : host];
}

/**
 * OpenLDAP's slapd, run and supervised as a child of Centralino, serving the phones' phonebook from an MDB
 * database under DATA_DIR/phonebook-ldap. slapd rather than an LDAP server written in JavaScript: it is what
 * Debian maintains for exactly this job, and it brings what phones rely on (filter matching with the schema's
 * telephone-number and case-ignoring rules, indexes, size and time limits, TLS, binds with access rules) at a
 * speed a Node event loop shared with the console would not keep. The database is Centralino's copy of the
 * central phonebook and is rebuilt from it whenever in doubt, so slapd never holds anything of its own.
 */
export class Slapd {
  private child: ChildProcess | undefined;
  private listen: SlapdListen | undefined;
  private stopping = false;
  private restartTimer: NodeJS.Timeout | undefined;
  private backoff = 1000;
  private output = '';
  private managerPassword = randomBytes(18).toString('base64url');
  state: SlapdState = 'stopped';
  error: string | null = null;
  /** Called after slapd came back on its own (the caller refreshes what it serves). */
  onRecovered: (() => void) | undefined;

  readonly managerDn = `cn=manager,${PHONEBOOK_BASE_DN}`;
  readonly socketPath: string;

  constructor(
    readonly dir: string,
    private readonly log: Logger,
    private readonly binary = SLAPD_BINARY,
  ) {
    const socket = path.join(dir, 'ldapi');
    // A Unix socket path is limited to 107 bytes; a deep DATA_DIR gets one in the temp folder instead.
    this.socketPath =
      Buffer.byteLength(socket) < 100
        ? socket
        : path.join(os.tmpdir(), `centralino-ldapi-${randomBytes(6).toString('hex')}`);
  }

  get installed(): boolean {
    return fs.existsSync(this.binary);
  }

  private get dataDir() {
    return path.join(this.dir, 'data');
  }

  private writeConfig(listen: SlapdListen, dataDir = this.dataDir, name = 'slapd.conf'): string {
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const lines = [
      ...SCHEMAS.map((name) => `include /etc/ldap/schema/${name}.schema`),
      `pidfile ${path.join(this.dir, 'slapd.pid')}`,
      `argsfile ${path.join(this.dir, 'slapd.args')}`,
      'modulepath /usr/lib/ldap',
      'moduleload back_mdb',
      `sizelimit ${PHONEBOOK_SIZE_LIMIT}`,
      `timelimit ${TIME_LIMIT}`,
      `idletimeout ${IDLE_TIMEOUT}`,
      // A phone's name search is a prefix (cn=Mario Ro*). slapd indexes prefixes of 2 to 4 characters by default,
      // so every 'Mario…' would be a candidate to read; prefixes up to 16 characters keep the candidates few.
      'index_substr_if_minlen 2',
      'index_substr_if_maxlen 16',
    ];
    if (listen.ldapsPort && listen.tls) {
      const cert = path.join(this.dir, 'tls.crt');
      const key = path.join(this.dir, 'tls.key');
      fs.writeFileSync(cert, listen.tls.cert, { mode: 0o600 });
      fs.writeFileSync(key, listen.tls.key, { mode: 0o600 });
      lines.push(`TLSCertificateFile ${cert}`, `TLSCertificateKeyFile ${key}`);
    }
    lines.push(
      'database mdb',
      `suffix "${PHONEBOOK_BASE_DN}"`,
      `rootdn "${this.managerDn}"`,
      `rootpw ${sshaPassword(this.managerPassword)}`,
      `directory ${dataDir}`,
      'maxsize 4294967296',
      // The database is a copy rebuilt from Centralino's own whenever it is lost; syncing every write would make
      // a 100,000-contact sync take minutes.
      'dbnosync',
      'index objectClass eq',
      'index uid eq',
      'index cn,o eq,sub',
      'index telephoneNumber,mobile,homePhone eq,sub',
      // Nobody reads the bind user's password, and the bind user is not a contact.
      'access to attrs=userPassword by anonymous auth by * none',
      `access to dn.exact="${PHONEBOOK_BIND_DN}" by * none`,
      [
        `access to dn.subtree="${PHONEBOOK_BASE_DN}"`,
        `by dn.exact="${PHONEBOOK_BIND_DN}" read`,
        // Only the plain listener answers without a bind; the TLS one serves its bound user alone. Told apart by
        // the connection's security strength (0 in clear, >0 over TLS): a number compared, where matching the
        // listener's URL with a regular expression for every attribute of every entry doubled a search's cost.
        ...(listen.ldapPort ? ['by anonymous ssf=1 none', 'by anonymous read'] : []),
        'by * none',
      ].join(' '),
    );
    const file = path.join(this.dir, name);
    fs.writeFileSync(file, `${lines.join('\n')}\n`, { mode: 0o600 });
    return file;
  }

  private urls(listen: SlapdListen): string[] {
    const hosts = urlHosts(listen.host);
    return [
      `ldapi://${encodeURIComponent(this.socketPath)}`,
      ...(listen.ldapPort ? hosts.map((host) => `ldap://${host}:${listen.ldapPort}/`) : []),
      ...(listen.ldapsPort ? hosts.map((host) => `ldaps://${host}:${listen.ldapsPort}/`) : []),
    ];
  }

  /** A slapd left by a Centralino that did not stop cleanly still holds the ports and the database. */
  private async killStale(): Promise<void> {
    const pidFile = path.join(this.dir, 'slapd.pid');
    let pid: number;
    try {
      pid = Number(fs.readFileSync(pidFile, 'utf8').trim());
    } catch {
      return;
    }
    if (!Number.isInteger(pid) || pid <= 1 || pid === this.child?.pid) return;
    let cmdline = '';
    try {
      cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      return;
    }
    if (!cmdline.includes(path.join(this.dir, 'slapd.conf'))) return;
    this.log.warn({ pid }, 'stopping a phonebook LDAP server left running');
    process.kill(pid, 'SIGTERM');
    for (let i = 0; i < 60; i++) {
      await new Promise((r) => setTimeout(r, 50));
      try {
        process.kill(pid, 0);
      } catch {
        return;
      }
    }
    process.kill(pid, 'SIGKILL');
  }

  /** A client bound as the manager over the private socket; the caller unbinds. */
  async manager(): Promise<Client> {
    const client = new Client({
      url: 'ldap://localhost',
      connectTimeout: 2000,
      timeout: 30_000,
      createConnection: (() => net.connect(this.socketPath)) as unknown as typeof net.connect,
    });
    try {
      await client.bind(this.managerDn, this.managerPassword);
    } catch (error) {
      await client.unbind().catch(() => {});
      throw error;
    }
    return client;
  }

  private spawnOnce(conf: string, listen: SlapdListen): ChildProcess {
    this.output = '';
    fs.rmSync(this.socketPath, { force: true });
    // -d none: in the foreground (our child, so it stops with us), printing only what goes wrong.
    const child = spawn(this.binary, ['-f', conf, '-h', this.urls(listen).join(' '), '-d', 'none'], {
      cwd: this.dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const collect = (chunk: Buffer) => {
      this.output = (this.output + chunk.toString()).slice(-4000);
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    child.once('error', (error) => collect(Buffer.from(String(error))));
    return child;
  }

  private async waitReady(child: ChildProcess): Promise<void> {
    const deadline = Date.now() + START_TIMEOUT_MS;
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new Error(this.reason() || `slapd exited with code ${child.exitCode}`);
      }
      try {
        const client = await this.manager();
        await client.unbind().catch(() => {});
        return;
      } catch (error) {
        if (Date.now() > deadline) throw new Error(`slapd did not answer within 15 s: ${String(error)}`);
        await new Promise((r) => setTimeout(r, 30));
      }
    }
  }

  /** slapd's last words, without its timestamps and banner. */
  private reason(): string {
    const lines = this.output
      .split('\n')
      .map((l) => l.replace(/^[0-9a-f]+\.[0-9a-f]+\s+0x[0-9a-f]+\s+/, '').trim())
      .filter((l) => l && !l.startsWith('@(#)') && !/^(slapd (starting|stopped|destroy)|connections_destroy)/.test(l));
    return lines.slice(-3).join('; ');
  }

  /** Starts slapd with these listeners (restarting it when it runs with others); resolves once it answers. */
  async start(listen: SlapdListen): Promise<void> {
    clearTimeout(this.restartTimer);
    this.restartTimer = undefined;
    await this.stop();
    if (!this.installed) {
      this.state = 'failed';
      this.error = `OpenLDAP's slapd is not installed (${this.binary}); install the Debian package slapd`;
      throw new Error(this.error);
    }
    fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    await this.killStale();
    this.listen = listen;
    this.state = 'starting';
    this.error = null;
    const conf = this.writeConfig(listen);
    let attempt = 0;
    for (;;) {
      const child = this.spawnOnce(conf, listen);
      this.child = child;
      try {
        await this.waitReady(child);
        break;
      } catch (error) {
        await stopChild(child);
        const message = error instanceof Error ? error.message : String(error);
        // A database slapd cannot open is only a copy: start again from an empty one, once.
        if (attempt++ === 0 && /mdb|database|db_open/i.test(message)) {
          this.log.warn({ error: message }, 'phonebook LDAP database unreadable; starting from an empty one');
          fs.rmSync(this.dataDir, { recursive: true, force: true });
          fs.mkdirSync(this.dataDir, { recursive: true, mode: 0o700 });
          continue;
        }
        this.child = undefined;
        this.state = 'failed';
        this.error = message;
        throw error;
      }
    }
    this.state = 'running';
    this.backoff = 1000;
    const child = this.child;
    child.once('exit', (code, signal) => {
      if (this.child !== child || this.stopping) return;
      this.child = undefined;
      this.state = 'failed';
      this.error = this.reason() || `slapd stopped (${signal ?? `code ${code}`})`;
      this.log.error({ code, signal, error: this.error }, 'phonebook LDAP server stopped; starting it again');
      this.scheduleRestart();
    });
  }

  /**
   * Replaces the whole database with these LDIF records: slapadd builds a new one beside the one in service (far
   * faster than adding entries one by one: 100,000 contacts in seconds, not minutes), then slapd restarts on it,
   * so phones lose it only for the restart.
   */
  async rebuild(records: Iterable<string>): Promise<void> {
    const listen = this.listen;
    if (!listen || this.state !== 'running') throw new Error('slapd is not running');
    const next = `${this.dataDir}.next`;
    fs.rmSync(next, { recursive: true, force: true });
    const conf = this.writeConfig(listen, next, 'slapadd.conf');
    const slapadd = path.join(path.dirname(this.binary), 'slapadd');
    await new Promise<void>((resolve, reject) => {
      // -q: no consistency checks an empty new database does not need.
      const child = spawn(slapadd, ['-f', conf, '-q'], { cwd: this.dir, stdio: ['pipe', 'ignore', 'pipe'] });
      let errors = '';
      child.stderr?.on('data', (chunk: Buffer) => {
        errors = (errors + chunk.toString()).slice(-2000);
      });
      child.once('error', reject);
      child.once('exit', (code) =>
        code === 0
          ? resolve()
          : reject(new Error(`slapadd failed (${code}): ${errors.trim().split('\n').slice(-2).join('; ')}`)),
      );
      const input = child.stdin;
      if (!input) return;
      input.on('error', () => {});
      const iterator = records[Symbol.iterator]();
      const write = () => {
        for (;;) {
          const item = iterator.next();
          if (item.done) {
            input.end();
            return;
          }
          if (!input.write(item.value)) {
            input.once('drain', write);
            return;
          }
        }
      };
      write();
    }).catch((error) => {
      fs.rmSync(next, { recursive: true, force: true });
      throw error;
    });
    fs.rmSync(path.join(this.dir, 'slapadd.conf'), { force: true });
    await this.stop();
    const old = `${this.dataDir}.old`;
    fs.rmSync(old, { recursive: true, force: true });
    fs.renameSync(this.dataDir, old);
    fs.renameSync(next, this.dataDir);
    fs.rmSync(old, { recursive: true, force: true });
    await this.start(listen);
  }

  private scheduleRestart() {
    const listen = this.listen;
    if (!listen) return;
    const delay = this.backoff;
    this.backoff = Math.min(this.backoff * 2, MAX_BACKOFF_MS);
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      this.start(listen).then(
        () => this.onRecovered?.(),
        () => this.scheduleRestart(),
      );
    }, delay);
    this.restartTimer.unref();
  }

  async stop(): Promise<void> {
    clearTimeout(this.restartTimer);
    this.restartTimer = undefined;
    const child = this.child;
    this.child = undefined;
    if (child) {
      this.stopping = true;
      try {
        await stopChild(child);
      } finally {
        this.stopping = false;
      }
    }
    this.state = 'stopped';
    this.error = null;
  }

  /** Stops for good: no restart, the listeners forgotten. */
  async shutdown(): Promise<void> {
    this.listen = undefined;
    await this.stop();
    fs.rmSync(this.socketPath, { force: true });
  }
}
