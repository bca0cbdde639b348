import type { HTTPMethods, RouteOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { isProtectedPath } from '../src/plugins/auth.ts';
import { DB_KINDS, expectError, login, useTestApp } from './helpers.ts';
import { PATTON_GATEWAY } from './support/gateway.ts';

/**
 * The only /api routes that answer without a key. Keep this list short and literal: a new public
 * route must be added here on purpose.
 */
const PUBLIC_API_ROUTES = [
  'POST /api/login',
  // The second sign-in step: its challenge token (from a right password) is its credential.
  'POST /api/login/code',
  'GET /api/health',
  'HEAD /api/health',
  // The API documentation page and its static assets (the document itself, /api/docs/json, is not public).
  'GET /api/docs',
  'GET /api/docs/',
  'GET /api/docs/static/index.html',
  'GET /api/docs/static/swagger-initializer.js',
  'GET /api/docs/static/theme/console-credentials.js',
  'GET /api/docs/static/*',
];

/**
 * Routes outside /api that declare `config.public`: the files phones fetch, where the token in the path
 * is the credential (and the connectivity probe). Every other public route must be listed above.
 */
const PUBLIC_PHONE_ROUTES = [
  'GET /provisioning/check/ping',
  'HEAD /provisioning/check/ping',
  'GET /provisioning/:token/:filetype/:filename',
  'HEAD /provisioning/:token/:filetype/:filename',
  'GET /provisioning/:token/:filename',
  'HEAD /provisioning/:token/:filename',
  'GET /provisioning/:filename',
  'HEAD /provisioning/:filename',
];

/**
 * GET routes whose purpose is to show a secret to the administrator, with the reason. Lists carry no
 * secrets: a new list answering one fails the walk below, and a new secret-showing call is added here on
 * purpose. A read-only account never reads one (issue 37): a route that exists for the credential is refused to
 * it (its `config.credentials`), a report that shows credentials beside other data answers it with them blanked
 * (read-only-secrets.test.ts plants a marker in every credential and walks every GET).
 */
const SECRET_SHOWING_ROUTES: Record<string, { reason: string; readOnly: 'refused' | 'blanked' }> = {
  'GET /api/backup': { reason: 'a whole backup: database, keys and passwords', readOnly: 'refused' },
  'GET /api/final': {
    reason: 'the final report: users with their directory password and voicemail PIN, to hand out',
    readOnly: 'blanked',
  },
  'GET /api/csv/csvexport': {
    reason: 'the CSV export, a backup the administrator re-imports (passwords included)',
    readOnly: 'blanked',
  },
  'GET /api/users/:username/password': { reason: "one user's password, shown on request", readOnly: 'refused' },
  'GET /api/phones/account/:mac': {
    reason: "the account one phone is linked to, with its SIP secret (the older API's call)",
    readOnly: 'blanked',
  },
  'GET /api/extensions/:extension/credentials': {
    reason: "one device's SIP secret and web login, for its information",
    readOnly: 'refused',
  },
  'GET /api/phonebook/config/:id/password': {
    reason: "one phonebook source's database password, for the card's Show (spec)",
    readOnly: 'refused',
  },
  'GET /api/phonebook/ldap': {
    reason: "the PBX's own LDAP phonebook login, which the phone defaults copy into every phone's ldap_password",
    readOnly: 'blanked',
  },
};

/** Field names that hold a secret. `has_password` (a boolean) and key types are not secrets. */
/** Event streams never end, so inject cannot read them: dashboard.test.ts checks them over a socket. */
const EVENT_STREAMS = new Set(['/api/dashboard/events']);

const SECRET_FIELD = /pass(word)?|secret|pwd|(^|_)pin$|(^|_)key$/i;

/** Paths of every string-valued field named like a secret, anywhere in an answer. */
function secretFields(value: unknown, at = '$'): string[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => secretFields(item, `${at}[${i}]`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, inner]) => [
    // The audit log shows that a secret changed as "[redacted]", never the secret: not one.
    ...(SECRET_FIELD.test(key) && typeof inner === 'string' && inner !== '[redacted]' ? [`${at}.${key}`] : []),
    ...secretFields(inner, `${at}.${key}`),
  ]);
}

/** A list answer: an array, a paged object holding one, or a map of records keyed by id. */
function isList(body: unknown): boolean {
  if (Array.isArray(body)) return true;
  if (body === null || typeof body !== 'object') return false;
  const values = Object.values(body);
  return (
    values.some(Array.isArray) ||
    (values.length >= 2 && values.every((v) => v !== null && typeof v === 'object' && !Array.isArray(v)))
  );
}

/** Path parameters that reach the seeded data. */
const SEEDED_PARAMS: Record<string, string> = {
  arg: 'false',
  username: 'alice',
  extension: '201',
  mainextension: '201',
  mac: '00-15-65-AA-BB-CC',
  networkhash: 'x',
};

interface Route {
  method: string;
  url: string;
  public: boolean;
  /** The route hands out a credential: administrators only. */
  credentials: boolean;
}

/** Replaces :params and wildcards with dummy values. */
function concrete(url: string): string {
  return url.replace(/:[A-Za-z_]\w*/g, 'dummy1').replace(/\*/g, 'dummy.txt');
}

describe.each(DB_KINDS)('every /api route requires a key (%s)', (kind) => {
  const routes: Route[] = [];
  const t = useTestApp(kind, {
    onRoute: (route: RouteOptions) => {
      const methods = ([] as HTTPMethods[]).concat(route.method);
      for (const method of methods) {
        routes.push({
          method,
          url: route.url,
          public: route.config?.public === true,
          credentials: route.config?.credentials !== undefined,
        });
      }
    },
  });
  // The API and the original product's paths kept for existing clients (/tancredi/api/v1, /freepbx/rest).
  const apiRoutes = () => routes.filter((r) => isProtectedPath(r.url));
  const protectedRoutes = () => apiRoutes().filter((r) => !PUBLIC_API_ROUTES.includes(`${r.method} ${r.url}`));

  it('collects the route table', () => {
    const names = apiRoutes().map((r) => `${r.method} ${r.url}`);
    for (const expected of [
      'GET /api/login',
      'GET /api/logout',
      'GET /api/configuration/wizard',
      'POST /api/configuration/wizard',
      'GET /api/provisioning/engine',
      'GET /api/settings/languages',
      'POST /api/settings/language',
      'POST /api/settings/defaultlanguage',
      'GET /api/docs/json',
      'GET /api/cti/customer_card',
      'PUT /api/cti/customer_card/:id',
      'DELETE /api/cti/customer_card/template/:name',
      'POST /api/custcard/preview',
      // The original's paths, kept for existing clients and scripts.
      'GET /tancredi/api/v1/phones',
      'PATCH /tancredi/api/v1/models/:name',
      'GET /freepbx/rest/lib/macAddressMap.json',
    ]) {
      expect(names).toContain(expected);
    }
    // The whole engine API is at both paths.
    const engine = names.filter((n) => n.includes(' /api/provisioning/v1/'));
    expect(engine.length).toBeGreaterThanOrEqual(15);
    for (const name of engine) expect(names).toContain(name.replace('/api/provisioning/v1/', '/tancredi/api/v1/'));
  });

  it('answers 401 with the error shape to every other /api route without headers or with a wrong key', async () => {
    const badHeaders: Record<string, Record<string, string>> = {
      'no headers': {},
      'a wrong key': { User: 'admin', Secretkey: 'wrong-key' },
      'a valid key for another user': { User: 'someone', Secretkey: t.headers.secretkey },
      'a valid key without user': { Secretkey: t.headers.secretkey },
    };
    const checked: string[] = [];
    for (const route of protectedRoutes()) {
      const url = concrete(route.url);
      // The raw URL must not matter: the router decodes /%61pi/... to /api/...
      for (const variant of [url, url.replace('/api/', '/%61pi/'), `${url}?x=1`]) {
        for (const [label, hdrs] of Object.entries(badHeaders)) {
          const res = await t.app.inject({
            method: route.method as HTTPMethods,
            url: variant,
            headers: hdrs,
            ...(route.method === 'POST' ? { payload: {} } : {}),
          });
          const what = `${route.method} ${variant} with ${label}`;
          expect(res.statusCode, what).toBe(401);
          if (route.method !== 'HEAD') {
            expect(res.json(), what).toMatchObject({ code: 'unauthorized' });
            expectError(res, 401, 'unauthorized');
          }
        }
      }
      checked.push(`${route.method} ${route.url}`);
    }
    expect(checked.length).toBeGreaterThanOrEqual(10);
    // The original's paths are among those checked.
    expect(checked).toContain('GET /tancredi/api/v1/phones');
    expect(checked).toContain('GET /freepbx/rest/lib/macAddressMap.json');
    // The voicemail mail command's loopback call has a credential of its own (its token), not none.
    expect(checked).toContain('POST /api/internal/voicemail-transcription');
    // So has the call after a recording from a phone (*77).
    expect(checked).toContain('POST /api/internal/phone-recording');
    // And the caller query routing's call-time lookup.
    expect(checked).toContain('GET /api/internal/cqr/:id');
    // And the call recording player's signed link.
    expect(checked).toContain('GET /api/call-recordings/play/:id');
    // Twelve requests a route, a few hundred routes: more than the default time on a busy machine.
  }, 120_000);

  it('lets the same routes through with a valid key', async () => {
    for (const route of protectedRoutes()) {
      if (route.method === 'POST') continue; // bodies differ; the feature tests cover them
      if (route.url === '/api/logout') continue; // would revoke the key
      // Asterisk's loopback calls take their own token, not a console key (cqr.test.ts checks it).
      if (route.url.startsWith('/api/internal/')) continue;
      // The call recording player's link is its own credential (call-recordings.test.ts checks it).
      if (route.url === '/api/call-recordings/play/:id') continue;
      if (EVENT_STREAMS.has(route.url)) continue;
      const res = await t.app.inject({
        method: route.method as HTTPMethods,
        url: concrete(route.url),
        headers: t.headers,
      });
      expect(res.statusCode, `${route.method} ${route.url}`).not.toBe(401);
    }
  });

  it('answers the public routes without a key', async () => {
    for (const entry of PUBLIC_API_ROUTES) {
      const [method, url] = entry.split(' ') as [HTTPMethods, string];
      const res = await t.app.inject({
        method,
        url: url.replace('*', 'swagger-ui.css'),
        ...(method === 'POST'
          ? { payload: { username: 'admin', password: 'wrong-password', challenge: 'unknown', code: '123456' } }
          : {}),
      });
      // Each entry is a real route that answers: 2xx/3xx, or the login's own refusal.
      if (entry === 'POST /api/login' || entry === 'POST /api/login/code') expectError(res, 401, 'login_failed');
      else expect(res.statusCode, entry).toBeLessThan(400);
    }
  });

  it('lists every route that declares itself public', () => {
    const declared = routes.filter((r) => r.public).map((r) => `${r.method} ${r.url}`);
    for (const entry of declared) {
      expect([...PUBLIC_API_ROUTES, ...PUBLIC_PHONE_ROUTES], entry).toContain(entry);
    }
    for (const entry of PUBLIC_PHONE_ROUTES) expect(declared, entry).toContain(entry);
  });

  it('answers the phone routes without a key, with a plain 404 for an unknown token', async () => {
    for (const entry of PUBLIC_PHONE_ROUTES) {
      const [method, url] = entry.split(' ') as [HTTPMethods, string];
      const res = await t.app.inject({ method, url: concrete(url) });
      if (url === '/provisioning/check/ping') expect(res.statusCode, entry).toBe(200);
      else expect(res.statusCode, entry).toBe(404);
    }
  });

  it('spots secret fields at any depth, and allow-lists only real routes', () => {
    const user = { username: 'a', has_password: true, password: 'p', devices: [{ secret: 's', linekey_type: 'blf' }] };
    expect(secretFields([user, { web_password: null, voicemail_pin: '1234', api_key: 'k' }])).toEqual([
      '$[0].password',
      '$[0].devices[0].secret',
      '$[1].voicemail_pin',
      '$[1].api_key',
    ]);
    const names = apiRoutes().map((r) => `${r.method} ${r.url}`);
    for (const entry of Object.keys(SECRET_SHOWING_ROUTES)) expect(names, entry).toContain(entry);
  });

  it('refuses every route that exists for a credential to a read-only key, and only those', async () => {
    const refused = routes.filter((r) => r.credentials && r.method === 'GET').map((r) => `${r.method} ${r.url}`);
    const expected = Object.entries(SECRET_SHOWING_ROUTES)
      .filter(([, entry]) => entry.readOnly === 'refused')
      .map(([name]) => name);
    expect(refused.sort()).toEqual(expected.sort());
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/admin/accounts',
      headers: t.headers,
      payload: { username: 'walker', password: 'walker-pass-1', role: 'readonly' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const reader = await login(t.app, 'walker', 'walker-pass-1');
    for (const name of refused) {
      const url = concrete(name.slice(name.indexOf(' ') + 1));
      for (const lang of ['en', 'it']) {
        const res = await t.app.inject({ method: 'GET', url, headers: { ...reader, 'accept-language': lang } });
        const body = expectError(res, 403, 'read_only');
        expect(body.detail, `${name} in ${lang}`).toMatch(
          lang === 'en' ? /only to administrators/ : /solo agli amministratori/,
        );
      }
      // An administrator is not refused.
      expect((await t.app.inject({ method: 'GET', url, headers: t.headers })).statusCode, name).not.toBe(403);
    }
  });

  it('answers no list with a secret in it (with users, devices, a phone, a trunk and a gateway stored)', async () => {
    const call = async (method: HTTPMethods, url: string, payload?: object) => {
      const res = await t.app.inject({ method, url, headers: t.headers, ...(payload ? { payload } : {}) });
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
      return res;
    };
    await call('POST', '/api/configuration/mode', { mode: 'legacy' });
    for (let i = 0; i < 100 && (await call('GET', '/api/configuration/userprovider')).json().configured !== 1; i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    for (const [username, fullname] of [
      ['alice', 'Alice Rossi'],
      ['bob', 'Bob Bianchi'],
    ]) {
      await call('POST', '/api/users', { username, fullname });
    }
    await call('POST', '/api/mainextensions', { username: 'alice', extension: '201' });
    await call('POST', '/api/mainextensions', { username: 'bob', extension: '202' });
    await call('POST', '/api/voicemails', { extension: '201', state: 'yes' });
    await call('POST', '/api/voicemails', { extension: '202', state: 'yes' });
    await call('POST', '/api/mobiles', { username: 'bob', mobile: '+39 333 1234567' });
    await call('POST', '/api/webrtc', { extension: '201' });
    await call('POST', '/api/mobileapp', { mainextension: '201' });
    await call('POST', '/api/provisioning/v1/phones', { mac: '00-15-65-AA-BB-CC', model: 'yealink-T46' });
    await call('POST', '/api/physicalextensions', { mac: '00-15-65-AA-BB-CC', model: 'yealink-T46' });
    await call('POST', '/api/physicalextensions', { mainextension: '201', mac: '00-15-65-AA-BB-CC' });
    await call('POST', '/api/physicalextensions/adminpw', { password: 'Ph0neAdminPw' });
    await call('POST', '/api/trunks', {
      provider: 'vivavox',
      name: 'vivavox',
      username: '0721123456',
      password: 's3cr3t!',
      phone: '0721123456',
      codecs: ['alaw'],
      forceCodec: true,
    });
    await call('POST', '/api/devices/gateways', {
      ...PATTON_GATEWAY,
      isConfigured: false,
      manufacturer: 'Patton',
    });
    // The seeded secrets are really stored, and shown by the calls meant for them.
    expect((await call('GET', '/api/users/alice/password')).json().result).toMatch(/^[a-zA-Z0-9]{8}$/);
    const phone = (await call('GET', '/api/users/false?search=alice'))
      .json()[0]
      .devices.find((d: { mac: string | null }) => d.mac !== null);
    expect((await call('GET', `/api/extensions/${phone.extension}/credentials`)).json()).toMatchObject({
      web_password: 'Ph0neAdminPw',
    });

    const lists: string[] = [];
    for (const route of protectedRoutes()) {
      const name = `${route.method} ${route.url}`;
      if (route.method !== 'GET' || name in SECRET_SHOWING_ROUTES) continue;
      if (route.url === '/api/logout') continue; // would revoke the key
      if (route.url.startsWith('/api/docs')) continue; // the OpenAPI document names fields, it holds no data
      if (EVENT_STREAMS.has(route.url)) continue;
      const url = route.url
        .replace(/:([A-Za-z_]\w*)/g, (_, param: string) => SEEDED_PARAMS[param] ?? '1')
        .replace(/\*/g, 'dummy.txt');
      const res = await t.app.inject({ method: 'GET', url, headers: t.headers });
      if (res.statusCode !== 200 || !/json/.test(String(res.headers['content-type']))) continue;
      const body = res.json();
      if (!isList(body)) continue;
      lists.push(name);
      expect(secretFields(body), `${name} (${url})`).toEqual([]);
    }
    // The lists that hold the seeded secrets' owners are among those walked.
    for (const expected of [
      'GET /api/users/:arg',
      'GET /api/trunks',
      'GET /api/physicalextensions',
      // The older API's whole-system reads: mailboxes without their PINs.
      'GET /api/voicemails',
      'GET /api/mobiles',
      'GET /api/mainextensions',
      'GET /tancredi/api/v1/phones',
    ]) {
      expect(lists).toContain(expected);
    }
    // Paged and unpaged users lists alike.
    for (const url of ['/api/users/false', '/api/users/false?limit=1', '/api/users/true?limit=5']) {
      expect(secretFields((await call('GET', url)).json()), url).toEqual([]);
    }
  });

  it('answers an unknown /api path with 401 without a key and 404 with one', async () => {
    const { headers } = t;
    for (const url of [
      '/api/unknown',
      '/api/configuration/unknown/deeper',
      '/api',
      '/%61pi/unknown',
      '/tancredi/api/v1/unknown/deeper',
      '/freepbx/rest/unknown',
    ]) {
      expectError(await t.app.inject({ method: 'GET', url }), 401, 'unauthorized');
      expectError(await t.app.inject({ method: 'DELETE', url }), 401, 'unauthorized');
      expectError(await t.app.inject({ method: 'GET', url, headers }), 404, 'not_found');
    }
    // A known path with an unknown method is no different.
    expectError(await t.app.inject({ method: 'DELETE', url: '/api/configuration/wizard' }), 401, 'unauthorized');
    expectError(await t.app.inject({ method: 'DELETE', url: '/api/configuration/wizard', headers }), 404, 'not_found');
  });
});
