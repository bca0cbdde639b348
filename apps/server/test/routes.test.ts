import { defaultDialPatterns, routeKeys, routeLocales } from '@centralino/contract';
import { describe, expect, it } from 'vitest';
import { callAs, DB_KINDS, expectError, useTestApp } from './helpers.ts';

describe.each(DB_KINDS)('outbound routes (%s)', (kind) => {
  const t = useTestApp(kind);
  const call = callAs(t);
  const trunk = async (name: string) => {
    const res = await call('POST', '/api/trunks', {
      provider: 'vivavox',
      name,
      username: 'u',
      password: 'p',
      phone: '0721000000',
      codecs: ['alaw'],
      forceCodec: true,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().trunkid as number;
  };

  it('proposes the four routes of every language with every trunk', async () => {
    expect((await call('GET', '/api/outboundroutes')).json()).toEqual([]);
    const a = await trunk('line_a');
    const b = await trunk('line_b');
    const defaults = (await call('GET', '/api/outboundroutes/defaults')).json();
    expect(Object.keys(defaults)).toEqual([...routeLocales]);
    for (const locale of routeLocales) {
      expect(defaults[locale].map((r: { name: string }) => r.name)).toEqual(routeKeys.map((k) => `${k}_${locale}`));
      expect(defaults[locale][0].trunks).toEqual([
        { trunkid: a, name: 'line_a' },
        { trunkid: b, name: 'line_b' },
      ]);
    }
    expect((await call('GET', '/api/outboundroutes/supportedLocales')).json()).toEqual(['it', 'fr', 'es', 'de', 'en']);
  });

  it('refuses an unknown trunk, a duplicate name or two languages, and creates nothing', async () => {
    const defaults = (await call('GET', '/api/outboundroutes/defaults')).json();
    const bad = defaults.it.map((r: { name: string }) => ({ ...r, trunks: [{ trunkid: 999 }] }));
    expectError(await call('POST', '/api/outboundroutes', { it: bad }), 404, 'not_found');
    expectError(await call('POST', '/api/outboundroutes', { it: [defaults.it[0], defaults.it[0]] }), 409, 'validation');
    expectError(await call('POST', '/api/outboundroutes', { it: defaults.it, en: defaults.en }), 400, 'validation');
    expect((await call('GET', '/api/outboundroutes/count')).json()).toBe(0);
  });

  it('creates the Italian defaults with their dial patterns', async () => {
    const defaults = (await call('GET', '/api/outboundroutes/defaults')).json();
    expect((await call('POST', '/api/outboundroutes', { it: defaults.it })).statusCode).toBe(200);
    const routes = (await call('GET', '/api/outboundroutes')).json();
    expect(routes.map((r: { name: string }) => r.name)).toEqual([
      'national_it',
      'cellphone_it',
      'international_it',
      'toll_it',
    ]);
    const national = (await call('GET', `/api/outboundroutes/${routes[0].route_id}`)).json();
    expect(national.patterns).toHaveLength(defaultDialPatterns.it.filter((p) => p.key === 'national').length);
    expect(national.patterns[1]).toEqual({ prepend: '', prefix: '+39', match_pattern: '0ZXXX.', match_cid: '' });
  });

  it('saves priority and trunk order in one go, and a deleted trunk leaves every route', async () => {
    const routes = (await call('GET', '/api/outboundroutes')).json();
    const reordered = [...routes]
      .reverse()
      .map((r: { route_id: number; name: string; trunks: { trunkid: number }[] }) => ({
        route_id: r.route_id,
        name: r.name,
        trunks: [...r.trunks].reverse(),
      }));
    expect((await call('POST', '/api/outboundroutes', { it: reordered })).statusCode).toBe(200);
    const after = (await call('GET', '/api/outboundroutes')).json();
    expect(after.map((r: { name: string }) => r.name)).toEqual([
      'toll_it',
      'international_it',
      'cellphone_it',
      'national_it',
    ]);
    expect(after[0].trunks.map((x: { name: string }) => x.name)).toEqual(['line_b', 'line_a']);
    // An unknown trunk in an update changes nothing at all.
    const broken = reordered.map((r, i) => (i === 1 ? { ...r, trunks: [{ trunkid: 4242 }] } : { ...r, trunks: [] }));
    expectError(await call('POST', '/api/outboundroutes', { it: broken }), 404, 'not_found');
    expect((await call('GET', '/api/outboundroutes')).json()).toEqual(after);

    const lineB = after[0].trunks[0].trunkid;
    expect((await call('DELETE', `/api/trunks/${lineB}`)).statusCode).toBe(200);
    const left = (await call('GET', '/api/outboundroutes')).json();
    expect(left.every((r: { trunks: { name: string }[] }) => r.trunks.every((x) => x.name !== 'line_b'))).toBe(true);
    // The original console sends list positions (0 included): 200 with an empty body, nothing matched.
    for (const [route, trunk] of [
      [0, 0],
      [0, 1],
      [4242, left[0].trunks[0].trunkid],
    ]) {
      const res = await call('DELETE', `/api/outboundroutes/${route}/trunks/${trunk}`);
      expect(res.statusCode, `${route}/${trunk}`).toBe(200);
      expect(res.body, `${route}/${trunk}`).toBe('');
    }
    expect((await call('GET', '/api/outboundroutes')).json()).toEqual(left);
    const removed = await call('DELETE', `/api/outboundroutes/${left[0].route_id}/trunks/${left[0].trunks[0].trunkid}`);
    expect(removed.statusCode).toBe(200);
    expect(removed.body).toBe('');
    expect((await call('GET', '/api/outboundroutes')).json()[0].trunks).toEqual([]);
    expectError(await call('DELETE', '/api/outboundroutes/-1/trunks/x'), 400, 'validation');
  });

  it('adds, edits and deletes a route from the Advanced page, checking patterns', async () => {
    const route = {
      name: 'emergency',
      outcid: '0721000000',
      emergency: true,
      patterns: [{ prepend: '', prefix: '', match_pattern: '112', match_cid: '' }],
      trunks: [],
    };
    const created = await call('POST', '/api/outboundroutes/route', route);
    expect(created.statusCode, created.body).toBe(200);
    const id = created.json().route_id;
    expect((await call('GET', `/api/outboundroutes/${id}`)).json()).toMatchObject({ ...route, route_id: id });
    const bad = expectError(
      await call('PUT', `/api/outboundroutes/${id}`, {
        ...route,
        patterns: [{ ...route.patterns[0], match_pattern: '11A' }],
      }),
      400,
      'validation',
    );
    expect(Object.values(bad.fields ?? {})[0]).toBe("'A' is not allowed in a dial pattern");
    expectError(await call('POST', '/api/outboundroutes/route', { ...route }), 409, 'validation');
    expectError(await call('POST', '/api/outboundroutes/route', { ...route, name: '' }), 400, 'validation');
    expect((await call('PUT', `/api/outboundroutes/${id}`, { ...route, emergency: false })).statusCode).toBe(200);
    expect((await call('GET', `/api/outboundroutes/${id}`)).json().emergency).toBe(false);
    expect((await call('DELETE', `/api/outboundroutes/${id}`)).statusCode).toBe(200);
    expectError(await call('GET', `/api/outboundroutes/${id}`), 404, 'not_found');
  });
});

describe.each(DB_KINDS)('inbound routes (%s)', (kind) => {
  const t = useTestApp(kind);
  const call = callAs(t);

  it('lists destinations: hang up, extensions, voicemail and groups', async () => {
    expect((await call('POST', '/api/configuration/mode', { mode: 'legacy' })).statusCode).toBe(200);
    for (let i = 0; i < 100 && (await call('GET', '/api/configuration/userprovider')).json().configured !== 1; i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    await call('POST', '/api/users', { username: 'mario', fullname: 'Mario Rossi' });
    await call('POST', '/api/mainextensions', { username: 'mario', extension: '201' });
    await call('POST', '/api/cti/groups', { name: 'Sales' });
    const { destinations, routes } = (await call('GET', '/api/inboundroutes')).json();
    expect(routes).toEqual([]);
    expect(destinations['app-blackhole,hangup,1']).toMatchObject({ category: 'Terminate Call' });
    expect(destinations['from-did-direct,201,1']).toEqual({
      destination: 'from-did-direct,201,1',
      description: '201 Mario Rossi',
      category: 'Extensions',
    });
    expect(Object.values(destinations).some((d) => (d as { category: string }).category === 'Groups')).toBe(true);
  });

  it('creates, refuses duplicates and bad input, edits and deletes', async () => {
    const route = {
      extension: '0721405516',
      cidnum: '',
      description: 'Main number',
      destination: 'from-did-direct,201,1',
    };
    expect((await call('POST', '/api/inboundroutes', route)).statusCode).toBe(200);
    expectError(await call('POST', '/api/inboundroutes', route), 409, 'validation');
    expectError(await call('POST', '/api/inboundroutes', { ...route, extension: '07214O5516' }), 400, 'validation');
    expectError(
      await call('POST', '/api/inboundroutes', { ...route, cidnum: '333', destination: 'nowhere,1,1' }),
      400,
      'validation',
    );
    // Same DID from one caller is a different route.
    expect(
      (
        await call('POST', '/api/inboundroutes', {
          ...route,
          cidnum: '3331234567',
          destination: 'app-blackhole,hangup,1',
        })
      ).statusCode,
    ).toBe(200);
    expect((await call('GET', '/api/inboundroutes/count')).json()).toBe(2);
    expect(
      (
        await call('PUT', '/api/inboundroutes', {
          ...route,
          description: 'Reception',
          old: { extension: route.extension, cidnum: '' },
        })
      ).statusCode,
    ).toBe(200);
    expect((await call('GET', '/api/inboundroutes')).json().routes[0]).toMatchObject({ description: 'Reception' });
    expect(
      (await call('POST', '/api/inboundroutes/delete', { extension: '0721405516', cid: '3331234567' })).statusCode,
    ).toBe(200);
    expectError(
      await call('POST', '/api/inboundroutes/delete', { extension: '0721405516', cid: '3331234567' }),
      404,
      'not_found',
    );
    expect((await call('GET', '/api/inboundroutes/count')).json()).toBe(1);
  });
});
