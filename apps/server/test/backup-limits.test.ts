import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { migrateToLatest, openDatabase } from '../src/db/database.ts';
import { TarWriter } from '../src/features/backup/tar.ts';
import {
  type AuthHeaders,
  createTestDatabase,
  DB_KINDS,
  type DbKind,
  login,
  startApp,
  type TestApp,
  type TestDatabase,
} from './helpers.ts';
import { multipartBody } from './provisioning/support.ts';
import { freePort } from './support/slapd.ts';

interface Server extends TestApp {
  testDb: TestDatabase;
  headers: AuthHeaders;
}

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

async function server(kind: DbKind, env: Record<string, string> = {}): Promise<Server> {
  const testDb = await createTestDatabase(kind);
  const started = await startApp(testDb, { env });
  cleanups.push(async () => {
    await started.close();
    await testDb.drop();
  });
  return { ...started, testDb, headers: await login(started.app) };
}

function upload(s: Server, archive: Buffer, lang = 'en') {
  const body = multipartBody('backup.tar.gz', archive, 'file');
  return s.app.inject({
    method: 'POST',
    url: '/api/backup/uploads',
    headers: { ...s.headers, ...body.headers, 'accept-language': lang },
    payload: body.payload,
  });
}

/** A tar.gz of these entries, each `size` bytes of zeros: a few kB of gzip per MiB unpacked. */
async function bomb(entries: { name: string; size: number }[]): Promise<Buffer> {
  const gzip = zlib.createGzip({ level: 9 });
  const chunks: Buffer[] = [];
  gzip.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise((r) => gzip.on('end', r));
  const tar = new TarWriter(gzip);
  const zeros = Buffer.alloc(1024 * 1024);
  for (const { name, size } of entries) {
    await tar.add(
      name,
      size,
      (function* () {
        for (let left = size; left > 0; left -= zeros.length) yield zeros.subarray(0, Math.min(left, zeros.length));
      })(),
    );
  }
  await tar.end();
  await ended;
  return Buffer.concat(chunks);
}

/** Every file a restore writes or lays out under DATA_DIR, with its size (not the Asterisk files the app applies). */
function disk(dir: string): Record<string, number> {
  const out: Record<string, number> = {};
  const walk = (d: string, rel: string) => {
    if (!fs.existsSync(d)) return;
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const r = `${rel}/${entry.name}`;
      if (entry.isDirectory()) walk(path.join(d, entry.name), r);
      else out[r] = fs.statSync(path.join(d, entry.name)).size;
    }
  };
  for (const area of ['backup-work', 'provisioning', 'phonebook', 'tls', 'google']) walk(path.join(dir, area), area);
  for (const name of fs.readdirSync(dir)) if (/\.(restore|old)-/.test(name)) out[name] = -1;
  return out;
}

const MiB = 1024 * 1024;

describe.each(DB_KINDS)('a gzip bomb uploaded for a restore on %s', (kind) => {
  it('is refused at BACKUP_RESTORE_MAX_BYTES, naming it, with nothing left on disk and the data unchanged', async () => {
    const s = await server(kind, { BACKUP_RESTORE_MAX_BYTES: String(4 * MiB) });
    const trunk = await s.app.inject({
      method: 'POST',
      url: '/api/trunks',
      headers: s.headers,
      payload: {
        provider: 'vivavox',
        name: 'vivavox',
        username: '0721123456',
        password: 's3cr3t!',
        phone: '0721123456',
        codecs: ['alaw'],
        forceCodec: false,
      },
    });
    expect(trunk.statusCode, trunk.body).toBeLessThan(300);
    fs.mkdirSync(path.join(s.testDb.dataDir, 'phonebook'), { recursive: true });
    fs.writeFileSync(path.join(s.testDb.dataDir, 'phonebook', 'contacts.csv'), 'name,number\nAda,201\n');
    const trunksBefore = (await s.app.inject({ method: 'GET', url: '/api/trunks', headers: s.headers })).json();
    const diskBefore = disk(s.testDb.dataDir);

    // One entry of 256 MiB of zeros, and eight of 1 MiB, the fifth of which passes the cap after four were written.
    const one = await bomb([{ name: 'files/phonebook/bomb.bin', size: 256 * MiB }]);
    const many = await bomb(Array.from({ length: 8 }, (_, i) => ({ name: `files/google/part-${i}.bin`, size: MiB })));
    expect(one.length).toBeLessThan(MiB); // small compressed, big expanded
    for (const [name, archive] of [
      ['one large entry', one],
      ['many entries', many],
    ] as const) {
      const res = await upload(s, archive);
      expect(res.statusCode, `${name}: ${res.body}`).toBe(413);
      expect(res.json(), name).toMatchObject({
        code: 'backup_too_large',
        title: 'Backup too large',
        detail: expect.stringContaining('more than 4 MiB, the most this server accepts (BACKUP_RESTORE_MAX_BYTES)'),
      });
      expect(disk(s.testDb.dataDir), name).toEqual(diskBefore);
    }
    const italian = await upload(s, one, 'it');
    expect(italian.json()).toMatchObject({
      code: 'backup_too_large',
      title: 'Backup troppo grande',
      detail: expect.stringContaining('supera 4 MiB, il massimo che questo server accetta'),
    });
    expect(fs.readdirSync(path.join(s.testDb.dataDir, 'backup-work'))).toEqual([]);
    expect((await s.app.inject({ method: 'GET', url: '/api/trunks', headers: s.headers })).json()).toEqual(
      trunksBefore,
    );
    // A real backup under the cap still goes through.
    const backup = await s.app.inject({ method: 'GET', url: '/api/backup', headers: s.headers });
    expect((await upload(s, backup.rawPayload)).statusCode).toBe(200);
  });
});

/** A process id that no process has now (a child that has exited). */
function deadPid(): number {
  const child = spawnSync('true');
  if (!child.pid) throw new Error('could not start true');
  return child.pid;
}

function plant(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

/** Builds and readies the app as main.ts does, with its log (warnings and above) collected. */
async function startLogged(testDb: TestDatabase, env: Record<string, string>) {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const config = loadConfig({
    PHONEBOOK_LDAP_PORT: String(await freePort()),
    PHONEBOOK_LDAPS_PORT: String(await freePort()),
    ...testDb.env,
    ...env,
  });
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  await migrateToLatest(database.db);
  const { app } = await buildApp({ config, database, logger: { level: 'warn', stream } });
  await app.ready();
  cleanups.push(async () => {
    await app.close();
    await database.close();
  });
  return { app, lines };
}

describe.each(DB_KINDS)('a start on %s after a backup or restore was killed (kill -9)', (kind) => {
  it('removes the copies of dumps and keys it left, says so in the log, and leaves live data and live work alone', async () => {
    const testDb = await createTestDatabase(kind);
    cleanups.push(() => testDb.drop());
    const backupDir = fs.mkdtempSync(path.join(os.tmpdir(), 'centralino-backups-'));
    cleanups.push(async () => fs.rmSync(backupDir, { recursive: true, force: true }));
    const data = testDb.dataDir;
    const work = path.join(data, 'backup-work');
    const owner = (pid: number) => JSON.stringify({ host: os.hostname(), pid, instance: 'killed' });
    const dead = deadPid();

    // Live data.
    plant(path.join(data, 'tls', 'cert.pem'), 'LIVE CERT');
    plant(path.join(data, 'phonebook', 'contacts.csv'), 'LIVE CONTACTS');
    plant(path.join(backupDir, 'centralino-backup-20260101-023000.tar.gz'), 'a finished backup');
    // A download killed while dumping the tables.
    plant(path.join(work, 'w-dump1', 'owner.json'), owner(dead));
    plant(path.join(work, 'w-dump1', 'trunks.jsonl'), '{"table":"trunks"}\n["vivavox","s3cr3t!"]\n');
    // A restore killed before its commit: the upload unpacked, and two areas laid out beside the live ones.
    plant(path.join(work, 'w-rest1', 'owner.json'), owner(dead));
    plant(path.join(work, 'w-rest1', 'staged.json'), '{}');
    plant(path.join(work, 'w-rest1', 'content', 'db', 'admins.jsonl'), 'secrets');
    plant(path.join(data, 'tls.restore-w-rest1', 'key.pem'), 'RESTORED KEY');
    plant(path.join(data, 'phonebook.restore-w-rest1', 'contacts.csv'), 'RESTORED CONTACTS');
    // A scheduled backup killed while writing its file.
    plant(path.join(work, 'w-sched1', 'owner.json'), owner(dead));
    plant(path.join(backupDir, '.centralino-backup-20260102-023000.tar.gz.partial-w-sched1'), 'half a backup');
    // Work of a process that is alive (another process sharing DATA_DIR): not to be touched.
    plant(path.join(work, 'w-live1', 'owner.json'), owner(process.ppid));
    plant(path.join(work, 'w-live1', 'users.jsonl'), 'in progress');
    plant(path.join(data, 'google.restore-w-live1', 'account.json'), 'in progress');
    plant(path.join(backupDir, '.centralino-backup-20260103-023000.tar.gz.partial-w-live1'), 'in progress');
    // Left by a version that did not name owners: on SQLite nobody else can be using it.
    plant(path.join(work, 'w-unowned', 'users.jsonl'), 'old leftover');

    const { lines } = await startLogged(testDb, { BACKUP_DIR: backupDir });

    const left = (dir: string) => fs.readdirSync(dir).sort();
    expect(left(work)).toEqual(kind === 'sqlite' ? ['w-live1'] : ['w-live1', 'w-unowned']);
    expect(left(data).filter((n) => n.includes('.restore-') || n.includes('.old-'))).toEqual([
      'google.restore-w-live1',
    ]);
    expect(left(backupDir)).toEqual([
      '.centralino-backup-20260103-023000.tar.gz.partial-w-live1',
      'centralino-backup-20260101-023000.tar.gz',
    ]);
    expect(fs.readFileSync(path.join(data, 'tls', 'cert.pem'), 'utf8')).toBe('LIVE CERT');
    expect(fs.readdirSync(path.join(data, 'tls'))).toEqual(['cert.pem']);
    expect(fs.readFileSync(path.join(data, 'phonebook', 'contacts.csv'), 'utf8')).toBe('LIVE CONTACTS');
    expect(fs.readFileSync(path.join(work, 'w-live1', 'users.jsonl'), 'utf8')).toBe('in progress');

    const said = lines.filter((l) => String(l.msg).includes('left by an interrupted backup or restore'));
    expect(said).toHaveLength(1);
    expect(said[0]?.level).toBe(40); // warn
    const removed = [
      'backup-work/w-dump1',
      'backup-work/w-rest1',
      'backup-work/w-sched1',
      'tls.restore-w-rest1',
      'phonebook.restore-w-rest1',
      path.join(backupDir, '.centralino-backup-20260102-023000.tar.gz.partial-w-sched1'),
      ...(kind === 'sqlite' ? ['backup-work/w-unowned'] : []),
    ];
    expect([...((said[0]?.removed ?? []) as string[])].sort()).toEqual([...removed].sort());
    for (const name of removed) expect(said[0]?.msg).toContain(name);
  });
});

describe('a start after a restore killed while swapping its files in (after its commit)', () => {
  it('finishes the swap, since the database already holds the restored rows', async () => {
    const testDb = await createTestDatabase('sqlite');
    cleanups.push(() => testDb.drop());
    const data = testDb.dataDir;
    const work = path.join(data, 'backup-work');
    plant(path.join(work, 'w-swap1', 'owner.json'), JSON.stringify({ host: os.hostname(), pid: deadPid() }));
    plant(path.join(work, 'w-swap1', 'committed'), '');
    // tls was swapped already (its old copy not yet removed); phonebook was still waiting.
    plant(path.join(data, 'tls', 'cert.pem'), 'RESTORED CERT');
    plant(path.join(data, 'tls.old-w-swap1', 'cert.pem'), 'OLD CERT');
    plant(path.join(data, 'phonebook', 'contacts.csv'), 'OLD CONTACTS');
    plant(path.join(data, 'phonebook.restore-w-swap1', 'contacts.csv'), 'RESTORED CONTACTS');

    const { lines } = await startLogged(testDb, {});

    expect(fs.readFileSync(path.join(data, 'tls', 'cert.pem'), 'utf8')).toBe('RESTORED CERT');
    expect(fs.readFileSync(path.join(data, 'phonebook', 'contacts.csv'), 'utf8')).toBe('RESTORED CONTACTS');
    expect(fs.readdirSync(data).filter((n) => n.includes('.restore-') || n.includes('.old-'))).toEqual([]);
    expect(fs.readdirSync(work)).toEqual([]);
    const said = lines.filter((l) => String(l.msg).includes('finished swapping in the files of a restore'));
    expect(said).toHaveLength(1);
    expect(said[0]).toMatchObject({ finished: ['w-swap1'], removed: ['backup-work/w-swap1'] });
  });
});
