import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import type { HTTPMethods } from 'fastify';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database.ts';
import type { Database } from '../src/db/schema.ts';
import { STALE_MS } from '../src/jobs/claim.ts';
import { recordingSoundPath } from '../src/pbx/load.ts';
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
import type { Job } from './migration-kill-child.ts';
import {
  createLegacyDatabases,
  dropLegacyDatabases,
  legacySoundsDir,
  legacyTemplatesDir,
} from './support/legacy-pbx.ts';
import { freePort } from './support/slapd.ts';

/**
 * Issue 38: the migration survives the console killed with SIGKILL during any of its steps. For each step in turn, a
 * child process (migration-kill-child.ts: the console as main.ts builds it) runs the step on the database the steps
 * before it filled, and is killed while the step is in progress — once it has written part of what the step writes
 * (its transaction open, or some of its objects committed, or a background job part way). The console starts
 * again on the same database and DATA_DIR, the step is run again, and everything the migration has made so far must
 * be what an uninterrupted run of the same steps made: the same rows, none twice, none missing, the same report.
 * MIGRATION_KILL_TRACE=1 prints every write of each child and the time each phase took.
 */

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const CDR_ROWS = 2500;
const prefix = `migkill_${process.pid}_`;
const legacy = {
  names: { pbx: `${prefix}asterisk11`, cdr: `${prefix}asteriskcdrdb11`, cti: `${prefix}nethcti2` },
};
const migrationEnv = {
  MIGRATION_DB_URL: 'mysql://root@127.0.0.1:3306',
  MIGRATION_PBX_DB: legacy.names.pbx,
  MIGRATION_CDR_DB: legacy.names.cdr,
  MIGRATION_CTI_DB: legacy.names.cti,
  MIGRATION_SOUNDS_DIR: legacySoundsDir(prefix),
  MIGRATION_CTI_TEMPLATES_DIR: legacyTemplatesDir(prefix),
  ASTERISK_MODE: 'off',
};

// biome-ignore lint/suspicious/noExplicitAny: the answers of many routes, read as the tests of those routes read them
type Call = (method: HTTPMethods, url: string, body?: unknown) => Promise<{ statusCode: number; json(): any }>;
type Answer = { status?: boolean | null; errors: string[]; warnings: string[]; infos: string[] };

interface Step {
  name: string;
  url: string;
  /** The request body (the users step: the old users as the users screen sends them). */
  body?: (call: Call) => Promise<unknown>;
  /** What the parent sets up first (the users screen switches to the local user directory). */
  prepare?: (call: Call) => Promise<void>;
  /** Where the killed run holds still before the kill (migration-kill-child.ts). */
  trigger: Job['trigger'];
  /** What the database shows while the child holds still: the step is really part way. */
  evidence?: (db: Kysely<Database>) => Promise<void>;
  /** The step's outcome once it has ended (background steps: their job's end). */
  settle?: (call: Call, answer: Answer) => Promise<Answer>;
}

const until = async <T>(read: () => Promise<T>, done: (v: T) => boolean, what: string): Promise<T> => {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() - started > 20_000) throw new Error(`${what}: still ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
};

const count = async (db: Kysely<Database>, table: keyof Database) =>
  Number(
    (
      await db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

/** The contract's order of the steps (§11), each with the write it is caught at. */
const STEPS: Step[] = [
  // Each profile is created on its own (CtiService): the first is committed, the second is being written.
  {
    name: 'profiles',
    url: '/api/migration/importprofiles',
    trigger: { table: 'cti_profiles', nth: 2 },
    evidence: async (db) => {
      const saved = await db.selectFrom('cti_profiles').select('name').execute();
      expect(saved.map((p) => p.name)).toContain('Reception');
    },
  },
  {
    name: 'users',
    url: '/api/migration/importusers',
    prepare: async (call) => {
      expect((await call('POST', '/api/configuration/mode', { mode: 'legacy' })).statusCode).toBe(200);
      await until(
        async () => (await call('GET', '/api/configuration/userprovider')).json().configured,
        (v) => v === 1,
        'user provider',
      );
    },
    body: async (call) =>
      ((await call('GET', '/api/migration/oldusers')).json() as { extension: string }[]).filter(
        (u) => u.extension !== '500',
      ),
    // The import commits 250 users a chunk: the first chunk is in, the second being written.
    trigger: { table: 'users', nth: 2 },
    evidence: async (db) => {
      expect(await count(db, 'users')).toBe(250);
      const job = await db.selectFrom('jobs').select(['status', 'progress']).where('kind', '=', 'csv-import').execute();
      expect(job).toEqual([{ status: 'running', progress: expect.any(Number) }]);
    },
    settle: async (call) => {
      const status = await until(
        async () => (await call('GET', '/api/csv/csvimport')).json(),
        (s) => s.result < 0 || s.result >= 100,
        'users import',
      );
      // Its report lines are written once it has ended.
      await until(
        async () => (await call('GET', '/api/migration/report')).json().csvimport?.infos ?? [],
        (infos: string[]) => infos.some((i) => / of the 300 old extensions migrated/.test(i)),
        'users report',
      );
      return { errors: status.failures.map((f: { username: string }) => f.username), warnings: [], infos: [] };
    },
  },
  { name: 'trunks', url: '/api/migration/importoldvoiptrunks', trigger: { table: 'trunks', nth: 2 } },
  // Each gateway is saved whole in a transaction of its own: the first is committed.
  {
    name: 'gateways',
    url: '/api/migration/gateways',
    trigger: { table: 'gateways', nth: 2 },
    evidence: async (db) => expect(await count(db, 'gateways')).toBe(1),
  },
  { name: 'iax', url: '/api/migration/iax', trigger: { table: 'migration_report', nth: 1 } },
  {
    name: 'outbound routes',
    url: '/api/migration/importoutboundroutes',
    trigger: { table: 'outbound_routes', nth: 2 },
  },
  {
    name: 'route trunks',
    url: '/api/migration/trunksroutesassignements',
    trigger: { table: 'outbound_route_trunks', nth: 3 },
  },
  { name: 'ring groups', url: '/api/migration/groups', trigger: { table: 'ring_groups', nth: 2 } },
  { name: 'queues', url: '/api/migration/queues', trigger: { table: 'queues', nth: 2 } },
  { name: 'IVRs', url: '/api/migration/ivr', trigger: { table: 'ivr_entries', nth: 3 } },
  { name: 'CQRs', url: '/api/migration/cqr', trigger: { table: 'cqrs', nth: 1 } },
  // Each recording is saved on its own (RecordingsService): the first is committed, the second being saved (its
  // sound file for Asterisk not written yet).
  {
    name: 'recordings',
    url: '/api/migration/recordings',
    trigger: { table: 'recordings', nth: 2 },
    evidence: async (db) => {
      const saved = await db.selectFrom('recordings').select('displayname').execute();
      expect(saved.map((r) => r.displayname)).toContain('welcome');
    },
  },
  { name: 'announcements', url: '/api/migration/announcements', trigger: { table: 'announcements', nth: 2 } },
  { name: 'day/night', url: '/api/migration/daynight', trigger: { table: 'daynight', nth: 2 } },
  { name: 'time groups', url: '/api/migration/timegroups', trigger: { table: 'time_groups', nth: 2 } },
  { name: 'time conditions', url: '/api/migration/timeconditions', trigger: { table: 'time_conditions', nth: 2 } },
  { name: 'inbound routes', url: '/api/migration/inboundroutes', trigger: { table: 'inbound_routes', nth: 2 } },
  // Its own writes are committed; killed while the one apply at the end writes its record.
  { name: 'post-migration', url: '/api/migration/postmigration', trigger: { table: 'pbx_apply', nth: 1 } },
  // The copy commits a batch of 1000 records and its position together: the first batch is in.
  {
    name: 'call records',
    url: '/api/migration/cdr',
    trigger: { cdrBatch: 1 },
    evidence: async (db) => {
      expect(await count(db, 'cdr')).toBe(1000);
      expect(await db.selectFrom('migration_cdr').select(['state', 'copied']).execute()).toEqual([
        { state: 'running', copied: 1000 },
      ]);
    },
    settle: async (call) => {
      const progress = await until(
        async () => (await call('GET', '/api/migration/cdr')).json(),
        (p) => p.status !== undefined,
        'call-record copy',
      );
      return { status: progress.status, errors: progress.errors ? [progress.errors] : [], warnings: [], infos: [] };
    },
  },
];

// ---------------------------------------------------------------------------------------------------------------
// What the migration made, comparable between two databases: every row of the tables the steps write, without its
// generated ids and times (a rolled-back insert spends a PostgreSQL sequence number), references to other rows by
// those rows' names, and random secrets by whether they are set.

const NAME_OF: Partial<Record<keyof Database, string>> = {
  users: 'username',
  cti_profiles: 'name',
  cti_groups: 'name',
  trunks: 'name',
  gateways: 'mac',
  outbound_routes: 'name',
  queues: 'extension',
  ring_groups: 'extension',
  ivrs: 'name',
  cqrs: 'name',
  card_sources: 'name',
  recordings: 'displayname',
  announcements: 'description',
  time_groups: 'name',
  time_conditions: 'name',
};
/** Columns holding another row's id (`table.column` where the same name means another table). */
const REFERENCE: Record<string, keyof Database> = {
  'time_group_ranges.group_id': 'time_groups',
  user_id: 'users',
  profile_id: 'cti_profiles',
  group_id: 'cti_groups',
  trunk_id: 'trunks',
  gateway_id: 'gateways',
  route_id: 'outbound_routes',
  queue_id: 'queues',
  ring_group_id: 'ring_groups',
  ivr_id: 'ivrs',
  cqr_id: 'cqrs',
  recording_id: 'recordings',
  time_group_id: 'time_groups',
};
const IN_DESTINATIONS: [RegExp, keyof Database][] = [
  [/\bivr-(\d+)\b/g, 'ivrs'],
  [/\bapp-announcement-(\d+)\b/g, 'announcements'],
  [/\btimeconditions,(\d+)\b/g, 'time_conditions'],
  [/\bnethcqr,(\d+)\b/g, 'cqrs'],
];
const SNAPSHOT_TABLES: (keyof Database)[] = [
  'users',
  'pbx_secrets',
  'devices',
  'cti_profiles',
  'cti_profile_macros',
  'cti_profile_permissions',
  'cti_groups',
  'cti_user_groups',
  'trunks',
  'gateways',
  'gateway_ports',
  'outbound_routes',
  'outbound_route_patterns',
  'outbound_route_trunks',
  'queues',
  'queue_members',
  'ring_groups',
  'ring_group_members',
  'ivrs',
  'ivr_entries',
  'cqrs',
  'cqr_entries',
  'card_sources',
  'recordings',
  'announcements',
  'daynight',
  'time_groups',
  'time_group_ranges',
  'time_conditions',
  'conferences',
  'followme',
  'followme_legs',
  'inbound_routes',
  'phonebook_contacts',
  'card_templates',
];
/** Generated per run: left out. */
const GENERATED = new Set(['id', 'created_at', 'updated_at', 'heartbeat_at', 'owner']);
/**
 * Random per run (a new user's password and PIN, the SIP passwords made for devices and gateway ports and lines):
 * compared by whether they are set.
 */
const RANDOM = new Set([
  'password_hash',
  'password_clear',
  'voicemail_pin',
  'web_password',
  'devices.secret',
  'gateway_ports.secret',
]);

type Snapshot = Record<string, unknown>;

async function snapshot(db: Kysely<Database>, soundsDir: string): Promise<Snapshot> {
  const names = new Map<string, Map<number, string>>();
  const rows = new Map<string, Record<string, unknown>[]>();
  for (const table of SNAPSHOT_TABLES) {
    let query = db.selectFrom(table).selectAll();
    // The extensions' own phonebook entries follow the users by themselves (a sync): not the migration's.
    if (table === 'phonebook_contacts') query = query.where('source_id' as never, '!=', 'extensions' as never);
    const all = (await query.execute()) as Record<string, unknown>[];
    rows.set(table, all);
    const column = NAME_OF[table];
    if (column) names.set(table, new Map(all.map((r) => [Number(r.id), String(r[column])])));
  }
  const nameOf = (table: string, id: unknown) =>
    id === null || id === undefined ? null : (names.get(table)?.get(Number(id)) ?? `missing ${table} ${id}`);
  const out: Snapshot = {};
  for (const table of SNAPSHOT_TABLES) {
    out[table] = (rows.get(table) ?? [])
      .map((row) => {
        const clean: Record<string, unknown> = {};
        for (const [column, value] of Object.entries(row)) {
          if (GENERATED.has(column)) continue;
          const random = RANDOM.has(column) || RANDOM.has(`${table}.${column}`);
          const referenced = REFERENCE[`${table}.${column}`] ?? REFERENCE[column];
          if (random || (table === 'trunks' && row.kind === 'gateway' && column === 'secret')) {
            clean[column] = value !== null;
          } else if (referenced) clean[column] = nameOf(referenced, value);
          else if (table === 'ivrs' && column === 'announcement') clean[column] = nameOf('recordings', value);
          else if (table === 'cqrs' && column === 'source_id') clean[column] = nameOf('card_sources', value);
          else if (value instanceof Uint8Array) clean[column] = `${value.length} bytes`;
          else if (typeof value === 'string') {
            let text = value;
            for (const [pattern, target] of IN_DESTINATIONS) {
              text = text.replace(pattern, (whole, id) => whole.replace(id, `<${nameOf(target, id)}>`));
            }
            clean[column] = text;
          } else clean[column] = value === null ? null : typeof value === 'bigint' ? Number(value) : value;
        }
        // The sound file Asterisk plays, beside the row.
        if (table === 'recordings') clean.file = fs.existsSync(`${recordingSoundPath(soundsDir, Number(row.id))}.wav`);
        return JSON.stringify(clean);
      })
      .sort();
  }
  const cdr = await db
    .selectFrom('cdr')
    .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.count<number>('uniqueid').distinct().as('u')])
    .executeTakeFirstOrThrow();
  out.cdr = { rows: Number(cdr.n), distinct: Number(cdr.u) };
  const status = await db
    .selectFrom('settings')
    .select('value')
    .where('key', '=', 'migration_status')
    .executeTakeFirst();
  out.migration_status = status?.value ?? null;
  return out;
}

/** The report as `section type: line` lines (a step run again may add a line after another step's). */
async function report(call: Call): Promise<string[]> {
  const body = (await call('GET', '/api/migration/report')).json() as Record<string, Record<string, string[]>>;
  return Object.entries(body).flatMap(([section, lists]) =>
    Object.entries(lists).flatMap(([type, lines]) => lines.map((line) => `${section} ${type}: ${line}`)),
  );
}

/** What `got` has that `want` has not (`+`), and the other way (`-`), counting repeated lines. */
function difference(want: string[], got: string[], label: string): string[] {
  const left = new Map<string, number>();
  for (const line of want) left.set(line, (left.get(line) ?? 0) + 1);
  const out: string[] = [];
  for (const line of got) {
    const n = left.get(line) ?? 0;
    if (n > 0) left.set(line, n - 1);
    else out.push(`${label} + ${line}`);
  }
  for (const [line, n] of left) for (let i = 0; i < n; i++) out.push(`${label} - ${line}`);
  return out;
}

function snapshotDifference(want: Snapshot, got: Snapshot): string[] {
  return Object.keys(want).flatMap((table) => {
    const [w, g] = [want[table], got[table]];
    if (Array.isArray(w) && Array.isArray(g)) return difference(w, g, table);
    return JSON.stringify(w) === JSON.stringify(g)
      ? []
      : [`${table}: ${JSON.stringify(g)} instead of ${JSON.stringify(w)}`];
  });
}

// ---------------------------------------------------------------------------------------------------------------

async function open(
  testDb: TestDatabase,
  signedIn?: AuthHeaders,
): Promise<{ app: TestApp; call: Call; headers: AuthHeaders }> {
  const app = await startApp(testDb, { env: migrationEnv });
  // As main.ts does at start: the jobs of the process that stopped are failed.
  await app.jobs.watchInterrupted();
  const headers = signedIn ?? (await login(app.app));
  const call: Call = (method, url, body) =>
    app.app.inject({ method, url, headers, ...(body === undefined ? {} : { payload: body as object }) });
  return { app, call, headers };
}

async function runStep(step: Step, call: Call): Promise<Answer> {
  const res = await call('POST', step.url, step.body ? await step.body(call) : undefined);
  expect(res.statusCode, `${step.name}: ${JSON.stringify(res.json())}`).toBe(200);
  const answer = (res.json() ?? { errors: [], warnings: [], infos: [] }) as Answer;
  return step.settle ? step.settle(call, answer) : answer;
}

/**
 * The child and the server bundled as `npm start` runs them (build.mjs: one file, the npm packages left outside, the
 * threads' files beside it): a child loads in a fraction of the time tsx takes to compile the sources, and the test
 * starts one for each step. Under apps/server/.tmp, so that the packages resolve from node_modules.
 */
let childFile = '';
const bundleDir = path.join(import.meta.dirname, '..', '.tmp', `migration-kill-${process.pid}`);
async function bundleChild(): Promise<void> {
  const pkg = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, '..', 'package.json'), 'utf8'));
  await build({
    absWorkingDir: path.join(import.meta.dirname, '..'),
    entryPoints: {
      child: 'test/migration-kill-child.ts',
      'validate-worker': 'src/pbx/validate-worker.ts',
      'card-render-worker': 'src/features/custcards/render-worker.ts',
    },
    outdir: bundleDir,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    external: [...Object.keys(pkg.dependencies).filter((name) => !name.startsWith('@centralino/')), 'zod'],
    logLevel: 'warning',
  });
  fs.cpSync(
    path.join(import.meta.dirname, '..', 'src/provisioning/templates'),
    path.join(bundleDir, 'provisioning-templates'),
    {
      recursive: true,
    },
  );
  childFile = path.join(bundleDir, 'child.js');
}

/** A child that has loaded the server and waits for its job (started early: loading takes most of its time). */
function spawnChild(): {
  child: ChildProcessWithoutNullStreams;
  output: () => string;
  line: (re: RegExp) => Promise<string>;
} {
  const child = spawn(process.execPath, [childFile], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: process.env.TMPDIR ?? '/tmp' },
  });
  let output = '';
  const waiting: { re: RegExp; resolve: (l: string) => void }[] = [];
  const look = () => {
    for (const w of [...waiting]) {
      const found = output.split('\n').find((l) => w.re.test(l));
      if (found) {
        waiting.splice(waiting.indexOf(w), 1);
        w.resolve(found);
      }
    }
  };
  child.stdout.on('data', (d) => {
    output += d;
    look();
  });
  child.stderr.on('data', (d) => {
    output += d;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    output: () => output,
    line: (re) =>
      Promise.race([
        new Promise<string>((resolve) => {
          waiting.push({ re, resolve });
          look();
        }),
        exited.then(() => {
          const found = output.split('\n').find((l) => re.test(l));
          if (found) return found;
          throw new Error(`the child exited (${child.exitCode ?? child.signalCode}) before ${re}: ${output}`);
        }),
      ]),
  };
}

beforeAll(async () => {
  await Promise.all([bundleChild(), createLegacyDatabases({ prefix, users: 300, cdr: CDR_ROWS })]);
}, 60_000);
afterAll(async () => {
  fs.rmSync(bundleDir, { recursive: true, force: true });
  await dropLegacyDatabases(prefix);
});

// Both at once: much of each one's time is spent waiting for its child and its database.
describe.concurrent.each(DB_KINDS)('the migration killed with SIGKILL in each step (%s)', (kind: DbKind) => {
  const databases: TestDatabase[] = [];
  const spare: ReturnType<typeof spawnChild>[] = [];
  afterAll(async () => {
    for (const c of spare) c.child.kill('SIGKILL');
    for (const d of databases) await d.drop();
  });

  it('re-running the killed step finishes it: the same rows, none twice, none lost, the same report', async ({
    expect,
  }) => {
    const timings: string[] = [];
    let mark = Date.now();
    const lap = (what: string) => {
      timings.push(`${what} ${Date.now() - mark} ms`);
      mark = Date.now();
    };
    // The children load the server while the reference run goes; two are kept ready, as each step takes less time
    // than a child takes to load.
    spare.push(spawnChild(), spawnChild());

    // The reference: every step once, uninterrupted; what exists after each step.
    const reference = await createTestDatabase(kind);
    databases.push(reference);
    const expected: { answer: Answer; snapshot: Snapshot; report: string[] }[] = [];
    {
      const { app, call } = await open(reference);
      try {
        for (const step of STEPS) {
          await step.prepare?.(call);
          const answer = await runStep(step, call);
          expected.push({
            answer,
            snapshot: await snapshot(app.database.db, app.config.pbx.soundsDir),
            report: await report(call),
          });
        }
      } finally {
        await app.close();
      }
    }
    lap('reference run');

    const killed = await createTestDatabase(kind);
    databases.push(killed);
    let current = await open(killed);
    const seen = new Set<string>();
    try {
      for (const [i, step] of STEPS.entries()) {
        await step.prepare?.(current.call);
        const jobBody = step.body ? await step.body(current.call) : undefined;
        await current.app.close();
        lap(`${step.name}: console closed`);

        const run = spare.shift() ?? spawnChild();
        spare.push(spawnChild());
        await run.line(/^ready$/);
        lap(`${step.name}: child ready`);
        const job: Job = {
          env: {
            LOG_LEVEL: 'silent',
            LOGIN_RATE_LIMIT: '1000',
            PHONEBOOK_LDAP_PORT: String(await freePort()),
            PHONEBOOK_LDAPS_PORT: String(await freePort()),
            ...killed.env,
            ...migrationEnv,
          },
          headers: current.headers,
          request: { method: 'POST', url: step.url, body: jobBody },
          trigger: step.trigger,
          trace: process.env.MIGRATION_KILL_TRACE === '1',
        };
        const exited = new Promise<string | null>((resolve) => run.child.once('exit', (_c, signal) => resolve(signal)));
        run.child.stdin.write(`${JSON.stringify(job)}\n`);
        // A step that works in the background (the users import, the call-record copy) answers first.
        const caught = await run.line(step.settle ? /^caught / : /^(caught|answered) /);
        if (job.trace) console.log(`${step.name}:\n${run.output()}`);
        expect(caught, `${step.name} was never caught in progress: ${run.output()}`).toMatch(/^caught /);
        if (step.evidence) {
          const look = await openDatabase({ databaseUrl: killed.databaseUrl, dataDir: killed.dataDir });
          try {
            await step.evidence(look.db);
          } finally {
            await look.close();
          }
        }
        run.child.kill('SIGKILL');
        expect(await exited).toBe('SIGKILL');
        lap(`${step.name}: child killed at ${caught.slice(7)}`);

        // PostgreSQL: the work of the dead process is taken once it has been silent STALE_MS (several processes
        // may share the database); its heartbeat is set back by that much rather than waited for.
        if (kind === 'postgres') {
          const pg = await openDatabase({ databaseUrl: killed.databaseUrl, dataDir: killed.dataDir });
          try {
            const before = Date.now() - STALE_MS - 1000;
            await pg.db.updateTable('jobs').set({ heartbeat_at: before }).where('status', '=', 'running').execute();
            await pg.db
              .updateTable('migration_cdr')
              .set({ heartbeat_at: before })
              .where('state', '=', 'running')
              .execute();
          } finally {
            await pg.close();
          }
        }

        current = await open(killed, current.headers);
        // Nothing is left looking alive: an interrupted users import says so.
        const importStatus = (await current.call('GET', '/api/csv/csvimport')).json();
        if (importStatus && typeof importStatus.result === 'number') {
          expect(importStatus.result === -1 || importStatus.result === 100, JSON.stringify(importStatus)).toBe(true);
        }
        const answer = await runStep({ ...step, body: step.body ? async () => jobBody : undefined }, current.call);
        const want = expected[i] as (typeof expected)[number];
        // Soft: every step is tried, and each difference is said once, with the step where it appeared.
        expect.soft(answer.errors, `${step.name}: errors of the run after the kill`).toEqual(want.answer.errors);
        const found = [
          ...snapshotDifference(
            want.snapshot,
            await snapshot(current.app.database.db, current.app.config.pbx.soundsDir),
          ),
          ...difference(want.report, await report(current.call), 'report'),
        ].filter((d) => !seen.has(d));
        for (const d of found) seen.add(d);
        expect
          .soft(found, `${step.name}: what differs from the uninterrupted run after the kill and re-run`)
          .toEqual([]);
        lap(`${step.name}: restarted, re-run, compared`);
      }
    } finally {
      await current.app.close();
      if (process.env.MIGRATION_KILL_TRACE === '1') console.log(`${kind}: ${timings.join('; ')}`);
    }
    // 77 s on a quiet machine; over 180 s beside the browser tests and other work.
  }, 480_000);
});
