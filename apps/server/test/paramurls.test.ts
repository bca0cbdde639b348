import { describe, expect, it } from 'vitest';
import { callAs, DB_KINDS, expectError, useTestApp } from './helpers.ts';

// `profiles` is the contract's comma-separated string of profile ids (api-admin §8.1), which the original console splits.
type ParamUrl = { id: number; url: string; profiles: string; only_queues: boolean };
const ids = (u: ParamUrl) => (u.profiles === '' ? [] : u.profiles.split(',').map(Number));

const CRM = 'https://crm.example/call?cnumber=$CALLER_NUMBER&cname=$CALLER_NAME&dest=$CALLED&callid=$UNIQUEID';

describe.each(DB_KINDS)('parameterised URLs (%s)', (kind) => {
  const t = useTestApp(kind);
  const call = callAs(t);
  const list = async () => {
    const res = await call('GET', '/api/cti/paramurls');
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as ParamUrl[];
  };
  const newProfile = async (name: string) => {
    const template = (await call('GET', '/api/cti/permissions')).json();
    const res = await call('POST', '/api/cti/profiles', { name, macro_permissions: template });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { id: number }).id;
  };

  it('needs a signed-in administrator', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/cti/paramurls' });
    expectError(res, 401, 'unauthorized');
    const write = await t.app.inject({
      method: 'POST',
      url: '/api/cti/paramurl',
      payload: { url: CRM, profiles: [1] },
    });
    expectError(write, 401, 'unauthorized');
  });

  it('starts empty, creates a URL with its profiles and flag, and lists it with profiles comma-separated', async () => {
    expect(await list()).toEqual([]);
    const res = await call('POST', '/api/cti/paramurl', { url: CRM, profiles: ['2', 1], only_queues: true });
    expect(res.statusCode, res.body).toBe(200);
    const { id } = res.json() as { id: number };
    expect(await list()).toEqual([{ id, url: CRM, profiles: '1,2', only_queues: true }]);
  });

  it('refuses a profile that already has a URL, in the caller language, and changes nothing', async () => {
    const before = await list();
    const res = await call(
      'POST',
      '/api/cti/paramurl',
      { url: 'https://other.example/?n=$CALLER_NUMBER', profiles: [2, 3] },
      { 'accept-language': 'it' },
    );
    const body = expectError(res, 409, 'paramurl_profile_taken');
    expect(body.detail).toContain('Standard');
    expect(body.detail).toMatch(/un solo URL/);
    expect(await list()).toEqual(before);
  });

  it('refuses what is not an http(s) URL, an empty profile list and unknown profiles', async () => {
    const before = await list();
    for (const url of [
      '',
      'ftp://crm.example/x',
      'javascript:alert(1)',
      'file:///etc/passwd',
      'https://a b.example/',
    ]) {
      const res = await call('POST', '/api/cti/paramurl', { url, profiles: [3] });
      const body = expectError(res, 400, 'validation');
      expect(body.fields?.url, url).toBeTruthy();
    }
    const it = await call('POST', '/api/cti/paramurl', { url: 'ftp://x', profiles: [3] }, { 'accept-language': 'it' });
    expect(expectError(it, 400, 'validation').fields?.url).toBe('Sono accettati solo URL http:// e https://');
    expect(
      expectError(await call('POST', '/api/cti/paramurl', { url: CRM, profiles: [] }), 400, 'validation').fields,
    ).toHaveProperty('profiles');
    expectError(
      await call('POST', '/api/cti/paramurl', { url: 'https://x.example/', profiles: [999] }),
      422,
      'cti_profile_unknown',
    );
    expect(await list()).toEqual(before);
  });

  it('modifies a URL: new text and profiles replace the old ones, leaving no row of a removed profile behind', async () => {
    const existing = (await list())[0] as ParamUrl;
    const third = await newProfile('Reception');
    const changed = 'http://crm.example/v2?n=$CALLER_NUMBER';
    const res = await call('PUT', `/api/cti/paramurl/${existing.id}`, {
      id: String(existing.id),
      url: changed,
      profiles: [2, third],
      only_queues: false,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await list()).toEqual([{ id: existing.id, url: changed, profiles: `2,${third}`, only_queues: false }]);
    // Profile 1, removed from the URL, is free again for another one.
    const other = await call('POST', '/api/cti/paramurl', { url: CRM, profiles: [1] });
    expect(other.statusCode, other.body).toBe(200);
    // Its own profiles stay selectable while editing; another URL's are refused.
    expectError(
      await call('PUT', `/api/cti/paramurl/${existing.id}`, { url: changed, profiles: [1, 2] }),
      409,
      'paramurl_profile_taken',
    );
    expectError(
      await call('PUT', `/api/cti/paramurl/${existing.id}`, { url: CRM, profiles: [2] }),
      409,
      'paramurl_exists',
    );
    expectError(await call('PUT', '/api/cti/paramurl/9999', { url: changed, profiles: [3] }), 404, 'not_found');
  });

  it('drops the link of a deleted profile (the original left it behind)', async () => {
    const reception = (await list()).flatMap(ids).find((p) => p > 3) as number;
    const res = await call('DELETE', `/api/cti/profiles/${reception}`);
    expect(res.statusCode, res.body).toBe(200);
    expect((await list()).flatMap(ids)).not.toContain(reception);
  });

  it('deletes by id and by the original form (the URL text)', async () => {
    const urls = await list();
    expect(urls).toHaveLength(2);
    const byText = urls.find((u) => u.url === CRM) as ParamUrl;
    const res = await call('POST', '/api/cti/paramurl/delete', { url: CRM, profiles: ['1'] });
    expect(res.statusCode, res.body).toBe(200);
    expect((await list()).map((u) => u.id)).not.toContain(byText.id);
    const rest = (await list())[0] as ParamUrl;
    expect((await call('DELETE', `/api/cti/paramurl/${rest.id}`)).statusCode).toBe(200);
    expect(await list()).toEqual([]);
    expectError(await call('DELETE', `/api/cti/paramurl/${rest.id}`), 404, 'not_found');
    expectError(await call('POST', '/api/cti/paramurl/delete', { url: CRM }), 404, 'not_found');
  });
});
