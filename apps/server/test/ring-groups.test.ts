import type { RingGroup } from '@centralino/contract';
import { describe, expect, it } from 'vitest';
import { loadPbxModel } from '../src/pbx/load.ts';
import { renderConfiguration } from '../src/pbx/render/index.ts';
import { formatIssue, validateConfiguration } from '../src/pbx/validate.ts';
import { callAs, DB_KINDS, expectError, useTestApp } from './helpers.ts';

/** Ring groups (issue 42, item 4): numbered like extensions, users and outside numbers, a failover destination. */
describe.each(DB_KINDS)('ring groups API (%s)', (kind) => {
  const t = useTestApp(kind);
  const call = callAs(t);
  const groups = async () => (await call('GET', '/api/ringgroups')).json() as RingGroup[];
  const it_ = { 'accept-language': 'it' };
  const ids = { desk: 0 };
  const desk = {
    extension: '600',
    name: 'Front desk',
    strategy: 'hunt' as const,
    ring_time: 15,
    members: [
      { type: 'extension' as const, number: '202' },
      { type: 'extension' as const, number: '201' },
      { type: 'external' as const, number: '+393331234567' },
    ],
    confirm_external: true,
    failover_dest: 'ext-local,vmu201,1',
  };

  it('creates a ring group of users and an outside number, listed among the destinations', async () => {
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
    let res = await call('POST', '/api/ringgroups', desk);
    expect(res.statusCode, res.body).toBe(200);
    ids.desk = (res.json() as { id: number }).id;
    // Recorded on demand (*1) unless chosen otherwise, as a queue.
    expect(await groups()).toEqual([{ id: ids.desk, ...desk, recording: 'on_demand', destination: 'ext-group,600,1' }]);
    const destinations = (await call('GET', '/api/destinations')).json() as Record<
      string,
      Record<string, { destination: string; description: string }>
    >;
    expect(Object.values(destinations['Ring groups'] ?? {})).toEqual([
      expect.objectContaining({ destination: 'ext-group,600,1', description: '600 Front desk' }),
    ]);
    // An inbound route may send calls to it.
    res = await call('POST', '/api/inboundroutes', {
      extension: '0612345678',
      cidnum: '',
      description: 'Front line',
      destination: 'ext-group,600,1',
    });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('keeps the ring group number like an extension: both ways, naming the holder, in en and it', async () => {
    let body = expectError(
      await call('POST', '/api/ringgroups', { ...desk, name: 'Other', extension: '201' }),
      422,
      'extension_in_use',
    );
    expect(body.detail).toBe('The ring group cannot have number 201: number 201 is already in use by user alice');
    body = expectError(
      await call('POST', '/api/ringgroups', { ...desk, name: 'Other', extension: '201' }, it_),
      422,
      'extension_in_use',
    );
    expect(body.detail).toBe(
      'Il gruppo di chiamata non può avere il numero 201: il numero 201 è già in uso (utente alice)',
    );
    // A queue's number is taken too, and a ring group's number is refused to a queue and a user.
    body = expectError(
      await call('POST', '/api/queues', {
        extension: '600',
        name: 'Q',
        members: [],
        agents: [],
        failover_dest: 'app-blackhole,hangup,1',
      }),
      422,
      'extension_in_use',
    );
    expect(body.detail).toContain('ring group Front desk');
    expect((await call('POST', '/api/users', { username: 'carla', fullname: 'Carla' })).statusCode).toBe(201);
    body = expectError(
      await call('POST', '/api/mainextensions', { username: 'carla', extension: '600' }, it_),
      422,
      'extension_in_use',
    );
    expect(body.detail).toContain('gruppo di chiamata Front desk');
    expect((await groups()).length).toBe(1);
  });

  it('refuses a member nobody is, a bad strategy, an outside number that is not digits: a 4xx, nothing written', async () => {
    const other = { ...desk, name: 'X', extension: '601' };
    let body = expectError(
      await call('POST', '/api/ringgroups', { ...other, members: [{ type: 'extension', number: '299' }] }),
      422,
      'user_not_found',
    );
    expect(body.detail).toContain('No user has extension 299');
    expect(body.fields?.['members.0.number']).toBe('No user has extension 299');
    body = expectError(
      await call('POST', '/api/ringgroups', { ...other, members: [{ type: 'extension', number: '299' }] }, it_),
      422,
      'user_not_found',
    );
    expect(body.fields?.['members.0.number']).toBe("Nessun utente ha l'interno 299");
    body = expectError(await call('POST', '/api/ringgroups', { ...other, strategy: 'linear' }), 400, 'validation');
    expect(Object.keys(body.fields ?? {})).toEqual(['strategy']);
    const bad = { ...other, members: [{ type: 'external', number: '333-12 34' }] };
    body = expectError(await call('POST', '/api/ringgroups', bad), 400, 'validation');
    expect(body.fields?.['members.0.number']).toBe(
      'An outside number: digits only, a + at the start at most (up to 30)',
    );
    body = expectError(await call('POST', '/api/ringgroups', bad, it_), 400, 'validation');
    expect(body.fields?.['members.0.number']).toBe(
      'Un numero esterno: solo cifre, al massimo un + iniziale (fino a 30)',
    );
    body = expectError(await call('POST', '/api/ringgroups', { ...other, recording: 'sometimes' }), 400, 'validation');
    expect(body.fields?.recording).toBe('Choose always, never or on demand');
    body = expectError(await call('POST', '/api/ringgroups', { ...other, ring_time: 0 }, it_), 400, 'validation');
    expect(body.fields?.ring_time).toBe('Da 1 a 300 secondi');
    expectError(await call('POST', '/api/ringgroups', { ...other, members: [] }), 400, 'validation');
    expectError(await call('POST', '/api/ringgroups', { ...other, failover_dest: 'ivr-99,s,1' }), 400, 'validation');
    expectError(await call('POST', '/api/ringgroups', { ...desk, extension: '601' }), 409, 'flow_exists');
    // The update is refused the same way and leaves the group as it was.
    expectError(
      await call('PUT', `/api/ringgroups/${ids.desk}`, { ...desk, members: [{ type: 'extension', number: '299' }] }),
      422,
      'user_not_found',
    );
    // Recorded on demand (*1) unless chosen otherwise, as a queue.
    expect(await groups()).toEqual([{ id: ids.desk, ...desk, recording: 'on_demand', destination: 'ext-group,600,1' }]);
  });

  it('renders ext-ringgroups into a configuration the validator accepts', async () => {
    const res = await call('PUT', `/api/ringgroups/${ids.desk}`, { ...desk, strategy: 'ringall' });
    expect(res.statusCode, res.body).toBe(204);
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
    expect(files.get('extensions.ringgroups.conf')).toContain(
      'exten => 600,1,NoOp(Ring group Front desk)\n' +
        ' same => n,Dial(Local/202@from-ringgroup&Local/201@from-ringgroup&' +
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a dialplan variable.
        'Local/+393331234567@from-ringgroup-confirm,15,${DIAL_OPTIONS})\n',
    );
    expect(files.get('extensions.conf')).toContain('Goto(ext-group,600,1)');

    // Recorded always: the policy is asked before anyone rings, once call recording is set up.
    expect((await call('PUT', `/api/ringgroups/${ids.desk}`, { ...desk, recording: 'always' })).statusCode).toBe(204);
    expect((await groups())[0]?.recording).toBe('always');
    const recorded = await loadPbxModel(t.database.db, {
      soundsDir: t.config.pbx.soundsDir,
      tls: { certFile: '/k/c.pem', keyFile: '/k/k.pem', caFile: null },
      ami: { port: 5038, bindAddress: '127.0.0.1', users: [] },
      system: {
        runUser: null,
        runGroup: null,
        directories: { config: '/c', modules: '/m', varlib: '/v', data: '/d', spool: '/s', run: '/r', log: '/l' },
      },
      version: 'test',
      callRecordingDir: '/rec',
    });
    const withRecording = renderConfiguration(recorded);
    expect(validateConfiguration(withRecording).map(formatIssue)).toEqual([]);
    expect(withRecording.get('extensions.ringgroups.conf')).toContain(
      'exten => 600,1,NoOp(Ring group Front desk)\n same => n,Gosub(sub-record,s,1(always,in))\n',
    );
    expect(files.get('extensions.ringgroups.conf')).not.toContain('sub-record');
    expect((await call('PUT', `/api/ringgroups/${ids.desk}`, desk)).statusCode).toBe(204);
  });

  it('refuses to delete a ring group in use, naming who sends calls to it; deletes it once unused', async () => {
    let body = expectError(await call('DELETE', `/api/ringgroups/${ids.desk}`), 409, 'flow_in_use');
    expect(body.detail).toContain('Ring group 600 Front desk is used by: inbound route 0612345678 (Front line)');
    body = expectError(await call('DELETE', `/api/ringgroups/${ids.desk}`, undefined, it_), 409, 'flow_in_use');
    expect(body.detail).toContain('Il gruppo di chiamata 600 Front desk è usato da: rotta in entrata 0612345678');
    // A new number would leave the route pointing at nothing: refused too.
    expectError(await call('PUT', `/api/ringgroups/${ids.desk}`, { ...desk, extension: '610' }), 409, 'flow_in_use');
    expect(
      (await call('POST', '/api/inboundroutes/delete', { extension: '0612345678', cid: '' })).statusCode,
    ).toBeLessThan(300);
    expectError(await call('DELETE', `/api/ringgroups/${ids.desk + 1000}`), 404, 'not_found');
    expect((await call('DELETE', `/api/ringgroups/${ids.desk}`)).statusCode).toBe(204);
    expect(await groups()).toEqual([]);
    // Its number is free again.
    const res = await call('POST', '/api/mainextensions', { username: 'carla', extension: '600' });
    expect(res.statusCode, res.body).toBe(201);
  });

  it('needs a signed-in administrator', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/ringgroups' })).statusCode).toBe(401);
  });
});
