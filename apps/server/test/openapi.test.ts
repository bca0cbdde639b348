import { describe, expect, it } from 'vitest';
import { DB_KINDS, expectError, useTestApp } from './helpers.ts';

describe.each(DB_KINDS)('OpenAPI document (%s)', (kind) => {
  const t = useTestApp(kind);

  it('is served to a signed-in caller and lists the API', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json', headers: t.headers });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.info.title).toBe('Centralino API');
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/configuration/wizard',
        '/api/login',
        '/api/logout',
        '/api/provisioning/engine',
        '/api/settings/languages',
        '/api/health',
        '/api/cti/customer_card',
        '/api/cti/customer_card/template',
        '/api/custcard/preview',
      ]),
    );
    expect(Object.keys(doc.paths['/api/configuration/wizard'])).toEqual(expect.arrayContaining(['get', 'post']));
    expect(doc.paths['/api/login'].post.requestBody).toBeDefined();
    // The documentation routes themselves are hidden.
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/api/docs'))).toEqual([]);
    expect(doc.components.securitySchemes).toMatchObject({
      user: { type: 'apiKey', in: 'header', name: 'User' },
      secretkey: { type: 'apiKey', in: 'header', name: 'Secretkey' },
    });
  });

  it('is refused without a key', async () => {
    expectError(await t.app.inject({ method: 'GET', url: '/api/docs/json' }), 401, 'unauthorized');
    expectError(await t.app.inject({ method: 'GET', url: '/api/docs/yaml' }), 401, 'unauthorized');
  });

  it('has a public documentation page', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect([200, 301, 302, 303, 307, 308]).toContain(res.statusCode);
    if (res.statusCode === 200) {
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.body).toContain('swagger');
      expect(res.body).toContain('console-credentials.js');
    }
    const script = await t.app.inject({ method: 'GET', url: '/api/docs/static/theme/console-credentials.js' });
    expect(script.statusCode).toBe(200);
    expect(script.body).toContain('Secretkey');
  });
});
