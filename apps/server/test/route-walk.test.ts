import type { HTTPMethods, RouteOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { DB_KINDS, expectError, useTestApp } from './helpers.ts';

/**
 * The only /api routes that answer without a key. Keep this list short and literal: a new public
 * route must be added here on purpose.
 */
const PUBLIC_API_ROUTES = [
  'POST /api/login',
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

interface Route {
  method: string;
  url: string;
  public: boolean;
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
      for (const method of methods) routes.push({ method, url: route.url, public: route.config?.public === true });
    },
  });
  const apiRoutes = () => routes.filter((r) => r.url === '/api' || r.url.startsWith('/api/'));
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
    ]) {
      expect(names).toContain(expected);
    }
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
  });

  it('lets the same routes through with a valid key', async () => {
    for (const route of protectedRoutes()) {
      if (route.method === 'POST') continue; // bodies differ; the feature tests cover them
      if (route.url === '/api/logout') continue; // would revoke the key
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
        ...(method === 'POST' ? { payload: { username: 'admin', password: 'wrong-password' } } : {}),
      });
      // Each entry is a real route that answers: 2xx/3xx, or the login's own refusal.
      if (entry === 'POST /api/login') expectError(res, 401, 'login_failed');
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

  it('answers an unknown /api path with 401 without a key and 404 with one', async () => {
    const { headers } = t;
    for (const url of ['/api/unknown', '/api/configuration/unknown/deeper', '/api', '/%61pi/unknown']) {
      expectError(await t.app.inject({ method: 'GET', url }), 401, 'unauthorized');
      expectError(await t.app.inject({ method: 'DELETE', url }), 401, 'unauthorized');
      expectError(await t.app.inject({ method: 'GET', url, headers }), 404, 'not_found');
    }
    // A known path with an unknown method is no different.
    expectError(await t.app.inject({ method: 'DELETE', url: '/api/configuration/wizard' }), 401, 'unauthorized');
    expectError(await t.app.inject({ method: 'DELETE', url: '/api/configuration/wizard', headers }), 404, 'not_found');
  });
});
