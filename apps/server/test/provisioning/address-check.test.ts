import https from 'node:https';
import net, { type AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { closeHttps, listenHttps, tlsFiles } from '../../src/plugins/https-listener.ts';
import { DB_KINDS, useTestApp } from '../helpers.ts';
import { expectProblem } from './support.ts';

const V1 = '/api/provisioning/v1';
const YEALINK = '00-15-65-AA-BB-CC';

/** GET over https without verifying the (self-signed) certificate. */
function httpsGet(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    https
      .get(url, { rejectUnauthorized: false, agent: false }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on('error', reject);
  });
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe.each(DB_KINDS)('PBX address and provisioning URL, HTTP only (%s)', (kind) => {
  const t = useTestApp(kind);
  let port = 0;
  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown, lang = 'en') =>
    t.app.inject({
      method,
      url,
      headers: { ...t.headers, 'accept-language': lang },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  it('gives phones of a fresh install the URL of the listener that serves their files', async () => {
    await t.app.listen({ port: 0, host: '0.0.0.0' });
    port = (t.app.server.address() as AddressInfo).port;
    const host = t.app.provisioning.serverHost;
    expect(host).not.toBe('');
    const defaults = (await call('GET', `${V1}/defaults`)).json();
    // No HTTPS listener: encryption starts off, and the address is empty (the server's own).
    expect(defaults.provisioning_url_scheme).toBe('http');
    expect(defaults.hostname).toBeUndefined();
    const phone = (await call('POST', `${V1}/phones`, { mac: YEALINK, model: 'yealink-T46' })).json();
    expect(phone.provisioning_url1).toBe(`http://${host}:${port}/provisioning/${phone.tok1}`);
    // The URL really works: the phone appends its file name (contract §4.2).
    const file = await fetch(`${phone.provisioning_url1}/001565aabbcc.cfg`);
    expect(file.status).toBe(200);
    expect(await file.text()).toContain(`static.auto_provision.server.url = http://${host}:${port}/provisioning/`);
  });

  it('checks exactly that URL, the empty address and the server’s own IP included', async () => {
    const host = t.app.provisioning.serverHost;
    const own = (await call('POST', '/api/provisioning/connectivitycheck', { host: '', scheme: 'http' })).json();
    expect(own).toEqual({
      is_reachable: true,
      valid_certificate: true,
      host_type: net.isIP(host) ? 'IP' : 'FQDN',
      url: `http://${host}:${port}/provisioning/check/ping`,
      provisioning_url: `http://${host}:${port}/provisioning/`,
      https_unavailable: false,
    });
    expect(net.isIPv4(host) && host.startsWith('127.')).toBe(false);
    // Encryption without an HTTPS listener: phones would use the HTTP port, and the answer says so.
    expect((await call('POST', '/api/provisioning/connectivitycheck', { host, scheme: 'https' })).json()).toMatchObject(
      {
        is_reachable: true,
        https_unavailable: true,
        url: `http://${host}:${port}/provisioning/check/ping`,
      },
    );
  });

  it('calls a loopback address unreachable, whatever answers there: no phone can ever reach it (en + it)', async () => {
    for (const loopback of ['127.0.0.1', 'localhost', '127.0.1.1']) {
      const res = (
        await call('POST', '/api/provisioning/connectivitycheck', { host: loopback, scheme: 'http' })
      ).json();
      expect(res, loopback).toMatchObject({ is_reachable: false, failure: 'loopback' });
    }
    const body = { hostname: '127.0.0.1', provisioning_url_scheme: 'http' };
    const refused = expectProblem(
      await call('PATCH', '/api/provisioning/defaults', body),
      400,
      'prov_unreachable_address',
    );
    expect(refused.detail).toContain('loopback address, which no phone can reach');
    const italian = expectProblem(
      await call('PATCH', '/api/provisioning/defaults', body, 'it'),
      400,
      'prov_unreachable_address',
    );
    expect(italian.detail).toContain('che nessun telefono può raggiungere');
    expect((await call('GET', `${V1}/defaults`)).json().hostname).toBeUndefined();
  });

  it('refuses to save an address phones cannot reach, naming the URL tried (en + it)', async () => {
    const closed = await freePort();
    const host = t.app.provisioning.serverHost;
    const body = { hostname: `${host}:${closed}`, provisioning_url_scheme: 'http', language: 'en' };
    const refused = expectProblem(
      await call('PATCH', '/api/provisioning/defaults', body),
      400,
      'prov_unreachable_address',
    );
    expect(refused.detail).toContain(`http://${host}:${closed}/provisioning/check/ping`);
    expect(refused.detail).toContain('nothing listens on that port');
    const italian = expectProblem(
      await call('PATCH', '/api/provisioning/defaults', body, 'it'),
      400,
      'prov_unreachable_address',
    );
    expect(italian.detail).toContain(`http://${host}:${closed}/provisioning/check/ping`);
    expect(italian.detail).toContain('nessun servizio in ascolto');
    expectProblem(
      await call('PATCH', '/api/provisioning/defaults', { hostname: 'not a host!' }),
      400,
      'prov_invalid_host',
    );
    // Nothing was written.
    const defaults = (await call('GET', `${V1}/defaults`)).json();
    expect(defaults.hostname).toBeUndefined();
    expect(defaults.language).toBe('it');
  });

  it('saves an address that works, and phones then get it with the console’s port', async () => {
    const host = t.app.provisioning.serverHost;
    const res = await call('PATCH', '/api/provisioning/defaults', { hostname: ` ${host} `, ui_first_config: '' });
    expect(res.statusCode, res.body).toBe(204);
    const defaults = (await call('GET', `${V1}/defaults`)).json();
    expect(defaults).toMatchObject({ hostname: host, ui_first_config: '' });
    const phone = (await call('GET', `${V1}/phones/${YEALINK}`)).json();
    expect(phone.provisioning_url1).toBe(`http://${host}:${port}/provisioning/${phone.tok1}`);
    expect((await fetch(`${phone.provisioning_url1}/001565aabbcc.cfg`)).status).toBe(200);
    // Saving other settings checks again, and an empty address (the server's own) is checked too.
    expect((await call('PATCH', '/api/provisioning/defaults', { hostname: '' })).statusCode).toBe(204);
  });

  it('gives new phones of users the default encryption', async () => {
    expect((await call('POST', '/api/configuration/mode', { mode: 'legacy' })).statusCode).toBe(200);
    for (let i = 0; i < 100 && (await call('GET', '/api/configuration/userprovider')).json().configured !== 1; i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    expect((await call('POST', '/api/users', { username: 'alice', fullname: 'Alice Rossi' })).statusCode).toBe(201);
    expect((await call('POST', '/api/mainextensions', { username: 'alice', extension: '201' })).statusCode).toBe(201);

    expect((await call('PATCH', `${V1}/defaults`, { provisioning_url_scheme: 'https' })).statusCode).toBe(204);
    const encrypted = (await call('POST', '/api/physicalextensions', { mainextension: '201', mac: YEALINK })).json();
    expect((await call('GET', `/api/extensions/${encrypted.extension}/srtp`)).json()).toBe(true);
    expect(await t.app.provisioning.getPhoneAccounts(YEALINK)).toMatchObject([{ srtp: true }]);
    // A custom device (no MAC) of the same user follows it too.
    const custom = (await call('POST', '/api/physicalextensions', { mainextension: '201' })).json();
    expect((await call('GET', `/api/extensions/${custom.extension}/srtp`)).json()).toBe(true);

    expect((await call('PATCH', `${V1}/defaults`, { provisioning_url_scheme: 'http' })).statusCode).toBe(204);
    const mac = '00-15-65-AA-BB-CD';
    const plain = (await call('POST', '/api/physicalextensions', { mainextension: '201', mac })).json();
    expect((await call('GET', `/api/extensions/${plain.extension}/srtp`)).json()).toBe(false);
  });
});

const httpsPort = await freePort();

describe.each(DB_KINDS)('PBX address and provisioning URL, with the HTTPS listener (%s)', (kind) => {
  const t = useTestApp(kind, { env: { HTTPS_PORT: String(httpsPort) } });
  let server: https.Server | undefined;
  afterAll(async () => {
    if (server) await closeHttps(server);
  });
  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown) =>
    t.app.inject({ method, url, headers: t.headers, ...(payload === undefined ? {} : { payload: payload as object }) });

  it('starts encrypted, sends phones to the HTTPS port and checks it there', async () => {
    expect(t.config.https.port).toBe(httpsPort);
    const tls = await tlsFiles({ dataDir: t.testDb.dataDir });
    server = await listenHttps(t.app, { port: httpsPort, host: '0.0.0.0', cert: tls.cert, key: tls.key });
    const defaults = (await call('GET', `${V1}/defaults`)).json();
    expect(defaults.provisioning_url_scheme).toBe('https');
    const phone = (await call('POST', `${V1}/phones`, { mac: YEALINK, model: 'yealink-T46' })).json();
    expect(phone.provisioning_url1).toBe(
      `https://${t.app.provisioning.serverHost}:${httpsPort}/provisioning/${phone.tok1}`,
    );
    const file = await httpsGet(`${phone.provisioning_url1}/001565aabbcc.cfg`);
    expect(file.status).toBe(200);

    const host = t.app.provisioning.serverHost;
    const check = (await call('POST', '/api/provisioning/connectivitycheck', { host, scheme: 'https' })).json();
    // Reachable; the self-signed certificate is not trusted, which the console shows as a warning.
    expect(check).toMatchObject({
      is_reachable: true,
      valid_certificate: false,
      https_unavailable: false,
      url: `https://${host}:${httpsPort}/provisioning/check/ping`,
    });
    expect((await call('PATCH', '/api/provisioning/defaults', { hostname: host })).statusCode).toBe(204);
  });
});
