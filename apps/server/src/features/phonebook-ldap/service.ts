import { randomBytes } from 'node:crypto';
import type { PhonebookLdap, PhonebookLdapEntry, PhonebookLdapType } from '@centralino/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { SettingsStore } from '../../db/settings-store.ts';

const KEY = 'phonebook.ldap';

interface Stored {
  ldap: { enabled: boolean };
  ldaps: { enabled: boolean };
  /** Bind password of the TLS service, generated once. */
  password: string;
}

/** What phones search with; the same values the shipped defaults use (contract provisioning §7.1). */
const SEARCH = {
  base: 'dc=phonebook,dc=nh',
  name_display: '%cn %o',
  mainphone_number_attr: 'telephoneNumber',
  mobilephone_number_attr: 'mobile',
  otherphone_number_attr: 'homePhone',
  name_attr: 'cn o',
  number_filter: '(|(telephoneNumber=%)(mobile=%)(homePhone=%))',
  name_filter: '(|(cn=%)(o=%))',
} as const;

export const PHONEBOOK_LDAP_PORTS: Readonly<Record<PhonebookLdapType, string>> = { ldap: '10389', ldaps: '10636' };

/**
 * The PBX's LDAP phonebook services as the phones see them. This console runs no LDAP daemon of its own: it
 * records which service the administrator switched on and answers the connection values phones are given.
 * Both start switched off, so the first save of the phones' default settings is what turns one on.
 */
export class PhonebookLdapService {
  private readonly store: SettingsStore;

  constructor(
    db: Kysely<Database>,
    private readonly serverHost: string,
  ) {
    this.store = new SettingsStore(db);
  }

  private async stored(): Promise<Stored> {
    const current = await this.store.get<Stored>(KEY);
    if (current) return current;
    const initial: Stored = {
      ldap: { enabled: false },
      ldaps: { enabled: false },
      password: randomBytes(12).toString('base64url'),
    };
    await this.store.set(KEY, initial);
    return initial;
  }

  async get(): Promise<PhonebookLdap> {
    const stored = await this.stored();
    const entry = (type: PhonebookLdapType): PhonebookLdapEntry => ({
      enabled: stored[type].enabled,
      server: this.serverHost,
      port: PHONEBOOK_LDAP_PORTS[type],
      // Plain LDAP is anonymous and read-only; the TLS service asks for a bind.
      user: type === 'ldaps' ? 'cn=ldapuser,dc=phonebook,dc=nh' : '',
      password: type === 'ldaps' ? stored.password : '',
      tls: type === 'ldaps' ? 'ldaps' : 'none',
      ...SEARCH,
    });
    return { ldap: entry('ldap'), ldaps: entry('ldaps') };
  }

  async setEnabled(type: PhonebookLdapType, enabled: boolean): Promise<void> {
    const stored = await this.stored();
    await this.store.set(KEY, { ...stored, [type]: { enabled } });
  }
}
