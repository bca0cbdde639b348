import fs from 'node:fs';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAs, DB_KINDS, expectError, useTestApp } from './helpers.ts';
import { type AmiPeer, amiPeer } from './support/ami-peer.ts';

type Call = (
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  payload?: unknown,
  headers?: Record<string, string>,
) => Promise<LightMyRequestResponse>;

/** The PBX's AstDB as the loopback AMI peer keeps it: phones said *70 (call waiting on) on 202 and 91202. */
const astdb = new Map<string, string>([
  ['CW/202', 'ENABLED'],
  ['CW/91202', 'ENABLED'],
  ['CW/301', 'DISABLED'],
]);
const peer: AmiPeer = amiPeer({ secret: 'bulk-secret', astdb });
const port = await peer.listen();
afterAll(() => peer.close());

async function settledApply(call: Call) {
  for (let i = 0; i < 400; i++) {
    const status = (await call('GET', '/api/pbx/apply')).json();
    if (status.state === 'idle') return status as { directory: string; last: { ok: boolean } | null };
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('the apply did not settle');
}

describe.each(DB_KINDS)('bulk extensions (%s)', (kind) => {
  const t = useTestApp(kind, {
    env: { AMI_HOST: '127.0.0.1', AMI_PORT: String(port), AMI_USERNAME: 'centralino', AMI_SECRET: 'bulk-secret' },
  });
  const call: Call = callAs(t);
  const users = [
    ['alice', 'Alice Rossi', '201'],
    ['bob', 'Room 202', '202'],
    ['carol', 'Room 203', '203'],
    ['dave', 'Dave Verdi', '301'],
  ] as const;
  let sales = 0;
  let profile = 0;

  beforeAll(async () => {
    expect((await call('POST', '/api/configuration/mode', { mode: 'legacy' })).statusCode).toBe(200);
    for (let i = 0; i < 100 && (await call('GET', '/api/configuration/userprovider')).json().configured !== 1; i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    for (const [username, fullname, extension] of users) {
      expect((await call('POST', '/api/users', { username, fullname })).statusCode).toBe(201);
      expect((await call('POST', '/api/mainextensions', { username, extension })).statusCode).toBe(201);
    }
    expect((await call('POST', '/api/webrtc', { extension: '202' })).statusCode).toBeLessThan(300);
    expect((await call('POST', '/api/mobileapp', { mainextension: '202' })).json().extension).toBe('91202');
    expect((await call('POST', '/api/voicemails', { extension: '201', state: 'yes' })).statusCode).toBeLessThan(300);
    sales = (await call('POST', '/api/cti/groups', { name: 'sales' })).json().id;
    const bob = (await call('GET', '/api/users/false?search=bob')).json()[0].id;
    const carol = (await call('GET', '/api/users/false?search=carol')).json()[0].id;
    for (const id of [bob, carol]) {
      expect((await call('POST', `/api/cti/groups/users/${id}`, { groups: [sales] })).statusCode).toBeLessThan(300);
    }
    profile = (await call('GET', '/api/cti/profiles')).json()[0].id;
  });

  it('reads the common values, masking each user’s digits in the name, and null where they differ', async () => {
    const res = await call('GET', '/api/bulk/202,203');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      displayname: 'Room ???',
      profile: '-1',
      callwaiting: true,
      ringtime: '0',
      callgroup: '',
      pickupgroup: '',
      noanswerdest: '',
      busydest: '',
      notreachabledest: '',
      outboundcid: '',
      recording: 'on_demand',
      callpermission: 'profile',
    });
    expect((await call('GET', '/api/bulk/201,202')).json().displayname).toBeNull();
    expectError(await call('GET', '/api/bulk/202,999'), 404, 'not_found');
    expectError(await call('GET', '/api/bulk/20a'), 400, 'validation');
  });

  it('selects by group, by interval and by search', async () => {
    expect((await call('GET', `/api/bulk/selection?group=${sales}`)).json()).toEqual(['202', '203']);
    expect((await call('GET', '/api/bulk/selection?from=202&to=301')).json()).toEqual(['202', '203', '301']);
    expect((await call('GET', '/api/bulk/selection?search=room')).json()).toEqual(['202', '203']);
    expect((await call('GET', '/api/bulk/selection')).json()).toEqual(['201', '202', '203', '301']);
    expectError(await call('GET', '/api/bulk/selection?from=-1'), 400, 'validation');
  });

  it('offers every destination by category, hang up selected, and the contexts', async () => {
    const destinations = (await call('GET', '/api/destinations')).json() as Record<
      string,
      Record<string, { destination: string }>
    >;
    expect(Object.keys(destinations)).toEqual(['Extensions', 'Groups', 'Terminate Call', 'Voicemail']);
    expect(destinations['Terminate Call']?.['0']).toEqual({
      destination: 'app-blackhole,hangup,1',
      description: 'Hangup',
      category: 'Terminate Call',
      selected: true,
    });
    expect(Object.values(destinations.Voicemail ?? {}).map((d: { destination: string }) => d.destination)).toEqual([
      'ext-local,vmb201,1',
      'ext-local,vmu201,1',
      'ext-local,vms201,1',
    ]);
    expect(Object.values(destinations.Groups ?? {}).map((d: { destination: string }) => d.destination)).toEqual([
      `ext-group,cti-group-${sales},1`,
    ]);
    const contexts = (await call('GET', '/api/contexts')).json();
    expect(Object.entries(contexts)[0]).toEqual(['from-internal', 'Standard']);
    expect(contexts[`cti-profile-${profile}`]).toMatch(/^CTI Profile /);
  });

  it('refuses bad values with per-field reasons in the caller’s language, and changes nothing', async () => {
    const before = (await call('GET', '/api/bulk/202,203')).json();
    const bad = await call('POST', '/api/bulk/202,203', { ringtime: 121, callgroup: '64', outboundcid_fixed: '07a' });
    const body = expectError(bad, 400, 'validation');
    expect(Object.keys(body.fields ?? {}).sort()).toEqual(['callgroup', 'outboundcid_fixed', 'ringtime']);
    const italian = await call('POST', '/api/bulk/202,203', { ringtime: 121 }, { 'accept-language': 'it' });
    expect(italian.json().fields.ringtime).toBe('Un numero da 0 a 120');
    // All or nothing: one unknown destination refuses the whole edit, the valid fields included.
    const unknown = await call('POST', '/api/bulk/202,203', { ringtime: 30, busydest: 'ext-local,vmb999,1' });
    expect(expectError(unknown, 422, 'validation').fields).toEqual({
      busydest: 'Unknown destination ext-local,vmb999,1',
    });
    const self = await call(
      'POST',
      '/api/bulk/202',
      { noanswerdest: 'from-did-direct,202,1' },
      { 'accept-language': 'it' },
    );
    expect(expectError(self, 422, 'validation').fields?.noanswerdest).toContain('non può rinviare');
    expectError(await call('POST', '/api/bulk/202', { profile: '9999' }), 422, 'validation');
    expect((await call('GET', '/api/bulk/202,203')).json()).toEqual(before);
  });

  it('previews, then applies in one go: locked fields untouched, ? masks and caller ID digits per user', async () => {
    const edit = {
      displayname: 'Room ???',
      profile: String(profile),
      callwaiting: false,
      ringtime: 30,
      callgroup: '1,3-4',
      pickupgroup: '1',
      busydest: 'ext-local,vmb201,1',
      noanswerdest: null,
      notreachabledest: 'app-blackhole,busy,1',
      outboundcid_fixed: '0721405',
      outboundcid_variable: 2,
      recording: 'always',
    };
    const preview = await call('POST', '/api/bulk/preview', { extensions: ['202', '203'], ...edit });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json().users).toBe(2);
    expect(preview.json().changed).toBe(2);
    // The phones whose accounts change: bob's web phone (on 202) and mobile app (91202); carol has no phone.
    expect(preview.json().devices).toBe(2);
    const changes = Object.fromEntries(
      preview.json().changes.map((c: { field: string; users: number }) => [c.field, c.users]),
    );
    expect(changes).toEqual({
      profile: 2,
      callwaiting: 2,
      ringtime: 2,
      callgroup: 2,
      pickupgroup: 2,
      busydest: 2,
      notreachabledest: 2,
      outboundcid: 2,
      recording: 2,
    }); // the names are already 'Room 202' and 'Room 203'
    const res = await call('POST', '/api/bulk/202,203', edit);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ status: true, users: 2 });
    expect((await call('GET', '/api/bulk/202,203')).json()).toEqual({
      displayname: 'Room ???',
      profile: String(profile),
      callwaiting: false,
      ringtime: '30',
      callgroup: '1,3-4',
      pickupgroup: '1',
      noanswerdest: '',
      busydest: 'ext-local,vmb201,1',
      notreachabledest: 'app-blackhole,busy,1',
      outboundcid: null, // 072140502 and 072140503
      recording: 'always',
      callpermission: 'profile',
    });
    const list = (await call('GET', '/api/users/false?search=room')).json();
    expect(list.map((u: { profile: string; displayname: string }) => u.profile)).toEqual([
      String(profile),
      String(profile),
    ]);
    // The phones' own *70 on 202 and its web phone no longer override what was configured; 301 is not selected.
    expect([...astdb.keys()].sort()).toEqual(['CW/301']);
    // A template names each user with their own digits.
    expect(
      (await call('POST', '/api/bulk', { extensions: ['202', '203'], displayname: 'Office ?? of ????' })).statusCode,
    ).toBe(200);
    const names = (await call('GET', '/api/users/false?search=office'))
      .json()
      .map((u: { profile: string; displayname: string }) => u.displayname);
    expect(names).toEqual(['Office 02 of 202', 'Office 03 of 203']);

    // What the PBX gets: endpoints carry the groups and caller ID, the dialplan the ring time, call waiting
    // and the destinations.
    const status = await settledApply(call);
    expect(status.last?.ok).toBe(true);
    const pjsip = fs.readFileSync(path.join(status.directory, 'pjsip.users.2xx.conf'), 'utf8');
    const endpoint202 = pjsip.split('\n[').find((s) => s.startsWith('202]')) ?? '';
    expect(endpoint202).toContain('call_group = 1,3-4');
    expect(endpoint202).toContain('pickup_group = 1');
    expect(endpoint202).toContain('set_var = USEROUTCID=072140502');
    expect(endpoint202).toContain(`context = cti-profile-${profile}`);
    expect(endpoint202).toContain('callerid = "Office 02 of 202" <202>');
    const web202 = pjsip.split('\n[').find((s) => s.startsWith('91202]')) ?? '';
    expect(web202).toContain('call_group = 1,3-4');
    const dialplan = fs.readFileSync(path.join(status.directory, 'extensions.users.2xx.conf'), 'utf8');
    // The recording policy set above: the user's calls are always recorded.
    expect(dialplan).toContain('exten => 202,1,Gosub(sub-dial-user,s,1(202,202&91202,30,202,DISABLED,always))');
    expect(dialplan).toContain('exten => 91202,1,Gosub(sub-dial-user,s,1(91202,91202,30,202,DISABLED,always))');
    const block202 = dialplan.slice(dialplan.indexOf('exten => 202,1'), dialplan.indexOf('exten => 203,hint'));
    expect(block202).toContain('same => n(busy),Goto(ext-local,vmb201,1)');
    expect(block202).toContain('same => n(noanswer),Congestion(20)');
    expect(block202).toContain('same => n(unavail),Goto(app-blackhole,busy,1)');
  });

  it('counts in the preview each user any field changes once', async () => {
    expect((await call('POST', '/api/bulk', { extensions: ['202'], ringtime: 11, callgroup: '5' })).statusCode).toBe(
      200,
    );
    expect((await call('POST', '/api/bulk', { extensions: ['203'], ringtime: 22, callgroup: '6' })).statusCode).toBe(
      200,
    );
    // The ring time changes 202 only, the call group 203 only: two users change, not the largest field's one.
    const preview = await call('POST', '/api/bulk/preview', {
      extensions: ['202', '203'],
      ringtime: 22,
      callgroup: '5',
    });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json()).toMatchObject({ users: 2, changed: 2 });
    expect(preview.json().changes).toEqual([
      { field: 'ringtime', users: 1 },
      { field: 'callgroup', users: 1 },
    ]);
    const same = await call('POST', '/api/bulk/preview', { extensions: ['202', '203'], ringtime: 11 });
    expect(same.json()).toMatchObject({ users: 2, changed: 1 });
    const none = await call('POST', '/api/bulk/preview', { extensions: ['202'], ringtime: 11, callgroup: '5' });
    expect(none.json()).toMatchObject({ users: 1, changed: 0, devices: 0, changes: [] });
    // Carol has no phone: her ring time changes, but no phone gets a new configuration.
    const noPhone = await call('POST', '/api/bulk/preview', { extensions: ['203'], ringtime: 40 });
    expect(noPhone.json()).toMatchObject({ users: 1, changed: 1, devices: 0 });
  });

  it('keeps a mailbox, an extension and a group that users’ destinations send calls to', async () => {
    await call('POST', '/api/bulk/301', { noanswerdest: `ext-group,cti-group-${sales},1` });
    const vm = expectError(
      await call('POST', '/api/voicemails', { extension: '201', state: 'no' }),
      409,
      'extension_routed',
    );
    expect(vm.detail).toContain('busy destination of bob (202)');
    const group = expectError(await call('DELETE', `/api/cti/groups/${sales}`), 409, 'group_routed');
    expect(group.detail).toContain('no-answer destination of dave (301)');
    expect((await call('POST', '/api/bulk/202,203', { busydest: 'from-did-direct,301,1' })).statusCode).toBe(200);
    const ext = expectError(
      await call('POST', '/api/mainextensions', { username: 'dave', extension: '' }),
      409,
      'extension_routed',
    );
    expect(ext.detail).toContain('busy destination of bob (202)');
    // Unlocked back to the defaults, everything can go.
    expect(
      (await call('POST', '/api/bulk', { extensions: ['202', '203', '301'], busydest: '', noanswerdest: '' }))
        .statusCode,
    ).toBe(200);
    expect((await call('POST', '/api/voicemails', { extension: '201', state: 'no' })).statusCode).toBeLessThan(300);
    expect((await settledApply(call)).last?.ok).toBe(true);
  });

  it('takes a selection longer than a path in the body, and requires a session', async () => {
    const many = Array.from({ length: 1001 }, () => '202');
    expect((await call('POST', '/api/bulk/settings', { extensions: many })).statusCode).toBe(200);
    expectError(await call('GET', `/api/bulk/${many.join(',')}`), 400, 'validation');
    const anonymous = await t.app.inject({ method: 'POST', url: '/api/bulk', payload: { extensions: ['202'] } });
    expect(anonymous.statusCode).toBe(401);
  });

  it('takes named call and pickup groups next to numbers (contract §4.2), and renders each where PJSIP wants it', async () => {
    const res = await call('POST', '/api/bulk/301', { callgroup: 'reception, 2', pickupgroup: 'reception' });
    expect(res.statusCode, res.body).toBe(200);
    expect((await call('GET', '/api/bulk/301')).json()).toMatchObject({
      callgroup: 'reception, 2',
      pickupgroup: 'reception',
    });
    const bad = await call('POST', '/api/bulk/301', { callgroup: 'front desk', pickupgroup: '2x' });
    expect(Object.keys(expectError(bad, 400, 'validation').fields ?? {}).sort()).toEqual(['callgroup', 'pickupgroup']);
    const status = await settledApply(call);
    expect(status.last?.ok).toBe(true);
    const pjsip = fs.readFileSync(path.join(status.directory, 'pjsip.users.3xx.conf'), 'utf8');
    const endpoint301 = pjsip.split('\n[').find((s) => s.startsWith('301]')) ?? '';
    expect(endpoint301).toContain('named_call_group = reception\n');
    expect(endpoint301).toContain('call_group = 2\n');
    expect(endpoint301).toContain('named_pickup_group = reception\n');
    expect(endpoint301).not.toMatch(/^pickup_group/m);
  });

  it('reads and previews a selection sent in the body without marking the PBX configuration changed', async () => {
    const generation = async () =>
      Number((await t.database.db.selectFrom('pbx_apply').select('generation').executeTakeFirst())?.generation ?? 0);
    await settledApply(call);
    const before = await generation();
    const read = await call('POST', '/api/bulk/settings', { extensions: ['202', '203'] });
    expect(read.statusCode, read.body).toBe(200);
    const preview = await call('POST', '/api/bulk/preview', { extensions: ['202', '203'], ringtime: 77 });
    expect(preview.statusCode, preview.body).toBe(200);
    expect((await call('GET', '/api/pbx/apply')).json().state).toBe('idle');
    await settledApply(call);
    expect(await generation()).toBe(before);
    // An edit does: the same hook counts it.
    expect((await call('POST', '/api/bulk', { extensions: ['202'], ringtime: 77 })).statusCode).toBe(200);
    await settledApply(call);
    expect(await generation()).toBe(before + 1);
  });
});
