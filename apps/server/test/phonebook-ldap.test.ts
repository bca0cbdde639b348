import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuthHeaders, DB_KINDS, expectError, login, startApp, type TestApp, useTestDatabase } from './helpers.ts';
import { freePort } from './support/slapd.ts';

const run = promisify(execFile);
const BASE = 'dc=phonebook,dc=nh';

interface Search {
  code: number;
  entries: Array<Record<string, string[]>>;
  stderr: string;
}

/** ldapsearch, the OpenLDAP client, as an administrator would try the service; -x simple bind, no wrapping. */
async function ldapsearch(
  url: string,
  filter: string,
  options: { bind?: [string, string]; cacert?: string; attrs?: string[] } = {},
): Promise<Search> {
  const args = ['-x', '-LLL', '-o', 'ldif-wrap=no', '-o', 'nettimeout=5', '-H', url, '-b', BASE];
  if (options.bind) args.push('-D', options.bind[0], '-w', options.bind[1]);
  args.push(filter, ...(options.attrs ?? ['cn', 'o', 'telephoneNumber', 'mobile', 'homePhone']));
  const env = { ...process.env, LDAPTLS_REQCERT: 'demand', LDAPTLS_CACERT: options.cacert ?? '/dev/null' };
  let stdout = '';
  let stderr = '';
  let code = 0;
  try {
    ({ stdout, stderr } = await run('ldapsearch', args, { env }));
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    ({ code, stdout, stderr } = e);
  }
  const entries = stdout
    .split(/\n\n+/)
    .filter((block) => block.startsWith('dn:'))
    .map((block) => {
      const entry: Record<string, string[]> = {};
      for (const line of block.split('\n')) {
        const m = /^([A-Za-z]+)(::?) (.*)$/.exec(line);
        if (!m) continue;
        const value = m[2] === '::' ? Buffer.from(m[3] as string, 'base64').toString('utf8') : (m[3] as string);
        entry[m[1] as string] = [...(entry[m[1] as string] ?? []), value];
      }
      return entry;
    });
  return { code, entries, stderr };
}

const names = (s: Search) => s.entries.map((e) => e.cn?.[0]).sort();

/** Whether anything accepts connections on the port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** A phone's way with `%`: what was typed, as a prefix. */
const typed = (filter: string, text: string) => filter.replaceAll('%*', '%').replaceAll('%', `${text}*`);

describe.each(DB_KINDS)('phonebook LDAP service for phones (%s)', (kind) => {
  const testDb = useTestDatabase(kind);
  let t: TestApp;
  let headers: AuthHeaders;
  let ports: { ldap: number; ldaps: number };
  let origin = '';
  let cacert = '';

  const start = async () => {
    t = await startApp(testDb.current, {
      env: { PHONEBOOK_LDAP_PORT: String(ports.ldap), PHONEBOOK_LDAPS_PORT: String(ports.ldaps), TFTP_PORT: '0' },
    });
    headers = await login(t.app);
  };
  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
    t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
  const ok = async (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) => {
    const res = await call(method, url, payload);
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
    return res.body ? res.json() : undefined;
  };
  const service = async () =>
    (await ok('GET', '/api/phonebook/ldap')) as Record<'ldap' | 'ldaps', Record<string, string>>;
  const plain = () => `ldap://127.0.0.1:${ports.ldap}`;
  const secure = () => `ldaps://127.0.0.1:${ports.ldaps}`;

  /** A CSV source uploaded and synced; answers its id. */
  const csvSource = async (csv: string) => {
    const boundary = '----pb';
    const upload = await t.app.inject({
      method: 'POST',
      url: '/api/phonebook/uploadfile',
      headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: [
        `--${boundary}`,
        'Content-Disposition: form-data; name="0"; filename="list.csv"',
        'Content-Type: text/csv',
        '',
        csv,
        `--${boundary}--`,
        '',
      ].join('\r\n'),
    });
    expect(upload.statusCode, upload.body).toBe(200);
    const { id } = await ok('POST', '/api/phonebook/config', {
      dbtype: 'csv',
      url: upload.json().uri,
      mapping: { name: 'name', company: 'company', work: 'workphone', mobile: 'cellphone', home: 'homephone' },
      type: 'suppliers',
      enabled: true,
    });
    await ok('POST', `/api/phonebook/syncnow/${id}`);
    await t.app.phonebookLdap.settled();
    return id as string;
  };

  beforeAll(async () => {
    ports = { ldap: await freePort(), ldaps: await freePort() };
    await start();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    await ok('POST', '/api/configuration/mode', { mode: 'legacy' });
    for (let i = 0; i < 100 && (await ok('GET', '/api/configuration/userprovider')).configured !== 1; i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    for (const [username, fullname, extension] of [
      ['mrossi', 'Mario Rossi', '201'],
      ['averdi', 'Anna Verdi', '202'],
    ]) {
      await ok('POST', '/api/users', { username, fullname });
      await ok('POST', '/api/mainextensions', { username, extension });
    }
    await t.app.phonebook.syncExtensions();
    cacert = path.join(testDb.current.dataDir, 'tls', 'console.crt');
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('starts with both services off, on the configured ports, and nothing listening', async () => {
    const body = await service();
    expect(body.ldaps).toMatchObject({
      enabled: false,
      status: 'stopped',
      error: null,
      server: t.app.provisioning.serverHost,
      port: String(ports.ldaps),
      tls: 'ldaps',
      user: 'cn=ldapuser,dc=phonebook,dc=nh',
      base: BASE,
      number_filter: '(|(telephoneNumber=%)(mobile=%)(homePhone=%))',
      name_filter: '(|(cn=%)(o=%))',
    });
    expect(body.ldaps.password).toMatch(/^\S{12,}$/);
    expect(body.ldap).toMatchObject({ enabled: false, port: String(ports.ldap), tls: 'none', user: '', password: '' });
    expect(await listening(ports.ldap)).toBe(false);
    expect(await listening(ports.ldaps)).toBe(false);
  });

  it('plain LDAP, switched on, answers anonymous searches with the PBX users and the synced contacts', async () => {
    expect((await ok('POST', '/api/phonebook/ldap/status/enabled')).status).toBe(true);
    expect((await service()).ldap).toMatchObject({ enabled: true, status: 'running', error: null });
    await csvSource(
      [
        'name,company,work,mobile,home',
        'Giulia Neri,Neri Trasporti,0721 405516,,',
        'Ufficio Acquisti,Rossi Forniture,0721-888999,333 1112222,',
        'Ugo Bianchi,,,,06 5550001',
        'No Number,Ghost srl,,,',
      ].join('\n'),
    );
    const all = await ldapsearch(plain(), '(objectClass=inetOrgPerson)');
    expect(all.code, all.stderr).toBe(0);
    expect(names(all)).toEqual(['Anna Verdi', 'Giulia Neri', 'Mario Rossi', 'Ufficio Acquisti', 'Ugo Bianchi']);
    const mario = all.entries.find((e) => e.cn?.[0] === 'Mario Rossi');
    expect(mario?.telephoneNumber).toEqual(['201']);
    const giulia = all.entries.find((e) => e.cn?.[0] === 'Giulia Neri');
    expect(giulia).toMatchObject({ o: ['Neri Trasporti'], telephoneNumber: ['0721 405516'] });
    // The bind user is no contact, and its password is nobody's to read.
    expect((await ldapsearch(plain(), '(cn=ldapuser)', { attrs: ['*'] })).entries).toEqual([]);
  });

  it('answers the name and number filters our Yealink, Snom and Fanvil files carry, as those phones send them', async () => {
    await ok('PATCH', '/api/provisioning/v1/defaults', {
      ldap_server: '',
      ldap_port: String(ports.ldap),
      ldap_tls: 'none',
      ldap_user: '',
      ldap_password: '',
      ldap_base: BASE,
      ldap_name_display: '%cn %o',
      ldap_mainphone_number_attr: 'telephoneNumber',
      ldap_mobilephone_number_attr: 'mobile',
      ldap_otherphone_number_attr: 'homePhone',
      ldap_name_attr: 'cn o',
      ldap_number_filter: '(|(telephoneNumber=%)(mobile=%)(homePhone=%))',
      ldap_name_filter: '(|(cn=%)(o=%))',
    });
    const phones = [
      {
        mac: '00-15-65-AA-BB-01',
        model: 'yealink-T46',
        file: '001565aabb01.cfg',
        ua: 'Yealink SIP-T46S 66.86.0.15 00:15:65:aa:bb:01',
        read: (body: string, key: 'name' | 'number') =>
          new RegExp(`^ldap\\.${key}_filter = (.*)$`, 'm').exec(body)?.[1],
        port: (body: string) => /^ldap\.port = (\d+)$/m.exec(body)?.[1],
      },
      {
        mac: '00-04-13-AA-BB-02',
        model: 'snom-D785',
        file: '000413aabb02.xml',
        ua: 'snomD785-SIP/10.1.54.13',
        read: (body: string, key: 'name' | 'number') =>
          new RegExp(`<ldap_${key === 'name' ? 'search' : 'number'}_filter perm="RW">(.*)</ldap_`).exec(body)?.[1],
        port: (body: string) => /<ldap_port perm="RW">(\d+)</.exec(body)?.[1],
      },
      {
        mac: '0C-38-3E-AA-BB-03',
        model: 'fanvil-X3',
        file: '0c383eaabb03.cfg',
        ua: 'Fanvil X3SG 2.4.0 0c383eaabb03',
        read: (body: string, key: 'name' | 'number') =>
          new RegExp(`^LDAP ${key === 'name' ? 'Name' : 'Number'} Filter\\s*:(.*)$`, 'm').exec(body)?.[1],
        port: (body: string) => /^LDAP Port\s*:(\d+)$/m.exec(body)?.[1],
      },
    ];
    for (const phone of phones) {
      const { tok2 } = await ok('POST', '/api/provisioning/v1/phones', { mac: phone.mac, model: phone.model });
      const res = await fetch(`${origin}/provisioning/${tok2}/${phone.file}`, { headers: { 'user-agent': phone.ua } });
      expect(res.status, phone.model).toBe(200);
      const body = (await res.text()).replaceAll('&amp;', '&');
      expect(phone.port(body), phone.model).toBe(String(ports.ldap));
      const nameFilter = phone.read(body, 'name');
      const numberFilter = phone.read(body, 'number');
      expect(nameFilter, phone.model).toContain('%');
      expect(numberFilter, phone.model).toContain('%');
      // Typing a name's beginning, in any case, finds it by name or by company.
      const byName = await ldapsearch(plain(), typed(nameFilter as string, 'giu'));
      expect(names(byName), `${phone.model} ${nameFilter}`).toEqual(['Giulia Neri']);
      expect(names(await ldapsearch(plain(), typed(nameFilter as string, 'MARIO'))), phone.model).toEqual([
        'Mario Rossi',
      ]);
      // The name's beginning: 'rossi' is the company of the purchasing office, not Mario Rossi's first word.
      expect(names(await ldapsearch(plain(), typed(nameFilter as string, 'rossi'))), phone.model).toEqual([
        'Ufficio Acquisti',
      ]);
      // An incoming call's number finds its contact (spaces and dashes do not matter), mobile and home too.
      const calling = (number: string) => numberFilter?.replaceAll('%', number) as string;
      expect(names(await ldapsearch(plain(), calling('0721405516'))), phone.model).toEqual(['Giulia Neri']);
      expect(names(await ldapsearch(plain(), calling('0721888999'))), phone.model).toEqual(['Ufficio Acquisti']);
      expect(names(await ldapsearch(plain(), calling('3331112222'))), phone.model).toEqual(['Ufficio Acquisti']);
      expect(names(await ldapsearch(plain(), calling('065550001'))), phone.model).toEqual(['Ugo Bianchi']);
      expect(names(await ldapsearch(plain(), calling('202'))), phone.model).toEqual(['Anna Verdi']);
      expect(names(await ldapsearch(plain(), typed(numberFilter as string, '0721'))), phone.model).toEqual([
        'Giulia Neri',
        'Ufficio Acquisti',
      ]);
    }
  });

  it('follows the central phonebook: a new sync, a new user and a deleted source show on the phones', async () => {
    const id = await csvSource('name,work\nFornitore Uno,0721 111\nFornitore Due,0721 222');
    expect(names(await ldapsearch(plain(), '(cn=fornitore*)'))).toEqual(['Fornitore Due', 'Fornitore Uno']);
    await ok('POST', '/api/users', { username: 'lneri', fullname: 'Luca Neri' });
    await ok('POST', '/api/mainextensions', { username: 'lneri', extension: '203' });
    await t.app.phonebook.syncExtensions();
    await t.app.phonebookLdap.settled();
    expect(names(await ldapsearch(plain(), '(telephoneNumber=203)'))).toEqual(['Luca Neri']);
    await ok('DELETE', `/api/phonebook/config/${id}`);
    await t.app.phonebookLdap.settled();
    expect(names(await ldapsearch(plain(), '(cn=fornitore*)'))).toEqual([]);
    expect(names(await ldapsearch(plain(), '(cn=giulia*)'))).toEqual(['Giulia Neri']);
  });

  it('stops a phone at the size limit; a big sync replaces the whole copy at once and keeps every character', async () => {
    // 2,500 new contacts are more than slapd takes one by one: the copy is rebuilt with slapadd.
    const rows = Array.from(
      { length: 2500 },
      (_, i) => `Cliente ${String(i).padStart(4, '0')},0721 5${String(i).padStart(5, '0')}`,
    );
    const id = await csvSource(`name,work\n${rows.join('\n')}\nNicolò Làzzari,+39 0721 555*1#\n Żaneta Ōno ,06 123`);
    expect(t.app.phonebookLdap.lastOutcome).toMatchObject({ added: 2502, removed: 0, rebuilt: true });
    const many = await ldapsearch(plain(), '(cn=cliente*)', { attrs: ['cn'] });
    expect(many.code).toBe(4); // sizeLimitExceeded
    expect(many.entries).toHaveLength(250);
    expect((await ldapsearch(plain(), '(cn=Cliente 2499)')).entries).toMatchObject([
      { telephoneNumber: ['0721 502499'] },
    ]);
    // Names in any script come back as they were written; a number loses what a directory number cannot hold.
    expect((await ldapsearch(plain(), '(cn=nicolò*)')).entries).toMatchObject([
      { cn: ['Nicolò Làzzari'], telephoneNumber: ['+39 0721 5551'] },
    ]);
    expect(names(await ldapsearch(plain(), '(telephoneNumber=+3907215551)'))).toEqual(['Nicolò Làzzari']);
    expect(names(await ldapsearch(plain(), '(cn=żaneta*)'))).toEqual(['Żaneta Ōno']);
    // What was there before the rebuild still is.
    expect(names(await ldapsearch(plain(), '(telephoneNumber=201)'))).toEqual(['Mario Rossi']);
    await ok('DELETE', `/api/phonebook/config/${id}`);
    await t.app.phonebookLdap.settled();
    expect(t.app.phonebookLdap.lastOutcome).toMatchObject({ removed: 2502, rebuilt: true });
    expect((await ldapsearch(plain(), '(cn=cliente*)')).entries).toEqual([]);
  }, 60_000);

  it('LDAPS presents the HTTPS certificate, serves its bind user and nobody anonymous', async () => {
    await ok('POST', '/api/phonebook/ldaps/status/enabled');
    const { ldaps } = await service();
    expect(ldaps).toMatchObject({ enabled: true, status: 'running', port: String(ports.ldaps) });
    const bind: [string, string] = [ldaps.user as string, ldaps.password as string];
    const found = await ldapsearch(secure(), '(|(cn=giu*)(o=giu*))', { bind, cacert });
    expect(found.code, found.stderr).toBe(0);
    expect(names(found)).toEqual(['Giulia Neri']);
    // Anonymous over TLS: the connection works, the phonebook stays closed.
    const anonymous = await ldapsearch(secure(), '(objectClass=*)', { cacert });
    expect(anonymous.entries).toEqual([]);
    const wrong = await ldapsearch(secure(), '(cn=*)', { bind: [bind[0], 'not-the-password'], cacert });
    expect(wrong.code).toBe(49); // invalidCredentials
    // A client that does not trust the certificate gets nowhere.
    expect((await ldapsearch(secure(), '(cn=*)', { bind })).code).toBe(255);
  });

  it('switching plain LDAP off closes its port; LDAPS keeps serving; both off stops the server', async () => {
    await ok('POST', '/api/phonebook/ldap/status/disabled');
    expect(await listening(ports.ldap)).toBe(false);
    expect((await service()).ldap).toMatchObject({ enabled: false, status: 'stopped' });
    const { ldaps } = await service();
    const again = await ldapsearch(secure(), '(cn=mario*)', {
      bind: [ldaps.user as string, ldaps.password as string],
      cacert,
    });
    expect(names(again)).toEqual(['Mario Rossi']);
    await ok('POST', '/api/phonebook/ldaps/status/disabled');
    expect(await listening(ports.ldaps)).toBe(false);
    expect((await service()).ldaps.status).toBe('stopped');
  });

  it('comes back after a restart of Centralino, and after slapd dies', async () => {
    await ok('POST', '/api/phonebook/ldap/status/enabled');
    await t.close();
    expect(await listening(ports.ldap)).toBe(false);
    await start();
    expect((await service()).ldap).toMatchObject({ enabled: true, status: 'running' });
    expect(names(await ldapsearch(plain(), '(telephoneNumber=201)'))).toEqual(['Mario Rossi']);

    const pid = Number(fs.readFileSync(path.join(testDb.current.dataDir, 'phonebook-ldap', 'slapd.pid'), 'utf8'));
    process.kill(pid, 'SIGKILL');
    let back: Search | undefined;
    for (let i = 0; i < 100; i++) {
      await new Promise((r) => setTimeout(r, 100));
      back = await ldapsearch(plain(), '(telephoneNumber=201)');
      if (back.code === 0) break;
    }
    expect(names(back as Search)).toEqual(['Mario Rossi']);
    // slapd may answer a search a moment before the supervisor's readiness check has seen it.
    await expect.poll(async () => (await service()).ldap.status, { timeout: 5000 }).toBe('running');
  }, 60_000);

  it('says why when the service cannot start, and keeps the switch for a later start', async () => {
    await ok('POST', '/api/phonebook/ldap/status/disabled');
    const squatter = net.createServer();
    await new Promise<void>((r) => squatter.listen(ports.ldaps, '0.0.0.0', r));
    try {
      const refused = expectError(
        await call('POST', '/api/phonebook/ldaps/status/enabled'),
        503,
        'phonebook_service_failed',
      );
      expect(refused.detail).toMatch(/^The LDAP phonebook service did not start: /);
      expect((await service()).ldaps).toMatchObject({ enabled: true, status: 'failed' });
      expect((await service()).ldaps.error).toBeTruthy();
    } finally {
      await new Promise((r) => squatter.close(r));
    }
    await ok('POST', '/api/phonebook/ldaps/status/enabled');
    expect((await service()).ldaps.status).toBe('running');
    await ok('POST', '/api/phonebook/ldaps/status/disabled');
  });

  it.each([
    ['an unknown service', '/api/phonebook/externalldap/status/enabled'],
    ['an unknown state', '/api/phonebook/ldaps/status/on'],
  ])('refuses %s with 400 and changes nothing', async (_case, url) => {
    const before = await service();
    expectError(await call('POST', url), 400, 'validation');
    expect(await service()).toEqual(before);
  });

  it('needs a key', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/phonebook/ldaps/status/enabled' });
    expect(res.statusCode).toBe(401);
  });
});
