import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { groupDestinations } from '../src/db/migrations/0011_group_destinations.ts';
import { mainExtensionClash, trunkNameClash } from '../src/features/numbering/rules.ts';
import { loadPbxModel } from '../src/pbx/load.ts';
import { ModelRows, modelRowsOf } from '../src/pbx/model-rows.ts';
import { callAs, DB_KINDS, expectError, useTestApp } from './helpers.ts';
import { TEST_ENGINE } from './pbx/fixtures.ts';

describe('numbering rules', () => {
  it('refuses a main extension whose *N would dial a feature code', () => {
    for (const n of ['7201', '520', '9012', '78', '97']) {
      expect(mainExtensionClash(n, []), n).toMatchObject({ featureCode: {} });
    }
    for (const n of ['201', '7301', '5301', '7']) expect(mainExtensionClash(n, []), n).toBeUndefined();
    // *77 (recording from a phone) alone and followed by a recording's id.
    for (const n of ['77', '771', '7712']) {
      expect(mainExtensionClash(n, []), n).toMatchObject({ featureCode: { code: '*77' } });
    }
  });

  it('keeps device numbers and trunk names apart from main extensions', () => {
    const fxs = { number: '91201', kind: 'fxs_port' as const, userId: 1, name: 'HT802' };
    // Another user's port on 91201 blocks 201 for a second user, not for its own user.
    expect(mainExtensionClash('201', [fxs], 2)).toMatchObject({ number: '91201', holder: fxs });
    expect(mainExtensionClash('201', [fxs], 1)).toBeUndefined();
    // 91201 falls in user 201's device range.
    const user = { number: '201', kind: 'user' as const, userId: 1, name: 'alice' };
    expect(mainExtensionClash('91201', [user], 2)).toMatchObject({ number: '201' });
    expect(trunkNameClash('201-auth', [user])).toMatchObject({ number: '201' });
    expect(trunkNameClash('provider', [user])).toBeUndefined();
  });
});

type Call = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown) => Promise<LightMyRequestResponse>;

const gateway = (mac: string, links: string[]) => ({
  model: 34,
  mac,
  ipv4: '127.0.0.1',
  ipv4_new: '192.168.1.250',
  netmask_green: '255.255.255.0',
  gateway: '192.168.1.1',
  ipv4_green: '192.168.1.2',
  trunks_isdn: [],
  trunks_fxs: links.map((l) => ({ linked_extension: l })),
});

const trunk = (name: string) => ({
  provider: 'vivavox',
  name,
  username: '0721123456',
  password: 's3cr3t!',
  phone: '0721123456',
  codecs: ['alaw', 'ulaw'],
  forceCodec: true,
});

async function settledApply(call: Call) {
  for (let i = 0; i < 400; i++) {
    const status = (await call('GET', '/api/pbx/apply')).json();
    if (status.state === 'idle') return status.last as { ok: boolean; error: string | null } | null;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('the apply did not settle');
}

describe.each(DB_KINDS)('numbering through the API (%s)', (kind) => {
  const t = useTestApp(kind);
  const call: Call = callAs(t);

  const localDirectory = async () => {
    if ((await call('GET', '/api/configuration/userprovider')).json().configured === 1) return;
    expect((await call('POST', '/api/configuration/mode', { mode: 'legacy' })).statusCode).toBe(200);
    for (let i = 0; i < 100 && (await call('GET', '/api/configuration/userprovider')).json().configured !== 1; i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
  };

  it('sets up the local directory', localDirectory);

  it('gives the mobile app a number the gateway port does not hold, and the apply stays valid', async () => {
    expect((await call('POST', '/api/users', { username: 'alice', fullname: 'Alice Rossi' })).statusCode).toBe(201);
    expect((await call('POST', '/api/mainextensions', { username: 'alice', extension: '201' })).statusCode).toBe(201);
    expect((await call('POST', '/api/webrtc', { extension: '201' })).json().extension).toBe('201');
    const gw = await call('POST', '/api/devices/gateways', gateway('00:0B:82:00:00:01', ['201', '']));
    expect(gw.statusCode, gw.body).toBe(200);
    // The port took 91201: the mobile app must not.
    expect((await call('POST', '/api/mobileapp', { mainextension: '201' })).json()).toEqual({ extension: '92201' });
    expect(await settledApply(call)).toMatchObject({ ok: true });
  });

  it('refuses a main extension held elsewhere, naming the holder, and changes nothing', async () => {
    expect((await call('POST', '/api/users', { username: 'bob', fullname: 'Bob Bianchi' })).statusCode).toBe(201);
    const taken = expectError(
      await call('POST', '/api/mainextensions', { username: 'bob', extension: '91201' }),
      422,
      'extension_in_use',
    );
    expect(taken.detail).toBe(
      'Extension 91201 already in use by FXS port 1 of gateway Grandstream-HT802 SIP TLS 2 Porte FXS',
    );
    const code = expectError(
      await call('POST', '/api/mainextensions', { username: 'bob', extension: '7201' }),
      422,
      'extension_in_use',
    );
    expect(code.detail).toContain('*72 (call forward)');
    const italian = await t.app.inject({
      method: 'POST',
      url: '/api/mainextensions',
      headers: { ...t.headers, 'accept-language': 'it' },
      payload: { username: 'bob', extension: '7201' },
    });
    expect(italian.json().detail).toContain('*72 (inoltro di chiamata)');
    const bob = (await call('GET', '/api/users/false?search=bob')).json()[0];
    expect(bob.default_extension).toBe('none');
  });

  it('refuses a trunk named after an extension, and an extension named by a trunk', async () => {
    const named = expectError(await call('POST', '/api/trunks', trunk('201')), 422, 'extension_in_use');
    expect(named.detail).toBe('The trunk cannot be named 201: number 201 is already in use by user alice');
    expectError(await call('POST', '/api/trunks', trunk('92201-auth')), 422, 'extension_in_use');
    expect((await call('POST', '/api/trunks', trunk('301'))).statusCode).toBe(200);
    const byTrunk = expectError(
      await call('POST', '/api/mainextensions', { username: 'bob', extension: '301' }),
      422,
      'extension_in_use',
    );
    expect(byTrunk.detail).toBe('Extension 301 already in use by trunk 301');
  });

  it('keeps the extension of a user that inbound routes call, naming the routes', async () => {
    const route = {
      extension: '0721405516',
      cidnum: '',
      description: 'Main line',
      destination: 'from-did-direct,201,1',
    };
    expect((await call('POST', '/api/inboundroutes', route)).statusCode).toBe(200);
    for (const extension of ['', '205']) {
      const refused = expectError(
        await call('POST', '/api/mainextensions', { username: 'alice', extension }),
        409,
        'extension_routed',
      );
      expect(refused.detail).toBe(
        'Calls go to extension 201 from: inbound route 0721405516 (Main line). Give them another destination first.',
      );
    }
    // A CSV import that renumbers her is refused on her row, with the same reason.
    const csv = Buffer.from('username,fullname,extension\nalice,Alice Rossi,206\n').toString('base64');
    const preview = await call('POST', '/api/csv/csvimport/preview', { file: `data:text/csv;base64,${csv}` });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json().rows[0]).toMatchObject({
      action: 'reject',
      errors: [
        'Calls go to extension 201 from: inbound route 0721405516 (Main line). Give them another destination first.',
      ],
    });
    const alice = (await call('GET', '/api/users/false?search=alice')).json()[0];
    expect(alice.default_extension).toBe('201');
    expect(await settledApply(call)).toMatchObject({ ok: true });
    await t.database.db.deleteFrom('inbound_routes').execute();
  });

  it('routes calls to a group, even an empty one, and keeps a routed group from being deleted', async () => {
    const created = await call('POST', '/api/cti/groups', { name: 'sales' });
    expect(created.statusCode, created.body).toBeLessThan(300);
    const { destinations } = (await call('GET', '/api/inboundroutes')).json() as {
      destinations: Record<string, { description: string; category: string }>;
    };
    const sales = Object.entries(destinations).find(([, d]) => d.category === 'Groups' && d.description === 'sales');
    expect(sales?.[0]).toMatch(/^ext-group,cti-group-\d+,1$/);
    const route = { extension: '0721405599', cidnum: '', description: 'Sales line', destination: sales?.[0] };
    expect((await call('POST', '/api/inboundroutes', route)).statusCode).toBe(200);
    expect(await settledApply(call)).toMatchObject({ ok: true });
    const id = (sales?.[0] ?? '').split(',')[1]?.replace('cti-group-', '');
    const refused = expectError(await call('DELETE', `/api/cti/groups/${id}`), 409, 'group_routed');
    expect(refused.detail).toBe(
      'Calls go to group sales from: inbound route 0721405599 (Sales line). Give them another destination first.',
    );
    // Routes stored before groups were named in the dialplan are pointed at the name by migration 0011.
    await t.database.db
      .updateTable('inbound_routes')
      .set({ destination: `ext-group,${id},1` })
      .execute();
    await groupDestinations.up(t.database.db as never);
    const stored = await t.database.db.selectFrom('inbound_routes').select('destination').execute();
    expect(stored).toEqual([{ destination: `ext-group,cti-group-${id},1` }]);
    await t.database.db.deleteFrom('inbound_routes').execute();
    expect((await call('DELETE', `/api/cti/groups/${id}`)).statusCode).toBeLessThan(300);
  });

  it('never leaves a configuration the validator refuses, whatever the console does', async () => {
    const db = t.database.db;
    const users = ['u1', 'u2', 'u3'];
    const numbers = ['201', '202', '91201', '92202', '301', '7201'];
    const op = fc.oneof(
      {
        weight: 2,
        arbitrary: fc.record({
          k: fc.constant('ext' as const),
          u: fc.constantFrom(...users),
          n: fc.constantFrom(...numbers, ''),
        }),
      },
      {
        weight: 4,
        arbitrary: fc.record({
          k: fc.constant('dev' as const),
          n: fc.constantFrom('201', '202'),
          type: fc.constantFrom('webrtc', 'mobileapp', 'nethlink'),
        }),
      },
      fc.record({
        k: fc.constant('undev' as const),
        n: fc.constantFrom(...numbers),
        type: fc.constantFrom('webrtc', 'nethlink'),
      }),
      {
        weight: 2,
        arbitrary: fc.record({
          k: fc.constant('phone' as const),
          n: fc.constantFrom(...numbers),
          mac: fc.integer({ min: 0, max: 3 }),
        }),
      },
      {
        weight: 3,
        arbitrary: fc.record({
          k: fc.constant('gw' as const),
          links: fc.array(fc.constantFrom('201', '202', ''), { minLength: 2, maxLength: 2 }),
        }),
      },
      fc.record({ k: fc.constant('ungw' as const) }),
      // Drawn often enough that every run has some accepted: most names clash with a user's numbers by design.
      {
        weight: 3,
        arbitrary: fc.record({
          k: fc.constant('trunk' as const),
          name: fc.constantFrom(...numbers, '92201-auth', 'carrier', 'provider'),
        }),
      },
      fc.record({ k: fc.constant('untrunk' as const) }),
      // Objects that point at numbers: inbound routes, mailboxes, groups, outbound routes over trunks.
      fc.record({
        k: fc.constant('did' as const),
        to: fc.constantFrom(
          'from-did-direct,201,1',
          'from-did-direct,202,1',
          'ext-local,vmu201,1',
          'group',
          'queue',
          'tc',
        ),
      }),
      fc.record({ k: fc.constant('undid' as const) }),
      fc.record({ k: fc.constant('vm' as const), n: fc.constantFrom('201', '202'), on: fc.boolean() }),
      fc.record({ k: fc.constant('group' as const), add: fc.boolean() }),
      fc.record({ k: fc.constant('outroute' as const) }),
      // Call flows (issue 26): a queue holds its number like an extension and sends unanswered calls on; a time
      // condition routes to it or to an extension. Deleting either is refused while something points at it.
      {
        weight: 2,
        arbitrary: fc.record({
          k: fc.constant('queue' as const),
          n: fc.constantFrom(...numbers, '500'),
          member: fc.constantFrom('201', '202'),
          failover: fc.constantFrom('app-blackhole,hangup,1', 'ext-local,vmu201,1', 'from-did-direct,202,1'),
        }),
      },
      fc.record({ k: fc.constant('unqueue' as const) }),
      fc.record({ k: fc.constant('tc' as const), inside: fc.constantFrom('queue', 'from-did-direct,201,1') }),
      fc.record({ k: fc.constant('untc' as const) }),
      // Users' own destinations (bulk edit) point at extensions, mailboxes and groups too.
      // Most of these targets are refused unless an earlier step created them (a mailbox, a group), so the
      // step is frequent enough that some sequences always get one accepted.
      {
        weight: 3,
        arbitrary: fc.record({
          k: fc.constant('bulk' as const),
          n: fc.constantFrom('201', '202'),
          field: fc.constantFrom('busydest', 'noanswerdest', 'notreachabledest'),
          to: fc.constantFrom(
            'from-did-direct,201,1',
            'from-did-direct,202,1',
            'ext-local,vmb201,1',
            'ext-local,vms202,1',
            'group',
            '',
          ),
        }),
      },
    );
    await localDirectory();
    let gateways = 0;
    let dids = 0;
    const accepted = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 15 }), async (ops) => {
        await db.deleteFrom('inbound_routes').execute();
        await db.deleteFrom('time_conditions').execute();
        await db.deleteFrom('time_group_ranges').execute();
        await db.deleteFrom('time_groups').execute();
        await db.deleteFrom('queue_members').execute();
        await db.deleteFrom('queues').execute();
        await db.deleteFrom('outbound_route_trunks').execute();
        await db.deleteFrom('outbound_route_patterns').execute();
        await db.deleteFrom('outbound_routes').execute();
        await db.deleteFrom('gateway_ports').execute();
        await db.deleteFrom('gateways').execute();
        await db.deleteFrom('trunks').execute();
        await db.deleteFrom('devices').execute();
        await db
          .updateTable('users')
          .set({
            default_extension: null,
            extension_order: 999999999,
            busy_dest: null,
            noanswer_dest: null,
            unavailable_dest: null,
          })
          .execute();
        for (const u of users) await call('POST', '/api/users', { username: u, fullname: `User ${u}` });
        // Two users with numbers from the start, so that most sequences build on something.
        await call('POST', '/api/mainextensions', { username: 'u1', extension: '201' });
        await call('POST', '/api/mainextensions', { username: 'u2', extension: '202' });
        for (const o of ops) {
          let res: { statusCode: number; body: string };
          if (o.k === 'ext') res = await call('POST', '/api/mainextensions', { username: o.u, extension: o.n });
          else if (o.k === 'dev') {
            const key = o.type === 'mobileapp' ? 'mainextension' : 'extension';
            res = await call('POST', `/api/${o.type}`, { [key]: o.n });
          } else if (o.k === 'undev') res = await call('DELETE', `/api/${o.type}/${o.n}`);
          else if (o.k === 'phone') {
            res = await call('POST', '/api/physicalextensions', {
              mainextension: o.n,
              mac: `80:5E:C0:00:00:0${o.mac}`,
            });
          } else if (o.k === 'gw') {
            gateways++;
            const mac = `00:0B:82:10:${String(Math.floor(gateways / 100)).padStart(2, '0')}:${String(gateways % 100).padStart(2, '0')}`;
            res = await call('POST', '/api/devices/gateways', gateway(mac, o.links));
          } else if (o.k === 'ungw') {
            const first = await db.selectFrom('gateways').select('id').orderBy('id').executeTakeFirst();
            res = first ? await call('DELETE', `/api/devices/gateways/${first.id}`) : { statusCode: 204, body: '' };
          } else if (o.k === 'trunk') res = await call('POST', '/api/trunks', trunk(o.name));
          else if (o.k === 'did') {
            const group = await db.selectFrom('cti_groups').select('id').orderBy('id').executeTakeFirst();
            const queue = await db.selectFrom('queues').select('extension').orderBy('id').executeTakeFirst();
            const tc = await db.selectFrom('time_conditions').select('id').orderBy('id').executeTakeFirst();
            const destination =
              o.to === 'group'
                ? `ext-group,cti-group-${group?.id ?? 0},1`
                : o.to === 'queue'
                  ? `ext-queues,${queue?.extension ?? '0'},1`
                  : o.to === 'tc'
                    ? `timeconditions,${tc?.id ?? 0},1`
                    : o.to;
            dids++;
            res = await call('POST', '/api/inboundroutes', {
              extension: `07210000${String(dids).padStart(2, '0')}`,
              cidnum: '',
              description: 'line',
              destination,
            });
          } else if (o.k === 'undid') {
            const first = await db.selectFrom('inbound_routes').select(['did', 'cid']).executeTakeFirst();
            res = first
              ? await call('POST', '/api/inboundroutes/delete', { extension: first.did, cid: first.cid })
              : { statusCode: 204, body: '' };
          } else if (o.k === 'queue') {
            dids++;
            res = await call('POST', '/api/queues', {
              extension: o.n,
              name: `queue${dids}`,
              members: [o.member],
              failover_dest: o.failover,
            });
          } else if (o.k === 'unqueue') {
            const first = await db.selectFrom('queues').select('id').orderBy('id').executeTakeFirst();
            res = first ? await call('DELETE', `/api/queues/${first.id}`) : { statusCode: 204, body: '' };
          } else if (o.k === 'tc') {
            dids++;
            const group = await call('POST', '/api/timegroups', {
              name: `hours${dids}`,
              ranges: [{ hours: '08:00-18:00', weekdays: 'mon-fri' }],
            });
            const queue = await db.selectFrom('queues').select('extension').orderBy('id').executeTakeFirst();
            res = await call('POST', '/api/timeconditions', {
              name: `open${dids}`,
              time_group_id: (group.json() as { id: number }).id,
              true_dest: o.inside === 'queue' ? `ext-queues,${queue?.extension ?? '0'},1` : o.inside,
              false_dest: 'app-blackhole,hangup,1',
            });
          } else if (o.k === 'untc') {
            const first = await db.selectFrom('time_conditions').select('id').orderBy('id').executeTakeFirst();
            res = first ? await call('DELETE', `/api/timeconditions/${first.id}`) : { statusCode: 204, body: '' };
          } else if (o.k === 'vm') {
            res = await call('POST', '/api/voicemails', { extension: o.n, state: o.on ? 'yes' : 'no' });
          } else if (o.k === 'group') {
            const first = await db.selectFrom('cti_groups').select('id').orderBy('id').executeTakeFirst();
            res =
              o.add || !first
                ? await call('POST', '/api/cti/groups', { name: `team${dids}` })
                : await call('DELETE', `/api/cti/groups/${first.id}`);
          } else if (o.k === 'bulk') {
            const group = await db.selectFrom('cti_groups').select('id').orderBy('id').executeTakeFirst();
            const to = o.to === 'group' ? `ext-group,cti-group-${group?.id ?? 0},1` : o.to;
            res = await call('POST', `/api/bulk/${o.n}`, { [o.field]: to });
          } else if (o.k === 'outroute') {
            const voip = await db.selectFrom('trunks').select('id').where('kind', '=', 'voip').execute();
            dids++;
            res = await call('POST', '/api/outboundroutes/route', {
              name: `national${dids}`,
              outcid: '',
              emergency: false,
              patterns: [{ prepend: '', prefix: '', match_pattern: '0ZXXXXX.', match_cid: '' }],
              trunks: voip.map((t) => Number(t.id)),
            });
          } else {
            const first = await db.selectFrom('trunks').select('id').where('kind', '=', 'voip').executeTakeFirst();
            res = first ? await call('DELETE', `/api/trunks/${first.id}`) : { statusCode: 204, body: '' };
          }
          expect(res.statusCode, `${JSON.stringify(o)}: ${res.body}`).toBeLessThan(500);
          if (res.statusCode < 300) accepted.set(o.k, (accepted.get(o.k) ?? 0) + 1);
        }
        await call('POST', '/api/pbx/apply');
        const last = await settledApply(call);
        expect(last?.ok, `${JSON.stringify(ops)}\n${last?.error}`).toBe(true);
        // What the applier kept between applies (pbx/model-rows.ts) is what reading everything afresh gives.
        const kept = modelRowsOf(db);
        expect(await loadPbxModel(db, TEST_ENGINE), JSON.stringify(ops)).toEqual(
          await loadPbxModel(db, TEST_ENGINE, new ModelRows(db)),
        );
        expect([...kept.uncounted]).toEqual([]);
      }),
      {
        numRuns: 30,
        // One sequence where every kind below is accepted, so that the check after the runs does not depend on
        // the draw (30 random sequences left the queue or the time condition refused every time in some draws).
        examples: [
          [
            [
              { k: 'ext', u: 'u3', n: '301' },
              { k: 'dev', n: '201', type: 'webrtc' },
              { k: 'gw', links: ['201', ''] },
              { k: 'trunk', name: 'carrier' },
              { k: 'bulk', n: '201', field: 'busydest', to: 'from-did-direct,202,1' },
              { k: 'queue', n: '500', member: '201', failover: 'app-blackhole,hangup,1' },
              { k: 'tc', inside: 'queue' },
            ],
          ],
        ],
      },
    );
    // The sequences did build systems: numbers, devices, gateway ports and trunks were taken.
    for (const k of ['ext', 'dev', 'gw', 'trunk', 'bulk', 'queue', 'tc'])
      expect(accepted.get(k) ?? 0, k).toBeGreaterThan(0);
  }, 180_000);
});
