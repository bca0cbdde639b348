// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${NAME} is how the Asterisk dialplan reads variables.

import fs from 'node:fs';
import path from 'node:path';
import type { Cqr } from '@centralino/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { voicemailSttTokenPath } from '../src/features/cloud-speech/token.ts';
import { CQR_LOOKUP_PATH } from '../src/pbx/render/cqr.ts';
import { callAs, DB_KINDS, expectError, useTestApp } from './helpers.ts';

/**
 * Caller query routing (issue 26): the console's CRUD, and the call-time lookup Asterisk's CURL() makes, run on the
 * built-in phonebook source (a real source: Centralino's own database) with the caller's number bound.
 */
describe.each(DB_KINDS)('caller query routing (%s)', (kind) => {
  const t = useTestApp(kind);
  const call = callAs(t);
  let token = '';
  let flowsConf = '';
  const ids = { vip: 0, slow: 0, announcement: 0 };
  const VIP_QUERY = "SELECT type FROM phonebook WHERE REPLACE(workphone, ' ', '') LIKE '%$NUMBER'";
  const vip = (source_id = 1) => ({
    name: 'Customers',
    source_id,
    query: VIP_QUERY,
    timeout: 2,
    entries: [
      { value: 'company', destination: 'app-blackhole,busy,1' },
      { value: 'person', destination: 'app-blackhole,hangup,1' },
    ],
    default_dest: 'app-blackhole,hangup,1',
  });
  const lookup = (id: number, caller: string, auth = `Bearer ${token}`, remoteAddress = '127.0.0.1') =>
    t.app.inject({
      method: 'GET',
      url: `${CQR_LOOKUP_PATH}/${id}?caller=${encodeURIComponent(caller)}`,
      headers: { authorization: auth },
      remoteAddress,
    });
  const waitApplied = async () => {
    let status = { state: '', directory: '' };
    for (let i = 0; i < 400; i++) {
      status = (await call('GET', '/api/pbx/apply')).json();
      if (status.state === 'idle') break;
      await new Promise((r) => setTimeout(r, 25));
    }
    return status.directory;
  };

  beforeAll(async () => {
    // The token file is written by the first apply.
    flowsConf = fs.readFileSync(path.join(await waitApplied(), 'extensions.flows.conf'), 'utf8');
    token = fs.readFileSync(voicemailSttTokenPath(t.config.pbx.configDir), 'utf8').trim();
    await t.database.db
      .insertInto('phonebook_contacts')
      .values([
        { source_id: 'extensions', name: 'ACME', workphone: '0721 555 123', type: 'company' },
        { source_id: 'extensions', name: 'Dario', workphone: '0721 555 999', type: 'other' },
      ])
      .execute();
  });

  it('creates a CQR on a source: listed, a destination everywhere, rendered as nethcqr asking the console', async () => {
    const res = await call('POST', '/api/cqr', vip());
    expect(res.statusCode, res.body).toBe(200);
    ids.vip = (res.json() as { id: number }).id;
    expect((await call('GET', '/api/cqr')).json() as Cqr[]).toEqual([
      { id: ids.vip, ...vip(), destination: `nethcqr,${ids.vip},1` },
    ]);
    const destinations = (await call('GET', '/api/destinations')).json() as Record<string, Record<string, unknown>>;
    expect(Object.values(destinations['Caller query routing'] ?? {})).toEqual([
      expect.objectContaining({ destination: `nethcqr,${ids.vip},1`, description: 'Customers' }),
    ]);
    flowsConf = fs.readFileSync(path.join(await waitApplied(), 'extensions.flows.conf'), 'utf8');
    expect(flowsConf).toContain(`[nethcqr]`);
    expect(flowsConf).toContain(`exten => ${ids.vip},1,NoOp(Caller query routing Customers)`);
    expect(flowsConf).toContain(`\${CURL(http://127.0.0.1:${t.config.port}${CQR_LOOKUP_PATH}/${ids.vip}?caller=`);
    // The token file is read where Asterisk does not write the result in its log (issue 38).
    expect(flowsConf).toContain(`%{FILE(${voicemailSttTokenPath(t.config.pbx.configDir)},0,43)}`);
    expect(flowsConf).not.toContain('${FILE(');
    // CURL waits for the console's timeout and two seconds more, then the default.
    expect(flowsConf).toContain('Set(CURLOPT(httptimeout)=4)');
  });

  it('routes a known caller by the query result, an unknown one or an unmatched value to the default', async () => {
    const res = await lookup(ids.vip, '0721555123');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.body).toBe('app-blackhole,busy,1');
    // Found, but 'other' is no entry's value: the default.
    expect((await lookup(ids.vip, '0721555999')).body).toBe('app-blackhole,hangup,1');
    // Nobody with that number: the default.
    expect((await lookup(ids.vip, '0612345678')).body).toBe('app-blackhole,hangup,1');
    // A direct extension is answered as Goto() reaches it.
    expect((await call('POST', '/api/configuration/mode', { mode: 'legacy' })).statusCode).toBe(200);
    for (let i = 0; i < 100 && (await call('GET', '/api/configuration/userprovider')).json().configured !== 1; i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    const user = await call('POST', '/api/users', { username: 'cqruser', fullname: 'Cqr User' });
    expect(user.statusCode, user.body).toBe(201);
    const ext = await call('POST', '/api/mainextensions', { username: 'cqruser', extension: '231' });
    expect(ext.statusCode, ext.body).toBe(201);
    const body = { ...vip(), entries: [{ value: 'company', destination: 'from-did-direct,231,1' }] };
    expect((await call('PUT', `/api/cqr/${ids.vip}`, body)).statusCode).toBe(204);
    expect((await lookup(ids.vip, '0721555123')).body).toBe('ext-local,231,1');
    expect((await call('PUT', `/api/cqr/${ids.vip}`, vip())).statusCode).toBe(204);
  });

  it('falls to the default when the query takes longer than the timeout or fails', async () => {
    const slow = {
      ...vip(),
      name: 'Slow',
      timeout: 1,
      query:
        kind === 'postgres'
          ? "select 'company' from (select count(*) from generate_series(1, 100000) a, generate_series(1, 100000) b) x"
          : "with recursive n(x) as (select 1 union all select x + 1 from n) select 'company' from n where x = 0",
    };
    const res = await call('POST', '/api/cqr', slow);
    expect(res.statusCode, res.body).toBe(200);
    ids.slow = (res.json() as { id: number }).id;
    const started = Date.now();
    expect((await lookup(ids.slow, '0721555123')).body).toBe('app-blackhole,hangup,1');
    expect(Date.now() - started).toBeLessThan(3_000);
    // A query the runner refuses (it writes) is an error: the default too.
    const failing = { ...vip(), name: 'Failing', query: 'delete from cdr' };
    const failingId = ((await call('POST', '/api/cqr', failing)).json() as { id: number }).id;
    expect((await lookup(failingId, '0721555123')).body).toBe('app-blackhole,hangup,1');
    expect((await call('DELETE', `/api/cqr/${failingId}`)).statusCode).toBe(204);
  }, 20_000);

  it('refuses the lookup without the token, from elsewhere than loopback, and for a missing CQR', async () => {
    expect((await lookup(ids.vip, '0721555123', '')).statusCode).toBe(401);
    expect((await lookup(ids.vip, '0721555123', 'Bearer wrong')).statusCode).toBe(401);
    expect([401, 403]).toContain((await lookup(ids.vip, '0721555123', `Bearer ${token}`, '10.0.0.5')).statusCode);
    expect((await lookup(999_999, '0721555123')).statusCode).toBe(404);
  });

  it('refuses a missing source or destination and a bad timeout, changing nothing', async () => {
    const before = (await call('GET', '/api/cqr')).json();
    const noSource = expectError(await call('POST', '/api/cqr', { ...vip(9999), name: 'X' }), 400, 'validation');
    expect(Object.keys(noSource.fields ?? {})).toEqual(['source_id']);
    const noDest = expectError(
      await call('POST', '/api/cqr', { ...vip(), name: 'Y', default_dest: 'ivr-999,s,1' }),
      400,
      'validation',
    );
    expect(Object.keys(noDest.fields ?? {})).toEqual(['default_dest']);
    const badEntry = expectError(
      await call('POST', '/api/cqr', {
        ...vip(),
        name: 'Z',
        entries: [{ value: 'x', destination: 'timeconditions,999,1' }],
      }),
      400,
      'validation',
    );
    expect(Object.keys(badEntry.fields ?? {})).toEqual(['entries.0.destination']);
    expectError(await call('POST', '/api/cqr', { ...vip(), name: 'T', timeout: 0 }), 400, 'validation');
    expectError(await call('POST', '/api/cqr', { ...vip(), name: 'T', timeout: 60 }), 400, 'validation');
    expectError(await call('POST', '/api/cqr', vip()), 409, 'flow_exists');
    expect((await call('GET', '/api/cqr')).json()).toEqual(before);
  });

  it('refuses a flow that would never end through a CQR', async () => {
    // Slow's default to itself: its entries end, but the default would loop.
    const res = await call('PUT', `/api/cqr/${ids.slow}`, {
      ...vip(),
      name: 'Slow',
      default_dest: `nethcqr,${ids.slow},1`,
    });
    expectError(res, 400, 'flow_loop');
  });

  it('refuses to delete a CQR in use or its source, naming the users; deletes it once free', async () => {
    const route = await call('POST', '/api/inboundroutes', {
      extension: '0721000111',
      cidnum: '',
      description: 'Main',
      destination: `nethcqr,${ids.vip},1`,
    });
    expect(route.statusCode, route.body).toBeLessThan(300);
    const ann = await call('POST', '/api/announcements', {
      description: 'Welcome',
      recording_id: null,
      post_dest: `nethcqr,${ids.vip},1`,
    });
    expect(ann.statusCode, ann.body).toBe(200);
    ids.announcement = (ann.json() as { id: number }).id;
    const refused = expectError(await call('DELETE', `/api/cqr/${ids.vip}`), 409, 'flow_in_use');
    expect(refused.detail).toMatch(/announcement Welcome/);
    expect(refused.detail).toMatch(/inbound route 0721000111/);
    const source = await call('POST', '/api/cti/dbconn', {
      type: 'postgres',
      host: '127.0.0.1',
      port: 5432,
      user: 'postgres',
      name: 'postgres',
    });
    expect(source.statusCode, source.body).toBe(200);
    const sourceId = Number((source.json() as { id: number }).id);
    expect((await call('PUT', `/api/cqr/${ids.slow}`, { ...vip(sourceId), name: 'Slow' })).statusCode).toBe(204);
    const inUse = expectError(await call('DELETE', `/api/cti/dbconn/${sourceId}`), 409, 'card_source_in_use');
    expect(inUse.detail).toMatch(/caller query routings 'Slow'/);
    expect((await call('DELETE', `/api/announcements/${ids.announcement}`)).statusCode).toBe(204);
    const gone = await call('POST', '/api/inboundroutes/delete', { extension: '0721000111', cid: '' });
    expect(gone.statusCode, gone.body).toBeLessThan(300);
    expect((await call('DELETE', `/api/cqr/${ids.vip}`)).statusCode).toBe(204);
    expect(((await call('GET', '/api/cqr')).json() as Cqr[]).map((c) => c.name)).toEqual(['Slow']);
  });
});
