import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { dayName } from '../src/features/call-recordings/files.ts';
import { byteRange } from '../src/features/call-recordings/routes.ts';
import { callAs, DB_KINDS, expectError, login, useTestApp } from './helpers.ts';

/**
 * Call recordings (issue 41): the policies are validated where they are edited (user, inbound route, queue), a call's
 * recording streams with Range support to those who may listen, every listen and download is in the audit log, and
 * the retention deletes old recordings, whose history row then says so. The real Asterisk records calls in
 * test/asterisk/call-recordings.test.ts.
 */

/** A WAV file of `seconds` of a 440 Hz tone, 8 kHz mono 16-bit, as MixMonitor writes them. */
function wav(seconds: number): Buffer {
  const samples = 8000 * seconds;
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++)
    data.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / 8000)), i * 2);
  const head = Buffer.alloc(44);
  head.write('RIFF', 0);
  head.writeUInt32LE(36 + data.length, 4);
  head.write('WAVEfmt ', 8);
  head.writeUInt32LE(16, 16);
  head.writeUInt16LE(1, 20);
  head.writeUInt16LE(1, 22);
  head.writeUInt32LE(8000, 24);
  head.writeUInt32LE(16000, 28);
  head.writeUInt16LE(2, 32);
  head.writeUInt16LE(16, 34);
  head.write('data', 36);
  head.writeUInt32LE(data.length, 40);
  return Buffer.concat([head, data]);
}

describe('byte ranges', () => {
  it('reads one range of the forms players send, and refuses what lies outside the file', () => {
    expect(byteRange(undefined, 100)).toBeNull();
    expect(byteRange('bytes=0-', 100)).toEqual({ start: 0, end: 99 });
    expect(byteRange('bytes=10-19', 100)).toEqual({ start: 10, end: 19 });
    expect(byteRange('bytes=90-200', 100)).toEqual({ start: 90, end: 99 });
    expect(byteRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
    expect(byteRange('bytes=100-', 100)).toBe('bad');
    expect(byteRange('bytes=20-10', 100)).toBe('bad');
    expect(byteRange('items=0-1', 100)).toBe('bad');
    expect(byteRange('bytes=-', 100)).toBe('bad');
  });
});

describe.each(DB_KINDS)('call recordings (%s)', (kind) => {
  const t = useTestApp(kind);
  const call = callAs(t);
  const ok = async (method: 'GET' | 'PUT' | 'POST', url: string, body?: unknown) => {
    const res = await call(method, url, body);
    expect(res.statusCode, res.body).toBeLessThan(300);
    return res.json();
  };

  /** A call as Asterisk leaves it: its record names the recording, and the file is in its day's folder. */
  const recordedCall = async (at: Date, seconds: number, linkedid: string) => {
    const name = `${dayName(at.getTime())}/${linkedid}.wav`;
    const file = path.join(t.config.recordingsDir, name);
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, wav(seconds));
    const local = new Date(at.getTime() - at.getTimezoneOffset() * 60_000).toISOString().slice(0, 19).replace('T', ' ');
    await t.database.db
      .insertInto('cdr')
      .values({
        calldate: local,
        clid: '"Bob" <202>',
        src: '202',
        dst: '201',
        dcontext: 'from-internal',
        channel: 'PJSIP/202-00000001',
        dstchannel: 'PJSIP/201-00000002',
        lastapp: 'Dial',
        lastdata: 'PJSIP/201',
        duration: seconds + 2,
        billsec: seconds,
        disposition: 'ANSWERED',
        amaflags: 3,
        accountcode: '',
        uniqueid: linkedid,
        userfield: '',
        linkedid,
        sequence: 1,
        did: '',
        recordingfile: name,
      })
      .execute();
    await expect.poll(async () => (await ok('GET', '/api/calls/backlog')).records, { timeout: 10_000 }).toBe(0);
    const page = await ok('GET', '/api/calls');
    const row = page.rows.find((r: { at: number }) => r.at === Math.floor(at.getTime() / 1000) * 1000);
    expect(row).toBeDefined();
    return { id: row.id as number, file, bytes: (await fs.stat(file)).size };
  };

  it('validates the policy of users, inbound routes and queues with the contract', async () => {
    expectError(
      await call('POST', '/api/inboundroutes', {
        extension: '0721000001',
        cidnum: '',
        description: 'Main line',
        destination: 'app-blackhole,hangup,1',
        recording: 'sometimes',
      }),
      400,
      'validation',
    );
    const created = await call('POST', '/api/inboundroutes', {
      extension: '0721000001',
      cidnum: '',
      description: 'Main line',
      destination: 'app-blackhole,hangup,1',
      recording: 'always',
    });
    expect(created.statusCode, created.body).toBeLessThan(300);
    const routes = await ok('GET', '/api/inboundroutes');
    expect(routes.routes.find((r: { extension: string }) => r.extension === '0721000001')).toMatchObject({
      recording: 'always',
    });
    // Left out, a route records on demand as before.
    await ok('POST', '/api/inboundroutes', {
      extension: '0721000002',
      cidnum: '',
      description: 'Second line',
      destination: 'app-blackhole,hangup,1',
    });
    const again = await ok('GET', '/api/inboundroutes');
    expect(again.routes.find((r: { extension: string }) => r.extension === '0721000002')).toMatchObject({
      recording: 'on_demand',
    });
  });

  it('streams a recording with ranges to an admin, audits listens and downloads, refuses a read-only account', async () => {
    const { id, bytes } = await recordedCall(new Date(), 3, `${Math.floor(Date.now() / 1000)}.1`);
    const row = (await ok('GET', `/api/calls/${id}`)).call;
    expect(row).toMatchObject({ recorded: true, recording: 'available' });

    const whole = await call('GET', `/api/calls/${id}/recording`);
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(whole.headers['content-type']).toBe('audio/wav');
    expect(whole.headers['content-disposition']).toMatch(/^attachment; filename="call-.*\.wav"$/);
    expect(whole.rawPayload.length).toBe(bytes);
    expect(whole.rawPayload.subarray(0, 4).toString()).toBe('RIFF');

    const part = await call('GET', `/api/calls/${id}/recording`, undefined, { range: 'bytes=44-1043' });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 44-1043/${bytes}`);
    expect(part.rawPayload.length).toBe(1000);
    const outside = await call('GET', `/api/calls/${id}/recording`, undefined, { range: `bytes=${bytes}-` });
    expect(outside.statusCode).toBe(416);
    expect(outside.headers['content-range']).toBe(`bytes */${bytes}`);

    // The player's link: no sign-in headers, ranges, and only for the call and time it names.
    const link = await ok('GET', `/api/calls/${id}/recording/link`);
    const played = await t.app.inject({ method: 'GET', url: link.url, headers: { range: 'bytes=0-99' } });
    expect(played.statusCode).toBe(206);
    expect(played.headers['content-range']).toBe(`bytes 0-99/${bytes}`);
    const forged = link.url.replace(/sig=[^&]+/, 'sig=AAAA');
    expect((await t.app.inject({ method: 'GET', url: forged })).statusCode).toBe(401);
    const otherCall = link.url.replace(`/play/${id}?`, `/play/${id + 1}?`);
    expect((await t.app.inject({ method: 'GET', url: otherCall })).statusCode).toBe(401);

    const audit = await ok('GET', '/api/admin/audit?pageSize=200');
    const actions = audit.rows
      .filter((r: { object: string }) => r.object === `call ${id}`)
      .map((r: { action: string; actor: string }) => `${r.actor} ${r.action}`);
    // Three downloads (whole, part, the refused range is not one: it fails before) and one listen.
    expect(actions.filter((a: string) => a === 'admin recording_listen')).toHaveLength(1);
    expect(actions.filter((a: string) => a === 'admin recording_download').length).toBeGreaterThanOrEqual(2);

    // A read-only account may not, until an administrator allows it on the account.
    await ok('POST', '/api/admin/accounts', { username: 'viewer', password: 'viewer-pass-1', role: 'readonly' });
    const viewer = await login(t.app, 'viewer', 'viewer-pass-1');
    const asViewer = (url: string) => t.app.inject({ method: 'GET', url, headers: viewer });
    expect((await asViewer('/api/login')).json()).toMatchObject({ listen_recordings: false });
    expectError(await asViewer(`/api/calls/${id}/recording`), 403, 'recording_forbidden');
    expectError(await asViewer(`/api/calls/${id}/recording/link`), 403, 'recording_forbidden');
    await ok('PUT', '/api/admin/accounts/viewer', { listen_recordings: true });
    expect((await asViewer('/api/login')).json()).toMatchObject({ listen_recordings: true });
    expect((await asViewer(`/api/calls/${id}/recording`)).statusCode).toBe(200);
    const viewerLink = (await asViewer(`/api/calls/${id}/recording/link`)).json();
    expect((await t.app.inject({ method: 'GET', url: viewerLink.url })).statusCode).toBe(200);
    // Taken back: the link it still holds stops working too.
    await ok('PUT', '/api/admin/accounts/viewer', { listen_recordings: false });
    expect((await t.app.inject({ method: 'GET', url: viewerLink.url })).statusCode).toBe(401);
    const viewerRows = (await ok('GET', '/api/admin/audit?user=viewer&pageSize=200')).rows.map(
      (r: { action: string }) => r.action,
    );
    expect(viewerRows).toEqual(expect.arrayContaining(['recording_listen', 'recording_download']));
  });

  it('deletes recordings past the retention; their calls say so and answer 410', async () => {
    const old = new Date(Date.now() - 40 * 24 * 3600_000);
    const kept = new Date(Date.now() - 5 * 24 * 3600_000);
    const a = await recordedCall(old, 2, `${Math.floor(old.getTime() / 1000)}.7`);
    const b = await recordedCall(kept, 2, `${Math.floor(kept.getTime() / 1000)}.8`);
    expectError(
      await call('PUT', '/api/call-recordings/settings', {
        retention_days: -1,
        free_space_warning_mb: 100,
        notice: 'none',
        notice_recording: null,
      }),
      400,
      'validation',
    );
    expectError(
      await call('PUT', '/api/call-recordings/settings', {
        retention_days: 30,
        free_space_warning_mb: 100,
        notice: 'recording',
        notice_recording: null,
      }),
      400,
      'validation',
    );
    await ok('PUT', '/api/call-recordings/settings', {
      retention_days: 30,
      free_space_warning_mb: 100,
      notice: 'none',
      notice_recording: null,
    });
    const before = await ok('GET', '/api/call-recordings/status');
    expect(before.files).toBeGreaterThanOrEqual(2);
    // The server's retention pass (hourly; run now, as the timer would).
    const { CallRecordingsService } = await import('../src/features/call-recordings/service.ts');
    const service = new CallRecordingsService(t.database.db, t.config.recordingsDir);
    expect(await service.applyRetention()).toBe(1);
    await expect(fs.stat(a.file)).rejects.toThrow();
    expect((await fs.stat(b.file)).size).toBe(b.bytes);
    expect((await ok('GET', `/api/calls/${a.id}`)).call).toMatchObject({ recorded: false, recording: 'deleted' });
    expect((await ok('GET', `/api/calls/${b.id}`)).call).toMatchObject({ recorded: true, recording: 'available' });
    expectError(await call('GET', `/api/calls/${a.id}/recording`), 410, 'recording_deleted');
    const after = await ok('GET', '/api/call-recordings/status');
    expect(after.files).toBe(before.files - 1);
    expect(after.bytes).toBe(before.bytes - a.bytes);
    expect(after.free_bytes).toBeGreaterThan(0);
    expect(after.low_space).toBe(false);
    // A threshold above the disk's free space warns.
    await ok('PUT', '/api/call-recordings/settings', {
      retention_days: 30,
      free_space_warning_mb: 1_000_000,
      notice: 'none',
      notice_recording: null,
    });
    expect((await ok('GET', '/api/call-recordings/status')).low_space).toBe(after.free_bytes < 1_000_000 * 1024 * 1024);
  });
});
