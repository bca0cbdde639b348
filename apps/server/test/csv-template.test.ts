import { describe, expect, it } from 'vitest';
import { DB_KINDS, expectError, type useTestApp as UseTestApp, useTestApp } from './helpers.ts';

const HEADER = 'username,fullname,extension,password,mobile,voicemail,webrtc,groups,profile';
const b64 = (text: string) => Buffer.from(text).toString('base64');

type Suite = ReturnType<typeof UseTestApp>;

describe.each(DB_KINDS)('CSV export as the import template, and a round trip between systems (%s)', (kind) => {
  const source = useTestApp(kind);
  const target = useTestApp(kind);
  const get = (t: Suite, url: string) => t.app.inject({ method: 'GET', url, headers: t.headers });
  const post = (t: Suite, url: string, payload: object) =>
    t.app.inject({ method: 'POST', url, headers: t.headers, payload });
  const exported = async (t: Suite) => {
    const res = await get(t, '/api/csv/csvexport');
    expect(res.statusCode).toBe(200);
    return Buffer.from(res.json() as string, 'base64').toString('utf8');
  };
  const useLocalDirectory = async (t: Suite) => {
    expect((await post(t, '/api/configuration/mode', { mode: 'legacy' })).statusCode).toBe(200);
    for (let i = 0; i < 100 && (await get(t, '/api/configuration/userprovider')).json().configured !== 1; i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const finished = async (t: Suite) => {
    for (let i = 0; i < 500; i++) {
      const body = (await get(t, '/api/csv/csvimport')).json();
      if (body.result === 100 || body.result === -1) return body;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error('import did not finish');
  };
  const usersOf = async (t: Suite) => {
    const list = (await get(t, '/api/users/false?sort=username')).json() as {
      username: string;
      displayname: string;
      default_extension: string;
      mobile: string | null;
    }[];
    return Promise.all(
      list.map(async (u) => ({
        username: u.username,
        displayname: u.displayname,
        extension: u.default_extension,
        mobile: u.mobile,
        password: (await get(t, `/api/users/${u.username}/password`)).json().result,
      })),
    );
  };

  it('exports only the header line when there are no users, which the import accepts', async () => {
    expect(await exported(source)).toBe(`${HEADER}\r\n`);
    await useLocalDirectory(source);
    const template = await exported(source);
    expect(template).toBe(`${HEADER}\r\n`);
    // The header is accepted: the bare template is refused only because it holds no user.
    const empty = await post(source, '/api/csv/csvimport/preview', { file: b64(template) });
    expect(expectError(empty, 422, 'csv_invalid').detail).toBe('The file has no users.');
    const one = await post(source, '/api/csv/csvimport/preview', {
      file: b64(`${template}dario,Dario Neri,,,,,,,\r\n`),
    });
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json()).toMatchObject({ create: 1, update: 0, reject: 0 });
  });

  it('takes the template filled in, giving a user with no password a random 8-character one', async () => {
    const filled = [
      HEADER,
      'alice,Alice Rossi,201,Pw-alice1,+39 333 1234567,TRUE,,Sales|Support,Standard',
      'bob,Bob Bianchi,202,,0721 123456,FALSE,,Sales,',
      'carla,Carla Verdi,none,,,,,,',
    ].join('\r\n');
    expect((await post(source, '/api/csv/csvimport', { file: b64(filled) })).statusCode).toBe(200);
    expect(await finished(source)).toMatchObject({ result: 100, created: 3, failures: [] });
    const users = await usersOf(source);
    expect(users.map((u) => [u.username, u.extension, u.mobile])).toEqual([
      ['alice', '201', '+393331234567'],
      ['bob', '202', '0721123456'],
      ['carla', 'none', null],
    ]);
    expect(users[0]?.password).toBe('Pw-alice1');
    for (const u of users.slice(1)) expect(u.password).toMatch(/^[a-zA-Z0-9]{8}$/);
    // Each its own password.
    expect(users[1]?.password).not.toBe(users[2]?.password);
  });

  it('imports the export into another system: same users, numbers, mobiles, passwords and CTI settings', async () => {
    const text = await exported(source);
    expect(text.split('\r\n')[0]).toBe(HEADER);
    await useLocalDirectory(target);
    expect((await post(target, '/api/csv/csvimport', { file: b64(text) })).statusCode).toBe(200);
    expect(await finished(target)).toMatchObject({ result: 100, created: 3, failures: [] });
    expect(await usersOf(target)).toEqual(await usersOf(source));
    // …and exporting there gives the same file.
    expect(await exported(target)).toBe(text);
  });
});
