import type { PhonebookLdap, PhonebookLdapEntry } from '@centralino/contract';

/** Pinned at the top of the default settings, always shown. */
export const PINNED_FIELDS = ['adminpw', 'userpw', 'hostname', 'provisioning_url_scheme'] as const;
export const PREFERENCE_FIELDS = ['language', 'provisioning_freq', 'tonezone', 'timezone', 'ntp_server'] as const;
/** Where the phone book is: filled from the default settings when the system phone book is used. */
export const LDAP_CONNECTION_FIELDS = [
  'ldap_server',
  'ldap_port',
  'ldap_user',
  'ldap_password',
  'ldap_tls',
  'ldap_base',
] as const;
/** How the phone book is searched and shown. */
export const LDAP_SEARCH_FIELDS = [
  'ldap_name_filter',
  'ldap_number_filter',
  'ldap_name_attr',
  'ldap_name_display',
  'ldap_mainphone_number_attr',
  'ldap_mobilephone_number_attr',
  'ldap_otherphone_number_attr',
] as const;
/** The phonebook variables in the order the section shows them (contract provisioning §6.6). */
export const LDAP_FIELDS = [...LDAP_CONNECTION_FIELDS, ...LDAP_SEARCH_FIELDS] as const;
/** Who may provision without a token (TOKENLESS_NETWORKS_VARIABLE): shown with the PBX address. */
export const BOOTSTRAP_FIELDS = ['provisioning_tokenless_networks'] as const;
export const DEFAULTS_FIELDS = [...PINNED_FIELDS, ...BOOTSTRAP_FIELDS, ...PREFERENCE_FIELDS, ...LDAP_FIELDS] as const;
export type DefaultsField = (typeof DEFAULTS_FIELDS)[number];
export type DefaultsValues = Record<DefaultsField, string>;

/** ldap and ldaps are the PBX's own phonebook services; externalldap is any other directory. */
export const PHONEBOOK_TYPES = ['ldaps', 'ldap', 'externalldap'] as const;
export type PhonebookType = (typeof PHONEBOOK_TYPES)[number];
export type SystemPhonebook = Exclude<PhonebookType, 'externalldap'>;

export function isSystemPhonebook(type: PhonebookType | null): type is SystemPhonebook {
  return type === 'ldap' || type === 'ldaps';
}

export function valuesOf(loaded: Readonly<Record<string, string>>): DefaultsValues {
  return Object.fromEntries(DEFAULTS_FIELDS.map((f) => [f, loaded[f] ?? ''])) as DefaultsValues;
}

/**
 * The phone variables of a system phonebook service. ldap_server stays empty so phones use the PBX
 * address (`hostname`), which follows later changes of the address.
 */
export function systemPhonebookValues(entry: PhonebookLdapEntry): Pick<DefaultsValues, (typeof LDAP_FIELDS)[number]> {
  return {
    ldap_server: '',
    ldap_port: entry.port,
    ldap_user: entry.user,
    ldap_password: entry.password,
    ldap_tls: entry.tls,
    ldap_base: entry.base,
    ldap_name_filter: entry.name_filter,
    ldap_number_filter: entry.number_filter,
    ldap_name_attr: entry.name_attr,
    ldap_name_display: entry.name_display,
    ldap_mainphone_number_attr: entry.mainphone_number_attr,
    ldap_mobilephone_number_attr: entry.mobilephone_number_attr,
    ldap_otherphone_number_attr: entry.otherphone_number_attr,
  };
}

/**
 * The phonebook type the stored defaults amount to: a system service when the server is the PBX itself
 * (empty or its address) and the port is that service's; otherwise a custom directory.
 */
export function phonebookTypeOf(values: Readonly<Record<string, string>>, phonebook: PhonebookLdap | undefined) {
  if (!phonebook) return 'externalldap' as const;
  const server = values.ldap_server ?? '';
  const pbx = [values.hostname, phonebook.ldaps.server].filter((h) => h);
  if (server === '' || pbx.includes(server)) {
    for (const type of ['ldaps', 'ldap'] as const) {
      if (values.ldap_port === phonebook[type].port) return type;
    }
  }
  return 'externalldap' as const;
}

export interface InitialDefaults {
  values: DefaultsValues;
  phonebookType: PhonebookType;
  firstConfig: boolean;
}

/**
 * What the modal starts from. At the first configuration the phonebook follows encryption (TLS service
 * for https) and its variables come from that service, so a first save gives phones a working phonebook.
 */
export function initialDefaults(loaded: Readonly<Record<string, string>>, phonebook: PhonebookLdap | undefined) {
  const values = valuesOf(loaded);
  const firstConfig = !!loaded.ui_first_config;
  if (firstConfig && phonebook) {
    const type: SystemPhonebook = values.provisioning_url_scheme === 'http' ? 'ldap' : 'ldaps';
    return { values: { ...values, ...systemPhonebookValues(phonebook[type]) }, phonebookType: type, firstConfig };
  }
  return { values, phonebookType: phonebookTypeOf(values, phonebook), firstConfig } satisfies InitialDefaults;
}

/**
 * The PATCH body of a save: the fields that changed, always `ui_first_config` cleared, and every ldap_*
 * variable when the phonebook type changed or at the first configuration (they belong together).
 */
export function defaultsPatch(
  loaded: Readonly<Record<string, string>>,
  values: DefaultsValues,
  phonebookChanged: boolean,
): Record<string, string> {
  const patch: Record<string, string> = { ui_first_config: '' };
  const firstConfig = !!loaded.ui_first_config;
  for (const field of DEFAULTS_FIELDS) {
    const isLdap = (LDAP_FIELDS as readonly string[]).includes(field);
    if (values[field] !== (loaded[field] ?? '') || (isLdap && (phonebookChanged || firstConfig))) {
      patch[field] = values[field];
    }
  }
  return patch;
}
