import type { ParkingLot } from '@centralino/contract';
import { describe, expect, it } from 'vitest';
import { loadPbxModel } from '../src/pbx/load.ts';
import { renderConfiguration } from '../src/pbx/render/index.ts';
import { formatIssue, validateConfiguration } from '../src/pbx/validate.ts';
import { callAs, DB_KINDS, expectError, login, useTestApp } from './helpers.ts';

/**
 * Parking lots (issue 42 item 2): the lot number and every slot are numbers of the plan, the timeout goes to a
 * destination of the catalogue or back to the parker, and the lot is itself a destination.
 */
describe.each(DB_KINDS)('parking lots API (%s)', (kind) => {
  const t = useTestApp(kind);
  const call = callAs(t);
  const lots = async () => (await call('GET', '/api/parking')).json() as ParkingLot[];
  const count = async () =>
    Number(
      (
        await t.database.db
          .selectFrom('parking_lots')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirst()
      )?.n,
    );
  const ids = { reception: 0 };

  it('creates a lot with the defaults and lists it among the destinations', async () => {
    expect((await call('POST', '/api/configuration/mode', { mode: 'legacy' })).statusCode).toBe(200);
    await expect
      .poll(async () => (await call('GET', '/api/configuration/userprovider')).json().configured, { timeout: 10_000 })
      .toBe(1);
    expect((await call('POST', '/api/users', { username: 'alice', fullname: 'Alice' })).statusCode).toBe(201);
    expect((await call('POST', '/api/mainextensions', { username: 'alice', extension: '201' })).statusCode).toBe(201);
    const res = await call('POST', '/api/parking', { name: 'Reception', timeout_dest: 'from-did-direct,201,1' });
    expect(res.statusCode, res.body).toBe(200);
    ids.reception = (res.json() as { id: number }).id;
    expect(await lots()).toEqual([
      {
        id: ids.reception,
        extension: '70',
        name: 'Reception',
        first_slot: '71',
        slots: 8,
        last_slot: '78',
        timeout: 45,
        timeout_dest: 'from-did-direct,201,1',
        music_class: 'default',
        destination: 'app-parking,70,1',
      },
    ]);
    const destinations = (await call('GET', '/api/destinations')).json() as Record<
      string,
      Record<string, { destination: string; description: string }>
    >;
    expect(Object.values(destinations.Parking ?? {})).toEqual([
      expect.objectContaining({ destination: 'app-parking,70,1', description: '70 Reception' }),
    ]);
    const route = await call('POST', '/api/inboundroutes', {
      extension: '0612345670',
      cidnum: '',
      description: 'Park line',
      destination: 'app-parking,70,1',
    });
    expect(route.statusCode, route.body).toBe(200);
  });

  it('refuses a number taken, slots over an extension, a bad timeout and an unknown destination, in English and Italian, writing nothing', async () => {
    const other = { name: 'Warehouse', extension: '80', first_slot: '81', slots: 4 };
    const taken: [unknown, string, string][] = [
      // The lot number is a user's.
      [
        { ...other, extension: '201' },
        'The parking lot cannot use number 201: number 201 is already in use by user alice',
        'Il parcheggio non può usare il numero 201: il numero 201 è già in uso (utente alice)',
      ],
      // Its slots run over a user's extension (199, 200, 201, 202).
      [
        { ...other, first_slot: '199' },
        'The parking lot cannot use number 201: number 201 is already in use by user alice',
        'Il parcheggio non può usare il numero 201: il numero 201 è già in uso (utente alice)',
      ],
      // A slot is the other lot's number, or one of its slots.
      [
        { ...other, first_slot: '69' },
        'number 70 is already in use by parking lot Reception',
        'il numero 70 è già in uso (parcheggio Reception)',
      ],
      [{ ...other, extension: '75' }, 'parking lot Reception', 'parcheggio Reception'],
    ];
    for (const [payload, en, it] of taken) {
      let body = expectError(await call('POST', '/api/parking', payload), 422, 'extension_in_use');
      expect(body.detail).toContain(en);
      body = expectError(
        await call('POST', '/api/parking', payload, { 'accept-language': 'it' }),
        422,
        'extension_in_use',
      );
      expect(body.detail).toContain(it);
    }
    const invalid: [unknown, string, string, string][] = [
      [{ ...other, timeout: 5 }, 'timeout', 'From 10 to 3600 seconds', 'Da 10 a 3600 secondi'],
      [{ ...other, timeout: 4000 }, 'timeout', 'From 10 to 3600 seconds', 'Da 10 a 3600 secondi'],
      [{ ...other, slots: 0 }, 'slots', 'From 1 to 50 slots', 'Da 1 a 50 posti'],
      [
        { ...other, first_slot: '79' },
        'first_slot',
        'The lot number may not be one of its slots',
        'Il numero del parcheggio non può essere uno dei suoi posti',
      ],
      [
        { ...other, timeout_dest: 'not a destination' },
        'timeout_dest',
        'Choose a destination',
        'Scegli una destinazione',
      ],
    ];
    for (const [payload, field, en, it] of invalid) {
      let body = expectError(await call('POST', '/api/parking', payload), 400, 'validation');
      expect(body.fields?.[field], JSON.stringify(body)).toBe(en);
      body = expectError(await call('POST', '/api/parking', payload, { 'accept-language': 'it' }), 400, 'validation');
      expect(body.fields?.[field], JSON.stringify(body)).toBe(it);
    }
    // A destination of the right shape that does not exist.
    let body = expectError(
      await call('POST', '/api/parking', { ...other, timeout_dest: 'ivr-99,s,1' }),
      400,
      'validation',
    );
    expect(body.detail).toBe('The destination ivr-99,s,1 does not exist (any more): choose another one.');
    expect(body.fields?.timeout_dest).toBe('The destination ivr-99,s,1 does not exist (any more)');
    body = expectError(
      await call('POST', '/api/parking', { ...other, timeout_dest: 'ivr-99,s,1' }, { 'accept-language': 'it' }),
      400,
      'validation',
    );
    expect(body.fields?.timeout_dest).toBe('La destinazione ivr-99,s,1 non esiste (più)');
    expectError(await call('POST', '/api/parking', { ...other, name: 'Reception' }), 409, 'flow_exists');
    // A user cannot take a slot either.
    expect((await call('POST', '/api/users', { username: 'bruno', fullname: 'Bruno' })).statusCode).toBe(201);
    body = expectError(
      await call('POST', '/api/mainextensions', { username: 'bruno', extension: '74' }, { 'accept-language': 'it' }),
      422,
      'extension_in_use',
    );
    expect(body.detail).toContain('parcheggio Reception');
    expect(await count()).toBe(1);
    expect((await lots()).map((l) => l.extension)).toEqual(['70']);
    // Changing the lot itself keeps its own numbers free for it.
    const res = await call('PUT', `/api/parking/${ids.reception}`, {
      name: 'Reception',
      slots: 6,
      timeout: 60,
      timeout_dest: 'from-did-direct,201,1',
    });
    expect(res.statusCode, res.body).toBe(204);
    expect((await lots())[0]).toMatchObject({ last_slot: '76', timeout: 60 });
  });

  it('renders res_parking.conf and the parking dialplan into a configuration the validator accepts', async () => {
    expect(
      (await call('POST', '/api/parking', { name: 'Back', extension: '80', first_slot: '81', slots: 2 })).statusCode,
    ).toBe(200);
    const model = await loadPbxModel(t.database.db, {
      soundsDir: t.config.pbx.soundsDir,
      tls: { certFile: '/k/c.pem', keyFile: '/k/k.pem', caFile: null },
      ami: { port: 5038, bindAddress: '127.0.0.1', users: [] },
      system: {
        runUser: null,
        runGroup: null,
        directories: { config: '/c', modules: '/m', varlib: '/v', data: '/d', spool: '/s', run: '/r', log: '/l' },
      },
      version: 'test',
    });
    const files = renderConfiguration(model);
    expect(validateConfiguration(files).map(formatIssue)).toEqual([]);
    const conf = files.get('res_parking.conf') ?? '';
    expect(conf).toContain(`[park-${ids.reception}]\ncontext = parkedcalls-${ids.reception}\nparkext = 70\n`);
    expect(conf).toContain('parkpos = 71-76\n');
    expect(conf).toContain(`comebacktoorigin = no\ncomebackcontext = park-timeout-${ids.reception}\n`);
    expect(conf).toMatch(/parkpos = 81-82\n[^[]*comebacktoorigin = yes\n/);
    expect(files.get('extensions.parking.conf')).toContain(
      `exten => 70,1,NoOp(Parking lot Reception)\n same => n,Park(park-${ids.reception})`,
    );
    expect(files.get('extensions.conf')).toContain('Goto(app-parking,70,1)');
    expect(files.get('modules.conf')).toContain('load = res_parking.so\n');
  });

  it('lets a read-only account look but not change, and answers 503 for parked calls without the PBX', async () => {
    await call('POST', '/api/admin/accounts', { username: 'viewer', password: 'viewer-pass-1', role: 'readonly' });
    const viewer = await login(t.app, 'viewer', 'viewer-pass-1');
    const as = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
      t.app.inject({ method, url, headers: { ...viewer }, ...(payload ? { payload } : {}) });
    expect((await as('GET', '/api/parking')).statusCode).toBe(200);
    expectError(await as('DELETE', `/api/parking/${ids.reception}`), 403, 'read_only');
    expectError(await as('POST', '/api/parking/calls/pickup', { slot: '71', extension: '201' }), 403, 'read_only');
    expectError(await call('GET', '/api/parking/calls'), 503, 'pbx_not_connected');
    expectError(await call('POST', '/api/parking/calls/pickup', { slot: '99', extension: '201' }), 404, 'not_found');
    expectError(
      await call('POST', '/api/parking/calls/pickup', { slot: '71', extension: '209' }),
      422,
      'user_not_found',
    );
    expectError(
      await call('POST', '/api/parking/calls/pickup', { slot: '71', extension: '201' }),
      503,
      'pbx_not_connected',
    );
  });

  it('refuses to delete a lot in use, naming who sends calls to it; deletes it once unused', async () => {
    let body = expectError(await call('DELETE', `/api/parking/${ids.reception}`), 409, 'flow_in_use');
    expect(body.detail).toContain('inbound route 0612345670');
    body = expectError(
      await call('DELETE', `/api/parking/${ids.reception}`, undefined, { 'accept-language': 'it' }),
      409,
      'flow_in_use',
    );
    expect(body.detail).toContain('rotta in entrata 0612345670');
    expectError(
      await call('PUT', `/api/parking/${ids.reception}`, { name: 'Reception', extension: '60' }),
      409,
      'flow_in_use',
    );
    expect(
      (await call('POST', '/api/inboundroutes/delete', { extension: '0612345670', cid: '' })).statusCode,
    ).toBeLessThan(300);
    expect((await call('DELETE', `/api/parking/${ids.reception}`)).statusCode).toBe(204);
    const res = await call('POST', '/api/mainextensions', { username: 'bruno', extension: '74' });
    expect(res.statusCode, res.body).toBe(201);
  });

  it('needs a signed-in administrator', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/parking' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/parking/calls' })).statusCode).toBe(401);
  });
});
