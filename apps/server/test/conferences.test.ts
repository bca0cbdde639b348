import type { Conference } from '@centralino/contract';
import { describe, expect, it } from 'vitest';
import { loadPbxModel } from '../src/pbx/load.ts';
import { renderConfiguration } from '../src/pbx/render/index.ts';
import { formatIssue, validateConfiguration } from '../src/pbx/validate.ts';
import { callAs, DB_KINDS, expectError, login, useTestApp } from './helpers.ts';

/** Conference rooms (issue 42 item 1): numbered like extensions, write-only PINs, a destination of the flows. */
describe.each(DB_KINDS)('conference rooms API (%s)', (kind) => {
  const t = useTestApp(kind);
  const call = callAs(t);
  const rooms = async () => (await call('GET', '/api/conferences')).json() as Conference[];
  const ids = { weekly: 0 };
  const weekly = {
    extension: '600',
    name: 'Weekly meeting',
    user_pin: '1234',
    admin_pin: '9999',
    max_members: 10,
    music_when_alone: true,
    announce_join_leave: false,
    record: true,
  };

  it('creates a room, never shows its PINs, and lists it among the destinations', async () => {
    expect((await call('POST', '/api/configuration/mode', { mode: 'legacy' })).statusCode).toBe(200);
    await expect
      .poll(async () => (await call('GET', '/api/configuration/userprovider')).json().configured, { timeout: 10_000 })
      .toBe(1);
    expect((await call('POST', '/api/users', { username: 'alice', fullname: 'Alice' })).statusCode).toBe(201);
    expect((await call('POST', '/api/mainextensions', { username: 'alice', extension: '201' })).statusCode).toBe(201);
    const res = await call('POST', '/api/conferences', weekly);
    expect(res.statusCode, res.body).toBe(200);
    ids.weekly = (res.json() as { id: number }).id;
    expect(await rooms()).toEqual([
      {
        id: ids.weekly,
        extension: '600',
        name: 'Weekly meeting',
        has_user_pin: true,
        has_admin_pin: true,
        max_members: 10,
        music_when_alone: true,
        music_class: 'default',
        announce_join_leave: false,
        record: true,
        destination: 'ext-meetme,600,1',
      },
    ]);
    const destinations = (await call('GET', '/api/destinations')).json() as Record<
      string,
      Record<string, { destination: string; description: string }>
    >;
    // The audit log names the write but keeps no PIN.
    await expect
      .poll(async () => (await call('GET', '/api/admin/audit?pageSize=200')).body)
      .toContain('/api/conferences');
    const audit = (await call('GET', '/api/admin/audit?pageSize=200')).body;
    expect(audit).not.toContain('9999');
    expect(audit).not.toContain('"1234"');
    expect(Object.values(destinations.Conferences ?? {})).toEqual([
      expect.objectContaining({ destination: 'ext-meetme,600,1', description: '600 Weekly meeting' }),
    ]);
    const route = await call('POST', '/api/inboundroutes', {
      extension: '0612345600',
      cidnum: '',
      description: 'Meeting line',
      destination: 'ext-meetme,600,1',
    });
    expect(route.statusCode, route.body).toBe(200);
  });

  it('keeps a PIN left out, removes an empty one, and refuses an admin PIN equal to the kept user PIN', async () => {
    const { user_pin: _u, admin_pin: _a, ...rest } = weekly;
    expect((await call('PUT', `/api/conferences/${ids.weekly}`, { ...rest, max_members: 0 })).statusCode).toBe(204);
    let [room] = await rooms();
    expect(room).toMatchObject({ has_user_pin: true, has_admin_pin: true, max_members: 0 });
    let row = await t.database.db.selectFrom('conferences').selectAll().executeTakeFirstOrThrow();
    expect([row.user_pin, row.admin_pin]).toEqual(['1234', '9999']);
    // The admin PIN alone given, equal to the stored user PIN: refused in the caller's language, nothing written.
    for (const [lang, text] of [
      ['en', 'The admin PIN must differ from the user PIN'],
      ['it', 'Il PIN amministratore deve essere diverso dal PIN utente'],
    ] as const) {
      const body = expectError(
        await call(
          'PUT',
          `/api/conferences/${ids.weekly}`,
          { ...rest, admin_pin: '1234' },
          { 'accept-language': lang },
        ),
        400,
        'validation',
      );
      expect(body.fields?.admin_pin).toBe(text);
    }
    expect((await call('PUT', `/api/conferences/${ids.weekly}`, { ...rest, admin_pin: '' })).statusCode).toBe(204);
    [room] = await rooms();
    expect(room).toMatchObject({ has_user_pin: true, has_admin_pin: false, max_members: 10 });
    row = await t.database.db.selectFrom('conferences').selectAll().executeTakeFirstOrThrow();
    expect([row.user_pin, row.admin_pin]).toEqual(['1234', null]);
    expect((await call('PUT', `/api/conferences/${ids.weekly}`, weekly)).statusCode).toBe(204);
  });

  it('refuses bad input in the caller’s language and writes nothing', async () => {
    const other = { ...weekly, name: 'Other' };
    const cases: [unknown, string, string, string][] = [
      [{ ...other, extension: '201' }, 'extension', 'alice', 'utente alice'],
      [{ ...other, extension: '91201' }, 'extension', 'alice', 'utente alice'],
      [{ ...other, extension: '600' }, 'extension', 'conference Weekly meeting', 'conferenza Weekly meeting'],
    ];
    for (const [payload, , en, it] of cases) {
      let body = expectError(await call('POST', '/api/conferences', payload), 422, 'extension_in_use');
      expect(body.detail).toContain(en);
      body = expectError(
        await call('POST', '/api/conferences', payload, { 'accept-language': 'it' }),
        422,
        'extension_in_use',
      );
      expect(body.detail).toContain(it);
    }
    const invalid: [unknown, string, string, string][] = [
      [{ ...other, extension: '601', user_pin: '12a4' }, 'user_pin', 'Digits only, up to 12', 'Solo cifre, fino a 12'],
      [
        { ...other, extension: '601', user_pin: '5555', admin_pin: '5555' },
        'admin_pin',
        'The admin PIN must differ from the user PIN',
        'Il PIN amministratore deve essere diverso dal PIN utente',
      ],
      [{ ...other, extension: '6a1' }, 'extension', 'From 2 to 10 digits', 'Da 2 a 10 cifre'],
      [
        { ...other, extension: '601', max_members: 101 },
        'max_members',
        'From 0 (no limit) to 100',
        'Da 0 (nessun limite) a 100',
      ],
    ];
    for (const [payload, field, en, it] of invalid) {
      let body = expectError(await call('POST', '/api/conferences', payload), 400, 'validation');
      expect(body.fields?.[field], JSON.stringify(body)).toBe(en);
      body = expectError(
        await call('POST', '/api/conferences', payload, { 'accept-language': 'it' }),
        400,
        'validation',
      );
      expect(body.fields?.[field], JSON.stringify(body)).toBe(it);
    }
    expectError(await call('POST', '/api/conferences', { ...weekly, extension: '601' }), 409, 'flow_exists');
    // A user cannot take a room's number either.
    expect((await call('POST', '/api/users', { username: 'bruno', fullname: 'Bruno' })).statusCode).toBe(201);
    const body = expectError(
      await call('POST', '/api/mainextensions', { username: 'bruno', extension: '600' }, { 'accept-language': 'it' }),
      422,
      'extension_in_use',
    );
    expect(body.detail).toContain('conferenza Weekly meeting');
    expect((await rooms()).map((r) => r.extension)).toEqual(['600']);
  });

  it('renders confbridge.conf and ext-meetme into a configuration the validator accepts', async () => {
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
    expect(files.get('confbridge.conf')).toContain('[conf-600]\ntype = bridge\nmax_members = 10\n');
    expect(files.get('extensions.conferences.conf')).toContain('Gosub(sub-conference-pin,s,1(1234,9999))');
    expect(files.get('extensions.conf')).toContain('Goto(ext-meetme,600,1)');
  });

  it('lets a read-only account look but not change, and answers 503 for participants without the PBX', async () => {
    await call('POST', '/api/admin/accounts', { username: 'viewer', password: 'viewer-pass-1', role: 'readonly' });
    const viewer = await login(t.app, 'viewer', 'viewer-pass-1');
    const as = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
      t.app.inject({ method, url, headers: { ...viewer }, ...(payload ? { payload } : {}) });
    expect((await as('GET', '/api/conferences')).statusCode).toBe(200);
    expectError(await as('DELETE', `/api/conferences/${ids.weekly}`), 403, 'read_only');
    expectError(
      await as('POST', `/api/conferences/${ids.weekly}/participants/kick`, { channel: 'PJSIP/201-1' }),
      403,
      'read_only',
    );
    // No Asterisk in this suite: the live routes say so.
    expectError(await call('GET', `/api/conferences/${ids.weekly}/participants`), 503, 'pbx_not_connected');
    expectError(await call('GET', '/api/conferences/live'), 503, 'pbx_not_connected');
    expectError(await call('GET', `/api/conferences/${ids.weekly + 100}/participants`), 404, 'not_found');
  });

  it('refuses to delete a room in use, naming who sends calls to it; deletes it once unused', async () => {
    let body = expectError(await call('DELETE', `/api/conferences/${ids.weekly}`), 409, 'flow_in_use');
    expect(body.detail).toContain('inbound route 0612345600');
    body = expectError(
      await call('DELETE', `/api/conferences/${ids.weekly}`, undefined, { 'accept-language': 'it' }),
      409,
      'flow_in_use',
    );
    expect(body.detail).toContain('rotta in entrata 0612345600');
    // Its number cannot move from under the route either.
    expectError(
      await call('PUT', `/api/conferences/${ids.weekly}`, { ...weekly, extension: '610' }),
      409,
      'flow_in_use',
    );
    expect(
      (await call('POST', '/api/inboundroutes/delete', { extension: '0612345600', cid: '' })).statusCode,
    ).toBeLessThan(300);
    expect((await call('DELETE', `/api/conferences/${ids.weekly}`)).statusCode).toBe(204);
    expect(await rooms()).toEqual([]);
    const res = await call('POST', '/api/mainextensions', { username: 'bruno', extension: '600' });
    expect(res.statusCode, res.body).toBe(201);
  });

  it('needs a signed-in administrator', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/conferences' })).statusCode).toBe(401);
  });
});
