import { errorDetails, errorTitles } from '@centralino/contract';
import { describe, expect, it } from 'vitest';
import { VERSION } from '../src/version.ts';
import { DB_KINDS, expectError, startApp, useTestApp, useTestDatabase } from './helpers.ts';

const SECRET = 'connection string postgres://root:hunter2@db';

describe.each(DB_KINDS)('health and errors (%s)', (kind) => {
  describe('on a working app', () => {
    const t = useTestApp(kind, {
      beforeReady: (app) => {
        app.get('/api/test/boom', async () => {
          throw new Error(SECRET);
        });
        app.get('/api/test/boom-status', async () => {
          throw Object.assign(new Error(SECRET), { statusCode: 502 });
        });
      },
    });

    it('answers health without a key', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/health' });
      expect(res.statusCode).toBe(200);
      // The phone system's state too (this app runs no Asterisk of its own: nothing started it), without its details.
      expect(res.json()).toEqual({
        status: 'ok',
        version: VERSION,
        database: kind,
        pbx: { mode: 'managed', state: 'stopped', problem: null, version: null, uptimeSeconds: null, ami: 'disabled' },
      });
    });

    it.each(['/api/test/boom', '/api/test/boom-status'])('never leaks internals in a 5xx body (%s)', async (url) => {
      for (const lang of ['en', 'it'] as const) {
        const res = await t.app.inject({ method: 'GET', url, headers: { ...t.headers, 'accept-language': lang } });
        expectError(res, 500, 'internal');
        expect(res.body).not.toContain('hunter2');
        expect(res.json()).toEqual({
          title: errorTitles[lang].internal,
          detail: errorDetails[lang].internal,
          code: 'internal',
        });
      }
    });

    it('adds an x-request-id to every response', async () => {
      const ids = new Set<string>();
      for (const url of ['/api/health', '/api/configuration/wizard', '/api/unknown', '/no-spa-here']) {
        const res = await t.app.inject({ method: 'GET', url });
        const id = res.headers['x-request-id'];
        expect(typeof id, url).toBe('string');
        expect(id).toMatch(/^[\w-]{8,}$/);
        ids.add(id as string);
      }
      expect(ids.size).toBe(4);
    });

    it('echoes a well-formed x-request-id and replaces a malformed one', async () => {
      const echoed = await t.app.inject({
        method: 'GET',
        url: '/api/health',
        headers: { 'x-request-id': 'abc-123_X' },
      });
      expect(echoed.headers['x-request-id']).toBe('abc-123_X');
      const onError = await t.app.inject({
        method: 'GET',
        url: '/api/configuration/wizard',
        headers: { 'x-request-id': 'req-401' },
      });
      expect(onError.statusCode).toBe(401);
      expect(onError.headers['x-request-id']).toBe('req-401');
      for (const bad of ['has space', 'a'.repeat(65), '<script>']) {
        const res = await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': bad } });
        expect(res.headers['x-request-id']).not.toBe(bad);
        expect(res.headers['x-request-id']).toMatch(/^[\w-]+$/);
      }
    });

    it('answers a body over the limit with 413 payload_too_large', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/configuration/wizard',
        headers: t.headers,
        payload: { status: 'true', step: 1, padding: 'x'.repeat(1024 * 1024 + 10) },
      });
      expectError(res, 413, 'payload_too_large');
    });
  });

  describe('when the database is gone', () => {
    const db = useTestDatabase(kind);

    it('answers health with 503 and no internals', async () => {
      const t = await startApp(db.current);
      try {
        await t.database.close();
        const res = await t.app.inject({ method: 'GET', url: '/api/health' });
        const body = expectError(res, 503, 'internal');
        expect(body.detail).toBe('Database not reachable');
      } finally {
        await t.app.close();
      }
    });
  });
});
