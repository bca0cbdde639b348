import { describe, expect, it } from 'vitest';
import {
  type AuthHeaders,
  DB_KINDS,
  expectError,
  login,
  startApp,
  type TestApp,
  useTestApp,
  useTestDatabase,
} from './helpers.ts';

describe.each(DB_KINDS)('wizard (%s)', (kind) => {
  describe('state', () => {
    const t = useTestApp(kind);
    const get = async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/configuration/wizard', headers: t.headers });
      expect(res.statusCode).toBe(200);
      return res.json();
    };
    const post = (payload: unknown) =>
      t.app.inject({
        method: 'POST',
        url: '/api/configuration/wizard',
        headers: t.headers,
        payload: payload as object,
      });

    it('answers an empty array before the wizard is first saved', async () => {
      expect(await get()).toEqual([]);
    });

    it('stores the step sent as a numeric string, answering it as a number', async () => {
      const res = await post({ status: 'true', step: '1' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ step: 1, status: 'true' });
      expect(await get()).toEqual([{ step: 1, status: 'true' }]);
    });

    it('stores the step sent as a number and keeps a single row', async () => {
      expect((await post({ status: 'true', step: 5 })).statusCode).toBe(200);
      expect(await get()).toEqual([{ step: 5, status: 'true' }]);
      expect((await post({ status: 'false', step: 13 })).statusCode).toBe(200);
      expect(await get()).toEqual([{ step: 13, status: 'false' }]);
      expect((await post({ status: 'true', step: 0 })).statusCode).toBe(200);
      expect(await get()).toEqual([{ step: 0, status: 'true' }]);
      expect(await t.database.db.selectFrom('wizard').selectAll().execute()).toHaveLength(1);
      expect((await post({ status: 'true', step: 3 })).statusCode).toBe(200);
    });

    it.each([
      ['step "x"', { status: 'true', step: 'x' }, ['step']],
      ['step 14', { status: 'true', step: 14 }, ['step']],
      ['step "14"', { status: 'true', step: '14' }, ['step']],
      ['step -1', { status: 'true', step: -1 }, ['step']],
      ['step 2.5', { status: 'true', step: 2.5 }, ['step']],
      ['status "yes"', { status: 'yes', step: 2 }, ['status']],
      ['status true (boolean)', { status: true, step: 2 }, ['status']],
      ['missing step', { status: 'true' }, ['step']],
      ['missing status', { step: 2 }, ['status']],
      ['an empty object', {}, ['status', 'step']],
      ['an array', [{ status: 'true', step: 2 }], ['body']],
    ])('refuses %s with 400 validation and fields, leaving the state unchanged', async (_case, payload, fields) => {
      const res = await post(payload);
      const body = expectError(res, 400, 'validation');
      expect(Object.keys(body.fields ?? {}).sort()).toEqual(fields);
      expect(await get()).toEqual([{ step: 3, status: 'true' }]);
    });

    it.each([
      ['malformed JSON', 'application/json', '{"status": "true", "step": '],
      ['an empty JSON body', 'application/json', ''],
      ['a plain-text body', 'text/plain', 'status=true&step=4'],
    ])('refuses %s with 400 validation and fields, leaving the state unchanged', async (_case, type, payload) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/configuration/wizard',
        headers: { ...t.headers, 'content-type': type },
        payload,
      });
      const body = expectError(res, 400, 'validation');
      expect(Object.keys(body.fields ?? {})).toEqual(['body']);
      expect(await get()).toEqual([{ step: 3, status: 'true' }]);
    });

    it('refuses a body of an unknown content type with 415, leaving the state unchanged', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/configuration/wizard',
        headers: { ...t.headers, 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'status=true&step=4',
      });
      expectError(res, 415, 'unsupported_media_type');
      expect(await get()).toEqual([{ step: 3, status: 'true' }]);
    });

    it('localises the validation title', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/configuration/wizard',
        headers: { ...t.headers, 'accept-language': 'it' },
        payload: { status: 'maybe', step: 1 },
      });
      expect(expectError(res, 400, 'validation').title).toBe('Richiesta non valida');
    });

    it('answers the provisioning engine, tancredi by default', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/provisioning/engine', headers: t.headers });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json()).toBe('tancredi');
    });
  });

  describe('with PROVISIONING_ENGINE=freepbx', () => {
    const t = useTestApp(kind, { env: { PROVISIONING_ENGINE: 'freepbx' } });

    it('answers freepbx', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/provisioning/engine', headers: t.headers });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toBe('freepbx');
    });
  });

  describe('persistence', () => {
    const db = useTestDatabase(kind);

    it('keeps the state and the keys across closing and reopening the app on the same database', async () => {
      let t: TestApp = await startApp(db.current);
      let headers: AuthHeaders;
      try {
        headers = await login(t.app);
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/configuration/wizard',
          headers,
          payload: { status: 'true', step: 7 },
        });
        expect(res.statusCode).toBe(200);
      } finally {
        await t.close();
      }

      // The admin already exists: ensureAdmin leaves it alone and migrations are a no-op.
      t = await startApp(db.current);
      try {
        const res = await t.app.inject({ method: 'GET', url: '/api/configuration/wizard', headers });
        expect(res.json()).toEqual([{ step: 7, status: 'true' }]);
      } finally {
        await t.close();
      }
    });
  });
});
