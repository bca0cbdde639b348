import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { BackupSummary } from '@centralino/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { readTar, TarWriter } from '../src/features/backup/tar.ts';
import { ROW_UPGRADES } from '../src/features/backup/upgrades.ts';
import { loadPbxModel } from '../src/pbx/load.ts';
import { renderConfiguration } from '../src/pbx/render/index.ts';
import {
  type AuthHeaders,
  createTestDatabase,
  type DbKind,
  expectError,
  login,
  startApp,
  type TestApp,
  type TestDatabase,
} from './helpers.ts';
import { multipartBody } from './provisioning/support.ts';

const V1 = '/api/provisioning/v1';

interface Server extends TestApp {
  testDb: TestDatabase;
  headers: AuthHeaders;
}

const servers: Server[] = [];
afterAll(async () => {
  for (const s of servers) {
    await s.close();
    await s.testDb.drop();
  }
});

async function server(kind: DbKind, env: Record<string, string> = {}, now?: () => number): Promise<Server> {
  const testDb = await createTestDatabase(kind);
  const started = await startApp(testDb, { env, now });
  const s = { ...started, testDb, headers: await login(started.app) };
  servers.push(s);
  return s;
}

function call(s: Server, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) {
  return s.app.inject({ method, url, headers: s.headers, payload: payload as object });
}

async function ok(s: Server, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) {
  const res = await call(s, method, url, payload);
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
  return res;
}

/** A small but complete system: directory, users with numbers, a trunk, routes, a phone, a file, a recording. */
async function seed(s: Server): Promise<void> {
  const task = (await ok(s, 'POST', '/api/configuration/mode', { mode: 'legacy' })).json().result as string;
  for (let i = 0; i < 100; i++) {
    if ((await ok(s, 'GET', `/api/tasks/${task}`)).json().progress === 100) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  for (const [username, fullname, extension] of [
    ['alice', 'Alice Rossi', '201'],
    ['bob', 'Bob Bianchi', '202'],
    ['carla', 'Carla Verdi', '203'],
  ] as const) {
    await ok(s, 'POST', '/api/users', { username, fullname });
    await ok(s, 'POST', '/api/mainextensions', { username, extension });
  }
  await ok(s, 'POST', '/api/trunks', {
    provider: 'vivavox',
    name: 'vivavox',
    username: '0721123456',
    password: 's3cr3t!',
    phone: '0721123456',
    codecs: ['alaw', 'ulaw'],
    forceCodec: true,
  });
  const defaults = (await ok(s, 'GET', '/api/outboundroutes/defaults')).json();
  await ok(s, 'POST', '/api/outboundroutes', { it: defaults.it });
  await ok(s, 'POST', `${V1}/phones`, { mac: '00:15:65:aa:bb:cc', model: 'yealink-T46', display_name: 'Reception' });
  const upload = multipartBody('Tone.wav', Buffer.from('RIFF....WAVE tone bytes'));
  const res = await s.app.inject({
    method: 'POST',
    url: `${V1}/ringtones`,
    headers: { ...s.headers, ...upload.headers },
    payload: upload.payload,
  });
  expect(res.statusCode, res.body).toBe(204);
  // A recording with bytes that are not text (a blob column must survive the JSON dump on both databases).
  const now = Date.now();
  await s.database.db
    .insertInto('recordings')
    .values({
      displayname: 'Welcome',
      audio: Buffer.from([0, 1, 2, 250, 251, 252, 255]),
      duration_ms: 1500,
      created_at: now,
      updated_at: now,
    })
    .execute();
  fs.mkdirSync(path.join(s.testDb.dataDir, 'tls'), { recursive: true });
  fs.writeFileSync(path.join(s.testDb.dataDir, 'tls', 'cert.pem'), '-----BEGIN CERTIFICATE-----\nMIIB\n');
}

/** What a user sees: a sample of list answers. */
async function answers(s: Server): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const url of [
    '/api/users/false',
    '/api/trunks',
    '/api/outboundroutes',
    '/api/cti/groups',
    '/api/cti/profiles',
    '/api/recordings',
    '/api/configuration/userprovider',
    `${V1}/phones`,
    `${V1}/ringtones`,
  ]) {
    // Paths inside the data folder (a recording's sound file) name each installation's own folder.
    out[url] = JSON.parse((await ok(s, 'GET', url)).body.replaceAll(s.testDb.dataDir, '<DATA_DIR>'));
  }
  return out;
}

/** The Asterisk configuration the PBX would be given, file by file. */
async function rendered(s: Server): Promise<Record<string, string>> {
  const model = await loadPbxModel(s.database.db, {
    soundsDir: '/sounds',
    tls: { certFile: '/k/c.pem', keyFile: '/k/k.pem', caFile: null },
    ami: { port: 5038, bindAddress: '127.0.0.1', users: [] },
    system: {
      runUser: null,
      runGroup: null,
      directories: { config: '/c', modules: '/m', varlib: '/v', data: '/d', spool: '/s', run: '/r', log: '/l' },
    },
    version: 'test',
  });
  return Object.fromEntries(renderConfiguration(model));
}

function files(s: Server): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string, rel: string) => {
    if (!fs.existsSync(dir)) return;
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const r = `${rel}/${entry.name}`;
      if (entry.isDirectory()) walk(path.join(dir, entry.name), r);
      else out[r] = fs.readFileSync(path.join(dir, entry.name)).toString('base64');
    }
  };
  for (const area of ['provisioning/files', 'tls']) walk(path.join(s.testDb.dataDir, area), area);
  return out;
}

async function download(s: Server): Promise<Buffer> {
  const res = await call(s, 'GET', '/api/backup');
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-disposition']).toMatch(/^attachment; filename="centralino-backup-\d{8}-\d{6}\.tar\.gz"$/);
  return res.rawPayload;
}

function upload(s: Server, archive: Buffer) {
  const body = multipartBody('backup.tar.gz', archive, 'file');
  return s.app.inject({
    method: 'POST',
    url: '/api/backup/uploads',
    headers: { ...s.headers, ...body.headers },
    payload: body.payload,
  });
}

async function restore(s: Server, archive: Buffer): Promise<BackupSummary> {
  const res = await upload(s, archive);
  expect(res.statusCode, res.body).toBe(200);
  const summary = res.json() as BackupSummary;
  const done = await call(s, 'POST', `/api/backup/uploads/${summary.id}/restore`);
  expect(done.statusCode, done.body).toBe(200);
  return summary;
}

/** The archive's entries, to rebuild it with changes. */
async function entries(archive: Buffer): Promise<{ name: string; bytes: Buffer }[]> {
  const out: { name: string; bytes: Buffer }[] = [];
  await readTar(zlib.createGunzip().end(archive), async (entry, content) => {
    const chunks: Buffer[] = [];
    for await (const c of content) chunks.push(c);
    out.push({ name: entry.name, bytes: Buffer.concat(chunks) });
  });
  return out;
}

async function pack(list: { name: string; bytes: Buffer }[]): Promise<Buffer> {
  const gzip = zlib.createGzip();
  const chunks: Buffer[] = [];
  gzip.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise((r) => gzip.on('end', r));
  const tar = new TarWriter(gzip);
  for (const e of list) await tar.add(e.name, e.bytes.length, [e.bytes]);
  await tar.end();
  await ended;
  return Buffer.concat(chunks);
}

describe.each([
  ['sqlite', 'sqlite'],
  ['postgres', 'postgres'],
  ['sqlite', 'postgres'],
] as const)('backup on %s, restore on %s', (from, to) => {
  it('restores a wiped system to the same answers, Asterisk files and files', async () => {
    const source = await server(from);
    await seed(source);
    const before = { answers: await answers(source), rendered: await rendered(source), files: files(source) };
    const archive = await download(source);

    // A wiped system: a fresh database and data folder, with something of its own that the restore replaces.
    const target = await server(to);
    await ok(target, 'POST', '/api/trunks', {
      provider: 'vivavox',
      name: 'other',
      username: '0721000000',
      password: 'x-secret',
      phone: '0721000000',
      codecs: ['alaw'],
      forceCodec: false,
    });
    const summary = await restore(target, archive);
    expect(summary).toMatchObject({ migration: expect.stringMatching(/^\d{4}_/), older: false });
    expect(summary.tables.find((t) => t.name === 'users')?.rows).toBe(3);
    expect(summary.files.find((f) => f.area === 'provisioning/files')?.count).toBe(1);
    expect(summary.files.find((f) => f.area === 'tls')?.count).toBe(1);

    expect(await answers(target)).toEqual(before.answers);
    expect(await rendered(target)).toEqual(before.rendered);
    expect(files(target)).toEqual(before.files);
    for (const name of Object.keys(before.files)) {
      expect(fs.statSync(path.join(target.testDb.dataDir, name)).mode & 0o777, name).toBe(0o600);
    }
    // The administrator who restored is still signed in, and new ids continue after the restored ones.
    const created = await ok(target, 'POST', '/api/users', { username: 'dario', fullname: 'Dario Neri' });
    expect(created.statusCode).toBe(201);
    const staged = path.join(target.testDb.dataDir, 'backup-work');
    expect(fs.existsSync(staged) ? fs.readdirSync(staged) : []).toEqual([]);
  });
});

describe.each(['sqlite', 'postgres'] as const)('a damaged backup on %s', (kind) => {
  it('is refused, and nothing changes', async () => {
    const s = await server(kind);
    await seed(s);
    const archive = await download(s);
    await ok(s, 'DELETE', '/api/trunks/1');
    const before = { answers: await answers(s), files: files(s) };
    const list = await entries(archive);

    const users = list.find((e) => e.name === 'db/users.jsonl');
    expect(users).toBeDefined();
    const tampered = list.map((e) =>
      e === users ? { ...e, bytes: Buffer.from(e.bytes.toString().replace('Alice', 'Alicx')) } : e,
    );
    const manifestOf = (l: typeof list) =>
      JSON.parse(l.find((e) => e.name === 'manifest.json')?.bytes.toString() ?? '');
    const withManifest = (change: (m: Record<string, unknown>) => void) =>
      list.map((e) => {
        if (e.name !== 'manifest.json') return e;
        const m = manifestOf(list);
        change(m);
        return { ...e, bytes: Buffer.from(JSON.stringify(m)) };
      });
    const cases: [string, Buffer, number, string][] = [
      ['bad checksum', await pack(tampered), 400, 'backup_invalid'],
      ['truncated', archive.subarray(0, Math.floor(archive.length / 2)), 400, 'backup_invalid'],
      ['no manifest', await pack(list.filter((e) => e.name !== 'manifest.json')), 400, 'backup_invalid'],
      ['an entry missing', await pack(list.filter((e) => e.name !== 'db/trunks.jsonl')), 400, 'backup_invalid'],
      ['another product', await pack(withManifest((m) => (m.product = 'other'))), 400, 'backup_invalid'],
      ['a newer version', await pack(withManifest((m) => (m.migration = '9999_future'))), 409, 'backup_too_new'],
      ['not gzip', Buffer.from('hello, this is not a backup'), 400, 'backup_invalid'],
    ];
    for (const [name, bytes, status, code] of cases) {
      const res = await upload(s, bytes);
      expect(res.statusCode, `${name}: ${res.body}`).toBe(status);
      expect(res.json().code, name).toBe(code);
      expect(await answers(s), name).toEqual(before.answers);
      expect(files(s), name).toEqual(before.files);
    }
    expect(fs.readdirSync(path.join(s.testDb.dataDir, 'backup-work'))).toEqual([]);
    expectError(await call(s, 'POST', '/api/backup/uploads/w-abc123/restore'), 404, 'backup_expired');
  });

  it('that fails while loading the database leaves the database and files as they were', async () => {
    const s = await server(kind);
    await seed(s);
    const archive = await download(s);
    const before = { answers: await answers(s), files: files(s) };
    // A row that is consistent with the manifest but breaks a constraint (a second user with the same name).
    const list = await entries(archive);
    const manifest = JSON.parse(list.find((e) => e.name === 'manifest.json')?.bytes.toString() ?? '');
    const users = list.find((e) => e.name === 'db/users.jsonl');
    if (!users) throw new Error('no users table');
    const lines = users.bytes.toString().trimEnd().split('\n');
    const header = JSON.parse(lines[0] ?? '') as { columns: string[] };
    const copy = JSON.parse(lines[1] ?? '') as unknown[];
    copy[header.columns.indexOf('id')] = 999;
    const bytes = Buffer.from(`${[...lines, JSON.stringify(copy)].join('\n')}\n`);
    const { createHash } = await import('node:crypto');
    manifest.entries['db/users.jsonl'] = {
      size: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
    };
    manifest.tables.users += 1;
    const broken = await pack(
      list.map((e) =>
        e.name === 'db/users.jsonl'
          ? { name: e.name, bytes }
          : e.name === 'manifest.json'
            ? { name: e.name, bytes: Buffer.from(JSON.stringify(manifest)) }
            : e,
      ),
    );
    await ok(s, 'DELETE', '/api/trunks/1');
    fs.writeFileSync(path.join(s.testDb.dataDir, 'tls', 'cert.pem'), 'changed since the backup');
    const changed = { answers: await answers(s), files: files(s) };
    expect(changed).not.toEqual(before);
    const res = await upload(s, broken);
    expect(res.statusCode, res.body).toBe(200);
    const failed = await call(s, 'POST', `/api/backup/uploads/${res.json().id}/restore`);
    expectError(failed, 400, 'backup_invalid');
    expect(await answers(s)).toEqual(changed.answers);
    expect(files(s)).toEqual(changed.files);
    const leftovers = fs.readdirSync(path.join(s.testDb.dataDir)).filter((n) => n.includes('.restore-'));
    expect(leftovers).toEqual([]);
  });
});

describe.each(['sqlite', 'postgres'] as const)('a backup from an earlier level on %s', (kind) => {
  it('restores: what later migrations added takes its defaults, and the summary says so', async () => {
    const s = await server(kind);
    await seed(s);
    const archive = await download(s);
    const before = await answers(s);
    // As the archive of the level before 0021 (day/night switches) would be: no daynight table, and recordings
    // without a column (standing in for a column a later migration adds).
    const list = (await entries(archive)).filter((e) => e.name !== 'db/daynight.jsonl');
    const recordings = list.find((e) => e.name === 'db/recordings.jsonl');
    if (!recordings) throw new Error('no recordings table');
    const lines = recordings.bytes
      .toString()
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    const at = (lines[0].columns as string[]).indexOf('fcode_pass');
    lines[0].columns.splice(at, 1);
    for (const row of lines.slice(1)) row.splice(at, 1);
    recordings.bytes = Buffer.from(`${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    const manifestEntry = list.find((e) => e.name === 'manifest.json');
    if (!manifestEntry) throw new Error('no manifest');
    const manifest = JSON.parse(manifestEntry.bytes.toString());
    manifest.migration = '0020_call_flows';
    delete manifest.entries['db/daynight.jsonl'];
    delete manifest.tables.daynight;
    const { createHash } = await import('node:crypto');
    manifest.entries['db/recordings.jsonl'] = {
      size: recordings.bytes.length,
      sha256: createHash('sha256').update(recordings.bytes).digest('hex'),
    };
    manifestEntry.bytes = Buffer.from(JSON.stringify(manifest));
    await s.database.db.deleteFrom('users').where('username', '=', 'carla').execute();

    // A later migration that rewrote rows would bring its step for older backups (upgrades.ts); one stands in here.
    ROW_UPGRADES.push({
      migration: '0021_daynight',
      table: 'recordings',
      upgrade: (row) => ({ ...row, description: 'v0020' }),
    });
    try {
      const summary = await restore(s, await pack(list));
      expect(summary).toMatchObject({ migration: '0020_call_flows', older: true });
    } finally {
      ROW_UPGRADES.pop();
    }
    const recordingsBefore = before['/api/recordings'] as { description: string }[];
    expect(await answers(s)).toEqual({
      ...before,
      '/api/recordings': recordingsBefore.map((r) => ({ ...r, description: 'v0020' })),
    });
    expect(await s.database.db.selectFrom('daynight').selectAll().execute()).toEqual([]);
  });
});

describe('two processes on one PostgreSQL and DATA_DIR', () => {
  it('restore an upload checked by the other one (behind a load balancer)', async () => {
    const first = await server('postgres');
    await seed(first);
    const archive = await download(first);
    const started = await startApp(first.testDb);
    const second: Server = { ...started, testDb: first.testDb, headers: await login(started.app) };
    try {
      await ok(first, 'DELETE', '/api/trunks/1');
      const res = await upload(first, archive);
      expect(res.statusCode, res.body).toBe(200);
      await ok(second, 'POST', `/api/backup/uploads/${res.json().id}/restore`);
      expect((await ok(first, 'GET', '/api/trunks')).json()).toHaveLength(1);
      expect((await ok(second, 'GET', '/api/trunks')).json()).toHaveLength(1);
      expectError(await call(first, 'POST', `/api/backup/uploads/${res.json().id}/restore`), 404, 'backup_expired');
    } finally {
      await started.close();
    }
  });
});

describe('scheduled backups', () => {
  it('write into BACKUP_DIR once a day, once however many ask, and keep the newest N', async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'centralino-backups-'));
    let clock = new Date(2026, 10, 20, 1, 0, 0).getTime();
    const s = await server('postgres', { BACKUP_DIR: folder }, () => clock);
    const app: FastifyInstance = s.app;
    try {
      let status = (await ok(s, 'GET', '/api/backup/status')).json();
      expect(status).toMatchObject({ folder, stored: [], lastRun: null, schedule: { enabled: false } });
      expectError(
        await call(s, 'PUT', '/api/backup/schedule', { enabled: true, time: '25:00', keep: 2 }),
        400,
        'validation',
      );
      status = (await ok(s, 'PUT', '/api/backup/schedule', { enabled: true, time: '02:30', keep: 2 })).json();
      expect(status.schedule).toEqual({ enabled: true, time: '02:30', keep: 2 });

      expect(await app.backups.runDue()).toBeUndefined(); // 01:00: not yet
      const day = 24 * 3600_000;
      clock += 2 * 3600_000; // 03:00
      const written: string[] = [];
      for (let i = 0; i < 3; i++) {
        // Two at once (two processes' timers): the day's claim lets one of them write.
        const both = await Promise.all([app.backups.runDue(), app.backups.runDue()]);
        expect(both.filter(Boolean)).toHaveLength(1);
        written.push(both.find(Boolean) as string);
        expect(await app.backups.runDue()).toBeUndefined();
        clock += day;
      }
      const stored = fs.readdirSync(folder).sort();
      expect(stored).toEqual(written.slice(1).sort());
      for (const name of stored) expect(fs.statSync(path.join(folder, name)).mode & 0o777).toBe(0o600);
      s.headers = await login(app); // days went by on the clock: the session expired
      status = (await ok(s, 'GET', '/api/backup/status')).json();
      expect(status.stored.map((f: { name: string }) => f.name)).toEqual([...written.slice(1)].reverse());
      expect(status.lastRun).toMatchObject({ error: null, finishedAt: expect.any(String) });
      // A stored backup is a complete one.
      const summary = await restore(s, fs.readFileSync(path.join(folder, stored[0] ?? '')));
      expect(summary.tables.length).toBeGreaterThan(10);
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});
