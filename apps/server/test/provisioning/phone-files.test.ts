import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { DB_KINDS, useTestApp } from '../helpers.ts';
import { multipartBody } from './support.ts';

const V1 = '/api/provisioning/v1';

describe.each(DB_KINDS)('files phones download (%s)', (kind) => {
  // TFTP off: several suites listen at once.
  const t = useTestApp(kind, { env: { TFTP_PORT: '0' } });
  let origin = '';
  const api = async (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) => {
    const res = await t.app.inject({
      method,
      url,
      headers: t.headers,
      ...(payload ? { payload: payload as object } : {}),
    });
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
    return res.body ? res.json() : undefined;
  };
  /** Fetches over a real socket, as a phone does. */
  const fetchAs = (path: string, userAgent: string) =>
    fetch(`${origin}${path}`, { headers: { 'user-agent': userAgent } });

  const YEALINK = '00-15-65-AA-BB-CC';
  const YEALINK_UA = 'Yealink SIP-T46S 66.86.0.15 00:15:65:aa:bb:cc';

  it('is served over HTTP without login', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    // Behind a TLS proxy on 443: the address names the port, so the URLs name none.
    await api('PATCH', `${V1}/defaults`, {
      hostname: 'pbx.example.com:443',
      provisioning_url_scheme: 'https',
      adminpw: 'webadmin99',
      userpw: 'webuser',
      ui_first_config: '',
    });
    const ping = await fetchAs('/provisioning/check/ping', 'probe');
    expect(ping.status).toBe(200);
    expect(typeof (await ping.json())).toBe('number');
  });

  it('gives a phone its file with its SIP account, first with tok1, then with tok2 which retires tok1', async () => {
    const phone = await api('POST', `${V1}/phones`, {
      mac: YEALINK,
      model: 'yealink-T46',
      display_name: 'Yealink/Dreamwave',
    });
    await t.app.provisioning.setPhoneAccounts(YEALINK, [
      { extension: '91201', secret: 'Sip-Secret-201', displayName: 'Mario Rossi <201>', srtp: true, voicemail: '*97' },
    ]);
    expect(await t.app.provisioning.getPhoneAccounts(YEALINK)).toMatchObject([{ extension: '91201', srtp: true }]);

    const first = await fetchAs(`/provisioning/${phone.tok1}/001565aabbcc.cfg`, YEALINK_UA);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(first.headers.get('cache-control')).toBe('private');
    const body = await first.text();
    expect(body).toMatch(/^#!version:1\.0\.0\.1\n/);
    expect(body).toContain('account.1.user_name = 91201');
    expect(body).toContain('account.1.password = Sip-Secret-201');
    expect(body).toContain('account.1.display_name = Mario Rossi <201>');
    expect(body).toContain('account.1.sip_server.1.address = pbx.example.com');
    expect(body).toContain('account.1.sip_server.1.port = 5061');
    expect(body).toContain('account.1.sip_server.1.transport_type = 2');
    expect(body).toContain('account.1.srtp_encryption = 2');
    expect(body).toContain('static.security.user_password = admin:webadmin99');
    // The phone is told to come back with its steady-state token.
    expect(body).toContain(`static.auto_provision.server.url = https://pbx.example.com/provisioning/${phone.tok2}\n`);
    expect(body).toContain('static.auto_provision.repeat.minutes = 1\n');
    expect((await api('GET', `${V1}/phones/${YEALINK}`)).provisioning_url1).not.toBeNull();

    const steady = await fetchAs(`/provisioning/${phone.tok2}/001565aabbcc.cfg`, YEALINK_UA);
    expect(steady.status).toBe(200);
    expect(await steady.text()).toContain('static.auto_provision.repeat.minutes = 1440\n');
    const after = await api('GET', `${V1}/phones/${YEALINK}`);
    expect(after.tok1).toBeNull();
    expect(after.provisioning_url1).toBeNull();
    expect((await fetchAs(`/provisioning/${phone.tok1}/001565aabbcc.cfg`, YEALINK_UA)).status).toBe(404);
  });

  it('blanks every credential without a token and never hands out tok2', async () => {
    const phone = await api('GET', `${V1}/phones/${YEALINK}`);
    // Token-less files go only to the networks allowed to bootstrap (tokenless.test.ts covers the rest).
    expect((await fetchAs('/provisioning/001565aabbcc.cfg', YEALINK_UA)).status).toBe(404);
    await api('PATCH', `${V1}/defaults`, { provisioning_tokenless_networks: '127.0.0.1' });
    const res = await fetchAs('/provisioning/001565aabbcc.cfg', YEALINK_UA);
    expect(res.status).toBe(200);
    const body = await res.text();
    expect(body).not.toContain('Sip-Secret-201');
    expect(body).not.toContain('webadmin99');
    expect(body).not.toContain(phone.tok2);
    expect(body).toContain('account.1.password = \n');
    expect((await fetchAs('/provisioning/001565000000.cfg', YEALINK_UA)).status).toBe(404);
  });

  it('refuses unknown tokens, another phone\u2019s token and path tricks', async () => {
    const snom = await api('POST', `${V1}/phones`, { mac: '00-04-13-11-22-33', model: 'snom-D785' });
    const yealink = await api('GET', `${V1}/phones/${YEALINK}`);
    expect((await fetchAs(`/provisioning/${snom.tok2}/000413112233.xml`, 'snomD785-SIP/10.1')).status).toBe(200);
    // Snom's token does not open the Yealink's file, nor the other way round.
    expect((await fetchAs(`/provisioning/${snom.tok2}/001565aabbcc.cfg`, YEALINK_UA)).status).toBe(404);
    expect((await fetchAs(`/provisioning/${yealink.tok2}/000413112233.xml`, 'snomD785-SIP/10.1')).status).toBe(404);
    for (const path of [
      '/provisioning/00000000000000000000000000000000/001565aabbcc.cfg',
      `/provisioning/${yealink.tok2}/..%2F..%2Fcentralino.db`,
      `/provisioning/${yealink.tok2}/%2e%2e%2fcentralino.db`,
      `/provisioning/${yealink.tok2}/firmware/..%2F..%2F..%2Fcentralino.db`,
      `/provisioning/${yealink.tok2}/ringtones/%2e%2e`,
      `/provisioning/${yealink.tok2}/etc/passwd`,
      '/provisioning/..%2F..%2Fetc%2Fpasswd',
      `/provisioning/${yealink.tok2}/y000000000028.cfg`,
      `/provisioning/${yealink.tok2.toUpperCase()}/001565aabbcc.cfg`,
    ]) {
      const res = await fetchAs(path, YEALINK_UA);
      expect(res.status, path).toBe(404);
      expect(await res.text(), path).not.toContain('Sip-Secret-201');
    }
  });

  it('renders changes at once: phone keys, defaults, model and accounts', async () => {
    const { tok2 } = await api('GET', `${V1}/phones/${YEALINK}`);
    const get = async () => (await fetchAs(`/provisioning/${tok2}/001565aabbcc.cfg`, YEALINK_UA)).text();
    expect(await get()).not.toContain('linekey.3.value = 202');
    await api('PATCH', `${V1}/phones/${YEALINK}`, { variables: { linekey_type_3: 'blf', linekey_value_3: '202' } });
    expect(await get()).toContain('linekey.3.type = 16\nlinekey.3.line = 1\nlinekey.3.value = 202');
    await api('PATCH', `${V1}/defaults`, { ntp_server: 'ntp.example.org', language: 'en' });
    expect(await get()).toContain('local_time.ntp_server1 = ntp.example.org');
    await api('PATCH', `${V1}/models/yealink-T46`, { variables: { softkey_type_1: 'dnd' } });
    expect(await get()).toContain('programablekey.1.type = 5');
    await t.app.provisioning.setPhoneAccounts(YEALINK, [
      { extension: '91201', secret: 'New-Secret', displayName: 'Mario Rossi <201>', srtp: false },
    ]);
    const body = await get();
    expect(body).toContain('account.1.password = New-Secret');
    expect(body).toContain('account.1.sip_server.1.port = 5060');
    expect(body).toContain('account.1.sip_server.1.transport_type = 0');
    await expect(t.app.provisioning.setPhoneAccounts('00-15-65-00-00-09', [])).rejects.toMatchObject({
      statusCode: 404,
    });
    await expect(
      t.app.provisioning.setPhoneAccounts(YEALINK, [{ extension: '9\n1', secret: 'x', displayName: 'y' }]),
    ).rejects.toMatchObject({ statusCode: 400 });
  });

  it('answers a repeated fetch from memory with the same bytes and headers, and forgets it on a change', async () => {
    const { tok1, tok2 } = await api('GET', `${V1}/phones/${YEALINK}`);
    expect(tok1).toBeNull();
    const path = `/provisioning/${tok2}/001565aabbcc.cfg`;
    const first = await fetchAs(path, YEALINK_UA);
    const firstBody = await first.text();
    const again = await fetchAs(path, YEALINK_UA);
    // Answered before Fastify (no request id), with the same headers otherwise.
    expect(again.headers.get('x-request-id')).toBeNull();
    expect(await again.text()).toBe(firstBody);
    for (const name of ['content-type', 'cache-control', 'x-content-type-options', 'x-frame-options']) {
      expect(again.headers.get(name), name).toBe(first.headers.get(name));
    }
    expect(again.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(Number(again.headers.get('content-length'))).toBe(Buffer.byteLength(firstBody));

    await api('PATCH', `${V1}/phones/${YEALINK}`, { variables: { linekey_value_3: '203' } });
    expect(await (await fetchAs(path, YEALINK_UA)).text()).toContain('linekey.3.value = 203');

    // Token-less twice: never from memory in front of Fastify (the answer depends on the client's address),
    // still without any credential the second time.
    await fetchAs('/provisioning/001565aabbcc.cfg', YEALINK_UA);
    const tokenless = await fetchAs('/provisioning/001565aabbcc.cfg', YEALINK_UA);
    expect(tokenless.status).toBe(200);
    expect(tokenless.headers.get('x-request-id')).not.toBeNull();
    const blanked = await tokenless.text();
    expect(blanked).not.toContain('New-Secret');
    expect(blanked).not.toContain(tok2);

    // A new first-access token: the phone's files are rendered again in the background; the steady-state
    // token, answered from memory or not, still retires it.
    await api('POST', `${V1}/phones/${YEALINK}/tok1`);
    const renewed = (await api('GET', `${V1}/phones/${YEALINK}`)).tok1 as string;
    expect((await fetchAs(`/provisioning/${renewed}/001565aabbcc.cfg`, YEALINK_UA)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1500));
    expect((await fetchAs(path, YEALINK_UA)).status).toBe(200);
    expect((await api('GET', `${V1}/phones/${YEALINK}`)).tok1).toBeNull();
    expect((await fetchAs(`/provisioning/${renewed}/001565aabbcc.cfg`, YEALINK_UA)).status).toBe(404);
    // Another phone's token still does not open this phone's file, from memory or not.
    const snom = await api('GET', `${V1}/phones/00-04-13-11-22-33`);
    expect((await fetchAs(`/provisioning/${snom.tok2}/001565aabbcc.cfg`, YEALINK_UA)).status).toBe(404);
  });

  it('serves uploaded files to phones with a valid token only', async () => {
    const upload = multipartBody('bell.wav', 'RIFF-bell-bytes');
    const res = await t.app.inject({
      method: 'POST',
      url: `${V1}/ringtones`,
      headers: { ...t.headers, ...upload.headers },
      payload: upload.payload,
    });
    expect(res.statusCode, res.body).toBe(204);
    await api('PATCH', `${V1}/phones/${YEALINK}`, { variables: { ringtone: '-1', ringtone_file: 'bell.wav' } });
    const { tok2 } = await api('GET', `${V1}/phones/${YEALINK}`);
    const config = await (await fetchAs(`/provisioning/${tok2}/001565aabbcc.cfg`, YEALINK_UA)).text();
    expect(config).toContain(`ringtone.url = https://pbx.example.com/provisioning/${tok2}/ringtones/bell.wav`);
    const asset = await fetchAs(`/provisioning/${tok2}/ringtones/bell.wav`, YEALINK_UA);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toBe('application/octet-stream');
    expect(await asset.text()).toBe('RIFF-bell-bytes');
    expect((await fetchAs('/provisioning/00000000000000000000000000000000/ringtones/bell.wav', 'x')).status).toBe(404);
    expect((await fetchAs(`/provisioning/${tok2}/ringtones/other.wav`, 'x')).status).toBe(404);
    expect((await fetchAs(`/provisioning/${tok2}/wallpapers/bell.wav`, 'x')).status).toBe(404);
  });

  it('renders the file each vendor asks for', async () => {
    const phones = [
      {
        mac: '00-04-13-E5-00-01',
        model: 'gigaset-P820',
        file: '000413e50001.xml',
        type: 'text/xml',
        expect: '<user_pass idx="1" perm="RW">pw</user_pass>',
      },
      {
        mac: '7C-2F-80-00-00-01',
        model: 'gigaset-Maxwell3',
        file: '7c2f80000001.xml',
        type: 'text/xml',
        expect: 'name="SipAccount.0.AuthPassword" value="pw"',
      },
      {
        mac: '0C-38-3E-00-00-01',
        model: 'fanvil-X4U',
        file: '0c383e000001.cfg',
        type: 'text/plain',
        expect: 'SIP1 Register Pswd      :pw',
      },
      {
        mac: '00-A8-5A-00-00-01',
        model: 'fanvil-X6U',
        file: '00a85a000001.cfg',
        type: 'text/plain',
        expect: 'SIP1 Register Pswd      :pw',
      },
      {
        mac: 'E0-E6-56-03-00-01',
        model: 'nethesis-NPV61',
        file: 'e0e656030001.cfg',
        type: 'text/plain',
        expect: 'SIP1 Register Pswd      :pw',
      },
      {
        mac: '00-50-58-00-00-01',
        model: 'sangoma-S705',
        file: 'cfg005058000001.xml',
        type: 'text/xml',
        expect: '<Password>pw</Password>',
      },
      {
        mac: '0C-11-05-00-00-01',
        model: 'akuvox-SPR50P',
        file: '0c1105000001.cfg',
        type: 'text/plain',
        expect: 'Config.Account1.GENERAL.Pwd = pw',
      },
      {
        mac: '00-0B-82-00-00-01',
        model: null,
        file: 'cfg000b82000001.xml',
        type: 'text/xml',
        expect: '<item name="account.1.sip.subscriber.password">pw</item>',
      },
      {
        mac: '80-5E-C0-00-00-01',
        model: null,
        file: '805ec0000001.cfg',
        type: 'text/plain',
        expect: 'account.1.password = pw',
      },
    ];
    for (const p of phones) {
      const phone = await api('POST', `${V1}/phones`, { mac: p.mac, model: p.model });
      await t.app.provisioning.setPhoneAccounts(p.mac, [{ extension: '202', secret: 'pw', displayName: 'Anna <202>' }]);
      const res = await fetchAs(`/provisioning/${phone.tok1}/${p.file}`, 'Phone/1.0');
      expect(res.status, p.file).toBe(200);
      expect(res.headers.get('content-type'), p.file).toBe(`${p.type}; charset=utf-8`);
      expect(await res.text(), p.file).toContain(p.expect);
    }
    const nethesis = await api('GET', `${V1}/phones/E0-E6-56-03-00-01`);
    expect((await fetchAs(`/provisioning/${nethesis.tok2}/nethesis_np_x5_hwv1_0.txt`, 'Nethesis NP-X5')).status).toBe(
      200,
    );
    const snom = await api('GET', `${V1}/phones/00-04-13-11-22-33`);
    expect(await (await fetchAs(`/provisioning/${snom.tok2}/snom-firmware.xml`, 'snomD785')).text()).toContain(
      '<firmware-settings>',
    );
    // A phone without a model whose vendor has no template gets nothing.
    const unknown = await api('POST', `${V1}/phones`, { mac: '12-34-56-00-00-01' });
    expect((await fetchAs(`/provisioning/${unknown.tok1}/123456000001.cfg`, 'Unknown')).status).toBe(404);
  });
  it('serves the committed file after a change: a fetch during the change does not keep the old one', async () => {
    const mac = '00-15-65-00-0C-01';
    const phone = await api('POST', `${V1}/phones`, { mac, model: 'yealink-T46' });
    const file = `/provisioning/${phone.tok1}/001565000c01.cfg`;
    await t.app.provisioning.setPhoneAccounts(mac, [{ extension: '301', secret: 'Old-Secret-301', displayName: 'A' }]);
    expect(await (await fetchAs(file, YEALINK_UA)).text()).toContain('Old-Secret-301');
    const accounts = JSON.stringify([{ extension: '301', secret: 'New-Secret-301', displayName: 'A' }]);
    await t.app.provisioning.db.transaction().execute(async (trx) => {
      await trx.updateTable('prov_phones').set({ accounts }).where('mac', '=', mac).execute();
      await t.app.provisioning.phonesChanged(trx, [mac]);
      // On PostgreSQL a phone may fetch while the change is not yet committed: it gets the file as it stood
      // (SQLite has one connection, so a fetch there would wait for this transaction: not tried).
      if (kind === 'postgres') expect(await (await fetchAs(file, YEALINK_UA)).text()).toContain('Old-Secret-301');
    });
    // Once committed, the phone's next fetch has the new account (the file rendered meanwhile was not kept).
    await expect
      .poll(async () => (await (await fetchAs(file, YEALINK_UA)).text()).includes('New-Secret-301'), { timeout: 5000 })
      .toBe(true);
  });
});
