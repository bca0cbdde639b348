import type { HTTPMethods } from 'fastify';
import { describe, expect, it } from 'vitest';
import { REDACTED } from '../src/features/audit/redact.ts';
import { callAs, DB_KINDS, useTestApp } from './helpers.ts';

interface Row {
  method: string;
  path: string;
  changes: { before: unknown; after: unknown } | null;
}

describe.each(DB_KINDS)('audit log: before and checks (%s)', (kind) => {
  const t = useTestApp(kind);
  const call = callAs(t);
  const rows = async () =>
    (await call('GET', '/api/admin/audit?pageSize=200')).json() as { total: number; rows: Row[] };
  /** The change a write recorded: the newest row, which it must have added. */
  const write = async (method: HTTPMethods, url: string, payload?: unknown) => {
    const before = (await rows()).total;
    const res = await call(method, url, payload);
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
    const after = await rows();
    expect(after.total, `${method} ${url}`).toBe(before + 1);
    expect(after.rows[0]).toMatchObject({ method, path: url.split('?')[0] });
    return { res, changes: after.rows[0]?.changes };
  };

  it('records the real previous values of a changed and a deleted inbound route', async () => {
    await write('POST', '/api/configuration/mode', { mode: 'legacy' });
    for (let i = 0; i < 100 && (await call('GET', '/api/configuration/userprovider')).json().configured !== 1; i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    await write('POST', '/api/users', { username: 'mario', fullname: 'Mario Rossi' });
    const route = {
      extension: '0721405516',
      cidnum: '',
      description: 'Main number',
      destination: 'from-did-direct,201,1',
    };
    await write('POST', '/api/mainextensions', { username: 'mario', extension: '201' });
    await write('POST', '/api/inboundroutes', route);
    const { changes } = await write('PUT', '/api/inboundroutes', {
      ...route,
      description: 'Front desk',
      destination: 'app-blackhole,hangup,1',
      old: { extension: route.extension, cidnum: '' },
    });
    expect(changes?.before).toMatchObject({ description: 'Main number', destination: 'from-did-direct,201,1' });
    expect(changes?.after).toMatchObject({ description: 'Front desk', destination: 'app-blackhole,hangup,1' });
    const removed = await write('POST', '/api/inboundroutes/delete', { extension: route.extension, cid: '' });
    expect(removed.changes).toEqual({
      before: {
        id: expect.any(Number),
        extension: route.extension,
        cidnum: '',
        description: 'Front desk',
        destination: 'app-blackhole,hangup,1',
        recording: 'on_demand',
        // Ringing, not a music class (issue 42 item 6).
        music: null,
      },
      after: null,
    });
  });

  it("records a user's previous main extension", async () => {
    const { changes } = await write('POST', '/api/mainextensions', { username: 'mario', extension: '202' });
    expect(changes).toEqual({ before: { extension: '201' }, after: { extension: '202' } });
  });

  it('records the previous values of a changed and a deleted outbound route, and of a trunk taken out of it', async () => {
    const created = await write('POST', '/api/trunks', {
      provider: 'vivavox',
      name: 'outgoing',
      username: '0721000000',
      password: 'trunk-secret-0',
      phone: '0721000000',
      codecs: ['alaw'],
      forceCodec: false,
    });
    const trunkid = (created.res.json() as { trunkid: number }).trunkid;
    const detail = { name: 'national', outcid: '', emergency: false, patterns: [], trunks: [trunkid] };
    const { res } = await write('POST', '/api/outboundroutes/route', detail);
    const id = (res.json() as { route_id: number }).route_id;
    const unlinked = await write('DELETE', `/api/outboundroutes/${id}/trunks/${trunkid}`);
    expect(unlinked.changes).toEqual({
      before: { route_id: id, route: 'national', trunkid, name: 'outgoing' },
      after: null,
    });
    await write('DELETE', `/api/trunks/${trunkid}`);
    detail.trunks = [];
    const changed = await write('PUT', `/api/outboundroutes/${id}`, { ...detail, name: 'mobile', emergency: true });
    expect(changed.changes).toEqual({
      before: { name: 'national', emergency: false },
      after: { name: 'mobile', emergency: true },
    });
    const removed = await write('DELETE', `/api/outboundroutes/${id}`);
    expect(removed.changes?.before).toMatchObject({ route_id: id, name: 'mobile', emergency: true });
    expect(removed.changes?.after).toBeNull();
  });

  it('records the previous values of a changed and a deleted trunk, never its password', async () => {
    const trunk = {
      provider: 'vivavox',
      name: 'vivavox',
      username: '0721123456',
      password: 'trunk-secret-1',
      phone: '0721123456',
      codecs: ['alaw', 'ulaw'],
      forceCodec: true,
    };
    const { res } = await write('POST', '/api/trunks', trunk);
    const id = (res.json() as { trunkid: number }).trunkid;
    const changed = await write('PATCH', `/api/trunks/${id}`, {
      username: '0721999999',
      password: 'trunk-secret-2',
      forceCodec: false,
    });
    expect(changed.changes).toEqual({
      before: { username: '0721123456', forceCodec: true, password: null },
      after: { username: '0721999999', forceCodec: false, password: REDACTED },
    });
    const removed = await write('DELETE', `/api/trunks/${id}`);
    expect(removed.changes?.before).toMatchObject({ trunkid: id, name: 'vivavox', username: '0721999999' });
    expect(JSON.stringify(await rows())).not.toContain('trunk-secret');
  });

  it("keeps a deleted phone's variables in the before, its passwords redacted", async () => {
    const mac = '00-15-65-AA-BB-02';
    await write('POST', '/api/provisioning/v1/phones', { mac, model: 'yealink-T46' });
    await write('PATCH', `/api/provisioning/v1/phones/${mac}`, {
      variables: { adminpw: 'phone-secret-1', userpw: 'phone-secret-2', language: 'it' },
    });
    const removed = await write('DELETE', `/api/provisioning/v1/phones/${mac}`);
    expect(removed.changes?.before).toMatchObject({
      variables: { adminpw: REDACTED, userpw: REDACTED, language: 'it' },
    });
    expect(JSON.stringify(await rows())).not.toContain('phone-secret');
  });

  it('leaves no row for checks and previews, while a real write leaves one', async () => {
    const csv = `data:text/csv;base64,${Buffer.from('username,fullname\nluigi,Luigi Verdi\n').toString('base64')}`;
    const checks: [HTTPMethods, string, unknown][] = [
      ['POST', '/api/dbconn/test', { type: 'mysql', host: '127.0.0.1', port: 9, user: 'u', pass: 'p', name: 'db' }],
      ['POST', '/api/bulk/preview', { extensions: ['202'], displayname: 'Mario R.' }],
      ['POST', '/api/bulk/settings', { extensions: ['202'] }],
      ['POST', '/api/custcard/preview', { template: 'default', html: '', query: '', number: '201' }],
      ['POST', '/api/csv/csvimport/preview', { file: csv }],
      ['POST', '/api/cti/customer_card/template/convert', { html: Buffer.from('<b><%= x %></b>').toString('base64') }],
      ['POST', '/api/provisioning/connectivitycheck', { host: '127.0.0.1', scheme: 'http' }],
      ['POST', '/api/cti/sources/test', { url: 'http://127.0.0.1:9/snapshot.jpg' }],
      ['POST', '/api/phonebook/test', { dbtype: 'csv', url: 'http://127.0.0.1:9/list.csv' }],
    ];
    let succeeded = 0;
    for (const [method, url, payload] of checks) {
      const before = (await rows()).total;
      const res = await call(method, url, payload);
      if (res.statusCode < 300) succeeded++;
      expect((await rows()).total, `${method} ${url} → ${res.statusCode}`).toBe(before);
    }
    expect(succeeded).toBeGreaterThanOrEqual(5);
    await write('PUT', '/api/admin/audit/settings', { retention_days: 200 });
  });
});
