import type { HTTPMethods, RouteOptions } from 'fastify';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { isProtectedPath } from '../src/plugins/auth.ts';
import { DB_KINDS, login, useTestApp } from './helpers.ts';
import { PATTON_GATEWAY } from './support/gateway.ts';

/*
 * Issue 37 item 2: a read-only account "sees every screen and its settings, never a credential". Every field that
 * holds a credential is planted with a marker, then every GET route is walked with a read-only key: no answer may
 * carry a marker (nor a private key, nor a phone's provisioning token, which opens its SIP credentials).
 */

const MARK = 'MRK9sEcReT';

/**
 * Routes that exist to hand out a credential: administrators only; a read-only key gets 403 read_only. The
 * reports and exports that show credentials beside other data (the final report, the CSV export, the phonebook
 * LDAP login, a phone's account) answer a read-only key without them, which the walk checks.
 */
const CREDENTIAL_ROUTES = [
  'GET /api/backup',
  'GET /api/users/:username/password',
  'GET /api/extensions/:extension/credentials',
  'GET /api/phonebook/config/:id/password',
];

const MAC = '00-15-65-AA-BB-CC';

/** Replaces, at any depth of a JSON value, every string under a credential-named key with a marker. */
const CREDENTIAL_NAME = /pass|secret|pwd|(^|_)pin$|^tok[12]$|ldap_password|account_password/i;
function plant(value: unknown, at: string): unknown {
  if (Array.isArray(value)) return value.map((item, i) => plant(item, `${at}${i}`));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [
      key,
      CREDENTIAL_NAME.test(key) && typeof inner === 'string' ? `${MARK}${at}${key}` : plant(inner, `${at}${key}`),
    ]),
  );
}

describe.each(DB_KINDS)('a read-only account never reads a credential (%s)', (kind) => {
  const routes: { method: string; url: string }[] = [];
  const t = useTestApp(kind, {
    onRoute: (route: RouteOptions) => {
      for (const method of ([] as HTTPMethods[]).concat(route.method)) routes.push({ method, url: route.url });
    },
  });

  const call = async (method: HTTPMethods, url: string, payload?: object) => {
    const res = await t.app.inject({ method, url, headers: t.headers, ...(payload ? { payload } : {}) });
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
    return res;
  };

  it('plants a marker in every credential, then walks every GET as a read-only account', async () => {
    await call('POST', '/api/configuration/mode', { mode: 'legacy' });
    await expect
      .poll(async () => (await call('GET', '/api/configuration/userprovider')).json().configured, { timeout: 10_000 })
      .toBe(1);
    await call('POST', '/api/users', { username: 'alice', fullname: 'Alice Rossi' });
    await call('POST', '/api/mainextensions', { username: 'alice', extension: '201' });
    await call('POST', '/api/users/alice/password', { password: `${MARK}Userpass1` });
    await call('POST', '/api/voicemails', { extension: '201', state: 'yes' });
    await call('POST', '/api/webrtc', { extension: '201' });
    await call('POST', '/api/mobileapp', { mainextension: '201' });
    await call('POST', '/api/provisioning/v1/phones', { mac: MAC, model: 'yealink-T46' });
    await call('POST', '/api/physicalextensions', { mac: MAC, model: 'yealink-T46' });
    await call('POST', '/api/physicalextensions', { mainextension: '201', mac: MAC });
    await call('POST', '/api/physicalextensions/adminpw', { password: `${MARK}Adminpw1` });
    await call('POST', '/api/trunks', {
      provider: 'vivavox',
      name: 'vivavox',
      username: '0721123456',
      password: `${MARK}trunk`,
      phone: '0721123456',
      codecs: ['alaw'],
      forceCodec: true,
    });
    await call('POST', '/api/devices/gateways', { ...PATTON_GATEWAY, isConfigured: false, manufacturer: 'Patton' });
    await call('POST', '/api/phonebook/config', {
      dbtype: 'mysql',
      host: '127.0.0.1',
      port: '3306',
      user: 'reader',
      password: `${MARK}phonebook`,
      dbname: 'crm',
      query: 'SELECT name FROM contacts',
      mapping: { name: 'name' },
    });
    await call('POST', '/api/cti/streaming', {
      descr: 'door',
      url: `http://viewer:${MARK}cam@192.0.2.10/snapshot.jpg`,
      profiles: [(await call('GET', '/api/cti/profiles')).json()[0].id],
    });

    // Credentials the server generates (SIP secrets, web passwords, tokens) are planted in the database.
    const db = t.database.db;
    await sql`UPDATE users SET password_clear = ${`${MARK}clear`}, voicemail_pin = ${'7391'}`.execute(db);
    await sql`UPDATE devices SET secret = ${`${MARK}dev`}, web_password = ${`${MARK}web`}`.execute(db);
    await sql`UPDATE pbx_secrets SET secret = ${`${MARK}pbx`}`.execute(db);
    await sql`UPDATE trunks SET secret = ${`${MARK}trk`} WHERE secret IS NOT NULL`.execute(db);
    await sql`UPDATE gateway_ports SET secret = ${`${MARK}gwp`} WHERE secret IS NOT NULL`.execute(db);
    await sql`UPDATE phonebook_sources SET password = ${`${MARK}pb`}`.execute(db);
    await sql`UPDATE card_sources SET password = ${`${MARK}card`}`.execute(db);
    await sql`UPDATE recordings SET fcode_pass = ${`${MARK}rec`}`.execute(db);
    const phones = await db.selectFrom('prov_phones').selectAll().execute();
    for (const phone of phones) {
      await db
        .updateTable('prov_phones')
        .set({
          variables: JSON.stringify({
            ...(plant(JSON.parse(phone.variables), 'v') as object),
            adminpw: `${MARK}adminpw`,
          }),
          accounts: JSON.stringify(plant(JSON.parse(phone.accounts), 'a')),
        })
        .where('mac', '=', phone.mac)
        .execute();
    }
    for (const scope of await db.selectFrom('prov_scopes').selectAll().execute()) {
      await db
        .updateTable('prov_scopes')
        .set({ variables: JSON.stringify(plant(JSON.parse(scope.variables), 's')) })
        .where('id', '=', scope.id)
        .execute();
    }
    for (const setting of await db.selectFrom('settings').selectAll().execute()) {
      await db
        .updateTable('settings')
        .set({ value: JSON.stringify(plant(JSON.parse(setting.value), 'k')) })
        .where('key', '=', setting.key)
        .execute();
    }
    const tokens = (await db.selectFrom('prov_phones').select(['tok1', 'tok2']).execute())
      .flatMap((p) => [p.tok1, p.tok2])
      .filter((tok): tok is string => !!tok);
    expect(tokens.length).toBeGreaterThan(0);

    await call('POST', '/api/admin/accounts', { username: 'viewer', password: 'viewer-pass-1', role: 'readonly' });
    const viewer = await login(t.app, 'viewer', 'viewer-pass-1');

    const phonebookId = Object.keys((await call('GET', '/api/phonebook/config')).json())[0] ?? '1';
    const device = (await call('GET', '/api/users/false?search=alice'))
      .json()[0]
      .devices.find((d: { mac: string | null }) => d.mac !== null);
    const params: Record<string, string> = {
      username: 'alice',
      extension: device.extension,
      mainextension: '201',
      mac: MAC,
      id: phonebookId,
      name: 'yealink-T46',
    };
    // The credential routes answer an administrator with the planted credential: the marker is really there.
    for (const entry of CREDENTIAL_ROUTES.filter((r) => r !== 'GET /api/backup')) {
      const url = entry.slice(4).replace(/:([A-Za-z_]\w*)/g, (_, param: string) => params[param] ?? '1');
      expect((await call('GET', url)).body, entry).toContain(MARK);
    }
    expect(Buffer.from((await call('GET', '/api/csv/csvexport')).json(), 'base64').toString()).toContain(MARK);
    expect((await call('GET', '/api/final')).body).toContain(MARK);
    expect((await call('GET', `/api/provisioning/v1/phones/${MAC}`)).body).toContain(MARK);
    const leaks: string[] = [];
    const walked: string[] = [];
    for (const route of routes) {
      const name = `${route.method} ${route.url}`;
      if (route.method !== 'GET' || !isProtectedPath(route.url)) continue;
      if (route.url === '/api/logout' || route.url === '/api/dashboard/events') continue;
      if (route.url.startsWith('/api/internal/')) continue;
      const url = route.url
        .replace(/:([A-Za-z_]\w*)/g, (_, param: string) => params[param] ?? '1')
        .replace(/\*/g, 'dummy.txt');
      const res = await t.app.inject({ method: 'GET', url, headers: viewer });
      walked.push(name);
      if (CREDENTIAL_ROUTES.includes(name)) {
        if (res.statusCode !== 403 || res.json().code !== 'read_only')
          leaks.push(`${name}: answered ${res.statusCode}`);
        continue;
      }
      let body = res.rawPayload.toString('latin1');
      // An export travels as a base64 string: read what it carries.
      if (/^"[A-Za-z0-9+/=]+"$/.test(body)) body += Buffer.from(body.slice(1, -1), 'base64').toString('latin1');
      const found = [
        ...(body.includes(MARK) ? [body.slice(body.indexOf(MARK) - 40, body.indexOf(MARK) + 40)] : []),
        ...(body.includes('PRIVATE KEY') ? ['a private key'] : []),
        ...tokens.filter((tok) => body.includes(tok)).map(() => 'a provisioning token'),
      ];
      if (found.length > 0) leaks.push(`${name} (${res.statusCode}): ${found.join(', ')}`);
    }
    expect(leaks).toEqual([]);
    expect(walked.length).toBeGreaterThan(100);
    for (const entry of CREDENTIAL_ROUTES) expect(walked).toContain(entry);
  }, 180_000);
});
