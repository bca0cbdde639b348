import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DB_KINDS, expectError, useTestApp } from './helpers.ts';

const YEALINK = '80:5E:C0:12:34:56';
const SNOM = '00:04:13:AA:00:01';

describe.each(DB_KINDS)('old-mode phone configuration (%s)', (kind) => {
  const t = useTestApp(kind, { env: { PROVISIONING_ENGINE: 'freepbx' } });
  const call = (method: 'GET' | 'POST', url: string, payload?: unknown, lang?: string) =>
    t.app.inject({
      method,
      url,
      headers: { ...t.headers, ...(lang ? { 'accept-language': lang } : {}) },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const inventory = async () =>
    (await t.database.db.selectFrom('devices').select(['mac', 'vendor', 'model', 'user_id', 'extension']).execute())
      .map((r) => ({ ...r, user_id: r.user_id === null ? null : Number(r.user_id) }))
      .sort((a, b) => String(a.mac).localeCompare(String(b.mac)));

  it('needs a signed-in administrator for every call', async () => {
    for (const [method, url] of [
      ['GET', '/api/devices/phones/manufacturers'],
      ['GET', '/api/devices/phones/list'],
      ['POST', '/api/devices/phones/model'],
      ['POST', '/api/devices/phones/provision'],
    ] as const) {
      expectError(await t.app.inject({ method, url, payload: {} }), 401, 'unauthorized');
    }
  });

  it('sets up a user with extension 201', async () => {
    expect((await call('POST', '/api/configuration/mode', { mode: 'legacy' })).statusCode).toBe(200);
    for (let i = 0; i < 100 && (await call('GET', '/api/configuration/userprovider')).json().configured !== 1; i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    expect((await call('POST', '/api/users', { username: 'alice', fullname: 'Alice Rossi' })).statusCode).toBe(201);
    expect((await call('POST', '/api/mainextensions', { username: 'alice', extension: '201' })).statusCode).toBe(201);
  });

  it('lists the model names of each phone vendor', async () => {
    const res = await call('GET', '/api/devices/phones/manufacturers');
    expect(res.statusCode).toBe(200);
    const body = res.json() as Record<string, string[]>;
    expect(body['Yealink/Dreamwave']).toContain('yealink-T46');
    expect(body.Snom).toContain('snom-D120');
    expect(body.Nethesis).toContain('nethesis-NPX3');
    // Gateways are not configured here, and every listed name belongs to its vendor.
    expect(body.Patton).toBeUndefined();
    for (const name of body.Snom ?? []) expect(name).toMatch(/^snom-/);
  });

  it('refuses a bad model request in the caller’s language and changes nothing', async () => {
    const before = await inventory();
    const missing = expectError(await call('POST', '/api/devices/phones/model', { vendor: 'Snom' }), 400, 'validation');
    expect(Object.keys(missing.fields ?? {})).toEqual(expect.arrayContaining(['mac', 'model']));
    expectError(
      await call('POST', '/api/devices/phones/model', {
        mac: '80:5E:C0:12:34',
        vendor: 'Yealink/Dreamwave',
        model: 'x',
      }),
      400,
      'validation',
    );
    const wrongVendor = expectError(
      await call('POST', '/api/devices/phones/model', { mac: YEALINK, vendor: 'Snom', model: 'snom-D120' }, 'it'),
      400,
      'validation',
    );
    expect(wrongVendor.detail).toBe('Il MAC 80:5E:C0:12:34:56 è di un telefono Yealink/Dreamwave, non Snom');
    expect(wrongVendor.title).toBe('Richiesta non valida');
    const otherVendorsModel = expectError(
      await call('POST', '/api/devices/phones/model', {
        mac: YEALINK,
        vendor: 'Yealink/Dreamwave',
        model: 'snom-D120',
      }),
      400,
      'prov_unknown_model',
    );
    expect(otherVendorsModel.detail).toBe('This model is not a Yealink/Dreamwave model');
    expectError(
      await call('POST', '/api/devices/phones/model', { mac: '02:12:34:56:78:9A', vendor: 'Unknown', model: 'x' }),
      400,
      'validation',
    );
    expect(await inventory()).toEqual(before);
  });

  it('sets a model: a new phone joins the inventory, a linked phone keeps its user', async () => {
    const set = await call('POST', '/api/devices/phones/model', {
      mac: '80-5e-c0-12-34-56',
      vendor: 'Yealink/Dreamwave',
      model: 'yealink-T46',
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toEqual({ status: true });
    expect(await inventory()).toEqual([
      { mac: YEALINK, vendor: 'Yealink/Dreamwave', model: 'yealink-T46', user_id: null, extension: null },
    ]);

    const linked = (await call('POST', '/api/physicalextensions', { mainextension: '201', mac: YEALINK })).json();
    expect(
      (
        await call('POST', '/api/devices/phones/model', {
          mac: YEALINK,
          vendor: 'Yealink/Dreamwave',
          model: 'yealink-T54',
        })
      ).statusCode,
    ).toBe(200);
    const [row] = await inventory();
    expect(row).toMatchObject({ model: 'yealink-T54', extension: linked.extension });
    expect(row?.user_id).not.toBeNull();
  });

  it('lists phones with their lines and custom devices, without secrets', async () => {
    expect((await call('POST', '/api/physicalextensions', { mac: SNOM, model: null })).statusCode).toBe(200);
    const custom = (await call('POST', '/api/physicalextensions', { mainextension: '201', mac: null })).json();
    const res = await call('GET', '/api/devices/phones/list');
    expect(res.statusCode).toBe(200);
    const list = res.json() as Array<Record<string, unknown>>;
    expect(list).toContainEqual({
      model: 'custom',
      manufacturer: ' _',
      lines: [
        {
          extension: custom.extension,
          mainextension: '201',
          line: '1',
          username: 'alice',
          displayname: 'Alice Rossi',
          status: '4',
          statusText: 'Unavailable',
        },
      ],
    });
    const yealink = list.find((p) => p.mac === YEALINK);
    expect(yealink).toMatchObject({
      manufacturer: 'Yealink/Dreamwave',
      model: 'yealink-T54',
      lines: [{ mainextension: '201', username: 'alice', line: '1' }],
    });
    // A phone not linked to anyone has no line.
    expect(list.find((p) => p.mac === SNOM)).toEqual({ mac: SNOM, manufacturer: 'Snom', model: null, lines: [] });
    expect(res.body).not.toMatch(/secret|password/i);
  });

  it('lists a scanned phone with a stored model with its address from the scan', async () => {
    const scans = path.join(t.testDb.dataDir, 'scans');
    fs.mkdirSync(scans, { recursive: true });
    fs.writeFileSync(
      path.join(scans, '0123456789abcdef0123456789abcdef.phones.scan'),
      JSON.stringify([
        { mac: YEALINK, ipv4: '192.168.5.33', manufacturer: 'Yealink/Dreamwave', type: 'phone' },
        // Scanned but never given a model: not listed from the scan.
        { mac: '00:15:65:00:00:09', ipv4: '192.168.5.34', manufacturer: 'Yealink/Dreamwave', type: 'phone' },
      ]),
    );
    const list = (await call('GET', '/api/devices/phones/list')).json() as Array<Record<string, unknown>>;
    expect(list.filter((p) => p.mac === YEALINK)).toEqual([
      expect.objectContaining({ ipv4: '192.168.5.33', type: 'phone', model: 'yealink-T54' }),
    ]);
    expect(list.some((p) => p.mac === '00:15:65:00:00:09')).toBe(false);
  });

  it('provisions a phone: the engine gets it with its model and account', async () => {
    const res = await call('POST', '/api/devices/phones/provision', { mac: '805ec0123456' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ mac: YEALINK, model: 'yealink-T54' });
    const phone = await t.app.provisioning.phoneByMac('80-5E-C0-12-34-56');
    expect(phone?.model).toBe('yealink-T54');
    const [row] = (await inventory()).filter((r) => r.mac === YEALINK);
    expect(await t.app.provisioning.getPhoneAccounts(YEALINK)).toMatchObject([{ extension: row?.extension }]);

    // A later model change reaches the engine too.
    await call('POST', '/api/devices/phones/model', {
      mac: YEALINK,
      vendor: 'Yealink/Dreamwave',
      model: 'yealink-T46',
    });
    expect((await t.app.provisioning.phoneByMac('80-5E-C0-12-34-56'))?.model).toBe('yealink-T46');
  });

  it('refuses to provision an unknown phone, one without model, or a bad MAC, changing nothing', async () => {
    const engineBefore = (await t.app.provisioning.allPhones()).map((p) => p.mac);
    const unknown = expectError(
      await call('POST', '/api/devices/phones/provision', { mac: '00:15:65:00:00:01' }, 'it'),
      404,
      'not_found',
    );
    expect(unknown.detail).toBe('Nessun telefono con MAC 00:15:65:00:00:01');
    const noModel = expectError(await call('POST', '/api/devices/phones/provision', { mac: SNOM }), 409, 'validation');
    expect(noModel.detail).toBe('Choose the model of phone 00:04:13:AA:00:01 first');
    expectError(await call('POST', '/api/devices/phones/provision', { mac: 'nope' }), 400, 'validation');
    expectError(await call('POST', '/api/devices/phones/provision', {}), 400, 'validation');
    expect((await t.app.provisioning.allPhones()).map((p) => p.mac)).toEqual(engineBefore);
  });
});
