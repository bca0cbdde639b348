// A throwaway OpenLDAP server for tests: its own temp dir, config and free ports per call, so parallel
// test files never share state. Used by vitest and by the Playwright tests, so no vitest imports here.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { type LdapSettings, ldapPresets } from '@centralino/contract';
import { Client } from 'ldapts';
import { stopChild } from '../../src/features/phonebook-ldap/slapd.ts';

const SLAPD = '/usr/sbin/slapd';
const SCHEMAS = ['core', 'cosine', 'inetorgperson', 'nis'];
const BASE_DN = 'dc=example,dc=com';

export interface TestLdapUser {
  uid: string;
  /** Defaults to "givenName sn" (or sn alone). */
  cn?: string;
  givenName?: string;
  sn: string;
  mail?: string;
  password?: string;
}

export interface TestSlapd {
  url: string;
  /** Only with `tls: true`. */
  ldapsUrl?: string;
  host: '127.0.0.1';
  port: number;
  ldapsPort?: number;
  baseDn: string;
  peopleDn: string;
  /** The rootdn: slapd applies no size limits to it, so paging tests must bind as someone else. */
  adminDn: string;
  adminPassword: string;
  /** Adds an inetOrgPerson under ou=People (or under `parentDn`) and returns its DN. */
  addUser(user: TestLdapUser, parentDn?: string): Promise<string>;
  addUsers(users: TestLdapUser[], parentDn?: string): Promise<string[]>;
  addEntry(dn: string, attributes: Record<string, string | string[]>): Promise<void>;
  stop(): Promise<void>;
}

export interface StartSlapdOptions {
  /** Also listen on ldaps:// with a fresh self-signed certificate (StartTLS then works on ldap:// too). */
  tls?: boolean;
  /** Server-side limit for searches without paging (default 50); paged searches may read past it. */
  sizeLimit?: number;
}

/** A port nobody listens on right now (there is a small window before the caller binds it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        address && typeof address === 'object' ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

// Killed on exit too, so a crashed test run does not leave slapd processes behind.
const running = new Set<ChildProcess>();
let exitHookInstalled = false;
function track(child: ChildProcess): void {
  running.add(child);
  child.once('exit', () => running.delete(child));
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => {
      for (const c of running) c.kill('SIGKILL');
    });
  }
}

function writeConfig(dir: string, adminPassword: string, sizeLimit: number, tls: boolean): string {
  const lines = [
    ...SCHEMAS.map((name) => `include /etc/ldap/schema/${name}.schema`),
    `pidfile ${path.join(dir, 'slapd.pid')}`,
    `argsfile ${path.join(dir, 'slapd.args')}`,
    'modulepath /usr/lib/ldap',
    'moduleload back_mdb',
    // Like Active Directory's MaxPageSize: a plain search stops at the limit, a paged one reads
    // everything. slapd caps paged searches at the hard limit too unless prtotal says otherwise.
    `sizelimit size.soft=${sizeLimit} size.hard=${sizeLimit} size.prtotal=unlimited`,
    ...(tls
      ? [`TLSCertificateFile ${path.join(dir, 'cert.pem')}`, `TLSCertificateKeyFile ${path.join(dir, 'key.pem')}`]
      : []),
    'database mdb',
    `suffix "${BASE_DN}"`,
    `rootdn "cn=admin,${BASE_DN}"`,
    `rootpw ${adminPassword}`,
    `directory ${path.join(dir, 'data')}`,
    'maxsize 67108864',
    // Tests do not need durability; syncing every write makes bulk adds slow.
    'dbnosync',
    'index objectClass,uid eq',
  ];
  const file = path.join(dir, 'slapd.conf');
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

async function withAdmin<T>(url: string, dn: string, password: string, run: (c: Client) => Promise<T>): Promise<T> {
  const client = new Client({ url, connectTimeout: 2000, timeout: 10_000 });
  try {
    await client.bind(dn, password);
    return await run(client);
  } finally {
    await client.unbind().catch(() => {});
  }
}

/** Resolves once slapd accepts a bind; rejects with slapd's output if it exits first. */
async function waitForBind(child: ChildProcess, output: () => string, url: string, dn: string, password: string) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`slapd exited during start-up:\n${output()}`);
    }
    try {
      await withAdmin(url, dn, password, async () => {});
      return;
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`slapd did not accept a bind within 15 s: ${error}\n${output()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

const stopProcess = stopChild;

function userAttributes(user: TestLdapUser): Record<string, string | string[]> {
  const attributes: Record<string, string | string[]> = {
    objectClass: ['top', 'person', 'organizationalPerson', 'inetOrgPerson'],
    uid: user.uid,
    sn: user.sn,
    cn: user.cn ?? [user.givenName, user.sn].filter(Boolean).join(' '),
  };
  if (user.givenName) attributes.givenName = user.givenName;
  if (user.mail) attributes.mail = user.mail;
  if (user.password) attributes.userPassword = user.password;
  return attributes;
}

async function launch(dir: string, conf: string, tls: boolean) {
  const port = await freePort();
  const ldapsPort = tls ? await freePort() : undefined;
  const urls = [`ldap://127.0.0.1:${port}/`, ...(ldapsPort ? [`ldaps://127.0.0.1:${ldapsPort}/`] : [])];
  // -d keeps slapd in the foreground (a child we can kill); level 0 keeps it quiet.
  const child = spawn(SLAPD, ['-f', conf, '-h', urls.join(' '), '-d', '0'], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  track(child);
  let output = '';
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  return { child, port, ldapsPort, output: () => output };
}

export async function startSlapd(options: StartSlapdOptions = {}): Promise<TestSlapd> {
  const tls = options.tls ?? false;
  if (!fs.existsSync(SLAPD)) {
    throw new Error(`${SLAPD} is missing; run: node scripts/ensure-slapd.mjs`);
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'centralino-slapd-'));
  const adminDn = `cn=admin,${BASE_DN}`;
  const adminPassword = randomBytes(12).toString('hex');
  const peopleDn = `ou=People,${BASE_DN}`;
  try {
    fs.mkdirSync(path.join(dir, 'data'));
    if (tls) {
      execFileSync(
        'openssl',
        ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=127.0.0.1', '-days', '1'].concat([
          '-keyout',
          path.join(dir, 'key.pem'),
          '-out',
          path.join(dir, 'cert.pem'),
        ]),
        { stdio: 'pipe' },
      );
    }
    const conf = writeConfig(dir, adminPassword, options.sizeLimit ?? 50, tls);

    // Another process may take a free port before slapd binds it; then slapd exits and we retry.
    let started: Awaited<ReturnType<typeof launch>> | undefined;
    for (let attempt = 1; !started; attempt++) {
      const candidate = await launch(dir, conf, tls);
      try {
        await waitForBind(
          candidate.child,
          candidate.output,
          `ldap://127.0.0.1:${candidate.port}`,
          adminDn,
          adminPassword,
        );
        started = candidate;
      } catch (error) {
        await stopProcess(candidate.child);
        if (attempt >= 3) throw error;
      }
    }
    const { child, port, ldapsPort } = started;
    const url = `ldap://127.0.0.1:${port}`;
    const admin = <T>(run: (c: Client) => Promise<T>) => withAdmin(url, adminDn, adminPassword, run);

    await admin(async (c) => {
      await c.add(BASE_DN, { objectClass: ['top', 'dcObject', 'organization'], dc: 'example', o: 'Example' });
      await c.add(peopleDn, { objectClass: ['top', 'organizationalUnit'], ou: 'People' });
    });

    const addUsers = (users: TestLdapUser[], parentDn = peopleDn) =>
      admin(async (c) => {
        const dns: string[] = [];
        for (const user of users) {
          const dn = `uid=${user.uid},${parentDn}`;
          await c.add(dn, userAttributes(user));
          dns.push(dn);
        }
        return dns;
      });

    return {
      url,
      ldapsUrl: ldapsPort ? `ldaps://127.0.0.1:${ldapsPort}` : undefined,
      host: '127.0.0.1',
      port,
      ldapsPort,
      baseDn: BASE_DN,
      peopleDn,
      adminDn,
      adminPassword,
      addUsers,
      addUser: async (user, parentDn) => (await addUsers([user], parentDn))[0] as string,
      addEntry: (dn, attributes) => admin((c) => c.add(dn, attributes)),
      stop: async () => {
        await stopProcess(child);
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

/** Settings for the OpenLDAP preset pointing at this server, bound as the rootdn. With security
 * 'ldaps' the port defaults to the ldaps one. */
export function settingsFor(slapd: TestSlapd, overrides: Partial<LdapSettings> = {}): LdapSettings {
  const security = overrides.security ?? ldapPresets.ldap.security;
  const port = security === 'ldaps' ? slapd.ldapsPort : slapd.port;
  if (port === undefined) throw new Error('Start slapd with { tls: true } to use ldaps');
  return {
    ...ldapPresets.ldap,
    host: slapd.host,
    port,
    bindDn: slapd.adminDn,
    bindPassword: slapd.adminPassword,
    baseDn: slapd.baseDn,
    ...overrides,
  };
}
