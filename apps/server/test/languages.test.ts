import { describe, expect, it } from 'vitest';
import { DB_KINDS, expectError, useTestApp } from './helpers.ts';

describe.each(DB_KINDS)('PBX languages (%s)', (kind) => {
  const t = useTestApp(kind);

  const list = async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/settings/languages', headers: t.headers });
    expect(res.statusCode).toBe(200);
    return res.json();
  };
  const post = (url: string, payload: unknown) =>
    t.app.inject({ method: 'POST', url, headers: t.headers, payload: payload as object });
  const setting = async (key: string) => {
    const row = await t.database.db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
    return row ? JSON.parse(row.value) : undefined;
  };

  it('starts with English (default) and Italian installed', async () => {
    expect(await list()).toEqual({ en: { default: true }, it: { default: false } });
  });

  it('makes a language installed and default, with its tone zone', async () => {
    const res = await post('/api/settings/defaultlanguage', { lang: 'de' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
    expect(await list()).toEqual({ it: { default: false }, en: { default: false }, de: { default: true } });
    expect(await setting('pbx.tonezone')).toBe('de');
    expect(await setting('pbx.language')).toBe('de');
  });

  it('uses the US tone zone for English', async () => {
    expect((await post('/api/settings/defaultlanguage', { lang: 'en' })).statusCode).toBe(200);
    expect(await setting('pbx.tonezone')).toBe('us');
    expect(await list()).toEqual({ it: { default: false }, en: { default: true }, de: { default: false } });
  });

  it.each([
    ['an unknown language', '/api/settings/defaultlanguage', { lang: 'xx' }],
    ['an upper-case code', '/api/settings/defaultlanguage', { lang: 'DE' }],
    ['no language', '/api/settings/defaultlanguage', {}],
    ['an unknown language to install', '/api/settings/language', { lang: 'xx' }],
  ])('refuses %s with 400 and changes nothing', async (_case, url, payload) => {
    const before = await list();
    const res = await post(url, payload);
    const body = expectError(res, 400, 'validation');
    expect(Object.keys(body.fields ?? {})).toEqual(['lang']);
    expect(await list()).toEqual(before);
    expect(await setting('pbx.tonezone')).toBe('us');
  });

  it('installs a language without changing the default, once', async () => {
    for (let i = 0; i < 2; i++) {
      const res = await post('/api/settings/language', { lang: 'fr' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ success: true });
    }
    expect(await list()).toEqual({
      it: { default: false },
      en: { default: true },
      fr: { default: false },
      de: { default: false },
    });
    expect(await setting('pbx.languages.installed')).toEqual(['en', 'it', 'de', 'fr']);
    expect(await setting('pbx.tonezone')).toBe('us');
  });
});
