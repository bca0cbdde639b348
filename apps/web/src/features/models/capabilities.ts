import { DATE_FORMATS, DISPLAY_TIMEOUTS, LDAP_TLS_MODES, TRANSFER_MODES } from '@centralino/contract';

export type Variables = Readonly<Record<string, string | undefined>>;

/** Key types in the order the lists offer them (contract §6.3). */
// biome-ignore format: a list of codes
export const SOFT_KEY_ORDER = [
  'forward', 'dnd', 'recall', 'pick_up', 'speed_dial', 'group_pickup', 'history', 'menu', 'status', 'prefix', 'ldap',
] as const;
// biome-ignore format: a list of codes
export const LINE_KEY_ORDER = [
  'conference', 'forward', 'transfer', 'hold', 'dnd', 'recall', 'direct_pickup', 'dtmf', 'queuetoggle', 'voice_mail',
  'speed_dial', 'line', 'blf', 'url', 'group_pickup', 'multicast_paging', 'record', 'prefix', 'phone_lock', 'ldap',
] as const;
export const EXP_KEY_ORDER = LINE_KEY_ORDER.filter((type) => type !== 'queuetoggle');

export type KeyKind = 'softkey' | 'linekey' | 'expkey';

export interface KeyCapabilities {
  /** Keys per section (per module for expansion keys); 0 hides the section. */
  count: number;
  types: string[];
}

export interface ModelCapabilities {
  softKeys: KeyCapabilities;
  lineKeys: KeyCapabilities;
  expansion: KeyCapabilities & { modules: number };
  /** Ringtone values offered, from -1 (custom file) and 0 (silent) up to the model's count. */
  ringtones: string[];
  backgroundFile: boolean;
  screensaverFile: boolean;
  /** Empty when the model blacklists every timeout: the field is hidden. */
  backlightTimes: string[];
  screensaverTimes: string[];
  contrast: boolean;
  brightness: boolean;
  dssTransfer: string[];
  ldapTls: string[];
  dateFormats: string[];
}

export function splitList(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
}

function count(value: string | undefined): number {
  const n = Number.parseInt(value ?? '', 10);
  return Number.isFinite(n) && n > 0 ? n : 0;
}

function without(values: readonly (string | number)[], blacklist: string | undefined): string[] {
  const hidden = new Set(splitList(blacklist));
  return values.map(String).filter((value) => !hidden.has(value));
}

/**
 * What a model's hardware offers, from its capability variables. Capabilities the model leaves to the
 * defaults (ringtone count and blacklist, files, contrast...) count too, so a model without them behaves
 * like the phones the defaults describe.
 */
export function modelCapabilities(own: Variables, globals: Variables = {}): ModelCapabilities {
  const caps = (key: string) => (key in own ? own[key] : globals[key]);
  const ringtoneCount = count(caps('cap_ringtone_count'));
  const ringtones: number[] = [];
  for (let value = -1; value <= ringtoneCount; value++) ringtones.push(value);
  return {
    softKeys: {
      count: count(caps('cap_softkey_count')),
      types: without(SOFT_KEY_ORDER, caps('cap_softkey_type_blacklist')),
    },
    lineKeys: {
      count: count(caps('cap_linekey_count')),
      types: without(LINE_KEY_ORDER, caps('cap_linekey_type_blacklist')),
    },
    expansion: {
      modules: count(caps('cap_expkey_count')) > 0 ? count(caps('cap_expmodule_count')) : 0,
      count: count(caps('cap_expmodule_count')) > 0 ? count(caps('cap_expkey_count')) : 0,
      types: without(EXP_KEY_ORDER, caps('cap_expkey_type_blacklist')),
    },
    ringtones: without(ringtones, caps('cap_ringtone_blacklist')),
    backgroundFile: caps('cap_background_file') === '1',
    screensaverFile: caps('cap_screensaver_file') === '1',
    backlightTimes: without(DISPLAY_TIMEOUTS, caps('cap_backlight_time_blacklist')),
    screensaverTimes: without(DISPLAY_TIMEOUTS, caps('cap_screensaver_time_blacklist')),
    contrast: caps('cap_contrast') === '1',
    brightness: caps('cap_brightness') === '1',
    dssTransfer: without(TRANSFER_MODES, caps('cap_dss_transfer_blacklist')),
    ldapTls: without(LDAP_TLS_MODES, caps('cap_ldap_tls_blacklist')),
    dateFormats: without(DATE_FORMATS, caps('cap_date_format_blacklist')),
  };
}

/** Contrast and brightness levels: ten, from 0. */
export const LEVELS = Array.from({ length: 10 }, (_, i) => String(i));

/**
 * Options of a list: the offered values, plus the current one when the model holds a value not offered
 * (a preset such as Snom's 'mute' key), so showing the model never changes it.
 */
export function withCurrent(values: readonly string[], current: string | undefined): string[] {
  return current && !values.includes(current) ? [...values, current] : [...values];
}
