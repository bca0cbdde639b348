import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS, expectError, useTestApp } from './helpers.ts';
import { type AmiPeer, amiPeer } from './support/ami-peer.ts';

/**
 * Bulk phones: the list (filters by CTI group, model and search, paged), set model for a selection (one
 * vendor, a model of theirs, all or nothing) and reconfigure a selection with a delayed reboot, over a real
 * AMI connection to a loopback peer where alice's phone (201) is registered and bob's (202) is not.
 */

// Phones of two vendors; the MAC tells the vendor (80:5E:C0 Yealink, 0C:38:3E Fanvil).
const ALICE_PHONE = '80-5E-C0-00-00-01';
const BOB_PHONE = '80-5E-C0-00-00-02';
const FANVIL = '0C-38-3E-00-00-03';
const SPARE = '80-5E-C0-00-00-04';
const EXTRA = Array.from({ length: 25 }, (_, i) => `80-5E-C0-00-01-${String(i).padStart(2, '0')}`);

const peer: AmiPeer = amiPeer({
  secret: 'bulk-test-secret',
  endpoints: [
    { name: '201', state: 'Not in use' },
    { name: '202', state: 'Unavailable' },
  ],
  contacts: [{ aor: '201', via: '192.0.2.44:5062', userAgent: 'Yealink SIP-T46S 66.86.0.15' }],
  command: (command) => {
    if (command === 'pjsip send notify generic-reload endpoint 201') {
      return ["Sending NOTIFY of type 'generic-reload' to '201'"];
    }
    if (command.startsWith('pjsip send notify')) return ['Unable to send notify, no contacts for endpoint 202'];
    return ['0 results found.'];
  },
});
const port = await peer.listen();
afterAll(() => peer.close());

describe.each(DB_KINDS)('bulk phones (%s)', (kind) => {
  const t = useTestApp(kind, {
    env: { AMI_HOST: '127.0.0.1', AMI_PORT: String(port), AMI_USERNAME: 'centralino', AMI_SECRET: 'bulk-test-secret' },
  });
  const call = (method: 'GET' | 'POST', url: string, payload?: object, lang = 'en') =>
    t.app.inject({
      method,
      url,
      headers: { ...t.headers, 'accept-language': lang },
      ...(payload ? { payload } : {}),
    });
  const list = async (query = '') => {
    const res = await call('GET', `/api/bulk/phones${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as {
      items: { mac: string; vendor: string; model: string | null; modelName: string | null; user: unknown }[];
      total: number;
      vendors: Record<string, number>;
      registered: number;
    } & { items: { extension: string | null; registered: boolean }[] };
  };
  const modelOf = async (mac: string) =>
    (await call('GET', `/api/provisioning/v1/phones/${mac}`)).json().model as string;
  let salesId = 0;

  const addPhone = async (mac: string, model?: string) => {
    const vendor = mac.startsWith('0C') ? 'Fanvil' : 'Yealink/Dreamwave';
    const res = await call('POST', '/api/provisioning/v1/phones', { mac, model, display_name: vendor });
    expect(res.statusCode, res.body).toBe(201);
    const pbx = await call('POST', '/api/physicalextensions', { mac, model: model ?? null });
    expect(pbx.statusCode, pbx.body).toBe(200);
  };

  beforeAll(async () => {
    expect((await call('POST', '/api/configuration/mode', { mode: 'legacy' })).statusCode).toBe(200);
    for (let i = 0; i < 100 && (await call('GET', '/api/configuration/userprovider')).json().configured !== 1; i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    const alice = (await call('POST', '/api/users', { username: 'alice', fullname: 'Alice Rossi' })).json();
    await call('POST', '/api/users', { username: 'bob', fullname: 'Bob Bianchi' });
    expect((await call('POST', '/api/mainextensions', { username: 'alice', extension: '201' })).statusCode).toBe(201);
    expect((await call('POST', '/api/mainextensions', { username: 'bob', extension: '202' })).statusCode).toBe(201);
    await addPhone(ALICE_PHONE, 'yealink-T46');
    await addPhone(BOB_PHONE, 'yealink-T46');
    await addPhone(FANVIL, 'fanvil-X3');
    await addPhone(SPARE);
    for (const mac of EXTRA) await addPhone(mac, 'yealink-T48');
    const link = async (mainextension: string, mac: string) => {
      const res = await call('POST', '/api/physicalextensions', { mainextension, mac });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().extension as string;
    };
    expect(await link('201', ALICE_PHONE)).toBe('201');
    expect(await link('202', BOB_PHONE)).toBe('202');
    salesId = (await call('POST', '/api/cti/groups', { name: 'Sales' })).json().id;
    expect((await call('POST', `/api/cti/groups/users/${alice.id}`, { groups: [salesId] })).statusCode).toBe(200);
    // The console connects to the PBX in the background.
    for (let i = 0; i < 200 && (await list()).registered === 0; i++) await new Promise((r) => setTimeout(r, 20));
  });

  it('lists 20 phones, then the next ones, with user, line, model name and registration', async () => {
    const first = await list();
    expect(first.total).toBe(29);
    expect(first.items).toHaveLength(20);
    expect(first.vendors).toEqual({ 'Yealink/Dreamwave': 28, Fanvil: 1 });
    expect(first.registered).toBe(1);
    expect(first.items[0]).toEqual({
      mac: FANVIL,
      vendor: 'Fanvil',
      model: 'fanvil-X3',
      modelName: 'Fanvil X3S/SP/G',
      user: null,
      extension: null,
      registered: false,
    });
    const next = await list('?offset=20&limit=20');
    expect(next.items).toHaveLength(9);
    const all = [...first.items, ...next.items].map((p) => p.mac);
    expect(new Set(all).size).toBe(29);
    const alice = first.items.find((p) => p.mac === ALICE_PHONE);
    expect(alice).toMatchObject({
      user: { username: 'alice', name: 'Alice Rossi' },
      extension: '201',
      registered: true,
    });
    expect(first.items.find((p) => p.mac === BOB_PHONE)).toMatchObject({ extension: '202', registered: false });
  });

  it('filters by CTI group (phones of its members), by model, and searches', async () => {
    const sales = await list(`?group=${salesId}`);
    expect(sales.items.map((p) => p.mac)).toEqual([ALICE_PHONE]);
    expect(sales).toMatchObject({ total: 1, registered: 1 });
    const t46 = await list('?model=yealink-T46');
    expect(t46.items.map((p) => p.mac)).toEqual([ALICE_PHONE, BOB_PHONE]);
    expect((await list('?model=yealink-T46&search=bianchi')).items.map((p) => p.mac)).toEqual([BOB_PHONE]);
    // A MAC typed with colons, a model's display name, an extension.
    expect((await list('?search=0c:38:3e')).items.map((p) => p.mac)).toEqual([FANVIL]);
    expect((await list('?search=X3S/SP')).items.map((p) => p.mac)).toEqual([FANVIL]);
    expect((await list('?search=202')).items.map((p) => p.mac)).toEqual([BOB_PHONE]);
    expect((await list('?search=100%25')).total).toBe(0);
    expectError(await call('GET', '/api/bulk/phones?limit=5000'), 400, 'validation');
  });

  it('refuses to set a model on phones of several vendors, or an unknown model, changing nothing', async () => {
    const mixed = expectError(
      await call('POST', '/api/bulk/phones/model', { selection: { macs: [FANVIL, SPARE] }, model: 'yealink-T48' }),
      400,
      'bulk_mixed_vendors',
    );
    expect(mixed.detail).toContain('Fanvil');
    const unknown = expectError(
      await call('POST', '/api/bulk/phones/model', { selection: { macs: [SPARE] }, model: 'yealink-NOPE' }, 'it'),
      400,
      'prov_unknown_model',
    );
    expect(unknown.detail).toBe('Il modello non esiste.');
    expectError(
      await call('POST', '/api/bulk/phones/model', { selection: { macs: [SPARE] }, model: 'fanvil-X3' }),
      400,
      'bulk_model_not_of_vendor',
    );
    // "All filtered" is judged on the whole filter, not what the browser had loaded.
    expectError(
      await call('POST', '/api/bulk/phones/model', { selection: { filter: {} }, model: 'yealink-T48' }),
      400,
      'bulk_mixed_vendors',
    );
    expectError(
      await call('POST', '/api/bulk/phones/model', {
        selection: { macs: ['00-00-00-00-00-99'] },
        model: 'yealink-T48',
      }),
      400,
      'bulk_no_phones',
    );
    expectError(
      await call('POST', '/api/bulk/phones/model', { selection: { macs: [SPARE] }, model: '' }),
      400,
      'validation',
    );
    expect(await modelOf(SPARE)).toBe('');
    expect(await modelOf(FANVIL)).toBe('fanvil-X3');
  });

  it('sets the model of every phone of a filter except the ones left out, engine and PBX inventory alike', async () => {
    const res = await call('POST', '/api/bulk/phones/model', {
      selection: { filter: { search: '80-5E-C0-00-01' }, except: [EXTRA[0]] },
      model: 'yealink-T46',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ updated: 24 });
    expect(await modelOf(EXTRA[0] as string)).toBe('yealink-T48');
    expect(await modelOf(EXTRA[1] as string)).toBe('yealink-T46');
    expect((await list('?model=yealink-T46')).total).toBe(26);
    const inventory = (await call('GET', '/api/physicalextensions')).json() as { mac: string; model: string }[];
    expect(inventory.find((p) => p.mac === EXTRA[24]?.replaceAll('-', ':'))?.model).toBe('yealink-T46');
    // The phone's provisioning file follows the new model.
    const one = await call('POST', '/api/bulk/phones/model', { selection: { macs: [SPARE] }, model: 'yealink-T48' });
    expect(one.json()).toEqual({ updated: 1 });
    expect(await modelOf(SPARE)).toBe('yealink-T48');
  });

  const generation = async () =>
    Number((await t.database.db.selectFrom('pbx_apply').select('generation').executeTakeFirst())?.generation ?? 0);
  // A write bumps the counter just after its answer is sent, so the test before may still be counting: start
  // from a count that stays put.
  const settledGeneration = async () => {
    let last = await generation();
    for (;;) {
      await new Promise((r) => setTimeout(r, 100));
      const now = await generation();
      if (now === last) return now;
      last = now;
    }
  };

  it('reconfigures a selection: reports each phone not reconfigured and why, and arms the delayed reboot', async () => {
    const before = peer.commands().length;
    const configuration = await settledGeneration();
    const started = await call('POST', '/api/phones/reconfigure/bulk', {
      selection: { macs: [ALICE_PHONE, BOB_PHONE, FANVIL] },
      reboot: { hours: '23', minutes: '55' },
    });
    expect(started.statusCode, started.body).toBe(202);
    const { task } = started.json() as { task: string };
    let state = (await call('GET', `/api/phones/reconfigure/bulk/${task}`)).json();
    for (let i = 0; i < 200 && state.progress !== 100 && state.progress !== -1; i++) {
      await new Promise((r) => setTimeout(r, 20));
      state = (await call('GET', `/api/phones/reconfigure/bulk/${task}`)).json();
    }
    expect(state.progress, JSON.stringify(state)).toBe(100);
    expect(state.result).toMatchObject({ total: 3, reconfigured: 1, rebootsArmed: 2, rebootsFailed: [] });
    expect(state.result.notReconfigured).toEqual([
      { mac: FANVIL, extension: null, user: null, reason: 'no_user' },
      {
        mac: BOB_PHONE,
        extension: '202',
        user: 'bob',
        reason: 'failed',
        detail: expect.stringMatching(/\S/),
      },
    ]);
    const sent = peer.commands().slice(before);
    expect(sent).toContain('pjsip send notify generic-reload endpoint 201');
    expect(sent).toContain('pjsip send notify generic-reload endpoint 202');
    expect(sent.filter((c) => c.startsWith('pjsip send notify'))).toHaveLength(2);
    // The delayed reboots of the two phones with a line, as POST /api/phones/reboot stores them.
    expect((await call('GET', '/api/phones/reboot')).json()).toEqual({
      [ALICE_PHONE]: { hours: '23', minutes: '55' },
      [BOB_PHONE]: { hours: '23', minutes: '55' },
    });
    // A reconfiguration writes no PBX configuration, so no apply follows.
    expect(await generation()).toBe(configuration);
  });

  it('reconfigures every phone of a group without a reboot', async () => {
    const started = await call('POST', '/api/phones/reconfigure/bulk', { selection: { filter: { group: salesId } } });
    expect(started.statusCode, started.body).toBe(202);
    const { task } = started.json() as { task: string };
    let state = (await call('GET', `/api/phones/reconfigure/bulk/${task}`)).json();
    for (let i = 0; i < 200 && state.progress !== 100; i++) {
      await new Promise((r) => setTimeout(r, 20));
      state = (await call('GET', `/api/phones/reconfigure/bulk/${task}`)).json();
    }
    expect(state.result).toEqual({
      total: 1,
      reconfigured: 1,
      notReconfigured: [],
      rebootsArmed: 0,
      rebootsFailed: [],
    });
    expectError(await call('GET', '/api/phones/reconfigure/bulk/0123456789abcdef0123456789abcdef'), 404, 'not_found');
    expectError(
      await call('POST', '/api/phones/reconfigure/bulk', {
        selection: { macs: [ALICE_PHONE] },
        reboot: { hours: '24', minutes: '00' },
      }),
      400,
      'validation',
    );
  });

  it('describes the bulk routes in the API document, with the list filters as query parameters', async () => {
    const res = await call('GET', '/api/docs/json');
    expect(res.statusCode, res.body).toBe(200);
    const paths = res.json().paths as Record<string, Record<string, { parameters?: { name: string }[] }>>;
    expect(Object.keys(paths).filter((p) => p.includes('bulk'))).toEqual(
      expect.arrayContaining([
        '/api/bulk/phones',
        '/api/bulk/phones/model',
        '/api/phones/reconfigure/bulk',
        '/api/phones/reconfigure/bulk/{task}',
        // Bulk extensions
        '/api/bulk/{exts}',
        '/api/bulk/selection',
        '/api/bulk',
      ]),
    );
    expect(paths['/api/bulk/phones']?.get?.parameters?.map((p) => p.name)).toEqual(
      expect.arrayContaining(['group', 'model', 'search', 'offset', 'limit']),
    );
  });

  it('answers 401 without a key, on every bulk route', async () => {
    const anonymous = async (method: 'GET' | 'POST', url: string, payload?: object) =>
      t.app.inject({ method, url, ...(payload ? { payload } : {}) });
    expectError(await anonymous('GET', '/api/bulk/phones'), 401, 'unauthorized');
    expectError(
      await anonymous('POST', '/api/bulk/phones/model', { selection: { macs: [SPARE] }, model: 'yealink-T46' }),
      401,
      'unauthorized',
    );
    expectError(
      await anonymous('POST', '/api/phones/reconfigure/bulk', { selection: { macs: [SPARE] } }),
      401,
      'unauthorized',
    );
    expectError(
      await anonymous('GET', '/api/phones/reconfigure/bulk/0123456789abcdef0123456789abcdef'),
      401,
      'unauthorized',
    );
    expect(await modelOf(SPARE)).toBe('yealink-T48');
  });
});
