import type { PhonebookLdap, PhonebookLdapEntry } from '@centralino/contract';
import { describe, expect, it } from 'vitest';
import {
  defaultsPatch,
  initialDefaults,
  phonebookTypeOf,
  systemPhonebookValues,
  valuesOf,
} from '../src/features/phones/defaults.ts';

const entry = (port: string, tls: PhonebookLdapEntry['tls'], user: string): PhonebookLdapEntry => ({
  enabled: false,
  status: 'stopped',
  error: null,
  server: 'pbx.example.com',
  port,
  user,
  password: user ? 'secret' : '',
  tls,
  base: 'dc=phonebook,dc=nh',
  name_display: '%cn %o',
  mainphone_number_attr: 'telephoneNumber',
  mobilephone_number_attr: 'mobile',
  otherphone_number_attr: 'homePhone',
  name_attr: 'cn o',
  number_filter: '(|(telephoneNumber=%)(mobile=%)(homePhone=%))',
  name_filter: '(|(cn=%)(o=%))',
});
const phonebook: PhonebookLdap = {
  ldap: entry('10389', 'none', ''),
  ldaps: entry('10636', 'ldaps', 'cn=ldapuser,dc=phonebook,dc=nh'),
};

describe('phone default settings', () => {
  it('tells the phonebook type from the stored server and port', () => {
    expect(phonebookTypeOf({ ldap_server: '', ldap_port: '10636' }, phonebook)).toBe('ldaps');
    expect(phonebookTypeOf({ ldap_server: '', ldap_port: '10389' }, phonebook)).toBe('ldap');
    // The PBX named by its address is still the PBX.
    expect(phonebookTypeOf({ ldap_server: 'pbx.example.com', ldap_port: '10636' }, phonebook)).toBe('ldaps');
    expect(
      phonebookTypeOf({ hostname: 'voip.example.org', ldap_server: 'voip.example.org', ldap_port: '10389' }, phonebook),
    ).toBe('ldap');
    expect(phonebookTypeOf({ ldap_server: 'ldap.example.org', ldap_port: '10636' }, phonebook)).toBe('externalldap');
    expect(phonebookTypeOf({ ldap_server: '', ldap_port: '389' }, phonebook)).toBe('externalldap');
    expect(phonebookTypeOf({ ldap_server: '', ldap_port: '10636' }, undefined)).toBe('externalldap');
  });

  it('at the first configuration follows encryption and fills the phonebook from the service', () => {
    const loaded = { ui_first_config: '1', provisioning_url_scheme: 'https', ldap_port: '389', adminpw: 'x' };
    const first = initialDefaults(loaded, phonebook);
    expect(first.firstConfig).toBe(true);
    expect(first.phonebookType).toBe('ldaps');
    expect(first.values).toMatchObject({
      ldap_server: '',
      ldap_port: '10636',
      ldap_tls: 'ldaps',
      ldap_password: 'secret',
    });
    const plain = initialDefaults({ ...loaded, provisioning_url_scheme: 'http' }, phonebook);
    expect(plain.phonebookType).toBe('ldap');
    expect(plain.values).toMatchObject({ ldap_port: '10389', ldap_tls: 'none', ldap_user: '' });
    // Later, what is stored is shown as it is.
    const later = initialDefaults({ ...loaded, ui_first_config: '' }, phonebook);
    expect(later.phonebookType).toBe('externalldap');
    expect(later.values.ldap_port).toBe('389');
  });

  it('saves the changed fields, clears the first-config flag, and sends the phonebook as a whole', () => {
    const loaded = { ui_first_config: '', adminpw: 'old', userpw: 'u', ldap_port: '389', tonezone: 'it' };
    const values = { ...valuesOf(loaded), adminpw: 'new', tonezone: 'us' };
    expect(defaultsPatch(loaded, values, false)).toEqual({ ui_first_config: '', adminpw: 'new', tonezone: 'us' });

    const system = { ...values, ...systemPhonebookValues(phonebook.ldaps) };
    const patch = defaultsPatch(loaded, system, true);
    expect(patch).toMatchObject({ ldap_server: '', ldap_port: '10636', ldap_base: 'dc=phonebook,dc=nh' });
    expect(Object.keys(patch).filter((k) => k.startsWith('ldap_'))).toHaveLength(13);
    // At the first configuration the phonebook goes out even when nothing was touched.
    const firstLoaded = { ...loaded, ui_first_config: '1' };
    expect(Object.keys(defaultsPatch(firstLoaded, valuesOf(firstLoaded), false))).toContain('ldap_name_filter');
  });
});
