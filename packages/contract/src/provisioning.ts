import { z } from 'zod';
import { secretKeys } from './secret.ts';

/**
 * Phone provisioning engine (contract provisioning.md): API shapes under /api/provisioning/v1, the variable
 * catalogue with allowed values, shipped defaults, MAC vendor maps and file collections. The model catalogue
 * itself is in provisioning-catalogue.ts.
 */

export const PROVISIONING_API_BASE = '/api/provisioning/v1';
/** Path phones fetch their files from: /provisioning/{token}/{file}. */
export const PROVISIONING_URL_PATH = 'provisioning/';

// ---------------------------------------------------------------------------------------------- MAC addresses

/** Canonical MAC form used as phone id: upper-case pairs joined by hyphens (contract §2.3). */
export const CANONICAL_MAC = /^[0-9A-F]{2}(-[0-9A-F]{2}){5}$/;

/**
 * Accepts colon-separated, hyphen-separated or plain 12-hex MACs in either case (spec §5) and answers the
 * canonical form, or undefined when the input is not a MAC.
 */
export function canonicalMac(input: string): string | undefined {
  const hex = input.replace(/[:-]/g, '').toUpperCase();
  if (!/^[0-9A-F]{12}$/.test(hex)) return undefined;
  if (/[:-]/.test(input) && !/^[0-9A-Fa-f]{2}([:-][0-9A-Fa-f]{2}){5}$/.test(input)) return undefined;
  return hex.match(/../g)?.join('-');
}

/** Lower-case 12 hex digits, as phones put their MAC in file names. */
export function shortMac(mac: string): string {
  return mac.replace(/[:-]/g, '').toLowerCase();
}

/**
 * Console vendor map (contract §5.5 map 1): vendor → OUI prefixes or explicit ranges, scanned in this order,
 * first match wins. Ranges are inclusive and compare the 12-hex forms.
 */
export const MAC_VENDOR_RANGES: readonly { vendor: string; type: 'phone' | 'gateway' | 'unknown'; ranges: string[] }[] =
  [
    { vendor: '2N', type: 'phone', ranges: ['7C1EB3'] },
    { vendor: 'Aastra', type: 'phone', ranges: ['00085D', '0010BC'] },
    { vendor: 'AG', type: 'phone', ranges: ['009033'] },
    { vendor: 'Akuvox', type: 'phone', ranges: ['0C1105', '9C7514'] },
    { vendor: 'Alcatel Temporis', type: 'phone', ranges: ['7465D1'] },
    {
      vendor: 'Cisco/Linksys',
      type: 'phone',
      ranges: [
        '00000C',
        '000142-000143',
        '000163-000164',
        '000196-000197',
        '0001C7',
        '0001C9',
        '00036B',
        '00070E',
        '000E38',
        '000E84',
        '000F23',
        '0013C4',
        '0016C8',
        '00175A',
        '001795',
        '001818',
        '001930',
        '0019AA',
        '001A2F',
        '001BD4',
        '001C58',
        '001D45',
        '001DA2',
        '001EF7',
        '002155',
        '1CDF0F',
        '30E4DB',
        '3CCE73',
        '5475D0',
        '547C69',
        '58BFEA',
        '649EF3',
        'A44C11',
        'C46413',
        'C89C1D',
        'E02F6D',
        'E05FB9',
      ],
    },
    { vendor: 'CloudTC', type: 'phone', ranges: ['000000000001-000000FFFFFF'] },
    { vendor: 'Digium', type: 'phone', ranges: ['000FD3'] },
    { vendor: 'Fanvil', type: 'phone', ranges: ['00A859-00A85A', '0C383E'] },
    { vendor: 'Gigaset', type: 'phone', ranges: ['7C2F80', '589EC6', '002104', '14B370'] },
    { vendor: 'Grandstream', type: 'phone', ranges: ['000B82', 'C074AD', 'EC74D7', '144CFF'] },
    { vendor: 'Mediatrix', type: 'gateway', ranges: ['0090F8'] },
    { vendor: 'Mitel', type: 'phone', ranges: ['08000F'] },
    { vendor: 'Nethesis', type: 'phone', ranges: ['E0E656'] },
    { vendor: 'Norphonic', type: 'phone', ranges: ['0050C2', '1045BE'] },
    { vendor: 'Panasonic', type: 'phone', ranges: ['BCC342'] },
    { vendor: 'Patton', type: 'gateway', ranges: ['00A0BA'] },
    { vendor: 'Polycom', type: 'phone', ranges: ['0004F2', '00907A'] },
    { vendor: 'Sangoma', type: 'unknown', ranges: ['005058'] },
    { vendor: 'Sipura', type: 'phone', ranges: ['000E08'] },
    { vendor: 'Snom', type: 'phone', ranges: ['000413', '1C7126'] },
    { vendor: 'Thomson', type: 'phone', ranges: ['00147F', '001F9F'] },
    { vendor: 'Xorcom', type: 'phone', ranges: ['642400'] },
    {
      vendor: 'Yealink/Dreamwave',
      type: 'phone',
      ranges: ['001565', '249AD8', '44DBD2', '805E0C', '805EC0', 'C4FC22'],
    },
  ];

function rangeBounds(range: string): [string, string] {
  const [start = '', end = start] = range.split('-');
  // An OUI covers its whole block; a 12-hex bound is exact.
  return [start.padEnd(12, '0'), end.padEnd(12, 'F')];
}

/** The console vendor of a MAC (e.g. 'Yealink/Dreamwave'), or undefined when unknown. */
export function vendorOfMac(mac: string): string | undefined {
  const hex = canonicalMac(mac)?.replaceAll('-', '');
  if (!hex) return undefined;
  for (const { vendor, ranges } of MAC_VENDOR_RANGES) {
    for (const range of ranges) {
      const [start, end] = rangeBounds(range);
      if (start <= hex && hex <= end) return vendor;
    }
  }
  return undefined;
}

const dashed = (hex: string) => hex.match(/../g)?.join('-') ?? hex;

/**
 * The vendor map as the original served it at /freepbx/rest/lib/macAddressMap.json (contract §5.5 map 1):
 * vendor → inclusive ranges of dashed upper-case MACs, in the order they are matched.
 */
export function macAddressMap(): Record<string, { start: string; end: string }[]> {
  return Object.fromEntries(
    MAC_VENDOR_RANGES.map(({ vendor, ranges }) => [
      vendor,
      ranges.map((range) => {
        const [start, end] = rangeBounds(range);
        return { start: dashed(start), end: dashed(end) };
      }),
    ]),
  );
}

/** Model-name prefix of a console vendor ('Yealink/Dreamwave' → 'yealink'). */
export function modelPrefixOfVendor(vendor: string): string {
  return (vendor === 'Yealink/Dreamwave' ? 'Yealink' : vendor).toLowerCase();
}

/** Engine vendor map served by GET /macvendors (contract §2.7, NS8 value): OUI → lower-case vendor. */
export const ENGINE_MAC_VENDORS: Readonly<Record<string, string>> = {
  '00A859': 'fanvil',
  '00A85A': 'fanvil',
  '0C383E': 'fanvil',
  '002104': 'gigaset',
  '14B370': 'gigaset',
  '589EC6': 'gigaset',
  '7C2F80': 'gigaset',
  '005058': 'sangoma',
  '000413': 'snom',
  '1C7126': 'snom',
  '001565': 'yealink',
  '249AD8': 'yealink',
  '44DBD2': 'yealink',
  '805E0C': 'yealink',
  '805EC0': 'yealink',
  C4FC22: 'yealink',
  E0E656: 'nethesis',
  '0C1105': 'akuvox',
  '9C7514': 'akuvox',
  '000B82': 'grandstream',
  C074AD: 'grandstream',
  EC74D7: 'grandstream',
  '144CFF': 'grandstream',
};

/** Provider-brand (Nethesis) model from the 4th MAC octet (contract §5.6); 04 is the NP-X5 hardware v2. */
export const PROVIDER_BRAND_MODELS: Readonly<Record<string, string>> = {
  '00': 'nethesis-NPX3',
  '01': 'nethesis-NPX5',
  '02': 'nethesis-NPX210',
  '03': 'nethesis-NPV61',
  '04': 'nethesis-NPX5',
};

/** The model to pre-select for a provider-brand MAC, or undefined. */
export function providerBrandModel(mac: string): string | undefined {
  const canonical = canonicalMac(mac);
  if (!canonical || vendorOfMac(canonical) !== 'Nethesis') return undefined;
  return PROVIDER_BRAND_MODELS[canonical.split('-')[3] ?? ''];
}

// ------------------------------------------------------------------------------------------------ Option lists

export const DATE_FORMATS = [
  'DD MM YY',
  'DD MM YYYY',
  'DD MMM WW',
  'DD MMM YY',
  'DD MMM YYYY',
  'WWW DD MMM',
  'WWW MMM DD',
  'MM DD YYYY',
  'MMM DD WW',
  'YY MM DD',
  'YYYY MM DD',
  'MM DD YY',
] as const;
/** Backlight / screensaver timeouts in seconds, in console order (0 = always on / disabled, last). */
export const DISPLAY_TIMEOUTS = [3, 5, 7, 10, 15, 30, 60, 120, 300, 600, 1200, 1800, 2400, 3000, 3600, 0] as const;
export const TONE_ZONES_OFFERED = ['us', 'it', 'es', 'uk'] as const;
/** Tone zones the templates translate (Yealink's list); the console offers TONE_ZONES_OFFERED. */
// biome-ignore format: a list of codes
export const TONE_ZONES = [
  'ao', 'ar', 'au', 'at', 'be', 'br', 'bg', 'cl', 'cn', 'co', 'cr', 'cz', 'dk', 'ee', 'fi', 'fr', 'de', 'gr', 'hk',
  'hu', 'in', 'ir', 'ie', 'il', 'it', 'jp', 'ke', 'lt', 'mo', 'my', 'mx', 'nl', 'nz', 'no', 'pk', 'pa', 'phl', 'pl',
  'pt', 'ro', 'ru', 'sg', 'za', 'es', 'se', 'ch', 'tw', 'tz', 'th', 'tr', 'ug', 'uk', 'us', 'us-old', 've',
] as const;
export const PHONE_LANGUAGES_OFFERED = ['en', 'it'] as const;
/** Languages the templates translate; anything else falls back to English in the phone. */
export const PHONE_LANGUAGES = ['en', 'it', 'de', 'fr', 'es', 'nl', 'pt', 'ru', 'tr', 'dk'] as const;
export const PROVISIONING_FREQUENCIES = ['everyday', 'never'] as const;
export const TRANSFER_MODES = ['verify', 'attended', 'blind'] as const;
export const LDAP_TLS_MODES = ['none', 'starttls', 'ldaps'] as const;
export const TIME_FORMATS = ['12', '24'] as const;
export const URL_SCHEMES = ['https', 'http'] as const;

/** Soft, line and expansion key types (spec "Key types"); '' = unassigned. */
// biome-ignore format: a list of codes
export const SOFT_KEY_TYPES = [
  'forward', 'dnd', 'recall', 'pick_up', 'speed_dial', 'group_pickup', 'history', 'menu', 'status', 'prefix', 'ldap',
] as const;
// biome-ignore format: a list of codes
export const LINE_KEY_TYPES = [
  'forward', 'dnd', 'recall', 'speed_dial', 'group_pickup', 'conference', 'transfer', 'hold', 'direct_pickup', 'dtmf',
  'queuetoggle', 'voice_mail', 'line', 'blf', 'url', 'multicast_paging', 'record', 'phone_lock', 'prefix', 'ldap',
] as const;
export const EXP_KEY_TYPES = LINE_KEY_TYPES.filter((type) => type !== 'queuetoggle');
/** Preset-only key type (Snom D305/D315 ship it; the console does not offer it). */
export const PRESET_ONLY_KEY_TYPES = ['mute'] as const;

// ------------------------------------------------------------------------------------------------ Variables

/** Computed fields of a phone: never stored, refused as top-level PATCH keys and inside `variables`. */
export const PHONE_READ_ONLY_ATTRIBUTES = [
  'mac',
  'short_mac',
  'model_url',
  'tok1',
  'tok2',
  'provisioning_url1',
  'provisioning_url2',
] as const;
export const RESERVED_VARIABLES = [
  ...PHONE_READ_ONLY_ATTRIBUTES,
  'model',
  'display_name',
  'phone_url',
  'provisioning_url_path',
  'provisioning_complete',
  'provisioning_user_agent',
] as const;

export const CAPABILITY_VARIABLES = [
  'cap_softkey_count',
  'cap_softkey_type_blacklist',
  'cap_linekey_count',
  'cap_linekey_type_blacklist',
  'cap_expmodule_count',
  'cap_expkey_count',
  'cap_expkey_type_blacklist',
  'cap_ringtone_count',
  'cap_ringtone_blacklist',
  'cap_background_file',
  'cap_screensaver_file',
  'cap_backlight_time_blacklist',
  'cap_screensaver_time_blacklist',
  'cap_contrast',
  'cap_brightness',
  'cap_dss_transfer_blacklist',
  'cap_ldap_tls_blacklist',
  'cap_date_format_blacklist',
  'cap_dsskey_count',
] as const;

export type VariableRule =
  | { kind: 'enum'; values: readonly string[] }
  | { kind: 'int'; min: number; max: number }
  | { kind: 'bool' }
  | { kind: 'file'; collection: ProvisioningFileType }
  | { kind: 'template' }
  | { kind: 'timezone' }
  | { kind: 'list' }
  /** Comma-separated IPv4/IPv6 networks (networkListSchema). */
  | { kind: 'networks' }
  | { kind: 'text' };

const text: VariableRule = { kind: 'text' };
const bool: VariableRule = { kind: 'bool' };
const port: VariableRule = { kind: 'int', min: 1, max: 65535 };
const count: VariableRule = { kind: 'int', min: 0, max: 999 };
const level: VariableRule = { kind: 'int', min: 0, max: 9 };
const vlan: VariableRule = { kind: 'int', min: 0, max: 4094 };
// Seconds: the console offers DISPLAY_TIMEOUTS, shipped models also use other values (Akuvox 20, Snom D335 32).
const timeout: VariableRule = { kind: 'int', min: 0, max: 86400 };
const list: VariableRule = { kind: 'list' };

/** Every plain (non-indexed) variable the engine knows, with the values it accepts ('' is always accepted). */
export const VARIABLES: Readonly<Record<string, VariableRule>> = {
  hostname: text,
  provisioning_url_scheme: { kind: 'enum', values: URL_SCHEMES },
  provisioning_url_filename: text,
  // Default settings only (TOKENLESS_NETWORKS_VARIABLE): where the token-less bootstrap may hand out tok1.
  provisioning_tokenless_networks: { kind: 'networks' },
  provisioning_freq: { kind: 'enum', values: PROVISIONING_FREQUENCIES },
  tmpl_phone: { kind: 'template' },
  tmpl_firmware: { kind: 'template' },
  tmpl_firmware_v2: { kind: 'template' },
  tmpl_variables: { kind: 'template' },
  sip_udp_port: port,
  sip_tls_port: port,
  cfalwayson: text,
  cfalwaysoff: text,
  cfbusyon: text,
  cfbusyoff: text,
  cftimeouton: text,
  cftimeoutoff: text,
  cftimeout: { kind: 'int', min: 0, max: 3600 },
  dndon: text,
  dndoff: text,
  dndtoggle: text,
  call_waiting_on: text,
  call_waiting_off: text,
  pickup_direct: text,
  pickup_group: text,
  queuetoggle: text,
  call_waiting_tone: bool,
  dss_transfer: { kind: 'enum', values: TRANSFER_MODES },
  fanvil_sidekey_count: count,
  fanvil_sidepages_count: count,
  fanvil_lkpages_count: count,
  nethesis_sidekey_count: count,
  nethesis_sidepages_count: count,
  nethesis_lkpages_count: count,
  ringtone: { kind: 'int', min: -1, max: 99 },
  ringtone_file: { kind: 'file', collection: 'ringtones' },
  background_file: { kind: 'file', collection: 'backgrounds' },
  screensaver_file: { kind: 'file', collection: 'screensavers' },
  firmware_file: { kind: 'file', collection: 'firmware' },
  backlight_time: timeout,
  screensaver_time: timeout,
  contrast: level,
  brightness: level,
  timezone: { kind: 'timezone' },
  tonezone: { kind: 'enum', values: TONE_ZONES },
  language: { kind: 'enum', values: PHONE_LANGUAGES },
  ntp_server: text,
  time_format: { kind: 'enum', values: TIME_FORMATS },
  date_format: { kind: 'enum', values: DATE_FORMATS },
  ldap_server: text,
  ldap_port: port,
  ldap_tls: { kind: 'enum', values: LDAP_TLS_MODES },
  ldap_user: text,
  ldap_password: text,
  ldap_base: text,
  ldap_name_display: text,
  ldap_name_attr: text,
  ldap_mainphone_number_attr: text,
  ldap_mobilephone_number_attr: text,
  ldap_otherphone_number_attr: text,
  ldap_number_attr: text,
  ldap_number_filter: text,
  ldap_name_filter: text,
  vlan_id_phone: vlan,
  vlan_id_pcport: vlan,
  adminpw: text,
  userpw: text,
  ui_first_config: bool,
  // Optional vendor-specific inputs (contract §4.7).
  provisioning_protocol: text,
  pnp_enable: bool,
  auto_redial: bool,
  pound: bool,
  lcd_logo_mode: text,
  lcd_logo_url: text,
  yealink_blf_active_backlight: bool,
  wallpaper: text,
  logo_text: text,
  call_waiting: bool,
  // Capabilities: written by the catalogue, read-only on phones and through model PATCH.
  cap_softkey_count: count,
  cap_softkey_type_blacklist: list,
  cap_linekey_count: count,
  cap_linekey_type_blacklist: list,
  cap_expmodule_count: count,
  cap_expkey_count: count,
  cap_expkey_type_blacklist: list,
  cap_ringtone_count: count,
  cap_ringtone_blacklist: list,
  cap_background_file: bool,
  cap_screensaver_file: bool,
  cap_backlight_time_blacklist: list,
  cap_screensaver_time_blacklist: list,
  cap_contrast: bool,
  cap_brightness: bool,
  cap_dss_transfer_blacklist: list,
  cap_ldap_tls_blacklist: list,
  cap_date_format_blacklist: list,
  cap_dsskey_count: count,
};

/** Indexed variables `<prefix>_<N>`; `limit` names the capability that bounds N (see indexLimit). */
export const INDEXED_VARIABLES: Readonly<
  Record<string, { rule: VariableRule; limit: 'account' | 'softkey' | 'linekey' | 'expkey' | 'dsskey' | 'handset' }>
> = {
  account_extension: { rule: text, limit: 'account' },
  account_username: { rule: text, limit: 'account' },
  account_password: { rule: text, limit: 'account' },
  account_display_name: { rule: text, limit: 'account' },
  account_encryption: { rule: bool, limit: 'account' },
  account_dtmf_type: { rule: { kind: 'enum', values: ['rfc4733', 'inband', 'sip_info'] }, limit: 'account' },
  account_voicemail: { rule: text, limit: 'account' },
  account_dnd_allow: { rule: bool, limit: 'account' },
  account_fwd_allow: { rule: bool, limit: 'account' },
  account_call_waiting: { rule: bool, limit: 'account' },
  account_dnd_enable: { rule: bool, limit: 'account' },
  account_always_fwd_target: { rule: text, limit: 'account' },
  account_busy_fwd_target: { rule: text, limit: 'account' },
  account_timeout_fwd_target: { rule: text, limit: 'account' },
  account_cftimeout: { rule: { kind: 'int', min: 0, max: 3600 }, limit: 'account' },
  outbound_proxy: { rule: text, limit: 'account' },
  outbound_proxy_port: { rule: port, limit: 'account' },
  outbound_proxy2: { rule: text, limit: 'account' },
  outbound_proxy2_port: { rule: port, limit: 'account' },
  softkey_type: { rule: { kind: 'enum', values: SOFT_KEY_TYPES }, limit: 'softkey' },
  softkey_value: { rule: text, limit: 'softkey' },
  softkey_label: { rule: text, limit: 'softkey' },
  linekey_type: { rule: { kind: 'enum', values: [...LINE_KEY_TYPES, ...PRESET_ONLY_KEY_TYPES] }, limit: 'linekey' },
  linekey_value: { rule: text, limit: 'linekey' },
  linekey_label: { rule: text, limit: 'linekey' },
  expkey_type: { rule: { kind: 'enum', values: EXP_KEY_TYPES }, limit: 'expkey' },
  expkey_value: { rule: text, limit: 'expkey' },
  expkey_label: { rule: text, limit: 'expkey' },
  dsskey_type: { rule: { kind: 'enum', values: LINE_KEY_TYPES }, limit: 'dsskey' },
  dsskey_value: { rule: text, limit: 'dsskey' },
  dsskey_label: { rule: text, limit: 'dsskey' },
  handset_default_line: { rule: text, limit: 'handset' },
  handset_dialout_line: { rule: text, limit: 'handset' },
  handset_hac: { rule: bool, limit: 'handset' },
  handset_incoming_lines: { rule: text, limit: 'handset' },
  handset_name: { rule: text, limit: 'handset' },
};

/** Lines (SIP accounts) a phone may carry; only line 1 is produced by the PBX today. */
export const MAX_ACCOUNTS = 16;
/** Handsets of a DECT base. */
export const MAX_HANDSETS = 10;
/** Longest variable value accepted. */
export const MAX_VARIABLE_LENGTH = 1024;

/** Upper bound of N for an indexed variable, from the effective capability variables. */
export function indexLimit(
  limit: (typeof INDEXED_VARIABLES)[string]['limit'],
  caps: Readonly<Record<string, string | undefined>>,
): number {
  const int = (key: string) => Number.parseInt(caps[key] ?? '', 10) || 0;
  switch (limit) {
    case 'account':
      return MAX_ACCOUNTS;
    case 'handset':
      return MAX_HANDSETS;
    case 'softkey':
      return int('cap_softkey_count');
    case 'linekey':
      return int('cap_linekey_count');
    case 'expkey':
      return int('cap_expmodule_count') * int('cap_expkey_count');
    case 'dsskey':
      return int('cap_dsskey_count');
  }
}

/** Splits `linekey_type_12` into its prefix and index; undefined for a plain variable name. */
export function splitIndexed(name: string): { prefix: string; index: number } | undefined {
  const match = /^([a-z0-9_]+?)_([1-9]\d{0,3})$/.exec(name);
  if (!match?.[1] || !INDEXED_VARIABLES[match[1]]) return undefined;
  return { prefix: match[1], index: Number(match[2]) };
}

// ------------------------------------------------------------------------------------------------ Defaults

/**
 * Defaults scope of a new installation (contract §7.1: shipped values, the first-start values of the current
 * product, and the PBX's standard feature codes). adminpw/userpw are generated at first start; `hostname`
 * is absent so the server's own name applies until the administrator sets it. The server does not store the SIP
 * ports given here: they read as the ports its PBX listens on (SIP_PORT, SIP_TLS_PORT) until the administrator
 * sets others.
 */
export const SHIPPED_DEFAULTS: Readonly<Record<string, string>> = {
  provisioning_url_scheme: 'https',
  provisioning_url_filename: '',
  provisioning_freq: 'everyday',
  tmpl_phone: 'fallback.tmpl',
  sip_udp_port: '5060',
  sip_tls_port: '5061',
  timezone: 'UTC',
  tonezone: 'it',
  language: 'it',
  ntp_server: 'pool.ntp.org',
  time_format: '24',
  date_format: 'DD MM YY',
  dss_transfer: 'attended',
  call_waiting_tone: '1',
  ringtone: '1',
  background_file: '',
  screensaver_file: '',
  backlight_time: '30',
  screensaver_time: '600',
  contrast: '5',
  brightness: '5',
  vlan_id_phone: '',
  vlan_id_pcport: '',
  ldap_server: '',
  ldap_port: '389',
  ldap_tls: 'none',
  ldap_user: '',
  ldap_password: '',
  ldap_base: 'dc=phonebook',
  ldap_name_display: '%cn %o',
  ldap_name_attr: 'cn o',
  ldap_mainphone_number_attr: 'telephoneNumber',
  ldap_mobilephone_number_attr: 'mobile',
  ldap_otherphone_number_attr: 'homePhone',
  ldap_number_filter: '(|(telephoneNumber=%)(mobile=%)(homePhone=%))',
  ldap_name_filter: '(|(cn=%)(o=%))',
  cftimeouton: '*52',
  cftimeoutoff: '*53',
  cfbusyon: '*90',
  cfbusyoff: '*91',
  cfalwayson: '*72',
  cfalwaysoff: '*73',
  dndon: '*78',
  dndoff: '*79',
  dndtoggle: '*76',
  call_waiting_on: '*70',
  call_waiting_off: '*71',
  pickup_direct: '**',
  pickup_group: '*8',
  queuetoggle: '*45',
  cftimeout: '20',
  ui_first_config: '1',
  cap_ringtone_count: '1',
  cap_ringtone_blacklist: '-1,0',
  cap_background_file: '',
  cap_screensaver_file: '',
  cap_contrast: '',
  cap_brightness: '',
  cap_ldap_tls_blacklist: 'starttls',
  cap_backlight_time_blacklist: '',
  cap_screensaver_time_blacklist: '',
};

// ------------------------------------------------------------------------------------------------ Files

export const PROVISIONING_FILE_TYPES = ['firmware', 'ringtones', 'backgrounds', 'screensavers'] as const;
export type ProvisioningFileType = (typeof PROVISIONING_FILE_TYPES)[number];
/** Largest upload per collection, in bytes. */
export const PROVISIONING_FILE_LIMITS: Readonly<Record<ProvisioningFileType, number>> = {
  firmware: 512 * 1024 * 1024,
  ringtones: 10 * 1024 * 1024,
  backgrounds: 10 * 1024 * 1024,
  screensavers: 10 * 1024 * 1024,
};
/** Upload file names: letters, digits, hyphen, underscore, dot, parentheses (contract §2.8). */
export const UPLOAD_FILE_NAME = /^[a-zA-Z0-9\-_.()]+$/;
export const MAX_FILE_NAME_LENGTH = 200;
/** Model names (contract §2.4). */
export const MODEL_NAME = /^[a-zA-Z0-9_\-.]+$/;
export const MAX_MODEL_NAME_LENGTH = 100;

/** True when the value holds a control character (a line break would add settings to a rendered file). */
export function hasControlCharacters(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

export function isValidUploadName(name: string): boolean {
  return name.length <= MAX_FILE_NAME_LENGTH && UPLOAD_FILE_NAME.test(name) && name !== '.' && name !== '..';
}

// ------------------------------------------------------------------------------------------------ Schemas

/** Variables whose values are credentials (the phone's admin and user passwords, LDAP and SIP account passwords). */
export const SECRET_VARIABLES = /^(adminpw|userpw|ldap_password|account_password_\d+)$/;
const variablesSchema = secretKeys(z.record(z.string(), z.string()), SECRET_VARIABLES);
/** PATCH bodies: a null value removes the variable so the inherited value applies again. */
const variablesPatchSchema = secretKeys(z.record(z.string(), z.string().nullable()), SECRET_VARIABLES);

export const provModelSummarySchema = z
  .object({ name: z.string(), display_name: z.string(), model_url: z.string() })
  .meta({ id: 'ProvisioningModelSummary' });
export const provModelListSchema = z.array(provModelSummarySchema);

export const provModelSchema = z
  .object({
    name: z.string(),
    display_name: z.string().nullable(),
    variables: variablesSchema,
    model_url: z.string(),
  })
  .meta({ id: 'ProvisioningModel' });
export type ProvModel = z.infer<typeof provModelSchema>;

export const provModelCreateSchema = z
  .looseObject({
    name: z.string().optional(),
    display_name: z.string().max(200).optional(),
    variables: variablesSchema.optional(),
  })
  .meta({ id: 'ProvisioningModelCreate' });
export type ProvModelCreate = z.infer<typeof provModelCreateSchema>;

export const provModelPatchSchema = z
  .looseObject({ display_name: z.string().max(200).optional(), variables: variablesPatchSchema.optional() })
  .meta({ id: 'ProvisioningModelPatch' });
export type ProvModelPatch = z.infer<typeof provModelPatchSchema>;

export const provDefaultsSchema = variablesSchema.meta({ id: 'ProvisioningDefaults' });
export const provDefaultsPatchSchema = variablesPatchSchema.meta({ id: 'ProvisioningDefaultsPatch' });

export const provPhoneSummarySchema = z
  .object({
    mac: z.string(),
    model: z.string(),
    display_name: z.string(),
    model_url: z.string(),
    phone_url: z.string(),
  })
  .meta({ id: 'ProvisioningPhoneSummary' });
export const provPhoneListSchema = z.array(provPhoneSummarySchema);

export const provPhoneSchema = z
  .object({
    mac: z.string(),
    short_mac: z.string(),
    model: z.string(),
    display_name: z.string(),
    tok1: z.string().nullable(),
    tok2: z.string(),
    variables: variablesSchema,
    model_url: z.string(),
    provisioning_url1: z.string().nullable(),
    provisioning_url2: z.string(),
  })
  .meta({ id: 'ProvisioningPhone' });
export type ProvPhone = z.infer<typeof provPhoneSchema>;

export const provPhoneCreateSchema = z
  .looseObject({
    mac: z.string().optional(),
    model: z.string().nullable().optional(),
    display_name: z.string().max(200).nullable().optional(),
    variables: variablesSchema.optional(),
  })
  .meta({ id: 'ProvisioningPhoneCreate' });
export type ProvPhoneCreate = z.infer<typeof provPhoneCreateSchema>;

export const provPhonePatchSchema = z
  .looseObject({ model: z.string().nullable().optional(), variables: variablesPatchSchema.optional() })
  .meta({ id: 'ProvisioningPhonePatch' });
export type ProvPhonePatch = z.infer<typeof provPhonePatchSchema>;

export const provMacVendorsSchema = z.record(z.string(), z.string()).meta({ id: 'ProvisioningMacVendors' });

export const provFileSchema = z
  .object({ name: z.string(), size: z.number().int(), mtime: z.number().int() })
  .meta({ id: 'ProvisioningFile' });
export const provFileListSchema = z.array(provFileSchema);
export type ProvFile = z.infer<typeof provFileSchema>;

/** Why a connectivity check did not reach this console. */
export const CONNECTIVITY_FAILURES = [
  'dns',
  'refused',
  'timeout',
  'unreachable',
  'tls',
  'other_server',
  'error',
  /** The address is this machine's loopback (127.0.0.0/8, localhost): no phone can ever reach it. */
  'loopback',
] as const;
export type ConnectivityFailure = (typeof CONNECTIVITY_FAILURES)[number];

/** `host` may carry `:port` (a proxy in front of the console); empty means this server's own address. */
export const connectivityCheckRequestSchema = z
  .object({ host: z.string().max(259), scheme: z.enum(URL_SCHEMES).default('https') })
  .meta({ id: 'ConnectivityCheckRequest' });
export const connectivityCheckResultSchema = z
  .object({
    is_reachable: z.boolean(),
    valid_certificate: z.boolean(),
    host_type: z.enum(['IP', 'FQDN']),
    /** The URL the check asked for: the phones' provisioning URL + check/ping. */
    url: z.string(),
    /** What phones are given, before their token (scheme, host and port of the listener). */
    provisioning_url: z.string(),
    /** Encryption is on but the console has no HTTPS listener: phones use plain HTTP. */
    https_unavailable: z.boolean(),
    failure: z.enum(CONNECTIVITY_FAILURES).optional(),
  })
  .meta({ id: 'ConnectivityCheckResult' });
export type ConnectivityCheckResult = z.infer<typeof connectivityCheckResultSchema>;

/** Error body of the engine API: the common shape plus the problem type URI of the original engine. */
export const provErrorSchema = z
  .object({
    type: z.string().optional(),
    title: z.string(),
    detail: z.string(),
    code: z.string(),
    fields: z.record(z.string(), z.string()).optional(),
  })
  .meta({ id: 'ProvisioningError' });

const PROBLEMS = 'https://nethesis.github.io/tancredi/problems/';
/** Problem type URIs of the original engine (contract §2.2), by our error code. */
export const PROVISIONING_PROBLEM_TYPES: Readonly<Record<string, string>> = {
  validation: `${PROBLEMS}#malformed-data`,
  prov_missing_mac: `${PROBLEMS}#malformed-data`,
  prov_invalid_mac: `${PROBLEMS}#malformed-data`,
  prov_missing_model_name: `${PROBLEMS}#malformed-data`,
  prov_invalid_model_name: `${PROBLEMS}#malformed-data`,
  prov_unknown_variable: `${PROBLEMS}#malformed-data`,
  prov_invalid_variable: `${PROBLEMS}#malformed-data`,
  prov_unknown_model: `${PROBLEMS}#malformed-data`,
  prov_invalid_host: `${PROBLEMS}#malformed-data`,
  prov_unreachable_address: `${PROBLEMS}#malformed-data`,
  prov_invalid_networks: `${PROBLEMS}#malformed-data`,
  prov_upload_empty: `${PROBLEMS}#malformed-data`,
  upload_invalid_filename: `${PROBLEMS}#invalid-file-name`,
  prov_read_only_attribute: `${PROBLEMS}#read-only-attribute`,
  prov_not_found: `${PROBLEMS}#not-found`,
  not_found: `${PROBLEMS}#not-found`,
  prov_phone_exists: `${PROBLEMS}#phone-exists`,
  prov_model_exists: `${PROBLEMS}#model-exists`,
  prov_file_exists: `${PROBLEMS}#file-exists`,
  prov_resource_in_use: `${PROBLEMS}#resource-in-use`,
  prov_upload_too_large: `${PROBLEMS}#file-too-large`,
  payload_too_large: `${PROBLEMS}#file-too-large`,
};

/** The default-settings modal shows its loading indicator at least this long (spec §9). */
export const DEFAULTS_LOADING_MS = 1500;
