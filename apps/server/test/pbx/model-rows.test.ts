import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { MODEL_TABLES } from '../../src/db/migrations/0031_table_versions.ts';
import { rowChanges } from '../../src/db/migrations/0032_row_changes.ts';
import { RING_GROUP_TABLES } from '../../src/db/migrations/0037_ring_groups.ts';
import { CONFERENCE_MODEL_TABLES } from '../../src/db/migrations/0038_conferences.ts';
import { PARKING_MODEL_TABLES } from '../../src/db/migrations/0039_parking.ts';
import { BLOCKING_MODEL_TABLES } from '../../src/db/migrations/0040_blocking.ts';
import { MUSIC_MODEL_TABLES } from '../../src/db/migrations/0041_music_on_hold.ts';
import { FOLLOWME_MODEL_TABLES } from '../../src/db/migrations/0042_followme.ts';
import type { Database } from '../../src/db/schema.ts';
import { extensionColumns, searchKey } from '../../src/features/users/repository.ts';
import { loadPbxModel } from '../../src/pbx/load.ts';
import { ModelRows, tablesOf } from '../../src/pbx/model-rows.ts';
import { DB_KINDS, useTestApp } from '../helpers.ts';
import { TEST_ENGINE } from './fixtures.ts';

describe('the tables a query reads', () => {
  it('are every quoted name after from or join, subqueries included', () => {
    expect(
      tablesOf(
        'select "a"."x", (select "n" from "users_version" where "id" = ?) from "users" inner join "pbx_secrets" on 1 left join "devices" on 1',
      ),
    ).toEqual(['devices', 'pbx_secrets', 'users', 'users_version']);
  });
});

describe.each(DB_KINDS)('what the PBX configuration was read from, kept between applies (%s)', (kind) => {
  const t = useTestApp(kind);

  it('reads again only the queries whose tables changed, whoever changed them', async () => {
    const db = t.database.db;
    const kept = new ModelRows(db);
    const first = await loadPbxModel(db, TEST_ENGINE, kept);
    const queries = kept.reads;
    expect(queries).toBeGreaterThan(15);
    // Every table the model is read from has a counter.
    expect([...kept.uncounted]).toEqual([]);

    // Nothing changed: nothing is read again, and the model is the same.
    expect(await loadPbxModel(db, TEST_ENGINE, kept)).toEqual(first);
    expect(kept.reads).toBe(queries);

    // A write straight into one table (as another process would): the queries reading it, and only those.
    await db
      .insertInto('cti_groups')
      .values({ name: 'night shift' } as never)
      .execute();
    const after = await loadPbxModel(db, TEST_ENGINE, kept);
    expect(kept.reads - queries).toBe(1);
    expect(after).toEqual(await loadPbxModel(db, TEST_ENGINE, new ModelRows(db)));
  });

  it('goes back to counters alone when migration 0032 is undone, and logs rows again when it is redone', async () => {
    const db = t.database.db;
    const counter = async () =>
      Number(
        (await db.selectFrom('table_versions').select('n').where('name', '=', 'users').executeTakeFirstOrThrow()).n,
      );
    await db.deleteFrom('users').execute();
    await someUsers(db, 'undo', 2);
    if (!rowChanges.down) throw new Error('migration 0032 cannot be undone');
    await rowChanges.down(db as never);
    try {
      const before = await counter();
      await db.updateTable('users').set({ displayname: 'Undone' }).execute();
      expect(await counter()).toBeGreaterThan(before);
    } finally {
      await rowChanges.up(db as never);
    }
    await db.updateTable('users').set({ displayname: 'Redone' }).execute();
    const logged = await db.selectFrom('row_changes').select('key').where('name', '=', 'users').execute();
    expect(logged.length).toBeGreaterThan(0);
  });

  it('counts changes on every table the model is read from', async () => {
    const db = t.database.db;
    const counters = await db.selectFrom('table_versions').select('name').orderBy('name').execute();
    expect(counters.map((c) => c.name)).toEqual(
      [
        ...MODEL_TABLES,
        ...RING_GROUP_TABLES,
        ...CONFERENCE_MODEL_TABLES,
        ...PARKING_MODEL_TABLES,
        ...MUSIC_MODEL_TABLES,
        ...FOLLOWME_MODEL_TABLES,
        ...BLOCKING_MODEL_TABLES,
      ].sort(),
    );
  });

  /** `count` users with main extensions `first`, `first` + 1… (their SIP secrets come with the next model read). */
  async function someUsers(db: Kysely<Database>, prefix: string, count: number, first = 300) {
    const now = Date.now();
    await db
      .insertInto('users')
      .values(
        Array.from({ length: count }, (_, i) => ({
          username: `${prefix}${i}`,
          displayname: `${prefix} ${i}`,
          source: 'local' as const,
          ...extensionColumns(String(first + i)),
          search_key: searchKey(`${prefix}${i}`, `${prefix} ${i}`, String(first + i)),
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
  }

  it('reads again only the users and devices that changed, and gets the same model as a read afresh', async () => {
    const db = t.database.db;
    await db.deleteFrom('users').execute();
    await someUsers(db, 'keyed', 40);
    const kept = new ModelRows(db);
    await loadPbxModel(db, TEST_ENGINE, kept);
    const afresh = () => loadPbxModel(db, TEST_ENGINE, new ModelRows(db));
    const step = async (change: () => Promise<unknown>) => {
      const [reads, partial, rows] = [kept.reads, kept.partialReads, kept.rowsRead];
      await change();
      const model = await loadPbxModel(db, TEST_ENGINE, kept);
      expect(model).toEqual(await afresh());
      return { reads: kept.reads - reads, partial: kept.partialReads - partial, rows: kept.rowsRead - rows, model };
    };
    const user = (name: string) =>
      db.selectFrom('users').select('id').where('username', '=', name).executeTakeFirstOrThrow();

    // One user renamed: that user's row is read, not the 40 (the queue members query reads users too: none here).
    const renamed = await step(() =>
      db.updateTable('users').set({ displayname: 'Renamed' }).where('username', '=', 'keyed7').execute(),
    );
    expect(renamed.partial).toBe(1);
    expect(renamed.rows).toBe(1);
    expect(renamed.model.users.find((u) => u.username === 'keyed7')?.name).toBe('Renamed');

    // A new SIP secret (another table, another key: the extension) reaches its user.
    const secret = await step(() =>
      db
        .updateTable('pbx_secrets')
        .set({ secret: 'f'.repeat(32) })
        .where('extension', '=', '305')
        .execute(),
    );
    expect(secret.rows).toBe(1);
    expect(secret.model.users.find((u) => u.extension === '305')?.secret).toBe('f'.repeat(32));

    // A new number moves the user in the order; one taken away drops it; one deleted is gone.
    const moved = await step(async () => {
      await db.updateTable('users').set(extensionColumns('399')).where('username', '=', 'keyed0').execute();
      await db.updateTable('users').set(extensionColumns(null)).where('username', '=', 'keyed1').execute();
      await db.deleteFrom('users').where('username', '=', 'keyed2').execute();
    });
    // keyed0 read again (its new number gets a secret on this read: a second, whole read of the change is not needed).
    expect(moved.partial).toBeGreaterThanOrEqual(1);
    expect(moved.model.users.map((u) => u.username).slice(-2)).toEqual(['keyed39', 'keyed0']);
    expect(moved.model.users.map((u) => u.username)).not.toContain('keyed1');
    expect(moved.model.users.map((u) => u.username)).not.toContain('keyed2');

    // A device added and one changed: the devices read is partial too.
    const owner = await user('keyed5');
    await db
      .insertInto('devices')
      .values([
        { user_id: owner.id, type: 'webrtc', line: 1, extension: '91305', secret: 'a'.repeat(32), created_at: 1 },
        { user_id: owner.id, type: 'nethlink', line: 1, extension: '92305', secret: 'b'.repeat(32), created_at: 1 },
      ] as never)
      .execute();
    await loadPbxModel(db, TEST_ENGINE, kept);
    const device = await step(() =>
      db
        .updateTable('devices')
        .set({ secret: 'c'.repeat(32) })
        .where('extension', '=', '92305')
        .execute(),
    );
    expect(device).toMatchObject({ reads: 1, partial: 1, rows: 1 });
    expect(device.model.users.find((u) => u.username === 'keyed5')?.devices.map((d) => d.secret)).toEqual([
      'a'.repeat(32),
      'c'.repeat(32),
    ]);

    // Many users changed at once (an import): one whole read, not a list of hundreds of keys.
    const many = await step(() => someUsers(db, 'many', 600, 1000));
    expect(many.partial).toBe(0);
    expect(many.model.users.length).toBeGreaterThan(600);
  });

  it('reads a table whole when its log was trimmed past what was kept, and trims the log as it grows', async () => {
    const db = t.database.db;
    await db.deleteFrom('users').execute();
    await someUsers(db, 'trim', 10);
    const kept = new ModelRows(db, { logKept: 5 });
    await loadPbxModel(db, TEST_ENGINE, kept);
    const versions = () =>
      db.selectFrom('table_versions').select(['n', 'forgotten']).where('name', '=', 'users').executeTakeFirstOrThrow();
    const partial = kept.partialReads;
    // Twenty single-row writes: more than twice what the log keeps.
    for (let i = 0; i < 20; i++)
      await db
        .updateTable('users')
        .set({ displayname: `Trim ${i}` })
        .where('username', '=', `trim${i % 10}`)
        .execute();
    const before = await versions();
    // The counters are looked at first thing in a read; the trim that starts then is let finish before the rows
    // are read (it runs beside the read, so otherwise the read may or may not find the log still whole).
    await kept.look();
    await kept.trimming;
    await loadPbxModel(db, TEST_ENGINE, kept);
    // What was kept predates the five values still logged: that read was whole.
    expect(kept.partialReads).toBe(partial);
    const after = await versions();
    expect(Number(after.forgotten)).toBe(Number(before.n) - 5);
    const logged = await db.selectFrom('row_changes').select('version').where('name', '=', 'users').execute();
    expect(logged.every((r) => Number(r.version) > Number(after.forgotten))).toBe(true);
    expect(logged.length).toBeGreaterThan(0);
    // A reader that kept rows from before the trim, and one after a change: both get what a read afresh gives.
    await db.updateTable('users').set({ displayname: 'Last' }).where('username', '=', 'trim3').execute();
    const model = await loadPbxModel(db, TEST_ENGINE, kept);
    expect(kept.partialReads).toBe(partial + 1);
    expect(model).toEqual(await loadPbxModel(db, TEST_ENGINE, new ModelRows(db)));
    expect(model.users.find((u) => u.username === 'trim3')?.name).toBe('Last');
  });

  // SQLite has one writer at a time: a later change cannot commit before an earlier one there.
  if (kind === 'postgres')
    it('does not miss a change that commits after a later one was read: the second writer waits', async () => {
      const db = t.database.db;
      await db.deleteFrom('users').execute();
      await someUsers(db, 'race', 2);
      const kept = new ModelRows(db);
      await loadPbxModel(db, TEST_ENGINE, kept);
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let wrote = () => {};
      const written = new Promise<void>((resolve) => {
        wrote = resolve;
      });
      const first = db.transaction().execute(async (trx) => {
        await trx.updateTable('users').set({ displayname: 'First' }).where('username', '=', 'race0').execute();
        wrote();
        await held;
      });
      await written;
      let secondDone = false;
      const second = db
        .updateTable('users')
        .set({ displayname: 'Second' })
        .where('username', '=', 'race1')
        .execute()
        .then(() => {
          secondDone = true;
        });
      await new Promise((r) => setTimeout(r, 300));
      const secondWaited = !secondDone;
      // Read while the first is open: had the second committed, its number would be past the first's.
      await loadPbxModel(db, TEST_ENGINE, kept);
      release();
      await first;
      await second;
      const model = await loadPbxModel(db, TEST_ENGINE, kept);
      expect(model).toEqual(await loadPbxModel(db, TEST_ENGINE, new ModelRows(db)));
      expect(model.users.map((u) => u.name)).toEqual(['First', 'Second']);
      expect(secondWaited).toBe(true);
    });
});
