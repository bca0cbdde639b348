import net from 'node:net';
import { Client, SizeLimitExceededError } from 'ldapts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  findLdapUser,
  LdapFailure,
  type LdapFailureCode,
  readLdapUsers,
  testLdap,
} from '../src/features/directory/ldap.ts';
import { freePort, settingsFor, startSlapd, type TestSlapd } from './support/slapd.ts';

const PERSON = ['top', 'person', 'organizationalPerson', 'inetOrgPerson'];
const READER_PASSWORD = 'reader-password';
const BULK = 120;

let slapd: TestSlapd;
let readerDn: string;
let bulkDn: string;

beforeAll(async () => {
  slapd = await startSlapd({ tls: true, sizeLimit: 50 });
  await slapd.addUsers([
    { uid: 'mrossi', givenName: 'Mario', sn: 'Rossi', mail: 'mario.rossi@example.com' },
    // Mixed case, no givenName, no mail.
    { uid: 'GVerdi', sn: 'Verdi' },
    { uid: 'lbianchi', cn: 'Luisa Bianchi', givenName: 'Luisa', sn: 'Bianchi', mail: 'luisa@example.com' },
  ]);
  // Matches the filter but has no uid: not importable.
  await slapd.addEntry(`cn=Front Desk,${slapd.peopleDn}`, { objectClass: PERSON, cn: 'Front Desk', sn: 'Desk' });
  // The rootdn ignores size limits, so paging is tested with an ordinary service account.
  readerDn = `cn=reader,${slapd.baseDn}`;
  await slapd.addEntry(readerDn, {
    objectClass: ['simpleSecurityObject', 'organizationalRole'],
    cn: 'reader',
    userPassword: READER_PASSWORD,
  });
  bulkDn = `ou=Bulk,${slapd.baseDn}`;
  await slapd.addEntry(bulkDn, { objectClass: ['top', 'organizationalUnit'], ou: 'Bulk' });
  await slapd.addUsers(
    Array.from({ length: BULK }, (_, i) => ({ uid: `bulk${i}`, sn: `Bulk ${i}` })),
    bulkDn,
  );
});

afterAll(async () => {
  await slapd?.stop();
});

/** Settings reading ou=People only (the bulk users live elsewhere). */
const people = (overrides = {}) => settingsFor(slapd, { baseDn: slapd.peopleDn, ...overrides });

async function expectFailure(promise: Promise<unknown>, code: LdapFailureCode): Promise<LdapFailure> {
  const error = await promise.then(
    () => new Error('expected an LdapFailure'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(LdapFailure);
  expect((error as LdapFailure).code).toBe(code);
  return error as LdapFailure;
}

const mario = {
  username: 'mrossi',
  displayname: 'Mario Rossi',
  fname: 'Mario',
  lname: 'Rossi',
  email: 'mario.rossi@example.com',
};

describe('testLdap', () => {
  it('counts the users, skips entries without a username and shows a sample', async () => {
    const result = await testLdap(people());
    expect(result.users).toBe(3);
    expect(result.skipped).toBe(1);
    expect(result.sample).toHaveLength(3);
    expect(result.sample).toContainEqual(mario);
    expect(result).not.toHaveProperty('found');
  });

  it('looks one user up when a name is given', async () => {
    expect((await testLdap(people(), 'MRossi')).found).toEqual(mario);
    expect((await testLdap(people(), 'nobody')).found).toBeNull();
  });

  it('binds anonymously when the bind DN is empty', async () => {
    const result = await testLdap(people({ bindDn: '', bindPassword: '' }));
    expect(result.users).toBe(3);
  });

  it('rejects a wrong password', async () => {
    const failure = await expectFailure(testLdap(people({ bindPassword: 'wrong' })), 'directory_bind_failed');
    expect(failure.message).not.toContain('wrong');
  });

  it('fails fast when nothing listens on the port', async () => {
    const started = Date.now();
    await expectFailure(testLdap(people({ port: await freePort() })), 'directory_unreachable');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('says the same whether the port is closed or something there drops the connection (no port probing)', async () => {
    const closed = await freePort();
    const refused = await expectFailure(testLdap(people({ host: '127.0.0.1', port: closed })), 'directory_unreachable');
    expect(refused.message).toBe(`Cannot reach the directory at 127.0.0.1:${closed}`);
    const dropper = net.createServer((socket) => socket.destroy());
    await new Promise<void>((r) => dropper.listen(0, '127.0.0.1', () => r()));
    const open = (dropper.address() as net.AddressInfo).port;
    try {
      const dropped = await expectFailure(testLdap(people({ host: '127.0.0.1', port: open })), 'directory_unreachable');
      expect(dropped.message).toBe(`Cannot reach the directory at 127.0.0.1:${open}`);
      expect(dropped.italian).toBe(`Impossibile raggiungere la directory su 127.0.0.1:${open}`);
    } finally {
      dropper.close();
    }
  });

  it('reports a base DN that does not exist as a search failure', async () => {
    await expectFailure(testLdap(people({ baseDn: `ou=Nowhere,${slapd.baseDn}` })), 'directory_search_failed');
  });

  it('reports a malformed user filter as a search failure', async () => {
    for (const userFilter of ['(objectClass=inetOrgPerson', '(uid=a)(uid=b)', '(=x)']) {
      await expectFailure(testLdap(people({ userFilter })), 'directory_search_failed');
    }
  });
});

describe('TLS', () => {
  it.each(['ldaps', 'starttls'] as const)('%s refuses the self-signed certificate unless allowed', async (security) => {
    await expectFailure(testLdap(people({ security })), 'directory_tls_failed');
    const result = await testLdap(people({ security, allowInvalidCertificate: true }));
    expect(result.users).toBe(3);
  });

  it('reports ldaps against the plain port as a TLS failure', async () => {
    const settings = people({ security: 'ldaps', port: slapd.port, allowInvalidCertificate: true });
    await expectFailure(testLdap(settings), 'directory_tls_failed');
  });
});

describe('readLdapUsers', () => {
  it('maps the attributes, lower-cases usernames and nulls what is missing', async () => {
    const { users, skipped } = await readLdapUsers(people());
    expect(skipped).toBe(1);
    expect(users.sort((a, b) => a.username.localeCompare(b.username))).toEqual([
      { username: 'gverdi', displayname: 'Verdi', fname: null, lname: 'Verdi', email: null },
      {
        username: 'lbianchi',
        displayname: 'Luisa Bianchi',
        fname: 'Luisa',
        lname: 'Bianchi',
        email: 'luisa@example.com',
      },
      mario,
    ]);
  });

  it('falls back to the username for the display name and honours unmapped fields', async () => {
    const settings = people();
    const attributes = { ...settings.attributes, displayname: 'displayName', fname: 'GIVENNAME', email: '' };
    const { users } = await readLdapUsers({ ...settings, attributes });
    expect(users.find((u) => u.username === 'mrossi')).toEqual({ ...mario, displayname: 'mrossi', email: null });
  });

  it('pages past the server size limit', async () => {
    const settings = settingsFor(slapd, { bindDn: readerDn, bindPassword: READER_PASSWORD });
    // Proof that the limit applies to this account: a plain search stops at 50 entries.
    const client = new Client({ url: slapd.url });
    try {
      await client.bind(readerDn, READER_PASSWORD);
      await expect(client.search(slapd.baseDn, { filter: settings.userFilter })).rejects.toThrow(
        SizeLimitExceededError,
      );
    } finally {
      await client.unbind();
    }
    const { users, skipped } = await readLdapUsers(settings);
    expect(users).toHaveLength(BULK + 3);
    expect(new Set(users.map((u) => u.username)).size).toBe(BULK + 3);
    expect(skipped).toBe(1);
    expect((await testLdap(settings)).users).toBe(BULK + 3);
  });
});

describe('findLdapUser', () => {
  it('finds a user by exact name, whatever the case and surrounding spaces', async () => {
    expect(await findLdapUser(people(), 'mrossi')).toEqual(mario);
    expect(await findLdapUser(people(), ' MRossi ')).toEqual(mario);
  });

  it.each(['*', '*)(uid=*', 'mrossi)(|(uid=*', 'mross*', ''])('never widens the search: %j', async (input) => {
    expect(await findLdapUser(people(), input)).toBeNull();
  });

  it('only finds users the filter selects', async () => {
    const settings = people({ userFilter: '(&(objectClass=inetOrgPerson)(mail=*))' });
    expect(await findLdapUser(settings, 'gverdi')).toBeNull();
    expect(await findLdapUser(settings, 'mrossi')).toEqual(mario);
  });
});
