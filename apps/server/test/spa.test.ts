import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { DB_KINDS, expectError, useTestApp } from './helpers.ts';

const INDEX_HTML = '<!doctype html><html><body><div id="root">centralino-spa-index</div></body></html>';
const APP_JS = 'console.log("centralino-spa-asset");';

function makeWebDist(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'centralino-web-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(path.join(dir, 'index.html'), INDEX_HTML);
  fs.writeFileSync(path.join(dir, 'assets', 'app.js'), APP_JS);
  fs.writeFileSync(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  // As the web build writes them (apps/web/precompress.ts).
  for (const file of ['index.html', 'assets/app.js']) {
    const raw = fs.readFileSync(path.join(dir, file));
    fs.writeFileSync(path.join(dir, `${file}.br`), zlib.brotliCompressSync(raw));
    fs.writeFileSync(path.join(dir, `${file}.gz`), zlib.gzipSync(raw, { level: 9 }));
  }
  return dir;
}

describe.each(DB_KINDS)('web app serving (%s)', (kind) => {
  const webDist = makeWebDist();
  afterAll(() => fs.rmSync(webDist, { recursive: true, force: true }));
  const t = useTestApp(kind, { env: { WEB_DIST_DIR: webDist } });

  it.each(['/', '/some/deep/path', '/users', '/devices/inventory?x=1', '/login'])(
    'answers index.html to %s, never cached',
    async (url) => {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toBe(INDEX_HTML);
    },
  );

  it('serves assets as files, cached for good', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/assets/app.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toContain('immutable');
    expect(res.body).toBe(APP_JS);
    const icon = await t.app.inject({ method: 'GET', url: '/favicon.svg' });
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['cache-control']).toBe('no-cache');
  });

  it.each([
    ['br, gzip', 'br'],
    ['gzip', 'gzip'],
  ])('sends the precompressed copy to a browser accepting %s', async (accepted, encoding) => {
    const decode = encoding === 'br' ? zlib.brotliDecompressSync : zlib.gunzipSync;
    const asset = await t.app.inject({
      method: 'GET',
      url: '/assets/app.js',
      headers: { 'accept-encoding': accepted },
    });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['content-encoding']).toBe(encoding);
    expect(asset.headers.vary).toMatch(/accept-encoding/i);
    expect(asset.headers['content-type']).toMatch(/javascript/);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(decode(asset.rawPayload).toString()).toBe(APP_JS);

    const page = await t.app.inject({ method: 'GET', url: '/users', headers: { 'accept-encoding': accepted } });
    expect(page.headers['content-encoding']).toBe(encoding);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(decode(page.rawPayload).toString()).toBe(INDEX_HTML);
  });

  it('sends the file as it is to a client that accepts no compression', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/assets/app.js',
      headers: { 'accept-encoding': 'identity' },
    });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.body).toBe(APP_JS);
  });

  it.each(['/missing.js', '/assets/missing.js', '/assets/app.js.map'])(
    'answers 404 to the missing file %s',
    async (url) => {
      const res = await t.app.inject({ method: 'GET', url });
      expectError(res, 404, 'not_found');
      expect(res.body).not.toContain('centralino-spa-index');
    },
  );

  it('does not answer index.html to other methods', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/some/deep/path', payload: {} });
    expectError(res, 404, 'not_found');
  });

  it('never answers index.html to an /api path', async () => {
    const { headers } = t;
    for (const url of ['/api/unknown', '/api', '/api/unknown/deep', '/%61pi/unknown']) {
      const anonymous = await t.app.inject({ method: 'GET', url });
      expectError(anonymous, 401, 'unauthorized');
      const signedIn = await t.app.inject({ method: 'GET', url, headers });
      expectError(signedIn, 404, 'not_found');
      expect(signedIn.body).not.toContain('centralino-spa-index');
    }
  });
});

describe('without a built web app', () => {
  const t = useTestApp('sqlite', { env: { WEB_DIST_DIR: path.join(os.tmpdir(), 'centralino-no-such-dir') } });

  it('serves the API only', async () => {
    expectError(await t.app.inject({ method: 'GET', url: '/some/deep/path' }), 404, 'not_found');
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  });
});
