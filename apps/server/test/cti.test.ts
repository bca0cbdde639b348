import fs from 'node:fs';
import path from 'node:path';
import { Migrator } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase } from '../src/db/database.ts';
import { migrations } from '../src/db/migrations/index.ts';
import { callAs, DB_KINDS, expectError, useTestApp, useTestDatabase } from './helpers.ts';

type Profile = {
  id: number;
  name: string;
  macro_permissions: Record<
    string,
    { value: boolean; permissions?: { id: number | null; name: string; value: boolean }[] }
  >;
};

const on = (p: Profile, permission: string) =>
  Object.values(p.macro_permissions).some((m) => m.permissions?.some((x) => x.name === permission && x.value));

describe.each(DB_KINDS)('CTI profiles and groups (%s)', (kind) => {
  const t = useTestApp(kind);
  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: t.headers });
  const post = (url: string, payload: unknown, lang = 'en') =>
    t.app.inject({
      method: 'POST',
      url,
      headers: { ...t.headers, 'accept-language': lang },
      payload: payload as object,
    });
  const del = (url: string) => t.app.inject({ method: 'DELETE', url, headers: t.headers });
  const profiles = async () => (await get('/api/cti/profiles')).json() as Profile[];

  it('starts with the Base, Standard and Advanced profiles of the contract', async () => {
    const list = await profiles();
    expect(list.map((p) => [p.id, p.name])).toEqual([
      [1, 'Base'],
      [2, 'Standard'],
      [3, 'Advanced'],
    ]);
    const base = list[0] as Profile;
    expect(Object.keys(base.macro_permissions)).toHaveLength(12);
    expect(base.macro_permissions.nethvoice_cti?.value).toBe(true);
    expect(base.macro_permissions.off_hour?.value).toBe(false);
    expect(on(base, 'dnd')).toBe(true);
    expect(on(base, 'call_forward')).toBe(false);
    expect(on(list[2] as Profile, 'ad_cdr')).toBe(true);
    expect((await get('/api/cti/groups')).json()).toEqual([]);
  });

  it('creates a group with its grp_ permission in every profile, and refuses bad names', async () => {
    const res = await post('/api/cti/groups', { name: 'Support' });
    expect(res.statusCode, res.body).toBe(200);
    const { id } = res.json();
    // Same name again: the same group, nothing new.
    // A name that exists is refused, in any case, and nothing changes.
    const again = expectError(await post('/api/cti/groups', { name: 'Support' }), 409, 'group_exists');
    expect(again.fields).toEqual({ name: 'exists' });
    expectError(await post('/api/cti/groups', { name: 'support' }), 409, 'group_exists');
    const bad = expectError(await post('/api/cti/groups', { name: 'Sales team' }), 400, 'validation');
    expect(bad.fields?.name).toBe('Only letters and numbers allowed');
    expectError(await post('/api/cti/groups', { name: '' }), 400, 'validation');
    expect((await get('/api/cti/groups')).json()).toEqual([{ id, name: 'Support' }]);
    const presence = (await profiles())[0]?.macro_permissions.presence_panel;
    expect(presence?.permissions?.find((p) => p.name === 'grp_support')).toMatchObject({
      id: 1_000_000 + id,
      value: false,
    });
  });

  it('saves a whole profile, enforcing the rules on the server', async () => {
    const standard = (await profiles())[1] as Profile;
    const presence = standard.macro_permissions.presence_panel;
    for (const p of presence?.permissions ?? []) if (p.name === 'grp_support') p.value = true;
    const res = await post('/api/cti/profiles/2', { name: 'Standard', macro_permissions: standard.macro_permissions });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ status: true });
    expect(on((await profiles())[1] as Profile, 'grp_support')).toBe(true);

    const unknown = structuredClone(standard.macro_permissions);
    unknown.settings?.permissions?.push({ id: null, name: 'launch_rockets', value: true });
    const refused = expectError(
      await post('/api/cti/profiles/2', { name: 'Standard', macro_permissions: unknown }),
      400,
      'validation',
    );
    expect(refused.fields).toEqual({ 'macro_permissions.settings.launch_rockets': 'Unknown permission' });
    // A permission under the wrong macro is unknown there too.
    const misplaced = structuredClone(standard.macro_permissions);
    misplaced.cdr?.permissions?.push({ id: 2, name: 'dnd', value: true });
    expectError(
      await post('/api/cti/profiles/2', { name: 'Standard', macro_permissions: misplaced }),
      400,
      'validation',
    );
    expectError(await post('/api/cti/profiles/99', { name: 'X', macro_permissions: {} }), 404, 'not_found');
    expect(on((await profiles())[1] as Profile, 'grp_support')).toBe(true);
  });

  it('creates a profile from the blank template and duplicates one', async () => {
    const template = (await get('/api/cti/permissions')).json();
    expect(template.outbound_routes).toEqual([]);
    expect(template.remote_sites).toEqual({ value: false });
    expect(template.settings.permissions.every((p: { value: boolean }) => p.value === false)).toBe(true);
    const { outbound_routes: _, ...macros } = template;
    const blank = await post('/api/cti/profiles', { name: 'Reception', macro_permissions: macros });
    expect(blank.statusCode, blank.body).toBe(200);
    const reception = (await get(`/api/cti/profiles/${blank.json().id}`)).json() as Profile;
    expect(reception.name).toBe('Reception');
    expect(Object.values(reception.macro_permissions).every((m) => !m.value)).toBe(true);

    const advanced = (await profiles())[2] as Profile;
    const copy = await post('/api/cti/profiles', {
      name: 'Advanced copy',
      macro_permissions: advanced.macro_permissions,
    });
    const duplicated = (await get(`/api/cti/profiles/${copy.json().id}`)).json() as Profile;
    expect(duplicated.macro_permissions).toEqual(advanced.macro_permissions);
    expectError(await post('/api/cti/profiles', { name: '  ', macro_permissions: macros }), 400, 'validation');
  });

  it('assigns profiles and groups to users, and lists group members', async () => {
    expect((await post('/api/configuration/mode', { mode: 'legacy' })).statusCode).toBe(200);
    for (let i = 0; i < 100 && (await get('/api/configuration/userprovider')).json().configured !== 1; i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    const alice = (await post('/api/users', { username: 'alice', fullname: 'Alice Rossi' })).json();
    expectError(await get(`/api/cti/profiles/users/${alice.id}`), 404, 'not_found');
    expect((await post(`/api/cti/profiles/users/${alice.id}`, { profile_id: 2 })).json()).toEqual({ status: true });
    expect((await get(`/api/cti/profiles/users/${alice.id}`)).json()).toEqual({ id: 2 });
    expectError(await post(`/api/cti/profiles/users/${alice.id}`, { profile_id: 77 }), 404, 'not_found');
    expectError(await post('/api/cti/profiles/users/9999', { profile_id: 2 }), 404, 'user_not_found');

    const sales = (await post('/api/cti/groups', { name: 'Sales' })).json().id as number;
    const support = (await get('/api/cti/groups')).json()[0].id as number;
    expect((await post(`/api/cti/groups/users/${alice.id}`, { groups: [sales, support] })).statusCode).toBe(200);
    expect((await get(`/api/cti/groups/users/${alice.id}`)).json()).toEqual([support, sales].sort((a, b) => a - b));
    expect((await get(`/api/cti/users/groups/${sales}`)).json()).toEqual([{ user_id: alice.id, name: 'Sales' }]);
    expectError(await post(`/api/cti/groups/users/${alice.id}`, { groups: [sales, 4242] }), 404, 'not_found');
    // The failed call changed nothing.
    expect((await get(`/api/cti/groups/users/${alice.id}`)).json()).toHaveLength(2);
  });

  it('refuses to delete a profile users have, in their language', async () => {
    const res = expectError(await del('/api/cti/profiles/2'), 409, 'profile_in_use');
    expect(res.detail).toBe('Profile Standard is assigned to 1 users: assign them another profile first.');
    const alice = (await get('/api/users/false?search=alice')).json()[0];
    expect((await post(`/api/cti/profiles/users/${alice.id}`, { profile_id: null })).statusCode).toBe(200);
    expect((await del('/api/cti/profiles/2')).json()).toEqual({ status: true });
    expect((await profiles()).map((p) => p.name)).not.toContain('Standard');
    expectError(await del('/api/cti/profiles/2'), 404, 'not_found');
  });

  it('deleting a group removes its memberships and its permission from profiles', async () => {
    const groups = (await get('/api/cti/groups')).json() as { id: number; name: string }[];
    const support = groups.find((g) => g.name === 'Support');
    expect((await del(`/api/cti/groups/${support?.id}`)).json()).toEqual({ status: true });
    const list = await profiles();
    expect(
      list.every((p) => !p.macro_permissions.presence_panel?.permissions?.some((x) => x.name === 'grp_support')),
    ).toBe(true);
    const alice = (await get('/api/users/false?search=alice')).json()[0];
    expect((await get(`/api/cti/groups/users/${alice.id}`)).json()).toHaveLength(1);
    // A group created again with the same name starts disabled everywhere.
    await post('/api/cti/groups', { name: 'Support' });
    expect((await profiles()).some((p) => on(p, 'grp_support'))).toBe(false);
  });
});

describe.each(DB_KINDS)('CTI queue manager licence (%s)', (kind) => {
  const t = useTestApp(kind, { env: { EXTENSION_LIMIT: '8' } });
  it('refuses the queue manager without an active licence', async () => {
    const base = (
      await t.app.inject({ method: 'GET', url: '/api/cti/profiles/1', headers: t.headers })
    ).json() as Profile;
    expect(base.macro_permissions.qmanager?.value).toBe(false);
    const macros = structuredClone(base.macro_permissions);
    if (macros.qmanager) macros.qmanager.value = true;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/cti/profiles/1',
      headers: t.headers,
      payload: { name: 'Base', macro_permissions: macros },
    });
    expectError(res, 403, 'licence_required');
  });
});

describe.each(DB_KINDS)('CTI profiles and outbound routes (%s)', (kind) => {
  const t = useTestApp(kind);
  const call = callAs(t);
  type Routed = Profile & { outbound_routes_permissions?: { route_id: number; name: string; permission: boolean }[] };
  const profile = async (id: number) => (await call('GET', `/api/cti/profiles/${id}`)).json() as Routed;
  const save = (p: Routed, routes: { route_id: number; permission: boolean }[] | undefined) =>
    call('POST', `/api/cti/profiles/${p.id}`, {
      name: p.name,
      macro_permissions: p.macro_permissions,
      ...(routes ? { outbound_routes_permissions: routes } : {}),
    });
  /** The dial context of a profile as last written for Asterisk. */
  const dialContext = async (id: number) => {
    let status = { state: '', directory: '' };
    for (let i = 0; i < 200; i++) {
      status = (await call('GET', '/api/pbx/apply')).json();
      if (status.state === 'idle') break;
      await new Promise((r) => setTimeout(r, 25));
    }
    const dialplan = fs.readFileSync(path.join(status.directory, 'extensions.conf'), 'utf8');
    return dialplan.slice(dialplan.indexOf(`[cti-profile-${id}]`)).split('\n\n')[0] ?? '';
  };
  let routes: { route_id: number; name: string }[] = [];

  it('lists no route permissions before routes exist', async () => {
    expect((await profile(1)).outbound_routes_permissions).toBeUndefined();
    expect((await call('GET', '/api/cti/permissions')).json().outbound_routes).toEqual([]);
  });

  it('lists every route, allowed, in every profile once routes exist', async () => {
    const defaults = (await call('GET', '/api/outboundroutes/defaults')).json();
    expect((await call('POST', '/api/outboundroutes', { it: defaults.it })).statusCode).toBe(200);
    routes = (await call('GET', '/api/outboundroutes')).json();
    expect(routes).toHaveLength(4);
    const expected = routes.map((r) => ({ route_id: r.route_id, name: r.name, permission: true }));
    const list = (await call('GET', '/api/cti/profiles')).json() as Routed[];
    for (const p of list) expect(p.outbound_routes_permissions, p.name).toEqual(expected);
    expect((await profile(2)).outbound_routes_permissions).toEqual(expected);
    expect((await call('GET', '/api/cti/permissions')).json().outbound_routes).toEqual(
      routes.map((r) => ({ route_id: r.route_id, name: r.name })),
    );
    expect(await dialContext(1)).toContain('include => outbound-allroutes');
  });

  it('saves a denied route, and the profile dial context leaves that route out', async () => {
    const [national, cellphone] = routes as [(typeof routes)[0], (typeof routes)[0]];
    const base = await profile(1);
    const res = await save(base, [
      { route_id: national.route_id, permission: true },
      { route_id: cellphone.route_id, permission: false },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const stored = (await profile(1)).outbound_routes_permissions ?? [];
    expect(stored.map((r) => [r.name, r.permission])).toEqual([
      ['national_it', true],
      ['cellphone_it', false],
      ['international_it', true],
      ['toll_it', true],
    ]);
    // Other profiles are untouched.
    expect((await profile(2)).outbound_routes_permissions?.every((r) => r.permission)).toBe(true);
    const context = await dialContext(1);
    expect(context).not.toContain('include => outbound-allroutes');
    expect(context).not.toContain(`include => outrt-${cellphone.route_id}\n`);
    expect(context).toContain(`include => outrt-${national.route_id}\n`);
    expect(await dialContext(2)).toContain('include => outbound-allroutes');
  });

  it('creates a profile from the template as the console posts it, route list included', async () => {
    const template = (await call('GET', '/api/cti/permissions')).json();
    expect(template.outbound_routes).toHaveLength(4);
    const res = await call('POST', '/api/cti/profiles', { name: 'Blank', macro_permissions: template });
    expect(res.statusCode, res.body).toBe(200);
    const blank = await profile(res.json().id);
    expect(blank.outbound_routes_permissions?.every((r) => r.permission)).toBe(true);
    expect(Object.keys(blank.macro_permissions)).not.toContain('outbound_routes');
  });

  it('duplicates the route permissions of the source profile', async () => {
    const base = await profile(1);
    const res = await call('POST', '/api/cti/profiles', {
      name: 'Base copy',
      macro_permissions: base.macro_permissions,
      outbound_routes_permissions: base.outbound_routes_permissions,
    });
    expect(res.statusCode, res.body).toBe(200);
    const copy = await profile(res.json().id);
    expect(copy.outbound_routes_permissions).toEqual(base.outbound_routes_permissions);
    expect(await dialContext(copy.id)).not.toContain(`include => outrt-${routes[1]?.route_id}\n`);
  });

  it('refuses unknown, repeated or malformed routes and keeps the stored permissions', async () => {
    const base = await profile(1);
    const before = base.outbound_routes_permissions;
    const unknown = expectError(await save(base, [{ route_id: 9999, permission: false }]), 400, 'validation');
    expect(unknown.fields).toEqual({ 'outbound_routes_permissions.9999': 'Unknown route' });
    const id = routes[0]?.route_id as number;
    const twice = expectError(
      await save(base, [
        { route_id: id, permission: true },
        { route_id: id, permission: false },
      ]),
      400,
      'validation',
    );
    expect(twice.fields).toEqual({ [`outbound_routes_permissions.${id}`]: 'Route listed more than once' });
    expectError(
      await save(base, [{ route_id: 'national' as unknown as number, permission: 'no' as unknown as boolean }]),
      400,
      'validation',
    );
    expect((await profile(1)).outbound_routes_permissions).toEqual(before);
  });

  it('deleting a route removes its permissions; a new route starts allowed everywhere', async () => {
    const cellphone = routes[1]?.route_id as number;
    expect((await call('DELETE', `/api/outboundroutes/${cellphone}`)).statusCode).toBe(200);
    const rows = await t.database.db
      .selectFrom('cti_profile_routes')
      .select('route_id')
      .where('route_id', '=', cellphone)
      .execute();
    expect(rows).toEqual([]);
    const base = await profile(1);
    expect(base.outbound_routes_permissions?.map((r) => r.name)).toEqual([
      'national_it',
      'international_it',
      'toll_it',
    ]);

    const created = await call('POST', '/api/outboundroutes/route', {
      name: 'premium',
      outcid: '',
      emergency: false,
      patterns: [{ prepend: '', prefix: '', match_pattern: '89XXXXX', match_cid: '' }],
      trunks: [],
    });
    expect(created.statusCode, created.body).toBe(200);
    const premium = (await profile(1)).outbound_routes_permissions?.find((r) => r.name === 'premium');
    expect(premium?.permission).toBe(true);
    expect(await dialContext(1)).toContain(`include => outrt-${premium?.route_id}\n`);
  });
});

describe.each(DB_KINDS)('route permissions of a database from before 0013 (%s)', (kind) => {
  const testDb = useTestDatabase(kind);
  it('keeps the rows of existing routes, drops the others, and follows route deletes from then on', async () => {
    const { db, close } = await openDatabase({
      databaseUrl: testDb.current.databaseUrl,
      dataDir: testDb.current.dataDir,
    });
    try {
      const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
      expect((await migrator.migrateTo('0012_login_throttle')).error).toBeUndefined();
      const route = (name: string, seq: number) =>
        db
          .insertInto('outbound_routes')
          .values({ name, seq, outcid: '', emergency: 0, created_at: 0, updated_at: 0 })
          .returning('id')
          .executeTakeFirstOrThrow();
      const kept = Number((await route('national_it', 0)).id);
      const gone = Number((await route('toll_it', 1)).id);
      await db.deleteFrom('outbound_routes').where('id', '=', gone).execute();
      await db
        .insertInto('cti_profile_routes')
        .values([
          { profile_id: 1, route_id: kept, permission: 0 },
          { profile_id: 1, route_id: gone, permission: 0 },
        ])
        .execute();
      await migrateToLatest(db);
      const rows = async () =>
        (await db.selectFrom('cti_profile_routes').selectAll().execute()).map((r) => [
          Number(r.profile_id),
          Number(r.route_id),
          Number(r.permission),
        ]);
      expect(await rows()).toEqual([[1, kept, 0]]);
      await db.deleteFrom('outbound_routes').where('id', '=', kept).execute();
      expect(await rows()).toEqual([]);
    } finally {
      await close();
    }
  });
});
