import { describe, expect, it } from 'vitest';
import { DB_KINDS, expectError, useTestApp } from './helpers.ts';

describe.each(DB_KINDS)('phonebook LDAP services for phones (%s)', (kind) => {
  const t = useTestApp(kind);

  const get = async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/phonebook/ldap', headers: t.headers });
    expect(res.statusCode).toBe(200);
    return res.json();
  };
  const post = (url: string) => t.app.inject({ method: 'POST', url, headers: t.headers });

  it('answers both services, switched off, with the values phones connect with', async () => {
    const body = await get();
    expect(body.ldaps).toMatchObject({
      enabled: false,
      server: t.app.provisioning.serverHost,
      port: '10636',
      tls: 'ldaps',
      user: 'cn=ldapuser,dc=phonebook,dc=nh',
      base: 'dc=phonebook,dc=nh',
      number_filter: '(|(telephoneNumber=%)(mobile=%)(homePhone=%))',
    });
    expect(body.ldaps.password).toMatch(/^\S{12,}$/);
    expect(body.ldap).toMatchObject({ enabled: false, port: '10389', tls: 'none', user: '', password: '' });
    // The generated bind password stays the same from one call to the next.
    expect((await get()).ldaps.password).toBe(body.ldaps.password);
  });

  it('switches one service on and off without touching the other', async () => {
    const on = await post('/api/phonebook/ldaps/status/enabled');
    expect(on.statusCode).toBe(200);
    expect(on.json()).toEqual({ status: true });
    expect((await get()).ldaps.enabled).toBe(true);
    expect((await get()).ldap.enabled).toBe(false);
    expect((await post('/api/phonebook/ldap/status/enabled')).statusCode).toBe(200);
    expect((await post('/api/phonebook/ldaps/status/disabled')).statusCode).toBe(200);
    const after = await get();
    expect([after.ldap.enabled, after.ldaps.enabled]).toEqual([true, false]);
  });

  it.each([
    ['an unknown service', '/api/phonebook/externalldap/status/enabled'],
    ['an unknown state', '/api/phonebook/ldaps/status/on'],
  ])('refuses %s with 400 and changes nothing', async (_case, url) => {
    const before = await get();
    expectError(await post(url), 400, 'validation');
    expect(await get()).toEqual(before);
  });

  it('needs a key', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/phonebook/ldaps/status/enabled' });
    expect(res.statusCode).toBe(401);
  });
});
