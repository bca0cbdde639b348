import { describe, expect, it } from 'vitest';
import { DB_KINDS, useTestApp } from './helpers.ts';

const b64 = (text: string) => Buffer.from(text).toString('base64');

describe.each(DB_KINDS)('control characters in fields that reach the PBX files (%s)', (kind) => {
  const t = useTestApp(kind);
  const call = (method: 'GET' | 'POST', url: string, payload?: object, lang = 'en') =>
    t.app.inject({ method, url, headers: { ...t.headers, 'accept-language': lang }, payload });
  const usernames = async () =>
    ((await call('GET', '/api/users/false')).json() as { username: string }[]).map((u) => u.username);

  it('refuses a NUL in a full name with 400 naming the field, in en and it, and stores nothing', async () => {
    expect((await call('POST', '/api/configuration/mode', { mode: 'legacy' })).statusCode).toBe(200);
    for (let i = 0; i < 100 && (await call('GET', '/api/configuration/userprovider')).json().configured !== 1; i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    const before = await usernames();
    for (const fullname of [
      'Mario\u0000Rossi',
      'Mario\nRossi',
      'Mario\tRossi',
      'Mario\u007fRossi',
      'Mario\u001bRossi',
    ]) {
      const res = await call('POST', '/api/users', { username: 'mario', fullname });
      expect(res.statusCode, JSON.stringify(fullname)).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'validation',
        fields: { fullname: expect.stringMatching(/control characters/) },
      });
    }
    const it = await call('POST', '/api/users', { username: 'mario', fullname: 'Mario\u0000Rossi' }, 'it');
    expect(it.json().fields.fullname).toMatch(/caratteri di controllo/);
    expect(await usernames()).toEqual(before);
    // Ordinary names, also with accents and apostrophes, stay welcome.
    expect((await call('POST', '/api/users', { username: 'mario', fullname: "Mario D'Àngelo" })).statusCode).toBe(201);
  });

  it('refuses control characters in trunk credentials and provider, and in inbound route descriptions', async () => {
    const trunk = {
      provider: 'vivavox',
      name: 'vivavox',
      username: '0721123456',
      password: 's3cr3t!',
      phone: '0721123456',
      codecs: ['alaw'],
      forceCodec: false,
    };
    for (const [field, value] of [
      ['username', '0721\u0000123'],
      ['password', 'pw\u0001x'],
      ['provider', 'viva\u0000vox'],
    ] as const) {
      const res = await call('POST', '/api/trunks', { ...trunk, [field]: value });
      expect(res.statusCode, field).toBe(400);
      expect(res.json().fields[field], field).toBeDefined();
    }
    expect((await call('GET', '/api/trunks/count')).json()).toBe(0);
    const res = await call('POST', '/api/inboundroutes', {
      extension: '0721000111',
      cidnum: '',
      description: 'Main\u0000line',
      destination: 'app-blackhole,hangup,1',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields.description).toMatch(/control characters/);
  });

  it('rejects CSV rows whose fields carry control characters, naming the column', async () => {
    const file = 'nina,Nina\u0000Bianchi,250\nolga,Olga Neri,251\npia,Pia\u0007,252\n';
    for (const [lang, text] of [
      ['en', /Column fullname contains control characters/],
      ['it', /La colonna fullname contiene caratteri di controllo/],
    ] as const) {
      const preview = (await call('POST', '/api/csv/csvimport/preview', { file: b64(file) }, lang)).json();
      expect(preview).toMatchObject({ create: 1, reject: 2 });
      expect(preview.rows[0]).toMatchObject({ username: 'nina', action: 'reject' });
      expect(preview.rows[0].errors.join(' ')).toMatch(text);
      expect(preview.rows[2]).toMatchObject({ username: 'pia', action: 'reject' });
    }
    expect((await call('POST', '/api/csv/csvimport', { file: b64(file) })).statusCode).toBe(200);
    let status = { result: 0 };
    for (let i = 0; i < 500 && status.result !== 100 && status.result !== -1; i++) {
      await new Promise((r) => setTimeout(r, 20));
      status = (await call('GET', '/api/csv/csvimport')).json();
    }
    // Done with two rows refused: a success with refusals, each refusal named.
    expect(status).toMatchObject({ result: 100, created: 1, refused: 2 });
    const names = await usernames();
    expect(names).toContain('olga');
    expect(names).not.toContain('nina');
    expect(names).not.toContain('pia');
  });
});
