import { describe, expect, it } from 'vitest';
import { DB_KINDS, expectError, useTestApp } from './helpers.ts';

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
