import type { Queue } from '@centralino/contract';
import { describe, expect, it } from 'vitest';
import { loadPbxModel } from '../src/pbx/load.ts';
import { renderConfiguration } from '../src/pbx/render/index.ts';
import { formatIssue, validateConfiguration } from '../src/pbx/validate.ts';
import { callAs, DB_KINDS, expectError, useTestApp } from './helpers.ts';

/** Call queues (issue 26): numbered like extensions, members chosen from users, a failover destination. */
describe.each(DB_KINDS)('call queues API (%s)', (kind) => {
  const t = useTestApp(kind);
  const call = callAs(t);
  const queues = async () => (await call('GET', '/api/queues')).json() as Queue[];
  const ids = { sales: 0 };
  const sales = {
    extension: '500',
    name: 'Sales',
    strategy: 'rrmemory',
    members: ['201'],
    agents: ['202'],
    ring_time: 20,
    max_wait: 90,
    failover_dest: 'ext-local,vmu201,1',
    announce_position: true,
    recording: 'always' as const,
  };

  it('creates a queue of users with a failover, listed among the destinations', async () => {
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
    let res = await call('POST', '/api/queues', { ...sales, failover_dest: 'app-blackhole,hangup,1' });
    expect(res.statusCode, res.body).toBe(200);
    ids.sales = (res.json() as { id: number }).id;
    expect(await queues()).toEqual([
      {
        id: ids.sales,
        ...sales,
        failover_dest: 'app-blackhole,hangup,1',
        music: 'default',
        destination: 'ext-queues,500,1',
        login_code: '*45500',
        pause_code: '*46500',
      },
    ]);
    const destinations = (await call('GET', '/api/destinations')).json() as Record<
      string,
      Record<string, { destination: string; description: string }>
    >;
    expect(Object.values(destinations.Queues ?? {})).toEqual([
      expect.objectContaining({ destination: 'ext-queues,500,1', description: '500 Sales' }),
    ]);
    // An inbound route may send calls to it.
    res = await call('POST', '/api/inboundroutes', {
      extension: '0612345678',
      cidnum: '',
      description: 'Sales line',
      destination: 'ext-queues,500,1',
    });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('keeps the queue number like an extension: both ways, naming the holder', async () => {
    let body = expectError(
      await call('POST', '/api/queues', { ...sales, name: 'Other', extension: '201' }),
      422,
      'extension_in_use',
    );
    expect(body.detail).toContain('alice');
    // 91201 is a device number of extension 201.
    body = expectError(
      await call('POST', '/api/queues', { ...sales, name: 'Other', extension: '91201' }),
      422,
      'extension_in_use',
    );
    expect(body.detail).toContain('alice');
    expect((await call('POST', '/api/users', { username: 'carla', fullname: 'Carla' })).statusCode).toBe(201);
    body = expectError(
      await call('POST', '/api/mainextensions', { username: 'carla', extension: '500' }, { 'accept-language': 'it' }),
      422,
      'extension_in_use',
    );
    expect(body.detail).toContain('coda Sales');
    expect((await queues()).length).toBe(1);
  });

  it('refuses members nobody is, a destination that does not exist and bad input, changing nothing', async () => {
    let body = expectError(
      await call('POST', '/api/queues', { ...sales, name: 'X', extension: '501', members: ['299'] }),
      400,
      'validation',
    );
    expect(body.fields?.members).toContain('299');
    body = expectError(
      await call('POST', '/api/queues', { ...sales, name: 'X', extension: '501', failover_dest: 'ivr-99,s,1' }),
      400,
      'validation',
    );
    expect(body.detail).toContain('ivr-99,s,1');
    expectError(await call('POST', '/api/queues', { ...sales, name: 'X', extension: '5a1' }), 400, 'validation');
    expectError(
      await call('POST', '/api/queues', { ...sales, name: 'X', extension: '501', strategy: 'linear' }),
      400,
      'validation',
    );
    expectError(await call('POST', '/api/queues', { ...sales, extension: '501' }), 409, 'flow_exists');
    expect((await queues()).map((q) => q.extension)).toEqual(['500']);
  });

  it('renders queues.conf and ext-queues into a configuration the validator accepts', async () => {
    expect((await call('PUT', `/api/queues/${ids.sales}`, sales)).statusCode).toBe(204);
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
    const conf = files.get('queues.conf') ?? '';
    expect(conf).toContain('[500]\nstrategy = rrmemory\ntimeout = 20\n');
    expect(conf).toContain('member => Local/201@from-queue/n,0,alice,hint:201@ext-local\n');
    expect(conf).not.toContain('Local/202');
    // The flow files: extensions.flows.conf and the blocks of IVRs and time conditions it includes.
    const flows = [...files]
      .filter(([name]) => name.startsWith('extensions.flows'))
      .map(([, text]) => text)
      .join('');
    expect(flows).toContain('exten => 500,1,NoOp(Queue Sales)\n same => n,Answer()\n same => n,Queue(500,t,,,90)\n');
    expect(flows).toContain('exten => *45500,1,Gosub(sub-queue-login,s,1(500,202))');
    expect(files.get('extensions.conf')).toContain('Goto(ext-queues,500,1)');
  });

  it('refuses to delete a queue in use, naming who sends calls to it; deletes it once unused', async () => {
    let body = expectError(await call('DELETE', `/api/queues/${ids.sales}`), 409, 'flow_in_use');
    expect(body.detail).toContain('inbound route 0612345678');
    // The user whose voicemail is the failover may not lose it from under the queue either.
    const routes = (await call('GET', '/api/inboundroutes')).json() as {
      routes: { extension: string; cidnum: string }[];
    };
    expect(routes.routes.length).toBe(1);
    expect(
      (await call('POST', '/api/inboundroutes/delete', { extension: '0612345678', cid: '' })).statusCode,
    ).toBeLessThan(300);
    body = expectError(await call('DELETE', `/api/queues/${ids.sales + 1000}`), 404, 'not_found');
    expect((await call('DELETE', `/api/queues/${ids.sales}`)).statusCode).toBe(204);
    expect(await queues()).toEqual([]);
    // Its number is free again.
    const res = await call('POST', '/api/mainextensions', { username: 'carla', extension: '500' });
    expect(res.statusCode, res.body).toBe(201);
  });

  it('needs a signed-in administrator', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/queues' })).statusCode).toBe(401);
  });
});
