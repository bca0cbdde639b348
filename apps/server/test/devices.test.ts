import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { callAs, DB_KINDS, expectError, useTestApp } from './helpers.ts';

describe.each(DB_KINDS)('devices of users (%s)', (kind) => {
  const t = useTestApp(kind);
  const call = callAs(t);
  const alice = async () => (await call('GET', '/api/users/false?search=alice')).json()[0];
  /** A device's credentials: the list carries none, its own call answers them. */
  const credentials = async (extension: string) =>
    (await call('GET', `/api/extensions/${extension}/credentials`)).json();

  it('sets up a user with extension 201', async () => {
    expect((await call('POST', '/api/configuration/mode', { mode: 'legacy' })).statusCode).toBe(200);
    for (let i = 0; i < 100 && (await call('GET', '/api/configuration/userprovider')).json().configured !== 1; i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    expect((await call('POST', '/api/users', { username: 'alice', fullname: 'Alice Rossi' })).statusCode).toBe(201);
    expect((await call('POST', '/api/mainextensions', { username: 'alice', extension: '201' })).statusCode).toBe(201);
  });

  it('switches voicemail on with a 4-digit PIN and off', async () => {
    expect((await call('GET', '/api/voicemails/201')).json()).toBeNull();
    expect((await call('POST', '/api/voicemails', { extension: 201, state: 'yes' })).statusCode).toBe(200);
    const box = (await call('GET', '/api/voicemails/201')).json();
    expect(box).toMatchObject({ mailbox: '201', name: 'Alice Rossi' });
    expect(box.pwd).toMatch(/^\d{4}$/);
    expectError(await call('POST', '/api/voicemails', { extension: '299', state: 'yes' }), 404, 'user_not_found');
  });

  it('keeps the mobile number as typed (a leading + stays), without separators, and refuses letters', async () => {
    expect((await call('POST', '/api/mobiles', { username: 'alice', mobile: '+39 333 123 4567' })).statusCode).toBe(
      200,
    );
    expect((await call('GET', '/api/mobiles/alice')).json()).toBe('+393331234567');
    // The per-user screen fills its field from the users list: the same number comes back there.
    expect((await alice()).mobile).toBe('+393331234567');
    expectError(await call('POST', '/api/mobiles', { username: 'alice', mobile: '333 abc' }), 400, 'validation');
    expect((await call('GET', '/api/mobiles/alice')).json()).toBe('+393331234567');
    expect((await call('POST', '/api/mobiles', { username: 'alice', mobile: '0039 333-123.4567' })).statusCode).toBe(
      200,
    );
    expect((await call('GET', '/api/mobiles/alice')).json()).toBe('00393331234567');
    expect((await call('POST', '/api/mobiles', { username: 'alice', mobile: '+39 333 123 4567' })).statusCode).toBe(
      200,
    );
  });

  it('numbers devices N, 91N, 92N…: web phone first, then mobile app and desktop client', async () => {
    const web = await call('POST', '/api/webrtc', { extension: '201' });
    expect(web.json()).toEqual({ extension: '201', mobile_extension: null });
    // Switching it on again answers the same device.
    expect((await call('POST', '/api/webrtc', { extension: '201' })).json().extension).toBe('201');
    expect((await call('POST', '/api/mobileapp', { mainextension: '201' })).json()).toEqual({ extension: '91201' });
    expect((await call('POST', '/api/nethlink', { extension: 201 })).json().extension).toBe('92201');
    expect((await call('GET', '/api/webrtc/201')).json()).toBe('201');
    expect((await call('GET', '/api/mobileapp/201')).json()).toBe('91201');
    const devices = (await alice()).devices as { type: string; extension: string }[];
    expect(devices.map((d) => [d.type, d.extension])).toEqual([
      ['webrtc', '201'],
      ['mobile', '91201'],
      ['nethlink', '92201'],
    ]);
    for (const d of devices) {
      expect(d).not.toHaveProperty('secret');
      expect(d).not.toHaveProperty('web_password');
      expect((await credentials(d.extension)).secret.length).toBeGreaterThanOrEqual(16);
    }
    expectError(await call('GET', '/api/extensions/299/credentials'), 404, 'not_found');
  });

  it('renders the devices into the PBX configuration: web phone on the main number, others on 9xN', async () => {
    let status: { state: string; directory: string; last: { ok: boolean } | null } | undefined;
    for (let i = 0; i < 200; i++) {
      status = (await call('GET', '/api/pbx/apply')).json();
      if (status?.state === 'idle') break;
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(status?.last?.ok).toBe(true);
    const pjsip = fs.readFileSync(path.join(status?.directory as string, 'pjsip.users.2xx.conf'), 'utf8');
    const devices = (await alice()).devices as { extension: string }[];
    expect(pjsip).toContain('[201](device-endpoint-webrtc)');
    for (const d of devices) {
      expect(pjsip).toContain(`[${d.extension}-auth]`);
      expect(pjsip).toContain(`password = ${(await credentials(d.extension)).secret}`);
    }
    expect(pjsip).toContain('[91201]');
    expect(pjsip).toContain('[92201]');
  });

  it('adds a phone to the inventory, links it, and refuses a second link', async () => {
    expect(
      (await call('POST', '/api/physicalextensions', { mac: '80-5e-c0-12-34-56', model: 'yealink-T54W' })).statusCode,
    ).toBe(200);
    expectError(await call('POST', '/api/physicalextensions', { mac: '80:5E:C0:12:34:56' }), 409, 'phone_exists');
    expectError(await call('POST', '/api/physicalextensions', { mac: '80:5E:C0:12:34' }), 400, 'validation');
    const linked = await call('POST', '/api/physicalextensions', { mainextension: '201', mac: '805EC0123456' });
    expect(linked.json()).toEqual({ extension: '93201' });
    expectError(
      await call('POST', '/api/physicalextensions', { mainextension: '201', mac: '80:5E:C0:12:34:56' }),
      409,
      'phone_linked',
    );
    const phone = (await alice()).devices.find((d: { mac: string | null }) => d.mac === '80:5E:C0:12:34:56');
    expect(phone).toMatchObject({ type: 'physical', model: 'yealink-T54W', extension: '93201' });
  });

  it("records the phones' new web admin password for every inventory phone", async () => {
    expect((await call('POST', '/api/physicalextensions/adminpw', { password: 'N3wPh0nePw' })).statusCode).toBe(200);
    const phone = (await alice()).devices.find((d: { mac: string | null }) => d.mac === '80:5E:C0:12:34:56');
    expect(phone).toMatchObject({ web_user: 'admin' });
    expect(phone).not.toHaveProperty('web_password');
    expect(await credentials(phone.extension)).toMatchObject({ web_user: 'admin', web_password: 'N3wPh0nePw' });
    expectError(await call('POST', '/api/physicalextensions/adminpw', { password: '' }), 400, 'validation');
  });

  it('switches encryption per device', async () => {
    expect((await call('GET', '/api/extensions/93201/srtp')).json()).toBe(false);
    expect((await call('POST', '/api/extensions/93201/srtp/true')).statusCode).toBe(200);
    expect((await call('GET', '/api/extensions/93201/srtp')).json()).toBe(true);
    expect((await call('POST', '/api/extensions/93201/srtp/false')).statusCode).toBe(200);
    expect((await call('GET', '/api/extensions/93201/srtp')).json()).toBe(false);
    expectError(await call('POST', '/api/extensions/55555/srtp/true'), 404, 'not_found');
  });

  it('stops at 7 devices with the limit message, changing nothing', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await call('POST', '/api/physicalextensions', { mainextension: '201', mac: null });
      expect(res.statusCode, res.body).toBe(200);
    }
    expect((await alice()).devices).toHaveLength(7);
    const eighth = expectError(
      await call('POST', '/api/physicalextensions', { mainextension: '201' }),
      409,
      'devices_limit',
    );
    expect(eighth.detail).toBe('Devices limit reached. An user can have up to 7 devices associated');
    expect((await alice()).devices).toHaveLength(7);
  });

  it('unlinks a phone back to the inventory and deletes other devices', async () => {
    expect((await call('DELETE', '/api/physicalextensions/93201')).statusCode).toBe(200);
    const inventory = (await call('GET', '/api/physicalextensions')).json();
    expect(inventory).toEqual([
      { mac: '80:5E:C0:12:34:56', vendor: 'Yealink/Dreamwave', model: 'yealink-T54W', extension: null, user_id: null },
    ]);
    expect((await call('DELETE', '/api/mobileapp/91201')).statusCode).toBe(204);
    expect((await call('DELETE', '/api/webrtc/201')).statusCode).toBe(200);
    expect((await call('GET', '/api/webrtc/201')).json()).toBeNull();
    expect((await alice()).devices.map((d: { type: string }) => d.type)).toEqual([
      'nethlink',
      'physical',
      'physical',
      'physical',
    ]);
    expect(
      (await call('PATCH', '/api/physicalextensions/80-5E-C0-12-34-56', { model: 'yealink-T46U' })).statusCode,
    ).toBe(200);
    expect((await call('DELETE', '/api/physicalextensions/80:5e:c0:12:34:56')).statusCode).toBe(200);
    expect((await call('GET', '/api/physicalextensions')).json()).toEqual([]);
  });

  it('hands a linked phone its account in the provisioning engine, and takes it back on unlink', async () => {
    const mac = '00-15-65-AA-BB-CC';
    expect((await call('POST', '/api/provisioning/v1/phones', { mac, model: 'yealink-T46' })).statusCode).toBeLessThan(
      300,
    );
    expect((await call('POST', '/api/physicalextensions', { mac, model: 'yealink-T46' })).statusCode).toBe(200);
    const linked = (await call('POST', '/api/physicalextensions', { mainextension: '201', mac })).json();
    const device = (await alice()).devices.find((d: { mac: string | null }) => d.mac === '00:15:65:AA:BB:CC');
    expect(await t.app.provisioning.getPhoneAccounts(mac)).toMatchObject([
      { extension: linked.extension, secret: (await credentials(device.extension)).secret, srtp: false },
    ]);
    expect((await call('POST', `/api/extensions/${linked.extension}/srtp/true`)).statusCode).toBe(200);
    expect(await t.app.provisioning.getPhoneAccounts(mac)).toMatchObject([{ extension: linked.extension, srtp: true }]);
    expect((await call('DELETE', `/api/physicalextensions/${linked.extension}`)).statusCode).toBe(200);
    expect(await t.app.provisioning.getPhoneAccounts(mac)).toEqual([]);
  });

  it('a new main number starts without devices, and its phones stop getting the old account', async () => {
    const mac = '00-15-65-AA-BB-CC';
    const linked = (await call('POST', '/api/physicalextensions', { mainextension: '201', mac })).json();
    expect(await t.app.provisioning.getPhoneAccounts(mac)).toMatchObject([{ extension: linked.extension }]);
    expect((await call('POST', '/api/mainextensions', { username: 'alice', extension: '202' })).statusCode).toBe(201);
    expect((await alice()).devices).toEqual([]);
    expect(await t.app.provisioning.getPhoneAccounts(mac)).toEqual([]);
    const inventory = (await call('GET', '/api/physicalextensions')).json();
    expect(inventory).toContainEqual(expect.objectContaining({ mac: '00:15:65:AA:BB:CC', extension: null }));
  });

  it('a CSV import that renumbers a user releases the phones too', async () => {
    const mac = '00-15-65-AA-BB-CC';
    const linked = (await call('POST', '/api/physicalextensions', { mainextension: '202', mac })).json();
    expect(linked.extension).toBe('202');
    const file = 'username,fullname,extension\nalice,Alice Rossi,203\n';
    const dataUrl = `data:text/csv;base64,${Buffer.from(file).toString('base64')}`;
    expect((await call('POST', '/api/csv/csvimport', { file: dataUrl })).statusCode).toBe(200);
    for (let i = 0; i < 200 && (await call('GET', '/api/csv/csvimport')).json().result !== 100; i++) {
      await new Promise((r) => setTimeout(r, 25));
    }
    expect((await alice()).default_extension).toBe('203');
    expect((await alice()).devices).toEqual([]);
    expect(await t.app.provisioning.getPhoneAccounts(mac)).toEqual([]);
  });
});
