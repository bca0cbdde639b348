import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PbxApplyProblem, PbxApplyStatus } from '@centralino/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { ApplyPipeline, ConfigurationRefused } from '../../src/pbx/apply.ts';
import type { PbxModel, TrunkTransport } from '../../src/pbx/model.ts';
import { DB_KINDS, expectError, useTestApp } from '../helpers.ts';
import { referenceModel } from './fixtures.ts';

describe('a refused configuration names the objects at fault', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'centralino-problems-'));
  const pipeline = new ApplyPipeline(root);
  afterAll(async () => {
    await pipeline.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  async function problems(change: (model: PbxModel) => void): Promise<PbxApplyProblem[]> {
    const model = referenceModel();
    change(model);
    const error = await pipeline.run(model).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ConfigurationRefused);
    return (error as ConfigurationRefused).problems;
  }

  it('an inbound route, an outbound route, a user and a trunk', async () => {
    const inbound = await problems((m) => {
      m.inboundRoutes.push({
        did: '0699',
        cid: '',
        description: 'nowhere',
        destination: 'nowhere,s,1',
        cidNamePrefix: '',
      });
    });
    expect(inbound).toEqual([
      {
        file: 'extensions.conf',
        line: expect.any(Number),
        object: { kind: 'inbound_route', id: '0699', label: '0699 (nowhere)' },
        message: expect.stringContaining('context "nowhere" does not exist'),
      },
    ]);

    const anyDid = await problems((m) => {
      m.inboundRoutes = m.inboundRoutes.filter((r) => r.did !== '');
      m.inboundRoutes.push({ did: '', cid: '333', description: '', destination: 'nowhere,s,1', cidNamePrefix: '' });
    });
    expect(anyDid.map((p) => p.object)).toEqual(Array(3).fill({ kind: 'inbound_route', id: '/333', label: '* / 333' }));

    const outbound = await problems((m) => {
      (m.outboundRoutes[1] as PbxModel['outboundRoutes'][number]).trunkIds.push(99);
    });
    expect(outbound.map((p) => p.object)).toEqual([{ kind: 'outbound_route', id: '2', label: 'cellphone_it' }]);
    expect(outbound[0]?.message).toContain('dials trunk 99');

    const user = await problems((m) => {
      const bob = m.users.find((u) => u.username === 'bob') as PbxModel['users'][number];
      bob.destinations = { ...bob.destinations, busy: 'nowhere,s,1' };
    });
    expect(user.map((p) => p.object)).toEqual([{ kind: 'user', id: 'bob', label: 'Bob "The Builder"; Bianchi (202)' }]);
    expect(user[0]?.file).toBe('extensions.users.2xx.conf');

    const trunk = await problems((m) => {
      (m.trunks[1] as PbxModel['trunks'][number]).transport = 'sctp' as TrunkTransport;
    });
    expect(new Set(trunk.map((p) => JSON.stringify(p.object)))).toEqual(
      new Set([JSON.stringify({ kind: 'trunk', id: '2', label: 'Provider2' })]),
    );
  });
});

describe.each(DB_KINDS)('the wizard is not finalised over a failed apply (%s)', (kind) => {
  const t = useTestApp(kind);
  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: t.headers });
  const post = (url: string, payload?: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: { ...t.headers, ...headers },
      ...(payload ? { payload: payload as object } : {}),
    });

  async function settled(): Promise<PbxApplyStatus> {
    for (let i = 0; i < 400; i++) {
      const status = (await get('/api/pbx/apply')).json() as PbxApplyStatus;
      if (status.state === 'idle') return status;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error('the apply never settled');
  }

  it('refuses Finalise while the last apply failed, and accepts it once an apply succeeds', async () => {
    const mode = await post('/api/configuration/mode', { mode: 'legacy' });
    expect(mode.statusCode).toBe(200);
    for (let i = 0; i < 200; i++) {
      const task = (await get(`/api/tasks/${mode.json().result}`)).json() as { progress: number };
      if (task.progress === 100) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect((await post('/api/users', { username: 'alice', fullname: 'Alice Rossi' })).statusCode).toBe(201);
    expect((await post('/api/mainextensions', { username: 'alice', extension: '201' })).statusCode).toBe(201);
    const route = { extension: '0612345101', cidnum: '', description: 'Main', destination: 'from-did-direct,201,1' };
    expect((await post('/api/inboundroutes', route)).statusCode).toBe(200);
    const applied = await settled();
    expect(applied.last?.ok, applied.last?.error ?? '').toBe(true);
    expect((await post('/api/configuration/wizard', { status: 'true', step: 12 })).statusCode).toBe(200);

    // The extension goes behind the API's back (the API refuses to take it from a routed user, see
    // numbering.test.ts); the route still sends calls to it: the configuration is refused.
    await t.database.db
      .updateTable('users')
      .set({ default_extension: null, extension_order: 999_999_999 })
      .where('username', '=', 'alice')
      .execute();
    expect((await post('/api/pbx/apply')).statusCode).toBe(202);
    const failed = await settled();
    expect(failed.last?.ok).toBe(false);
    expect(failed.last?.problems).toEqual([
      {
        file: 'extensions.conf',
        line: expect.any(Number),
        object: { kind: 'inbound_route', id: '0612345101', label: '0612345101 (Main)' },
        message: expect.stringContaining('extension "201" does not exist'),
      },
    ]);

    const refused = expectError(
      await post('/api/configuration/wizard', { status: 'false', step: 13 }),
      409,
      'pbx_apply_failed',
    );
    expect(refused.title).toBe('The PBX configuration was not applied');
    expect(refused.detail).toContain('cannot be finalised');
    const italian = expectError(
      await post('/api/configuration/wizard', { status: 'false', step: 13 }, { 'accept-language': 'it' }),
      409,
      'pbx_apply_failed',
    );
    expect(italian.title).toBe('La configurazione del centralino non è stata applicata');
    // The wizard stays where it was; moving between steps is still allowed.
    expect((await get('/api/configuration/wizard')).json()).toEqual([{ step: 12, status: 'true' }]);
    expect((await post('/api/configuration/wizard', { status: 'true', step: 13 })).statusCode).toBe(200);

    // Forcing an apply does not hide the failure: the same data fails the same way.
    expect((await post('/api/pbx/apply')).statusCode).toBe(202);
    expect((await settled()).last?.ok).toBe(false);
    expectError(await post('/api/configuration/wizard', { status: 'false', step: 13 }), 409, 'pbx_apply_failed');

    // The route is removed: the next apply succeeds and the wizard can be finalised.
    expect((await post('/api/inboundroutes/delete', { extension: '0612345101', cid: '' })).statusCode).toBe(200);
    const fixed = await settled();
    expect(fixed.last?.ok, fixed.last?.error ?? '').toBe(true);
    expect(fixed.last?.problems).toEqual([]);
    const finalised = await post('/api/configuration/wizard', { status: 'false', step: 13 });
    expect(finalised.statusCode).toBe(200);
    expect(finalised.json()).toEqual({ step: 13, status: 'false' });
  });
});
