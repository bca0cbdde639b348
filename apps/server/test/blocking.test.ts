// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${NAME} is how the Asterisk dialplan reads variables.

import type { BlockedCaller, BulkSettings, CallClassPrefixes } from '@centralino/contract';
import { describe, expect, it } from 'vitest';
import { loadPbxModel } from '../src/pbx/load.ts';
import { renderConfiguration } from '../src/pbx/render/index.ts';
import { formatIssue, validateConfiguration } from '../src/pbx/validate.ts';
import { callAs, DB_KINDS, expectError, login, useTestApp } from './helpers.ts';

/** Blocked callers and outbound call permissions (issue 42 item 7): the API, its refusals and what it renders. */
describe.each(DB_KINDS)('blocking and call permissions API (%s)', (kind) => {
  const t = useTestApp(kind);
  const call = callAs(t);
  const list = async () => (await call('GET', '/api/blocklist')).json() as BlockedCaller[];
  const ids = { route: 0, number: 0 };

  const model = () =>
    loadPbxModel(t.database.db, {
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

  it('blocks a number, a prefix on one route and anonymous callers', async () => {
    expect((await call('POST', '/api/configuration/mode', { mode: 'legacy' })).statusCode).toBe(200);
    await expect
      .poll(async () => (await call('GET', '/api/configuration/userprovider')).json().configured, { timeout: 10_000 })
      .toBe(1);
    expect((await call('POST', '/api/users', { username: 'alice', fullname: 'Alice' })).statusCode).toBe(201);
    expect((await call('POST', '/api/mainextensions', { username: 'alice', extension: '201' })).statusCode).toBe(201);
    const route = await call('POST', '/api/inboundroutes', {
      extension: '0612345100',
      cidnum: '',
      description: 'Main',
      destination: 'from-did-direct,201,1',
    });
    expect(route.statusCode, route.body).toBe(200);
    const routes = (await call('GET', '/api/inboundroutes')).json().routes as { id: number; extension: string }[];
    ids.route = routes.find((r) => r.extension === '0612345100')?.id ?? 0;
    expect(ids.route).toBeGreaterThan(0);

    let res = await call('POST', '/api/blocklist', { match: 'number', number: '0298765432', description: 'Spam' });
    expect(res.statusCode, res.body).toBe(200);
    ids.number = res.json().id;
    res = await call('POST', '/api/blocklist', {
      match: 'prefix',
      number: '0544',
      response: 'destination',
      destination: 'from-did-direct,201,1',
      routes: [ids.route],
    });
    expect(res.statusCode, res.body).toBe(200);
    res = await call('POST', '/api/blocklist', { match: 'anonymous', number: 'ignored', response: 'not_available' });
    expect(res.statusCode, res.body).toBe(200);
    expect(await list()).toEqual([
      expect.objectContaining({ match: 'anonymous', number: '', response: 'not_available', routes: [] }),
      expect.objectContaining({ id: ids.number, match: 'number', number: '0298765432', response: 'busy', routes: [] }),
      expect.objectContaining({
        match: 'prefix',
        number: '0544',
        destination: 'from-did-direct,201,1',
        routes: [ids.route],
      }),
    ]);
    const files = renderConfiguration(await model());
    expect(validateConfiguration(files).map(formatIssue)).toEqual([]);
    const blocking = files.get('extensions.blocking.conf') ?? '';
    expect(blocking).toContain('exten => 0298765432,1,NoOp(Blocked caller');
    expect(blocking).toContain(`[blocklist-route-${ids.route}]`);
    expect(blocking).toContain('exten => _0544.,1,');
    expect(files.get('extensions.conf')).toContain(
      `GotoIf(\${DIALPLAN_EXISTS(blocklist-route-${ids.route},\${BLOCKNUM},1)}?blocklist-route-${ids.route},\${BLOCKNUM},1)`,
    );
    // A queue a blocked caller is sent to cannot be deleted from under it.
    const queue = await call('POST', '/api/queues', {
      extension: '500',
      name: 'Sales',
      members: [],
      agents: [],
      failover_dest: 'app-blackhole,hangup,1',
    });
    expect(queue.statusCode, queue.body).toBe(200);
    {
      const qid = queue.json().id as number;
      const res2 = await call('POST', '/api/blocklist', {
        match: 'number',
        number: '0611000000',
        response: 'destination',
        destination: 'ext-queues,500,1',
      });
      expect(res2.statusCode, res2.body).toBe(200);
      const refused = expectError(await call('DELETE', `/api/queues/${qid}`), 409, 'flow_in_use');
      expect(refused.detail).toContain('blocked caller 0611000000');
      expect((await call('DELETE', `/api/blocklist/${res2.json().id}`)).statusCode).toBe(204);
    }
  });

  it('refuses bad input in the caller’s language and writes nothing', async () => {
    const before = await list();
    const invalid: [unknown, number, string, string, string][] = [
      [
        { match: 'number', number: '02abc' },
        400,
        'number',
        'Digits only, with an optional leading +, up to 32',
        'Solo cifre, con un + iniziale facoltativo, fino a 32',
      ],
      [
        { match: 'prefix', number: '' },
        400,
        'number',
        'Enter at least one digit of the prefix',
        'Inserisci almeno una cifra del prefisso',
      ],
      [
        { match: 'number', number: '0611', response: 'recording' },
        400,
        'recording_id',
        'Choose a recording',
        'Scegli una registrazione',
      ],
      [
        { match: 'number', number: '0611', routes: [99_999] },
        422,
        'routes',
        'Unknown inbound route 99999',
        'Rotta in entrata sconosciuta 99999',
      ],
      [
        { match: 'number', number: '0611', response: 'recording', recording_id: 4242 },
        422,
        'recording_id',
        'There is no recording 4242',
        'Non esiste la registrazione 4242',
      ],
      [
        { match: 'number', number: '0611', response: 'destination', destination: 'ext-queues,999,1' },
        422,
        'destination',
        'Unknown destination ext-queues,999,1',
        'Destinazione sconosciuta ext-queues,999,1',
      ],
    ];
    for (const [payload, status, field, en, it] of invalid) {
      let body = expectError(await call('POST', '/api/blocklist', payload), status, 'validation');
      expect(body.fields?.[field], JSON.stringify(body)).toBe(en);
      body = expectError(
        await call('POST', '/api/blocklist', payload, { 'accept-language': 'it' }),
        status,
        'validation',
      );
      expect(body.fields?.[field], JSON.stringify(body)).toBe(it);
    }
    let body = expectError(
      await call('POST', '/api/blocklist', { match: 'number', number: '0298765432' }),
      409,
      'flow_exists',
    );
    expect(body.detail).toBe('Number 0298765432 is blocked already.');
    body = expectError(
      await call('POST', '/api/blocklist', { match: 'anonymous' }, { 'accept-language': 'it' }),
      409,
      'flow_exists',
    );
    expect(body.detail).toBe('Le chiamate anonime sono già bloccate.');
    expectError(await call('PUT', '/api/blocklist/99999', { match: 'number', number: '1' }), 404, 'not_found');
    expect(await list()).toEqual(before);
  });

  it('edits the class prefixes in one place, refusing a prefix in two classes', async () => {
    const classes = (await call('GET', '/api/callclasses')).json() as CallClassPrefixes;
    expect(classes).toEqual({
      local: [],
      national: ['0'],
      mobile: ['3'],
      international: ['00', '+'],
      premium: ['89', '144', '166'],
    });
    const body = expectError(
      await call('PUT', '/api/callclasses', { ...classes, local: ['0'] }, { 'accept-language': 'it' }),
      400,
      'validation',
    );
    expect(JSON.stringify(body.fields)).toContain('Un prefisso può appartenere a una sola classe');
    expectError(await call('PUT', '/api/callclasses', { ...classes, local: ['06x'] }), 400, 'validation');
    expect((await call('PUT', '/api/callclasses', { ...classes, local: ['06'] })).statusCode).toBe(204);
    expect(((await call('GET', '/api/callclasses')).json() as CallClassPrefixes).local).toEqual(['06']);
  });

  it('sets a user’s outbound permission in bulk and renders it on the endpoint and the routes', async () => {
    expect((await call('POST', '/api/bulk/201', { callpermission: 'mobile,national' })).statusCode).toBeLessThan(300);
    const settings = (await call('GET', '/api/bulk/201')).json() as BulkSettings;
    expect(settings.callpermission).toBe('national,mobile');
    const body = expectError(
      await call('POST', '/api/bulk/201', { callpermission: 'moon' }, { 'accept-language': 'it' }),
      400,
      'validation',
    );
    expect(JSON.stringify(body)).toContain('Scegli le classi di chiamate consentite');
    expect((await call('GET', '/api/bulk/201')).json().callpermission).toBe('national,mobile');
    const route = await call('POST', '/api/outboundroutes/route', {
      name: 'all',
      outcid: '',
      emergency: false,
      patterns: [{ prepend: '', prefix: '', match_pattern: '0X.', match_cid: '' }],
      trunks: [],
    });
    expect(route.statusCode, route.body).toBeLessThan(300);
    const files = renderConfiguration(await model());
    expect(validateConfiguration(files).map(formatIssue)).toEqual([]);
    expect(files.get('pjsip.users.2xx.conf')).toContain(
      'set_var = CALLPERM=on\nset_var = CALLOK_national=yes\nset_var = CALLOK_mobile=yes\n',
    );
    const dialplan = files.get('extensions.conf') ?? '';
    expect(dialplan).toContain('Gosub(sub-call-permission,s,1(${DIAL_NUMBER}))');
    // The local prefix set above is in the classification, after the shorter national one.
    expect(dialplan.indexOf('"${ARG1:0:2}" = "06"]?Set(CALLCLASS=local)')).toBeGreaterThan(
      dialplan.indexOf('"${ARG1:0:1}" = "0"]?Set(CALLCLASS=national)'),
    );
    expect((await call('POST', '/api/bulk/201', { callpermission: 'profile' })).statusCode).toBeLessThan(300);
    expect((await call('GET', '/api/bulk/201')).json().callpermission).toBe('profile');
  });

  it('lets a read-only account look but not change; deletes an entry', async () => {
    await call('POST', '/api/admin/accounts', { username: 'viewer', password: 'viewer-pass-1', role: 'readonly' });
    const viewer = await login(t.app, 'viewer', 'viewer-pass-1');
    const as = (method: 'GET' | 'DELETE', url: string) => t.app.inject({ method, url, headers: { ...viewer } });
    expect((await as('GET', '/api/blocklist')).statusCode).toBe(200);
    expectError(await as('DELETE', `/api/blocklist/${ids.number}`), 403, 'read_only');
    expect((await call('DELETE', `/api/blocklist/${ids.number}`)).statusCode).toBe(204);
    expectError(await call('DELETE', `/api/blocklist/${ids.number}`), 404, 'not_found');
    expect((await list()).map((e) => e.match)).toEqual(['anonymous', 'prefix']);
  });

  it('needs a signed-in administrator', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/blocklist' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/callclasses' })).statusCode).toBe(401);
  });
});
