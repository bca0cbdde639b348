import { describe, expect, it } from 'vitest';
import { verifyDirectoryPassword } from '../src/features/directory/password.ts';
import { DB_KINDS, expectError, useTestApp } from './helpers.ts';

const b64 = (text: string | Buffer) => Buffer.from(text).toString('base64');
const dataUrl = (text: string) => `data:text/csv;base64,${b64(text)}`;

describe.each(DB_KINDS)('CSV import and export (%s)', (kind) => {
  const t = useTestApp(kind);
  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: t.headers });
  const post = (url: string, payload: unknown, lang = 'en') =>
    t.app.inject({
      method: 'POST',
      url,
      headers: { ...t.headers, 'accept-language': lang },
      payload: payload as object,
    });
  const users = async () =>
    ((await get('/api/users/false?sort=username')).json() as { username: string; default_extension: string }[]).map(
      (u) => `${u.username}:${u.default_extension}`,
    );
  const finished = async (lang = 'en') => {
    for (let i = 0; i < 500; i++) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/csv/csvimport',
        headers: { ...t.headers, 'accept-language': lang },
      });
      const body = res.json();
      if (body.result === 100 || body.result === -1) return body;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error('import did not finish');
  };

  it('needs a directory first, and reports no import before one starts', async () => {
    expectError(await post('/api/csv/csvimport', { file: dataUrl('alice,Alice\n') }), 409, 'directory_not_configured');
    expectError(await get('/api/csv/csvimport'), 422, 'no_csv_import');
    const res = await post('/api/configuration/mode', { mode: 'legacy' });
    expect(res.statusCode).toBe(200);
    for (let i = 0; i < 100 && (await get('/api/configuration/userprovider')).json().configured !== 1; i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    expect((await post('/api/users', { username: 'zoe', fullname: 'Zoe Existing' })).statusCode).toBe(201);
    expect((await post('/api/mainextensions', { username: 'zoe', extension: '300' })).statusCode).toBe(201);
  });

  const file = [
    '# exported from the old PBX',
    'username,fullname,extension,password,mobile,voicemail',
    'alice,Alice Rossi,201,Pw-alice1,+39 333 1234567,TRUE',
    'bob,"Bianchi, Bob",202,,,',
    'carla,Carla Verdi,300,,,', // 300 belongs to zoe
    '9bad,Bad Name,203,,,',
    'dario,,204,,,',
    'alice,Alice Again,205,,,',
    'elena,Elena Neri,201,,,', // same number as alice above
    'zoe,Zoe Renamed,,,,',
    'fabio,Fabio Blu,0207,,,',
    'gina,Gina Viola,208,,not-a-number,',
  ].join('\r\n');

  it('previews what would be created, changed and rejected, writing nothing', async () => {
    const before = await users();
    const res = await post('/api/csv/csvimport/preview', { file: dataUrl(file) });
    expect(res.statusCode, res.body).toBe(200);
    const preview = res.json();
    expect(preview).toMatchObject({ create: 2, update: 1, unchanged: 0, reject: 7 });
    const byLine = Object.fromEntries(preview.rows.map((r: { line: number }) => [r.line, r]));
    expect(byLine[3]).toMatchObject({ username: 'alice', action: 'create', extension: '201' });
    expect(byLine[4]).toMatchObject({ username: 'bob', fullname: 'Bianchi, Bob', action: 'create' });
    expect(byLine[5].errors).toEqual(['Extension 300 already in use.']);
    expect(byLine[6].errors[0]).toMatch(/Username "9bad" is not valid/);
    expect(byLine[7].errors).toEqual(['Full name is missing.']);
    expect(byLine[8].errors).toEqual(['User alice is also on line 3.']);
    expect(byLine[9].errors).toEqual(['Extension 201 is also on line 3.']);
    expect(byLine[10]).toMatchObject({ username: 'zoe', action: 'update' });
    expect(byLine[11].errors[0]).toMatch(/Extension "0207" is not valid/);
    expect(byLine[12].errors[0]).toMatch(/Mobile number "not-a-number"/);
    expect(await users()).toEqual(before);
  });

  it("imports the valid rows and reports each failed row in the reader's language", async () => {
    const res = await post('/api/csv/csvimport', { file: dataUrl(file) }, 'it');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().result).toMatch(/^[0-9a-f]{32}$/);
    const status = await finished('it');
    // Finished with seven rows refused: a success with refusals (the original answered -1, a bare failure).
    expect(status.result).toBe(100);
    expect(status.refused).toBe(7);
    expect(status.created).toBe(2);
    expect(status.updated).toBe(1);
    expect(status.failures.map((f: { line: number }) => f.line)).toEqual([5, 6, 7, 8, 9, 11, 12]);
    expect(status.failures[0]).toEqual({ line: 5, username: 'carla', message: 'Interno 300 già in uso.' });
    // Another administrator (or the migration's report) reads the same import in English.
    const english = await finished('en');
    expect(english.failures[0]).toEqual({ line: 5, username: 'carla', message: 'Extension 300 already in use.' });
    expect(english.failures.map((f: { message: string }) => f.message)).not.toEqual(
      status.failures.map((f: { message: string }) => f.message),
    );
    expect(await users()).toEqual(['alice:201', 'bob:202', 'zoe:300']);
    expect((await get('/api/users/alice/password')).json()).toEqual({ result: 'Pw-alice1' });
    const alice = (await get('/api/users/false?search=alice')).json()[0];
    // The number as typed, without spaces: a leading + stays.
    expect(alice.mobile).toBe('+393331234567');
    // An empty password cell still gives the new account a random 8-character password of letters and digits,
    // stored so the directory accepts it (spec: a new user gets one).
    const bobPassword = (await get('/api/users/bob/password')).json().result as string;
    expect(bobPassword).toMatch(/^[a-zA-Z0-9]{8}$/);
    expect(bobPassword).toMatch(/[0-9]/);
    const bob = await t.database.db
      .selectFrom('users')
      .select('password_hash')
      .where('username', '=', 'bob')
      .executeTakeFirstOrThrow();
    expect(verifyDirectoryPassword(bobPassword, bob.password_hash as string)).toBe(true);
    const zoe = (await get('/api/users/false?search=zoe')).json()[0];
    expect(zoe.displayname).toBe('Zoe Renamed');
    const report = (await get('/api/final')).json();
    expect(report.find((r: { username: string }) => r.username === 'alice').voicemailpwd).toMatch(/^\d{4}$/);
  });

  it('finishes at 100 when every row is good', async () => {
    expect((await post('/api/csv/csvimport', { file: dataUrl('hugo,Hugo Grigi,220\n') })).statusCode).toBe(200);
    const status = await finished();
    expect(status).toEqual({
      result: 100,
      created: 1,
      updated: 0,
      unchanged: 0,
      refused: 0,
      interrupted: false,
      failures: [],
    });
  });

  it('sets CTI groups (creating missing ones) and profiles by name', async () => {
    const text = [
      'username,fullname,extension,password,mobile,voicemail,webrtc,groups,profile',
      'ivo,Ivo Grigi,230,,,,,Sales|Support,Standard',
      'lia,Lia Rosa,231,,,,,Sales,Nonexistent',
      'max,Max Blu,232,,,,,Bad Group,',
    ].join('\n');
    const preview = (await post('/api/csv/csvimport/preview', { file: b64(text) })).json();
    expect(preview).toMatchObject({ create: 1, reject: 2 });
    expect(preview.rows[1].errors).toEqual(['There is no CTI profile named "Nonexistent".']);
    expect(preview.rows[2].errors[0]).toMatch(/Group "Bad Group" is not valid/);
    expect((await post('/api/csv/csvimport', { file: b64(text) })).statusCode).toBe(200);
    expect((await finished()).created).toBe(1);
    const ivo = (await get('/api/users/false?search=ivo')).json()[0];
    expect(ivo.profile).toBe('2');
    const groups = (await get('/api/cti/groups')).json() as { id: number; name: string }[];
    expect(groups.map((g) => g.name).sort()).toEqual(['Sales', 'Support']);
    expect((await get(`/api/cti/groups/users/${ivo.id}`)).json()).toHaveLength(2);
    // An empty groups cell clears them; an empty profile cell clears it.
    expect(
      (await post('/api/csv/csvimport', { file: b64(`${text.split('\n')[0]}\nivo,Ivo Grigi,230,,,,,,\n`) })).statusCode,
    ).toBe(200);
    expect((await finished()).updated).toBe(1);
    expect((await get(`/api/cti/groups/users/${ivo.id}`)).json()).toEqual([]);
    expect((await get('/api/users/false?search=ivo')).json()[0].profile).toBeNull();
    // Put them back for the export below.
    expect(
      (
        await post('/api/csv/csvimport', {
          file: b64(`${text.split('\n')[0]}\nivo,Ivo Grigi,230,,,,,Sales|Support,Standard\n`),
        })
      ).statusCode,
    ).toBe(200);
    await finished();
  });

  it.each([
    ['a wrong header', 'username,surname,extension\nivo,Ivo,230\n', /Unknown column "surname"/],
    ['Latin-1 text', Buffer.from('ivo,Ivo Perù,230\n', 'latin1'), /not UTF-8/],
    ['binary junk', Buffer.from([0, 1, 2, 3, 255, 254, 0, 7]), /not UTF-8|not a text CSV/],
    ['an empty file', '# only a comment\n\n', /no users/],
  ])('refuses %s as a whole and changes nothing', async (_, content, message) => {
    const before = await users();
    const body = expectError(await post('/api/csv/csvimport', { file: b64(content) }), 422, 'csv_invalid');
    expect(body.detail).toMatch(message);
    expect(await users()).toEqual(before);
  });

  it('refuses 10 MB of junk with a clear error', async () => {
    const junk = Buffer.alloc(10 * 1024 * 1024, 'x').toString('base64');
    const res = await post('/api/csv/csvimport', { file: junk });
    expect([400, 413]).toContain(res.statusCode);
    expect(res.json().detail).not.toBe('');
  });

  it('exports every user as standard CSV with escaped quotes', async () => {
    expect((await post('/api/users', { username: 'quoted', fullname: 'Mario "Super" Bros' })).statusCode).toBe(201);
    const res = await get('/api/csv/csvexport');
    expect(res.statusCode).toBe(200);
    const text = Buffer.from(res.json() as string, 'base64').toString('utf8');
    const lines = text.split('\r\n').filter(Boolean);
    // The header line the import accepts, then one line a user.
    expect(lines).toHaveLength(7);
    expect(lines[0]).toBe('username,fullname,extension,password,mobile,voicemail,webrtc,groups,profile');
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^"ivo","Ivo Grigi","230","[a-zA-Z0-9]{8}","","FALSE","FALSE","Sales\|Support","Standard"$/,
      ),
    );
    // A leading + is exported behind the formula guard, which the import takes away again.
    expect(lines[1]).toMatch(/^"alice","Alice Rossi","201","Pw-alice1","'\+393331234567","TRUE","FALSE","",""$/);
    const quoted = lines.find((l) => l.startsWith('"quoted"'));
    expect(quoted).toMatch(/^"quoted","Mario ""Super"" Bros","none","[a-zA-Z0-9]{8}","","FALSE","FALSE","",""$/);
    // What was exported imports back without changes.
    const preview = (await post('/api/csv/csvimport/preview', { file: b64(text) })).json();
    expect(preview).toMatchObject({ create: 0, update: 0, reject: 0, unchanged: 6 });
    // Nor any warning: the webrtc column the export writes is one the import applies (issue 39, item 5).
    expect(preview.rows.flatMap((r: { warnings: string[] }) => r.warnings)).toEqual([]);
  });

  it('neutralises cells a spreadsheet would run as formulas, and imports them back unchanged', async () => {
    const names = {
      formula: "=cmd|' /C calc'!A0",
      plus: '+39 Rossi',
      minus: '-Minus Sign',
      at: '@SUM(1+1)',
      quoted: "'=already quoted",
    };
    for (const [username, fullname] of Object.entries(names)) {
      expect((await post('/api/users', { username: `f${username}`, fullname })).statusCode).toBe(201);
    }
    const fullnames = async () =>
      Object.fromEntries(
        ((await get('/api/users/false?sort=username')).json() as { username: string; displayname: string }[]).map(
          (u) => [u.username, u.displayname],
        ),
      );
    const before = await fullnames();
    const text = Buffer.from((await get('/api/csv/csvexport')).json() as string, 'base64').toString('utf8');
    const cell = (username: string) =>
      text
        .split('\r\n')
        .find((l) => l.startsWith(`"${username}",`))
        ?.split('","')[1];
    expect(cell('fformula')).toBe(`'=cmd|' /C calc'!A0`);
    expect(cell('fplus')).toBe("'+39 Rossi");
    expect(cell('fminus')).toBe("'-Minus Sign");
    expect(cell('fat')).toBe("'@SUM(1+1)");
    expect(cell('fquoted')).toBe("''=already quoted");
    expect(cell('alice')).toBe('Alice Rossi');
    // No cell of the file starts with a formula character.
    for (const line of text.split('\r\n').filter(Boolean)) {
      for (const c of line.slice(1, -1).split('","')) expect(c).not.toMatch(/^[=+\-@\t\r]/);
    }
    const preview = (await post('/api/csv/csvimport/preview', { file: b64(text) })).json();
    expect(preview).toMatchObject({ create: 0, update: 0, reject: 0 });
    expect((await post('/api/csv/csvimport', { file: b64(text) })).statusCode).toBe(200);
    expect(await finished()).toMatchObject({ result: 100, created: 0, updated: 0 });
    expect(await fullnames()).toEqual(before);
    expect(before.fformula).toBe(names.formula);
  });

  it('applies the webrtc and nethlink columns: TRUE adds the device, FALSE removes it, and the export says which', async () => {
    const header = 'username,fullname,extension,password,mobile,voicemail,webrtc,groups,profile,nethlink';
    const webrtcOf = async (main: string) => (await get(`/api/webrtc/${main}`)).json();
    const nethlinkOf = async (main: string) => (await get(`/api/nethlink/${main}`)).json();
    const on = [header, 'ivo,Ivo Grigi,230,,,,TRUE,,,1', 'quoted,"Mario ""Super"" Bros",none,,,,TRUE,,,'].join('\n');
    const preview = (await post('/api/csv/csvimport/preview', { file: b64(on) }, 'it')).json();
    expect(preview.rows[0]).toMatchObject({ action: 'update', warnings: [] });
    // A user without a main extension has nothing to hang the device on: said, not refused.
    expect(preview.rows[1].warnings).toEqual([
      "La colonna webrtc è stata ignorata: l'utente non ha un interno principale a cui aggiungere il dispositivo.",
    ]);
    expect((await post('/api/csv/csvimport', { file: b64(on) })).statusCode).toBe(200);
    expect(await finished()).toMatchObject({ result: 100, updated: 1 });
    // The first device takes the main number, the next 9x230 (contract §11.1).
    expect([await webrtcOf('230'), await nethlinkOf('230')].sort()).toEqual(['230', expect.stringMatching(/^9\d230$/)]);
    const exported = Buffer.from((await get('/api/csv/csvexport')).json() as string, 'base64').toString('utf8');
    const ivoLine = exported.split('\r\n').find((l) => l.startsWith('"ivo"'));
    expect(ivoLine?.split('","')[6]).toBe('TRUE');
    // The export imported back changes nothing, the device included.
    const again = (await post('/api/csv/csvimport/preview', { file: b64(exported) })).json();
    expect(again).toMatchObject({ create: 0, update: 0, reject: 0 });
    expect(again.rows.flatMap((r: { warnings: string[] }) => r.warnings)).toEqual([]);

    const off = [header, 'ivo,Ivo Grigi,230,,,,FALSE,,,no'].join('\n');
    expect((await post('/api/csv/csvimport', { file: b64(off) })).statusCode).toBe(200);
    expect(await finished()).toMatchObject({ result: 100, updated: 1 });
    expect(await webrtcOf('230')).toBeNull();
    expect(await nethlinkOf('230')).toBeNull();
  });
});
