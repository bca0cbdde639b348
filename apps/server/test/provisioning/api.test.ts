import fs from 'node:fs';
import path from 'node:path';
import { PROVISIONING_FILE_LIMITS } from '@centralino/contract';
import { describe, expect, it } from 'vitest';
import { callAs, DB_KINDS, expectError, useTestApp } from '../helpers.ts';
import { expectProblem, multipartBody } from './support.ts';

const V1 = '/api/provisioning/v1';

describe.each(DB_KINDS)('provisioning engine API (%s)', (kind) => {
  const t = useTestApp(kind);
  const call = callAs(t);

  describe('defaults', () => {
    it('starts with the shipped values, random web passwords and ui_first_config', async () => {
      const res = await call('GET', `${V1}/defaults`);
      expect(res.statusCode).toBe(200);
      const defaults = res.json();
      expect(defaults).toMatchObject({ provisioning_freq: 'everyday', tonezone: 'it', ui_first_config: '1' });
      expect(defaults.adminpw).toMatch(/^[a-z0-9]{10}$/);
      expect(defaults.userpw).toMatch(/^[a-z]{6}$/);
      // Stable: a second read answers the same passwords.
      expect((await call('GET', `${V1}/defaults`)).json().adminpw).toBe(defaults.adminpw);
    });

    it('patches: values set, null removes, the console sends the whole object back', async () => {
      const all = (await call('GET', `${V1}/defaults`)).json();
      const res = await call('PATCH', `${V1}/defaults`, {
        ...all,
        ui_first_config: '',
        hostname: 'pbx.example.com',
        language: 'en',
        ntp_server: null,
      });
      expect(res.statusCode, res.body).toBe(204);
      expect(res.body).toBe('');
      const after = (await call('GET', `${V1}/defaults`)).json();
      expect(after).toMatchObject({ ui_first_config: '', hostname: 'pbx.example.com', language: 'en' });
      expect(after).not.toHaveProperty('ntp_server');
    });

    it('refuses unknown variables and values outside the allowed lists, writing nothing', async () => {
      const before = (await call('GET', `${V1}/defaults`)).json();
      const unknown = expectProblem(
        await call('PATCH', `${V1}/defaults`, { language: 'it', bogus_var: '1' }),
        400,
        'prov_unknown_variable',
      );
      expect(unknown.fields).toHaveProperty(['variables.bogus_var']);
      const invalid = expectProblem(
        await call('PATCH', `${V1}/defaults`, { provisioning_freq: 'hourly', tonezone: 'xx', time_format: '25' }),
        400,
        'prov_invalid_variable',
      );
      expect(Object.keys(invalid.fields ?? {}).sort()).toEqual([
        'variables.provisioning_freq',
        'variables.time_format',
        'variables.tonezone',
      ]);
      expectProblem(await call('PATCH', `${V1}/defaults`, { tok1: 'x' }), 403, 'prov_read_only_attribute');
      expectProblem(await call('PATCH', `${V1}/defaults`, { language: 5 }), 400, 'validation');
      expect((await call('GET', `${V1}/defaults`)).json()).toEqual(before);
    });
  });

  describe('models', () => {
    it('lists every shipped model with its URL, and filter[used] only the assigned ones', async () => {
      const list = (await call('GET', `${V1}/models`)).json() as {
        name: string;
        display_name: string;
        model_url: string;
      }[];
      expect(list).toHaveLength(116);
      expect(list[0]).toEqual({
        name: 'akuvox-SPR50P',
        display_name: 'Akuvox SP-R50P',
        model_url: `${V1}/models/akuvox-SPR50P`,
      });
      const used = await call('GET', `${V1}/models?filter[used]`);
      expect(used.statusCode).toBe(200);
      expect(used.json()).toEqual([]);
    });

    it('answers one model, with defaults merged on inherit=1, and its original', async () => {
      const own = (await call('GET', `${V1}/models/yealink-T46`)).json();
      expect(own).toMatchObject({ name: 'yealink-T46', display_name: 'Yealink T46G/S/U' });
      expect(own.variables).not.toHaveProperty('ntp_server');
      const inherited = (await call('GET', `${V1}/models/yealink-T46?inherit=1`)).json();
      expect(inherited.variables).toMatchObject({ tonezone: 'it', cap_linekey_count: '27', backlight_time: '0' });
      const original = (await call('GET', `${V1}/models/yealink-T46/version/original`)).json();
      expect(original.variables).toEqual(own.variables);
      expectProblem(await call('GET', `${V1}/models/no-such-model`), 404, 'prov_not_found', 'Resource not found');
      expectProblem(await call('GET', `${V1}/models/00-15-65-AA-BB-CC`), 404, 'prov_not_found');
    });

    it('patches a shipped model copy-on-write and resets it by delete', async () => {
      const res = await call('PATCH', `${V1}/models/yealink-T48`, {
        display_name: 'Yealink T48 (office)',
        variables: { softkey_type_1: 'dnd', linekey_type_3: 'blf', linekey_value_3: '202', backlight_time: '60' },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({
        display_name: 'Yealink T48 (office)',
        variables: { softkey_type_1: 'dnd', linekey_value_3: '202' },
      });
      // The original stays as shipped.
      expect((await call('GET', `${V1}/models/yealink-T48/version/original`)).json().variables.softkey_type_1).toBe(
        'history',
      );
      const list = (await call('GET', `${V1}/models`)).json() as { name: string; display_name: string }[];
      expect(list.find((m) => m.name === 'yealink-T48')?.display_name).toBe('Yealink T48 (office)');
      expect(list).toHaveLength(116);
      // Removing a variable with null restores inheritance.
      const removed = (await call('PATCH', `${V1}/models/yealink-T48`, { variables: { backlight_time: null } })).json();
      expect(removed.variables).not.toHaveProperty('backlight_time');
      expect((await call('DELETE', `${V1}/models/yealink-T48`)).statusCode).toBe(204);
      const reset = (await call('GET', `${V1}/models/yealink-T48`)).json();
      expect(reset.display_name).toBe('Yealink T48G/S/U');
      expect(reset.variables.softkey_type_1).toBe('history');
    });

    it('refuses bad model patches with the contract errors, writing nothing', async () => {
      expectProblem(
        await call('PATCH', `${V1}/models/yealink-T42`, { name: 'other' }),
        403,
        'prov_read_only_attribute',
        'Cannot change a read-only attribute',
      );
      expectProblem(await call('PATCH', `${V1}/models/yealink-T42`, {}), 400, 'validation');
      expectProblem(await call('PATCH', `${V1}/models/nope`, { variables: {} }), 404, 'prov_not_found');
      expectProblem(
        await call('PATCH', `${V1}/models/yealink-T42`, { variables: { linekey_type_16: 'blf' } }),
        400,
        'prov_unknown_variable',
      );
      expectProblem(
        await call('PATCH', `${V1}/models/yealink-T42`, { variables: { cap_linekey_count: '99' } }),
        403,
        'prov_read_only_attribute',
      );
      expectProblem(
        await call('PATCH', `${V1}/models/yealink-T42`, { variables: { mac: 'x' } }),
        403,
        'prov_read_only_attribute',
      );
      expect((await call('GET', `${V1}/models/yealink-T42`)).json().variables).not.toHaveProperty('linekey_type_16');
    });

    it('creates a custom model as a copy, refuses duplicates and bad names, deletes it', async () => {
      const source = (await call('GET', `${V1}/models/snom-D785`)).json();
      const created = await call('POST', `${V1}/models`, {
        name: 'snom-D785-reception',
        display_name: 'Snom D785 - reception',
        variables: source.variables,
      });
      expect(created.statusCode, created.body).toBe(201);
      expect(created.headers.location).toBe(`${V1}/models/snom-D785-reception`);
      expect(created.json().variables).toEqual(source.variables);
      const list = (await call('GET', `${V1}/models`)).json() as { name: string }[];
      expect(list.at(-1)?.name).toBe('snom-D785-reception');
      // A custom model has no shipped version: an empty one, so an older console's "Reset" on it works.
      const original = await call('GET', `${V1}/models/snom-D785-reception/version/original`);
      expect(original.statusCode, original.body).toBe(200);
      expect(original.json()).toEqual({
        name: 'snom-D785-reception',
        display_name: null,
        variables: {},
        model_url: `${V1}/models/snom-D785-reception`,
      });
      expectProblem(await call('GET', `${V1}/models/no-such-model/version/original`), 404, 'prov_not_found');

      expectProblem(
        await call('POST', `${V1}/models`, { name: 'snom-D785-reception', variables: {} }),
        409,
        'prov_model_exists',
        'The model name is already registered',
      );
      expectProblem(
        await call('POST', `${V1}/models`, { name: 'yealink-T46', variables: {} }),
        409,
        'prov_model_exists',
      );
      expectProblem(await call('POST', `${V1}/models`, { name: 'defaults', variables: {} }), 409, 'prov_model_exists');
      expectProblem(
        await call('POST', `${V1}/models`, { variables: {} }),
        400,
        'prov_missing_model_name',
        'Missing model name',
      );
      expectProblem(
        await call('POST', `${V1}/models`, { name: 'bad name/../x', variables: {} }),
        400,
        'prov_invalid_model_name',
        'Illegal character(s) in model name',
      );
      expectProblem(
        await call('POST', `${V1}/models`, { name: 'x-y', variables: { nonsense: '1' } }),
        400,
        'prov_unknown_variable',
      );
      expectProblem(await call('GET', `${V1}/models/x-y`), 404, 'prov_not_found');

      expect((await call('DELETE', `${V1}/models/snom-D785-reception`)).statusCode).toBe(204);
      expectProblem(await call('GET', `${V1}/models/snom-D785-reception`), 404, 'prov_not_found');
      expectProblem(await call('DELETE', `${V1}/models/snom-D785-reception`), 404, 'prov_not_found');
    });
  });

  describe('phones', () => {
    const mac = '00-15-65-AA-BB-CC';

    it('adds a phone with tokens and URLs, lists, reads and inherits', async () => {
      const res = await call('POST', `${V1}/phones`, {
        mac: '00:15:65:aa:bb:cc',
        model: 'yealink-T46',
        display_name: 'Yealink/Dreamwave',
      });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.headers.location).toBe(`${V1}/phones/${mac}`);
      const phone = res.json();
      expect(Object.keys(phone)).toEqual([
        'mac',
        'short_mac',
        'model',
        'display_name',
        'tok1',
        'tok2',
        'variables',
        'model_url',
        'provisioning_url1',
        'provisioning_url2',
      ]);
      expect(phone).toMatchObject({ mac, short_mac: '001565aabbcc', model: 'yealink-T46', variables: {} });
      expect(phone.tok1).toMatch(/^[0-9a-f]{32}$/);
      expect(phone.tok2).toMatch(/^[0-9a-f]{32}$/);
      expect(phone.tok1).not.toBe(phone.tok2);
      // No HTTPS listener here: encryption starts off, and the URL names the console's own HTTP port.
      expect(phone.provisioning_url1).toBe(`http://pbx.example.com:8080/provisioning/${phone.tok1}`);
      expect(phone.provisioning_url2).toBe(`http://pbx.example.com:8080/provisioning/${phone.tok2}`);

      expect((await call('GET', `${V1}/phones`)).json()).toEqual([
        {
          mac,
          model: 'yealink-T46',
          display_name: 'Yealink/Dreamwave',
          model_url: `${V1}/models/yealink-T46`,
          phone_url: `${V1}/phones/${mac}`,
        },
      ]);
      expect((await call('GET', `${V1}/models?filter[used]`)).json().map((m: { name: string }) => m.name)).toEqual([
        'yealink-T46',
      ]);
      const inherited = (await call('GET', `${V1}/phones/001565aabbcc?inherit=1`)).json();
      expect(inherited.variables).toMatchObject({
        cap_linekey_count: '27',
        hostname: 'pbx.example.com',
        provisioning_url_path: 'provisioning/',
      });
      expectProblem(await call('DELETE', `${V1}/models/yealink-T46`), 409, 'prov_resource_in_use');
    });

    it('patches variables (null removes) or the model, never both', async () => {
      const vars = await call('PATCH', `${V1}/phones/${mac}`, {
        variables: { linekey_type_3: 'blf', linekey_value_3: '202', linekey_label_3: 'Anna' },
      });
      expect(vars.statusCode, vars.body).toBe(200);
      expect(vars.json().variables).toEqual({ linekey_type_3: 'blf', linekey_value_3: '202', linekey_label_3: 'Anna' });
      const removed = await call('PATCH', `${V1}/phones/${mac}`, { variables: { linekey_label_3: null } });
      expect(removed.json().variables).toEqual({ linekey_type_3: 'blf', linekey_value_3: '202' });
      const model = await call('PATCH', `${V1}/phones/${mac}`, { model: 'yealink-T48', variables: { language: 'en' } });
      expect(model.json()).toMatchObject({ model: 'yealink-T48', variables: { linekey_type_3: 'blf' } });
      expect(model.json().variables).not.toHaveProperty('language');
      const cleared = await call('PATCH', `${V1}/phones/${mac}`, { model: null });
      expect(cleared.json().model).toBe('');
      await call('PATCH', `${V1}/phones/${mac}`, { model: 'yealink-T46' });
    });

    it('refuses bad phone input with clear errors and writes nothing', async () => {
      const before = (await call('GET', `${V1}/phones/${mac}`)).json();
      expectProblem(
        await call('POST', `${V1}/phones`, { mac }),
        409,
        'prov_phone_exists',
        'The phone mac address is already registered',
      );
      expectProblem(await call('POST', `${V1}/phones`, {}), 400, 'prov_missing_mac', 'Missing MAC address');
      for (const bad of ['00-15-65-AA-BB', 'zz:15:65:aa:bb:cc', '../../etc/passwd', '00-15-65-AA-BB-CC-DD']) {
        expectProblem(await call('POST', `${V1}/phones`, { mac: bad }), 400, 'prov_invalid_mac');
      }
      expectProblem(
        await call('POST', `${V1}/phones`, { mac: '00-15-65-00-00-01', model: 'yealink-T99' }),
        400,
        'prov_unknown_model',
      );
      expectProblem(
        await call('POST', `${V1}/phones`, { mac: '00-15-65-00-00-01', variables: { linekey_type_1: 'blf' } }),
        400,
        'prov_unknown_variable',
      );
      expectProblem(await call('GET', `${V1}/phones/00-15-65-00-00-01`), 404, 'prov_not_found');

      expectProblem(
        await call('PATCH', `${V1}/phones/${mac}`, { tok1: 'x', variables: {} }),
        403,
        'prov_read_only_attribute',
      );
      expectProblem(
        await call('PATCH', `${V1}/phones/${mac}`, { provisioning_url2: 'x' }),
        403,
        'prov_read_only_attribute',
      );
      expectProblem(
        await call('PATCH', `${V1}/phones/${mac}`, { variables: { tok2: 'mine' } }),
        403,
        'prov_read_only_attribute',
      );
      expectProblem(
        await call('PATCH', `${V1}/phones/${mac}`, { variables: { cap_linekey_count: '99' } }),
        403,
        'prov_read_only_attribute',
      );
      expectProblem(
        await call('PATCH', `${V1}/phones/${mac}`, { variables: { linekey_type_28: 'blf' } }),
        400,
        'prov_unknown_variable',
      );
      expectProblem(
        await call('PATCH', `${V1}/phones/${mac}`, { variables: { whatever: '1' } }),
        400,
        'prov_unknown_variable',
      );
      expectProblem(
        await call('PATCH', `${V1}/phones/${mac}`, { variables: { linekey_type_3: 'warp' } }),
        400,
        'prov_invalid_variable',
      );
      expectProblem(await call('PATCH', `${V1}/phones/${mac}`, { model: 'nope' }), 400, 'prov_unknown_model');
      expectProblem(await call('PATCH', `${V1}/phones/${mac}`, {}), 400, 'validation');
      expectProblem(await call('PATCH', `${V1}/phones/00-15-65-00-00-01`, { variables: {} }), 404, 'prov_not_found');
      expectProblem(await call('PATCH', `${V1}/phones/not-a-mac`, { variables: {} }), 400, 'prov_invalid_mac');
      expect((await call('GET', `${V1}/phones/${mac}`)).json()).toEqual(before);
    });

    it('rotates the first-access token and deletes phones with their tokens', async () => {
      const before = (await call('GET', `${V1}/phones/${mac}`)).json();
      expect((await call('POST', `${V1}/phones/${mac}/tok1`)).statusCode).toBe(204);
      const after = (await call('GET', `${V1}/phones/${mac}`)).json();
      expect(after.tok1).not.toBe(before.tok1);
      expect(after.tok2).toBe(before.tok2);
      expectProblem(await call('POST', `${V1}/phones/00-15-65-00-00-01/tok1`), 404, 'prov_not_found');

      await call('POST', `${V1}/phones`, { mac: '0C-38-3E-00-00-01', model: 'fanvil-X5U' });
      expect((await call('DELETE', `${V1}/phones/0c383e000001`)).statusCode).toBe(204);
      expectProblem(await call('DELETE', `${V1}/phones/0C-38-3E-00-00-01`), 404, 'prov_not_found');
      const res = await t.app.inject({ method: 'GET', url: `/provisioning/${after.tok2}/001565aabbcc.cfg` });
      expect(res.statusCode).toBe(200);
    });
  });

  describe('MAC vendors', () => {
    it('answers the OUI → vendor map', async () => {
      const res = await call('GET', `${V1}/macvendors`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ '001565': 'yealink', E0E656: 'nethesis', '000B82': 'grandstream' });
    });
  });

  describe('files', () => {
    const filesDir = () => path.join(t.testDb.dataDir, 'provisioning', 'files');
    const stored = (collection: string) => {
      const dir = path.join(filesDir(), collection);
      return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
    };

    it('uploads, lists and deletes files of every collection', async () => {
      for (const collection of ['firmware', 'ringtones', 'backgrounds', 'screensavers']) {
        expect((await call('GET', `${V1}/${collection}`)).json()).toEqual([]);
        const upload = multipartBody('Tone(1)_a-b.wav', 'RIFF....WAVE');
        const res = await t.app.inject({
          method: 'POST',
          url: `${V1}/${collection}`,
          headers: { ...t.headers, ...upload.headers },
          payload: upload.payload,
        });
        expect(res.statusCode, res.body).toBe(204);
        const list = (await call('GET', `${V1}/${collection}`)).json();
        expect(list).toEqual([{ name: 'Tone(1)_a-b.wav', size: 12, mtime: expect.any(Number) }]);
        // Stored under a generated name, never the client's.
        expect(stored(collection)).toHaveLength(1);
        expect(stored(collection)[0]).toMatch(/^[0-9a-f]{32}$/);
      }
      expect((await call('DELETE', `${V1}/ringtones/Tone(1)_a-b.wav`)).statusCode).toBe(204);
      expect((await call('GET', `${V1}/ringtones`)).json()).toEqual([]);
      expect(stored('ringtones')).toEqual([]);
      expectProblem(await call('DELETE', `${V1}/ringtones/Tone(1)_a-b.wav`), 404, 'prov_not_found');
      expectProblem(await call('GET', `${V1}/wallpapers`), 404, 'prov_not_found');
    });

    it('refuses bad uploads and writes nothing', async () => {
      const send = (collection: string, body: ReturnType<typeof multipartBody>) =>
        t.app.inject({
          method: 'POST',
          url: `${V1}/${collection}`,
          headers: { ...t.headers, ...body.headers },
          payload: body.payload,
        });
      for (const name of ['../evil.bin', '..%2Fevil.bin', 'a b.bin', 'x;y.bin', '..', 'dir/file.bin']) {
        expectProblem(await send('ringtones', multipartBody(name, 'data')), 400, 'upload_invalid_filename');
      }
      expectProblem(await send('ringtones', multipartBody('empty.wav', '')), 400, 'prov_upload_empty');
      const big = Buffer.alloc(PROVISIONING_FILE_LIMITS.ringtones + 1, 1);
      expectProblem(await send('ringtones', multipartBody('big.wav', big)), 413, 'prov_upload_too_large');
      // The background of the first test is still there: same name again is refused, not overwritten.
      const again = await send('backgrounds', multipartBody('Tone(1)_a-b.wav', 'different'));
      expectProblem(again, 409, 'prov_file_exists');
      expect((await call('GET', `${V1}/backgrounds`)).json()[0].size).toBe(12);
      const notMultipart = await call('POST', `${V1}/ringtones`, { file: 'x' });
      expectProblem(notMultipart, 415, 'unsupported_media_type');
      expect((await call('GET', `${V1}/ringtones`)).json()).toEqual([]);
      expect(stored('ringtones')).toEqual([]);
      expect(fs.readdirSync(path.join(filesDir(), 'ringtones')).filter((f) => f.endsWith('.part'))).toEqual([]);
    });
  });

  describe('connectivity check', () => {
    it('validates the host', async () => {
      expectProblem(
        await call('POST', '/api/provisioning/connectivitycheck', { host: 'not a host!', scheme: 'https' }),
        400,
        'prov_invalid_host',
      );
      expectProblem(
        await call('POST', '/api/provisioning/connectivitycheck', { host: 'pbx.example.com', scheme: 'ftp' }),
        400,
        'validation',
      );
    });

    it('reports a name that does not resolve as unreachable', async () => {
      const res = await call('POST', '/api/provisioning/connectivitycheck', {
        host: 'no-such-host.invalid',
        scheme: 'https',
      });
      expect(res.statusCode, res.body).toBe(200);
      // Encryption asked for, but without an HTTPS listener phones would use the HTTP port: that is tried.
      expect(res.json()).toEqual({
        is_reachable: false,
        valid_certificate: false,
        host_type: 'FQDN',
        url: 'http://no-such-host.invalid:8080/provisioning/check/ping',
        provisioning_url: 'http://no-such-host.invalid:8080/provisioning/',
        https_unavailable: true,
        failure: 'dns',
      });
    });
  });

  it('needs a key for every engine route', async () => {
    expectError(await t.app.inject({ method: 'GET', url: `${V1}/phones` }), 401, 'unauthorized');
    expectError(await t.app.inject({ method: 'GET', url: `${V1}/defaults` }), 401, 'unauthorized');
  });

  it("answers at the original's path /tancredi/api/v1 too, for existing clients and scripts", async () => {
    const OLD = '/tancredi/api/v1';
    expectError(await t.app.inject({ method: 'GET', url: `${OLD}/phones` }), 401, 'unauthorized');
    expectError(await t.app.inject({ method: 'GET', url: `${OLD}/unknown/deeper` }), 401, 'unauthorized');
    const created = await call('POST', `${OLD}/phones`, { mac: '00:15:65:12:34:56', model: 'yealink-T46' });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.headers.location).toBe(`${OLD}/phones/00-15-65-12-34-56`);
    // One engine behind both paths.
    expect((await call('GET', `${V1}/phones/00-15-65-12-34-56`)).json().model).toBe('yealink-T46');
    expect((await call('GET', `${OLD}/models`)).json()).toHaveLength(116);
    expectProblem(await call('GET', `${OLD}/models/no-such-model`), 404, 'prov_not_found');
    // The API document names each call once, at its own path.
    const doc = (await call('GET', '/api/docs/json')).json() as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/tancredi'))).toEqual([]);
    expect(Object.keys(doc.paths)).toContain(`${V1}/phones`);
  });
});
