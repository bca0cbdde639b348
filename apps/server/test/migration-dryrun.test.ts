import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAs, DB_KINDS, useTestApp } from './helpers.ts';
import {
  createLegacyDatabases,
  dropLegacyDatabases,
  legacyNames,
  legacySoundsDir,
  legacyTemplatesDir,
} from './support/legacy-pbx.ts';

/** The configuration steps in the contract's order, with the report name each stores under. */
const STEPS: [string, string][] = [
  ['importoldvoiptrunks', 'copyOldTrunks'],
  ['gateways', 'getOldGateways'],
  ['iax', 'migrateIAX'],
  ['importoutboundroutes', 'copyOldOutboundRoutes'],
  ['trunksroutesassignements', 'migrateRoutesTrunksAssignements'],
  ['groups', 'migrateGroups'],
  ['queues', 'migrateQueues'],
  ['ivr', 'migrateIVRs'],
  ['cqr', 'migrateCQRs'],
  ['recordings', 'migrateRecordings'],
  ['announcements', 'migrateAnnouncements'],
  ['daynight', 'daynight'],
  ['timegroups', 'migrateTimegroups'],
  ['timeconditions', 'migrateTimeconditions'],
  ['inboundroutes', 'migrateInboundRoutes'],
  ['postmigration', 'postMigration'],
];

/** Tables whose every row is hashed (the rest are compared by their row counts). */
const HASHED = ['settings', 'trunks', 'queues', 'recordings', 'migration_report', 'pbx_apply', 'users'];

describe.each(DB_KINDS)('migration dry run and the one apply at the end (%s)', (kind) => {
  const prefix = `mdr_${process.pid}_${kind}_`;
  const names = legacyNames(prefix);
  const env = {
    MIGRATION_DB_URL: 'mysql://root@127.0.0.1:3306',
    MIGRATION_PBX_DB: names.pbx,
    MIGRATION_CDR_DB: names.cdr,
    MIGRATION_CTI_DB: names.cti,
    MIGRATION_SOUNDS_DIR: legacySoundsDir(prefix),
    MIGRATION_CTI_TEMPLATES_DIR: legacyTemplatesDir(prefix),
  };
  beforeAll(async () => {
    await createLegacyDatabases({ prefix, users: 300, cdr: 10 });
  }, 60_000);
  afterAll(() => dropLegacyDatabases(prefix));
  const t = useTestApp(kind, { env });
  const call = callAs(t);
  const get = (url: string) => call('GET', url);
  const post = (url: string, body?: unknown, headers?: Record<string, string>) => call('POST', url, body, headers);

  /** Every table's row count and a hash of the rows of a few, as the database holds them. */
  async function snapshot(): Promise<Record<string, string | number>> {
    const db = t.database.db;
    const out: Record<string, string | number> = {};
    const tables = (await db.introspection.getTables()).map((x) => x.name).filter((n) => !/^kysely_/.test(n));
    for (const table of tables.sort()) {
      const { rows } = await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(db);
      out[table] = Number(rows[0]?.n);
    }
    for (const table of HASHED) {
      const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(db);
      const lines = rows.map((r) => JSON.stringify(r, (_k, v) => (Buffer.isBuffer(v) ? v.toString('hex') : v)));
      out[`#${table}`] = createHash('sha256').update(lines.sort().join('\n')).digest('hex');
    }
    return out;
  }

  /** Until no apply runs or waits. */
  async function settled(): Promise<void> {
    for (let i = 0; i < 400 && (await get('/api/pbx/apply')).json().state !== 'idle'; i++) {
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  const generation = async () =>
    Number(
      (await t.database.db.selectFrom('pbx_apply').select('generation').where('id', '=', 1).executeTakeFirstOrThrow())
        .generation,
    );

  let dry: {
    report: Record<string, { errors: string[]; warnings: string[]; infos: string[] }>;
    counts: Record<string, number>;
  };

  let dryFirst: typeof dry;

  it('imports the profiles and users as the wizard does first (after a dry run before anything)', async () => {
    expect((await post('/api/configuration/mode', { mode: 'legacy' })).statusCode).toBe(200);
    for (let i = 0; i < 100 && (await get('/api/configuration/userprovider')).json().configured !== 1; i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    await settled();
    const before = await snapshot();
    dryFirst = (await post('/api/migration/dryrun')).json();
    expect(await snapshot()).toEqual(before);
    expect(dryFirst.counts.users).toBeGreaterThan(200);
    // The extension without a CTI user name counts as migrated, and the dry run says with which name (issue 38).
    expect(dryFirst.report.csvimport?.warnings).toContain(
      'Extension 210 (Chiara Rossi) has no CTI user name in the old system: it would get the user name chiara.rossi (made from its name)',
    );
    expect((dryFirst.counts.users ?? 0) + (dryFirst.counts.usersRefused ?? 0)).toBe(300);
    expect(dryFirst.report.csvimport?.warnings).toContainEqual(
      expect.stringMatching(/^User anna\.colombo would be refused: Extension 281 cannot be used: [^;]*\)$/),
    );
    expect((await post('/api/migration/importprofiles')).statusCode).toBe(200);
    const old = ((await get('/api/migration/oldusers')).json() as Record<string, string>[]).filter((u) => u.username);
    expect((await post('/api/migration/importusers', old)).statusCode).toBe(200);
    let status = { result: 0 };
    for (let i = 0; i < 300 && status.result >= 0 && status.result < 100; i++) {
      await new Promise((r) => setTimeout(r, 50));
      status = (await get('/api/csv/csvimport')).json();
    }
    // Most users migrated, some refused: a success with refusals.
    expect(status.result).toBe(100);
    // The import's refusals and its count reach the report once it has ended (the step's first lines come before the
    // import runs): waited for by the count, the step's last line.
    const counted = async () =>
      ((await get('/api/migration/report')).json().csvimport?.infos ?? []).some((line: string) =>
        / old extensions migrated with their user$/.test(line),
      );
    for (let i = 0; i < 800 && !(await counted()); i++) await new Promise((r) => setTimeout(r, 25));
    expect(await counted()).toBe(true);
    await settled();
  });

  it('reads the whole old system and answers the report without writing anything', async () => {
    const before = await snapshot();
    const generationBefore = await generation();
    const res = await post('/api/migration/dryrun');
    expect(res.statusCode, res.body).toBe(200);
    dry = res.json();
    await settled();
    expect(await snapshot()).toEqual(before);
    expect(await generation()).toBe(generationBefore);
    expect((await get('/api/migration/migrationstatus')).json()).toBe('users');
    // What it would create, per kind (the fixture's figures).
    expect(dry.counts.trunks).toBeGreaterThan(0);
    expect(dry.counts.gateways).toBeGreaterThan(0);
    expect(dry.counts.outboundRoutes).toBeGreaterThan(0);
    expect(dry.counts.queues).toBeGreaterThan(0);
    expect(dry.counts.ivrs).toBeGreaterThan(0);
    expect(dry.counts.recordings).toBe(2);
    expect(dry.counts.inboundRoutes).toBeGreaterThan(0);
    expect(dry.counts.phonebookContacts).toBeGreaterThan(0);
    // The users are already here: each would be refused, saying why; none is imported.
    expect(dry.counts.users).toBe(0);
    expect(dry.report.csvimport?.warnings).toContainEqual(
      'User mario.rossi would be refused: Username already used: mario.rossi',
    );
    expect(dry.report.migrateRecordings?.warnings).toContain(
      'Recording "broken" not migrated: its file is not WAV, MP3 or OGG audio',
    );
    // A second dry run answers the same (but the ids in some infos: PostgreSQL's sequences are not rolled back).
    const again = (await post('/api/migration/dryrun')).json() as typeof dry;
    expect(again.counts).toEqual(dry.counts);
    const lists = (r: typeof dry) => Object.entries(r.report).map(([k, v]) => [k, v.errors, v.warnings]);
    expect(lists(again)).toEqual(lists(dry));
  });

  it('answers in Italian the messages of its own', async () => {
    const res = await post('/api/migration/dryrun', undefined, { 'accept-language': 'it' });
    expect(res.json().report.csvimport.warnings).toContainEqual(
      "L'utente mario.rossi verrebbe rifiutato: Nome utente già usato: mario.rossi",
    );
  });

  it('then migrates with the same warnings per step, applies the PBX once at the end and reports the verdict', async () => {
    const generationBefore = await generation();
    for (const [path, reportName] of STEPS) {
      const res = await post(`/api/migration/${path}`);
      const body = res.json() as { warnings: string[]; errors: string[] };
      expect(body.errors, path).toEqual(dry.report[reportName]?.errors ?? []);
      const warnings = path === 'postmigration' ? body.warnings.filter((w) => !/PBX/.test(w)) : body.warnings;
      expect(warnings, path).toEqual(dry.report[reportName]?.warnings ?? []);
      // The dry run made before the users were imported said the same (their extensions stood in for them).
      expect(warnings, `${path} (dry run before the users)`).toEqual(dryFirst.report[reportName]?.warnings ?? []);
      // No step but the last marks the PBX configuration changed.
      if (path !== 'postmigration') expect(await generation(), path).toBe(generationBefore);
    }
    await settled();
    expect(await generation()).toBe(generationBefore + 1);
    const report = (await get('/api/migration/report')).json();
    expect(report.pbxConfigurationCheck).toEqual({
      infos: ['The configuration was applied once, at the end, and the PBX validator found it valid'],
    });
    const status = (await get('/api/pbx/apply')).json();
    expect(status.last?.ok).toBe(true);
    // Run again, the section keeps one verdict.
    await post('/api/migration/postmigration');
    expect((await get('/api/migration/report')).json().pbxConfigurationCheck.infos).toHaveLength(1);
  });
});
