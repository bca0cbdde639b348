import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ChangeBus } from '../src/db/change-bus.ts';
import { type DatabaseHandle, migrateToLatest, openDatabase } from '../src/db/database.ts';
import { CDR_BATCH, CdrCopy, cdrCopyHooks } from '../src/features/migration/cdr.ts';
import { cdrWriter } from '../src/features/migration/cdr-writer.ts';
import { LegacySource } from '../src/features/migration/source.ts';
import { MigrationState } from '../src/features/migration/state.ts';
import { PhonebookService } from '../src/features/phonebook/service.ts';
import { STALE_MS } from '../src/jobs/claim.ts';
import { INTERRUPTED_ERROR, JobRunner, JobRunningError } from '../src/jobs/runner.ts';
import { PbxApplier } from '../src/pbx/apply.ts';
import type { PbxModel } from '../src/pbx/model.ts';
import { renderConfiguration } from '../src/pbx/render/index.ts';
import { createTestDatabase, DB_KINDS, POSTGRES_ADMIN_URL, type TestDatabase } from './helpers.ts';
import { largeModel } from './pbx/fixtures.ts';
import { createLegacyDatabases, dropLegacyDatabases, type LegacyDatabases } from './support/legacy-pbx.ts';

/**
 * The claim rule of jobs/claim.ts, with each "process" its own database handle (its own connections, as two server
 * processes have): work is taken once under contention, and only from a process that fell silent. A silent process
 * is made by moving its heartbeat back past the limit, as 30 s without a beat would leave it.
 */
// Three batches: the first process writes one, the second the next, and the first's next read still finds records.
const CDR_ROWS = CDR_BATCH * 2 + 400;

describe.each(DB_KINDS)('claiming background work (%s)', (kind) => {
  let testDb: TestDatabase;
  let one: DatabaseHandle;
  let two: DatabaseHandle;
  let legacy: LegacyDatabases;
  const prefix = `claim_${process.pid}_${kind}_`;

  beforeAll(async () => {
    testDb = await createTestDatabase(kind);
    one = await openDatabase({ databaseUrl: testDb.databaseUrl, dataDir: testDb.dataDir });
    await migrateToLatest(one.db);
    // SQLite is one process: its "second process" shares the one handle (two handles of one file in one event loop
    // would only wait on each other's locks).
    two = kind === 'sqlite' ? one : await openDatabase({ databaseUrl: testDb.databaseUrl, dataDir: testDb.dataDir });
    legacy = await createLegacyDatabases({ prefix, users: 1, cdr: CDR_ROWS });
  }, 60_000);
  afterAll(async () => {
    if (two !== one) await two?.close();
    await one?.close();
    await testDb?.drop();
    await dropLegacyDatabases(prefix);
  });
  afterEach(() => {
    cdrCopyHooks.afterBatch = async () => {};
  });

  const silence = (db: DatabaseHandle, table: 'jobs' | 'migration_cdr') =>
    db.db
      .updateTable(table)
      .set({ heartbeat_at: Date.now() - STALE_MS - 1000 })
      .execute();

  it('an exclusive job asked of two processes at once starts once', async () => {
    const runners = [new JobRunner(one.db), new JobRunner(two.db)];
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const outcomes = await Promise.allSettled(
      Array.from({ length: 8 }, (_, i) =>
        (runners[i % 2] as JobRunner).start('claim-test', 'held', () => held, { exclusive: true }),
      ),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    for (const o of outcomes) if (o.status === 'rejected') expect(o.reason).toBeInstanceOf(JobRunningError);
    release();
    for (const r of runners) await r.idle();
    const rows = await one.db.selectFrom('jobs').selectAll().where('kind', '=', 'claim-test').execute();
    expect(rows.map((r) => [r.status, r.exclusive_key])).toEqual([['done', null]]);
    // Done, the kind may start again.
    await runners[1]?.start('claim-test', 'again', async () => {}, { exclusive: true });
    await runners[1]?.idle();
  });

  it("a process's running job is failed by another only once that process is silent, and by one process", async () => {
    const alive = new JobRunner(one.db);
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const id = await alive.start('claim-held', 'held', async (ctx) => {
      await ctx.checkpoint({ saved: 3 });
      await held;
      return { saved: 10 };
    });
    // The other processes start after the job did (timestamps are in milliseconds).
    await new Promise((r) => setTimeout(r, 3));
    const others = [new JobRunner(two.db), new JobRunner(two.db)];
    if (kind === 'postgres') {
      // Alive: another process starting leaves it alone.
      expect(await others[0]?.failInterrupted()).toBe(0);
      expect((await alive.get(id))?.status).toBe('running');
      await silence(one, 'jobs');
    }
    // Two processes look at the same moment: one takes it.
    const taken = await Promise.all(others.map((r) => r.failInterrupted()));
    expect(taken.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await alive.get(id)).toMatchObject({ status: 'failed', error: INTERRUPTED_ERROR, result: { saved: 3 } });
    // The silent process wakes up and finishes: the verdict stands.
    release();
    await alive.idle();
    expect(await alive.get(id)).toMatchObject({ status: 'failed', error: INTERRUPTED_ERROR, result: { saved: 3 } });
  });

  it("a due phonebook source's scheduled sync is taken by one process", async () => {
    const now = Date.now();
    await one.db
      .insertInto('phonebook_sources')
      .values({
        id: 'claimed',
        dbtype: 'csv',
        config: '{}',
        mapping: '{}',
        type: 'claim',
        interval: 60,
        enabled: 1,
        created_at: now,
      })
      .execute();
    const services = [new PhonebookService(one.db, testDb.dataDir), new PhonebookService(two.db, testDb.dataDir)];
    const claims = await Promise.all(
      Array.from({ length: 6 }, (_, i) => (services[i % 2] as PhonebookService).claimScheduled('claimed')),
    );
    expect(claims.filter(Boolean)).toHaveLength(1);
    // Until its interval has passed, nobody takes it again.
    expect(await services[1]?.claimScheduled('claimed')).toBe(false);
    const later = new PhonebookService(two.db, testDb.dataDir, () => now + 61 * 60_000);
    expect(await later.claimScheduled('claimed')).toBe(true);
  });

  it('a call-record copy whose process fell silent is taken over and ends with every record once', async () => {
    const config = {
      url: legacy.url,
      pbxDb: legacy.pbx,
      cdrDb: legacy.cdr,
      ctiDb: legacy.cti,
      soundsDir: undefined,
      templatesDir: undefined,
    };
    const errors: unknown[] = [];
    const infos: string[] = [];
    const log = { error: (obj: object) => errors.push(obj), info: (_: object, msg: string) => infos.push(msg) };
    const first = new CdrCopy(one.db, cdrWriter(one), new LegacySource(config), new MigrationState(one.db), log);
    const second = new CdrCopy(two.db, cdrWriter(two), new LegacySource(config), new MigrationState(two.db), log);
    // The first process hangs after its first batch (a stopped VM, a long pause) ...
    let hung!: () => void;
    const hanging = new Promise<void>((resolve) => {
      hung = resolve;
    });
    let wake!: () => void;
    const asleep = new Promise<void>((resolve) => {
      wake = resolve;
    });
    let batches = 0;
    cdrCopyHooks.afterBatch = async () => {
      batches++;
      if (batches === 1) {
        hung();
        await asleep;
      } else if (batches === 2) {
        // The second has written a batch; the first wakes up now, while records remain: its next batch finds the
        // copy is no longer its own, rolls back and stops.
        wake();
        await new Promise((r) => setTimeout(r, 300));
      }
    };
    await first.start();
    await hanging;
    if (kind === 'postgres') {
      // ... the second, starting, leaves a live copy alone ...
      await second.resume();
      await new Promise((r) => setTimeout(r, 300));
      const copied = await two.db
        .selectFrom('cdr')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirst();
      expect(Number(copied?.n)).toBe(CDR_BATCH);
      await silence(one, 'migration_cdr');
    }
    // ... and goes on with it once the first is silent (on SQLite: it beat before the second looked; a real second
    // process looks when it starts, after the first stopped; timestamps are in milliseconds).
    await new Promise((r) => setTimeout(r, 5));
    await second.resume();
    for (let i = 0; i < 400 && (await second.progress())?.status !== true; i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(await second.progress()).toMatchObject({ status: true, copied: CDR_ROWS });
    await first.stop();
    expect(errors).toEqual([]);
    expect(infos).toContain('call-record copy taken over by another server process; this one stops');
    await second.stop();
    const rows = await one.db
      .selectFrom('cdr')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.count<number>('uniqueid').distinct().as('u')])
      .executeTakeFirstOrThrow();
    expect([Number(rows.n), Number(rows.u)]).toEqual([CDR_ROWS, CDR_ROWS]);
    expect(await first.progress()).toMatchObject({ status: true, progress: 100, copied: CDR_ROWS });
  }, 60_000);

  it('tells other processes of a change when it commits, and listens again after its connection dropped', async () => {
    const here = new ChangeBus(one.db, testDb.databaseUrl);
    const there = new ChangeBus(two.db, testDb.databaseUrl);
    try {
      if (kind === 'sqlite') {
        // One process: nobody to tell.
        expect(here.shared).toBe(false);
        return;
      }
      await Promise.all([here.start(), there.start()]);
      const heard: string[] = [];
      there.on('configuration', (t) => heard.push(t));
      there.on('provisioning', (t) => heard.push(t));
      const hear = async (what: string, timeoutMs = 3000) => {
        for (let waited = 0; !heard.includes(what) && waited < timeoutMs; waited += 20) {
          await new Promise((r) => setTimeout(r, 20));
        }
        return heard.includes(what);
      };
      here.publish('configuration');
      expect(await hear('configuration')).toBe(true);
      heard.length = 0;
      // Inside a transaction: heard when it commits, never when it rolls back.
      await one.db
        .transaction()
        .execute(async (trx) => {
          await here.publishIn(trx, 'provisioning');
          throw new Error('rolled back');
        })
        .catch(() => {});
      expect(await hear('provisioning', 500)).toBe(false);
      await one.db.transaction().execute((trx) => here.publishIn(trx, 'provisioning'));
      expect(await hear('provisioning')).toBe(true);
      // The listening connection dies (a database restart, a network cut): it listens again, and counts everything
      // as changed, since it may have missed something meanwhile.
      heard.length = 0;
      const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await admin.connect();
      const dbName = new URL(testDb.databaseUrl as string).pathname.slice(1);
      const killed = await admin.query(
        "select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and query like 'LISTEN%'",
        [dbName],
      );
      await admin.end();
      expect(killed.rowCount).toBe(2);
      expect(await hear('configuration', 5000)).toBe(true);
      expect(heard).toContain('provisioning');
      heard.length = 0;
      // Both listen again (each reconnected on its own).
      for (let i = 0; i < 50 && !heard.includes('configuration'); i++) {
        here.publish('configuration');
        await hear('configuration', 200);
      }
      expect(heard).toContain('configuration');
    } finally {
      await here.close();
      await there.close();
    }
  });

  it("an apply after another process's writes the same configuration directory compares with the disk", async () => {
    const dir = path.join(testDb.dataDir, 'asterisk-shared');
    const x = largeModel(20, 'x');
    const y = largeModel(20, 'y');
    let modelOfA: PbxModel = x;
    const a = new PbxApplier({ db: one.db, directory: dir, load: async () => modelOfA });
    const b = new PbxApplier({ db: two.db, directory: dir, load: async () => y });
    try {
      const apply = async (applier: PbxApplier) => {
        applier.markDirty();
        await applier.idle();
        expect((await applier.status()).last?.ok).toBe(true);
      };
      const onDisk = (name: string) => fs.readFileSync(path.join(dir, name), 'utf8');
      await apply(a);
      await apply(b);
      const differing = [...renderConfiguration(x)].filter(([name, text]) => renderConfiguration(y).get(name) !== text);
      expect(differing.length).toBeGreaterThan(0);
      // A writes x again, which it remembers writing: B's files in between must not be taken for its own.
      modelOfA = largeModel(20, 'x');
      await apply(a);
      for (const [name, text] of differing) expect(onDisk(name), name).toBe(text);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
