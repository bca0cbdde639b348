import type { FollowMe } from '@centralino/contract';
import { describe, expect, it } from 'vitest';
import { loadPbxModel } from '../src/pbx/load.ts';
import { renderConfiguration } from '../src/pbx/render/index.ts';
import { formatIssue, validateConfiguration } from '../src/pbx/validate.ts';
import { callAs, DB_KINDS, expectError, useTestApp } from './helpers.ts';

/** Follow-me (issue 42 item 5): a user's list of numbers rung after the user's own phones. */
describe.each(DB_KINDS)('follow-me API (%s)', (kind) => {
  const t = useTestApp(kind);
  const call = callAs(t);
  const it_ = { 'accept-language': 'it' };
  const get = async (username = 'alice') => (await call('GET', `/api/users/${username}/followme`)).json() as FollowMe;
  const plan: FollowMe = {
    enabled: true,
    pre_ring: 12,
    strategy: 'hunt',
    confirm_external: true,
    legs: [
      { type: 'extension', number: '202', ring_time: 10 },
      { type: 'external', number: '+393331234567', ring_time: 25 },
    ],
  };

  it('is off with an empty list until set, then keeps what was set', async () => {
    expect((await call('POST', '/api/configuration/mode', { mode: 'legacy' })).statusCode).toBe(200);
    for (let i = 0; i < 100 && (await call('GET', '/api/configuration/userprovider')).json().configured !== 1; i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    for (const [username, extension] of [
      ['alice', '201'],
      ['bruno', '202'],
    ]) {
      expect((await call('POST', '/api/users', { username, fullname: username })).statusCode).toBe(201);
      const res = await call('POST', '/api/mainextensions', { username, extension });
      expect(res.statusCode, res.body).toBe(201);
    }
    expect((await call('POST', '/api/voicemails', { extension: '201', state: 'yes' })).statusCode).toBe(200);
    expect(await get()).toEqual({ enabled: false, pre_ring: 15, strategy: 'hunt', confirm_external: false, legs: [] });
    const res = await call('PUT', '/api/users/alice/followme', plan);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual(plan);
    expect(await get()).toEqual(plan);
  });

  it('refuses a colleague nobody is, the own extension, letters, times out of range: a clear 4xx, nothing written', async () => {
    const withLeg = (leg: unknown) => ({ ...plan, legs: [leg] });
    let body = expectError(
      await call('PUT', '/api/users/alice/followme', withLeg({ type: 'extension', number: '299', ring_time: 10 })),
      422,
      'user_not_found',
    );
    expect(body.fields?.['legs.0.number']).toBe('No user has extension 299');
    body = expectError(
      await call('PUT', '/api/users/alice/followme', withLeg({ type: 'extension', number: '299', ring_time: 10 }), it_),
      422,
      'user_not_found',
    );
    expect(body.detail).toContain("Nessun utente ha l'interno 299");
    body = expectError(
      await call('PUT', '/api/users/alice/followme', withLeg({ type: 'extension', number: '201', ring_time: 10 })),
      422,
      'validation',
    );
    expect(body.fields?.['legs.0.number']).toBe('This is the user’s own extension');
    const letters = withLeg({ type: 'external', number: '333abc', ring_time: 10 });
    body = expectError(await call('PUT', '/api/users/alice/followme', letters), 400, 'validation');
    expect(body.fields?.['legs.0.number']).toBe('An outside number: digits only, a + at the start at most (up to 30)');
    body = expectError(await call('PUT', '/api/users/alice/followme', letters, it_), 400, 'validation');
    expect(body.fields?.['legs.0.number']).toBe('Un numero esterno: solo cifre, al massimo un + iniziale (fino a 30)');
    body = expectError(
      await call('PUT', '/api/users/alice/followme', withLeg({ type: 'external', number: '333', ring_time: 121 })),
      400,
      'validation',
    );
    expect(body.fields?.['legs.0.ring_time']).toBe('From 1 to 120 seconds');
    body = expectError(
      await call('PUT', '/api/users/alice/followme', { ...plan, pre_ring: 0 }, it_),
      400,
      'validation',
    );
    expect(body.fields?.pre_ring).toBe('Da 1 a 120 secondi');
    body = expectError(await call('PUT', '/api/users/alice/followme', { ...plan, legs: [] }), 400, 'validation');
    expect(body.fields?.legs).toBe('Add at least one number to follow the user to');
    expectError(await call('PUT', '/api/users/nobody/followme', plan), 404, 'user_not_found');
    expect(await get()).toEqual(plan);
    // Switched off, the list may be empty.
    const off = { ...plan, enabled: false, legs: [] };
    expect((await call('PUT', '/api/users/bruno/followme', off)).statusCode).toBe(200);
  });

  it('rings the list after the own phones in a configuration the validator accepts; off, the user is as before', async () => {
    const engine = {
      soundsDir: t.config.pbx.soundsDir,
      tls: { certFile: '/k/c.pem', keyFile: '/k/k.pem', caFile: null },
      ami: { port: 5038, bindAddress: '127.0.0.1', users: [] },
      system: {
        runUser: null,
        runGroup: null,
        directories: { config: '/c', modules: '/m', varlib: '/v', data: '/d', spool: '/s', run: '/r', log: '/l' },
      },
      version: 'test',
    };
    let files = renderConfiguration(await loadPbxModel(t.database.db, engine));
    expect(validateConfiguration(files).map(formatIssue)).toEqual([]);
    const users = files.get('extensions.users.2xx.conf') ?? '';
    expect(users).toContain('exten => 201,1,Gosub(sub-dial-user,s,1(201,201,12,201,');
    expect(users).toContain(' same => n,Dial(Local/202@from-ringgroup,10,');
    expect(users).toContain(' same => n,Dial(Local/+393331234567@from-ringgroup-confirm,25,');
    // Nobody answering: alice's voicemail, as without follow-me.
    expect(users).toContain(' same => n(noanswer),Goto(ext-local,vmu201,1)');
    const res = await call('PUT', '/api/users/alice/followme', { ...plan, enabled: false });
    expect(res.statusCode, res.body).toBe(200);
    files = renderConfiguration(await loadPbxModel(t.database.db, engine));
    expect(files.get('extensions.users.2xx.conf')).not.toContain('followme');
  });

  it('needs a signed-in administrator', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/users/alice/followme' })).statusCode).toBe(401);
  });
});
