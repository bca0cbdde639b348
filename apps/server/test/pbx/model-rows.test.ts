import { describe, expect, it } from 'vitest';
import { MODEL_TABLES } from '../../src/db/migrations/0031_table_versions.ts';
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

  it('counts changes on every table the model is read from', async () => {
    const db = t.database.db;
    const counters = await db.selectFrom('table_versions').select('name').orderBy('name').execute();
    expect(counters.map((c) => c.name)).toEqual([...MODEL_TABLES].sort());
  });
});
