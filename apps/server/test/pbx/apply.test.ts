import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApplyPipeline } from '../../src/pbx/apply.ts';
import type { PbxModel } from '../../src/pbx/model.ts';
import { DB_KINDS, expectError, useTestApp } from '../helpers.ts';
import { referenceModel, user } from './fixtures.ts';

type Status = {
  state: 'idle' | 'pending' | 'applying';
  directory: string;
  engine: string;
  last: {
    ok: boolean;
    error: string | null;
    changed: string[];
    reloaded: string[];
    durationMs: number;
    phasesMs?: { load: number; render: number; check: number; write: number };
  } | null;
};

describe.each(DB_KINDS)('PBX configuration apply (%s)', (kind) => {
  const t = useTestApp(kind);
  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: t.headers });
  const post = (url: string, payload?: unknown) =>
    t.app.inject({ method: 'POST', url, headers: t.headers, ...(payload ? { payload: payload as object } : {}) });

  /** Polls the status API until nothing is pending, as the console does. */
  async function settled(): Promise<Status> {
    for (let i = 0; i < 200; i++) {
      const status = (await get('/api/pbx/apply')).json() as Status;
      if (status.state === 'idle') return status;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error('the apply never settled');
  }

  it('writes the configuration into DATA_DIR/asterisk at start', async () => {
    const status = await settled();
    expect(status.directory).toBe(path.join(t.testDb.dataDir, 'asterisk'));
    expect(status.engine).toBe('disabled');
    expect(status.last?.ok).toBe(true);
    // Where the time went, phase by phase, adding up to no more than the whole.
    const phases = status.last?.phasesMs;
    expect(phases).toEqual({
      load: expect.any(Number),
      render: expect.any(Number),
      check: expect.any(Number),
      write: expect.any(Number),
    });
    const sum = (phases?.load ?? 0) + (phases?.render ?? 0) + (phases?.check ?? 0) + (phases?.write ?? 0);
    expect(sum).toBeLessThanOrEqual((status.last?.durationMs ?? 0) + 4);
    const files = fs.readdirSync(status.directory);
    expect(files).toEqual(expect.arrayContaining(['pjsip.conf', 'extensions.conf', 'voicemail.conf', 'manager.conf']));
  });

  it('follows a new user with an extension, writing only the files that changed', async () => {
    const first = await settled();
    const rtp = path.join(first.directory, 'rtp.conf');
    const rtpWritten = fs.statSync(rtp).mtimeMs;
    const mode = await post('/api/configuration/mode', { mode: 'legacy' });
    expect(mode.statusCode).toBe(200);
    for (let i = 0; i < 100; i++) {
      const task = (await get(`/api/tasks/${mode.json().result}`)).json() as { progress: number };
      if (task.progress === 100) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect((await post('/api/users', { username: 'alice', fullname: 'Alice Rossi' })).statusCode).toBe(201);
    expect((await post('/api/mainextensions', { username: 'alice', extension: '201' })).statusCode).toBe(201);
    // The request does not wait for the apply: it is pending or running right after.
    expect(((await get('/api/pbx/apply')).json() as Status).state).not.toBe('idle');
    const status = await settled();
    expect(status.last?.ok, status.last?.error ?? '').toBe(true);
    // The user and the extension are applied together, or one apply after the other: then an apply
    // may follow the one that wrote the files and find nothing left to write.
    if (status.last?.changed.length) {
      expect(status.last.changed).toEqual(
        expect.arrayContaining(['extensions.conf', 'extensions.users.2xx.conf', 'pjsip.conf', 'pjsip.users.2xx.conf']),
      );
    }
    expect(status.last?.changed).not.toContain('rtp.conf');
    expect(fs.statSync(rtp).mtimeMs).toBe(rtpWritten);
    const pjsip = fs.readFileSync(path.join(status.directory, 'pjsip.users.2xx.conf'), 'utf8');
    expect(pjsip).toContain('[201](device-endpoint)');
    expect(pjsip).toMatch(/\[201-auth\]\(device-auth\)\nusername = 201\npassword = [0-9a-f]{32}\n/);
    expect(pjsip).toContain('callerid = "Alice Rossi" <201>');
    const dialplan = fs.readFileSync(path.join(status.directory, 'extensions.users.2xx.conf'), 'utf8');
    expect(dialplan).toContain('exten => 201,1,Gosub(sub-dial-user,s,1(201,201,,201,ENABLED))');

    // Forcing an apply with nothing changed rewrites nothing.
    const before = fs.statSync(path.join(status.directory, 'pjsip.users.2xx.conf')).mtimeMs;
    expect((await post('/api/pbx/apply')).statusCode).toBe(202);
    const again = await settled();
    expect(again.last?.ok).toBe(true);
    expect(again.last?.changed).toEqual([]);
    expect(fs.statSync(path.join(status.directory, 'pjsip.users.2xx.conf')).mtimeMs).toBe(before);

    // Removing the extension removes the user's files too.
    expect((await post('/api/mainextensions', { username: 'alice', extension: 'none' })).statusCode).toBeLessThan(300);
    const removed = await settled();
    expect(removed.last?.changed).toEqual(expect.arrayContaining(['pjsip.users.2xx.conf']));
    expect(fs.existsSync(path.join(status.directory, 'pjsip.users.2xx.conf'))).toBe(false);
  });

  it('answers live-state calls with "not connected" without an AMI connection', async () => {
    for (const url of [
      '/api/astproxy/extensions',
      '/api/astproxy/trunks',
      '/api/astproxy/extension/201',
      '/api/user/endpoints/all',
    ]) {
      const body = expectError(await get(url), 503, 'pbx_not_connected');
      expect(body.title).toBe('PBX engine not connected');
    }
    expectError(await post('/api/user/presence', { username: 'alice', status: 'dnd' }), 503, 'pbx_not_connected');
  });
});

describe('apply pipeline: the check on the calling thread or on its own', () => {
  const broken = (model: PbxModel): PbxModel => ({
    ...model,
    inboundRoutes: [
      ...model.inboundRoutes,
      { did: '0699', cid: '', description: 'nowhere', destination: 'nowhere,s,1', cidNamePrefix: '' },
    ],
  });

  it('gives the same files and the same refusals, and moves to a thread when the system grows', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'centralino-pipeline-'));
    const small = referenceModel();
    const large: PbxModel = { ...small, users: [...small.users, user('555')] };
    const inline = new ApplyPipeline(path.join(root, 'inline'));
    const threaded = new ApplyPipeline(path.join(root, 'threaded'), { threadFromUsers: 1 });
    const growing = new ApplyPipeline(path.join(root, 'growing'), { threadFromUsers: large.users.length });
    try {
      const written = await inline.run(large);
      expect(inline.threaded).toBe(false);
      expect(await threaded.run(large)).toEqual(written);
      expect(threaded.threaded).toBe(true);
      for (const name of written) {
        expect(fs.readFileSync(path.join(root, 'threaded', name), 'utf8'), name).toBe(
          fs.readFileSync(path.join(root, 'inline', name), 'utf8'),
        );
      }
      const refusal = /The configuration was not written: 1 problem\(s\)\n.*context "nowhere" does not exist/;
      await expect(inline.run(broken(large))).rejects.toThrow(refusal);
      await expect(threaded.run(broken(large))).rejects.toThrow(refusal);

      // Below the threshold on the calling thread; past it, on a thread, which checks everything once.
      await growing.run(small);
      expect(growing.threaded).toBe(false);
      expect(await growing.run(large)).toEqual(
        expect.arrayContaining(['extensions.users.5xx.conf', 'pjsip.users.5xx.conf']),
      );
      expect(growing.threaded).toBe(true);
      expect(growing.lastTimings.checkedFiles).toBe(written.length);
      await expect(growing.run(broken(large))).rejects.toThrow(refusal);
      // The refused configuration was not written; the last good one is still there.
      expect(fs.readFileSync(path.join(root, 'growing', 'extensions.conf'), 'utf8')).not.toContain('nowhere');
      await growing.run(large);
      expect(growing.lastTimings.checkedFiles).toBeGreaterThan(0);
    } finally {
      await Promise.all([inline.close(), threaded.close(), growing.close()]);
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
