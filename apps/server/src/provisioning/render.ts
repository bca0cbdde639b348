import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { vendorOfMac } from '@centralino/contract';
import { Liquid } from 'liquidjs';
import { type Listeners, provisioningOrigin } from './address.ts';
import type { Variables } from './scopes.ts';
import { TEMPLATES, type TemplateEntry, type Vendor } from './templates.ts';
import {
  FANVIL_KEY,
  FANVIL_TRANSFER,
  keyContent,
  NAMED_KEY,
  SNOM_FKEY,
  SNOM_LANGUAGE,
  SNOM_SOFTKEY,
  SNOM_TONE,
  YEALINK_DATE,
  YEALINK_LANGUAGE,
  YEALINK_LINEKEY,
  YEALINK_SOFTKEY,
  YEALINK_TONE,
} from './vendor-maps.ts';

/** templates/ next to this file in the sources; provisioning-templates/ next to the bundled dist/main.js. */
function templatesRoot(): string {
  for (const candidate of ['./templates/', './provisioning-templates/']) {
    const dir = fileURLToPath(new URL(candidate, import.meta.url));
    if (fs.existsSync(dir)) return dir;
  }
  throw new Error('provisioning templates not found next to the server code');
}

let engine: Liquid | undefined;
function liquid(): Liquid {
  engine ??= new Liquid({
    root: templatesRoot(),
    extname: '.liquid',
    cache: true,
    strictFilters: true,
    // Whitespace control keeps the generated files free of blank lines from tags.
    trimTagLeft: false,
    trimTagRight: true,
    greedy: false,
  });
  return engine;
}

/** Everything a template may need about the request, besides the merged variables. */
export interface RenderInput {
  variables: Variables;
  mac: string;
  model: string;
  displayName: string;
  tok1: string | null;
  tok2: string;
  /** Server host name used when the `hostname` variable is empty. */
  serverHost: string;
  /** The console's listeners (provisioning URLs name their port); absent: the schemes' default ports. */
  listeners?: Listeners;
  /** The request used tok2 (steady state). */
  complete: boolean;
  /** Token-less request: credentials blanked and the phone keeps using tok1 (or no token). */
  blank: boolean;
  userAgent: string;
  /** Extra account data from the PBX (server, port, transport) by line number. */
  accountExtras: { server?: string; port?: number; transport?: string }[];
  now: Date;
}

export class NoTemplateError extends Error {}

/** The variables whose values are secrets: blanked on token-less requests (contract §4.3, plus LDAP). */
export function isCredential(name: string): boolean {
  return name.includes('account_') || name.includes('adminpw') || name.includes('userpw') || name === 'ldap_password';
}

const int = (value: string | undefined, fallback = 0) => {
  const n = Number.parseInt(value ?? '', 10);
  return Number.isFinite(n) ? n : fallback;
};

// Building a formatter costs more than rendering a whole file; keep one per zone.
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string): Intl.DateTimeFormat {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
    });
    formatters.set(timeZone, format);
  }
  return format;
}

function offsetMinutes(timeZone: string, now: Date): number {
  try {
    const parts = formatter(timeZone).formatToParts(now);
    const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
    const local = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'));
    return Math.round((local - Math.floor(now.getTime() / 60_000) * 60_000) / 60_000);
  } catch {
    return 0;
  }
}

function timezoneView(timeZone: string, now: Date) {
  const minutes = offsetMinutes(timeZone || 'UTC', now);
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = String(abs % 60).padStart(2, '0');
  return {
    name: timeZone || 'UTC',
    offset_minutes: minutes,
    offset_seconds: minutes * 60,
    /** '+1', '-3.5' */
    offset_hours: `${sign}${abs / 60}`,
    /** '+01:00' */
    offset_hhmm: `${sign}${hh}:${mm}`,
  };
}

interface Key {
  index: number;
  type: string;
  value: string;
  label: string;
  /** Vendor encoding of the key (code, function string or name). */
  code: string;
  module?: number;
  key?: number;
}

function keys(vars: Variables, kind: 'softkey' | 'linekey' | 'expkey', count: number): Key[] {
  const list: Key[] = [];
  for (let n = 1; n <= count; n++) {
    const type = vars[`${kind}_type_${n}`];
    if (type === undefined) continue;
    list.push({
      index: n,
      type,
      value: vars[`${kind}_value_${n}`] ?? '',
      label: vars[`${kind}_label_${n}`] ?? '',
      code: '',
    });
  }
  return list;
}

function vendorOfTemplate(entry: TemplateEntry, mac: string): Vendor | undefined {
  if (entry.vendor !== 'any') return entry.vendor;
  const vendor = vendorOfMac(mac)?.toLowerCase();
  if (vendor === 'yealink/dreamwave') return 'yealink';
  return (['snom', 'gigaset', 'fanvil', 'nethesis', 'sangoma', 'akuvox', 'grandstream'] as const).find(
    (v) => v === vendor,
  );
}

/**
 * Phones without a model render with `fallback.tmpl`: the vendor comes from the MAC (the original looked
 * only at the user agent), the family from the user agent where one vendor has several.
 */
/**
 * Whether a phone's file under `templateName` depends on the user agent of the request: only the fallback picks a
 * template by it, and only for vendors whose MAC does not settle it (snom/Gigaset, Fanvil X3/X5, unknown makers).
 * A file that does not can be rendered before the phone asks, and kept on disk for a front web server.
 */
export function renderedByAgent(templateName: string, mac: string): boolean {
  if (TEMPLATES[templateName]?.file !== 'fallback') return false;
  const vendor = vendorOfTemplate(TEMPLATES['fallback.tmpl'] as TemplateEntry, mac);
  return vendor === undefined || vendor === 'snom' || vendor === 'fanvil';
}

function fallbackTemplate(mac: string, userAgent: string): string | undefined {
  const vendor = vendorOfTemplate(TEMPLATES['fallback.tmpl'] as TemplateEntry, mac);
  switch (vendor) {
    case 'yealink':
      return 'yealink.tmpl';
    case 'snom':
      return /^Gigaset/i.test(userAgent) ? 'gigasetP.tmpl' : 'snom.tmpl';
    case 'gigaset':
      return 'gigaset-Maxwell.tmpl';
    case 'fanvil':
      return /^Fanvil X3/.test(userAgent) ? 'fanvil-X3.tmpl' : 'fanvil-X5.tmpl';
    case 'nethesis':
      return 'nethesis.tmpl';
    case 'sangoma':
      return 'sangoma.tmpl';
    case 'akuvox':
      return 'akuvox.tmpl';
    case 'grandstream':
      return 'grandstream.tmpl';
  }
  if (/^Yealink SIP/.test(userAgent)) return 'yealink.tmpl';
  if (/snomD?\d+-SIP/.test(userAgent)) return 'snom.tmpl';
  if (/^Fanvil X3/.test(userAgent)) return 'fanvil-X3.tmpl';
  if (/^Fanvil/.test(userAgent)) return 'fanvil-X5.tmpl';
  if (/^Sangoma/.test(userAgent)) return 'sangoma.tmpl';
  if (/Maxwell/.test(userAgent)) return 'gigaset-Maxwell.tmpl';
  if (/^Nethesis/.test(userAgent)) return 'nethesis.tmpl';
  if (/^Grandstream/.test(userAgent)) return 'grandstream.tmpl';
  return undefined;
}

function decorateKeys(vendor: Vendor, list: Key[], kind: 'softkey' | 'line', vars: Variables) {
  const transfer = FANVIL_TRANSFER[vars.dss_transfer ?? ''] ?? 'b';
  for (const key of list) {
    const value = key.type === 'queuetoggle' ? (vars.queuetoggle ?? '') : key.value;
    switch (vendor) {
      case 'yealink':
        key.code = (kind === 'softkey' ? YEALINK_SOFTKEY : YEALINK_LINEKEY)[key.type] ?? '0';
        key.value = value;
        break;
      case 'snom':
      case 'gigaset':
        key.code = keyContent(
          kind === 'softkey' ? (SNOM_SOFTKEY[key.type] ?? 'keyevent F_NONE') : (SNOM_FKEY[key.type] ?? 'line'),
          value,
          vars,
        ).trim();
        break;
      case 'fanvil':
      case 'nethesis':
        key.code = keyContent(FANVIL_KEY[key.type] ?? '0:', value, vars, transfer);
        break;
      default:
        key.code = NAMED_KEY[key.type] ?? 'none';
        key.value = value;
    }
  }
}

/** Builds the template context from the merged variables (contract §4.5 steps 2 and 5). */
export function buildView(input: RenderInput, template: TemplateEntry, vendor: Vendor | undefined) {
  const vars: Variables = { ...input.variables };
  if (input.blank) for (const name of Object.keys(vars)) if (isCredential(name)) vars[name] = '';
  const shortMac = input.mac.replaceAll('-', '').toLowerCase();
  // The listener phones really reach (its port unless default); the SIP server is the host alone.
  const where = provisioningOrigin(
    vars.hostname,
    vars.provisioning_url_scheme,
    input.serverHost,
    input.listeners ?? { http: 80, https: 443 },
  );
  const { scheme, host } = where;
  // A token-less response must not hand out the steady-state token (the original leaked it in the URL).
  const token = input.blank ? (input.tok1 ?? '') : input.tok2;
  const base = `${where.origin}/provisioning${token ? `/${token}` : ''}`;
  const filename = (vars.provisioning_url_filename ?? '').replace(/\$mac|%25MACD|%MACD|\{mac\}/g, shortMac);
  const provisioningUrl = `${base}/${filename}`.replace(/\/+$/, '');
  const asset = (collection: string, name: string | undefined) => (name ? `${base}/${collection}/${name}` : '');

  const udpPort = int(vars.sip_udp_port, 5060);
  const tlsPort = int(vars.sip_tls_port, 5061);
  const accounts = [];
  for (let n = 1; vars[`account_username_${n}`] !== undefined || vars[`account_extension_${n}`] !== undefined; n++) {
    const extra = input.accountExtras[n - 1] ?? {};
    const encryption = vars[`account_encryption_${n}`] === '1';
    const transport = extra.transport ?? (encryption ? 'tls' : 'udp');
    const port = extra.port ?? (transport === 'tls' ? tlsPort : udpPort);
    const proxy = vars[`outbound_proxy_${n}`] ?? '';
    accounts.push({
      index: n,
      extension: vars[`account_extension_${n}`] ?? '',
      username: vars[`account_username_${n}`] || vars[`account_extension_${n}`] || '',
      password: vars[`account_password_${n}`] ?? '',
      display_name: vars[`account_display_name_${n}`] ?? '',
      server: extra.server || host,
      port,
      transport,
      encryption,
      dtmf_type: vars[`account_dtmf_type_${n}`] || 'rfc4733',
      voicemail: vars[`account_voicemail_${n}`] ?? '',
      dnd_allow: vars[`account_dnd_allow_${n}`] === '1',
      fwd_allow: vars[`account_fwd_allow_${n}`] === '1',
      outbound_proxy: proxy,
      outbound_proxy_port: int(vars[`outbound_proxy_port_${n}`], transport === 'tls' ? tlsPort : udpPort),
      call_waiting: vars[`account_call_waiting_${n}`] === '1',
      dnd_enable: vars[`account_dnd_enable_${n}`] === '1',
      always_fwd_target: vars[`account_always_fwd_target_${n}`] ?? '',
      busy_fwd_target: vars[`account_busy_fwd_target_${n}`] ?? '',
      timeout_fwd_target: vars[`account_timeout_fwd_target_${n}`] ?? '',
    });
  }

  const softkeys = keys(vars, 'softkey', int(vars.cap_softkey_count));
  const linekeys = keys(vars, 'linekey', int(vars.cap_linekey_count));
  const perModule = int(vars.cap_expkey_count);
  const modules = int(vars.cap_expmodule_count);
  const expkeys = keys(vars, 'expkey', modules * perModule).map((key) => ({
    ...key,
    module: Math.floor((key.index - 1) / perModule) + 1,
    key: ((key.index - 1) % perModule) + 1,
  }));
  if (vendor) {
    decorateKeys(vendor, softkeys, 'softkey', vars);
    decorateKeys(vendor, linekeys, 'line', vars);
    decorateKeys(vendor, expkeys, 'line', vars);
  }

  const ldapTls = vars.ldap_tls || 'none';
  const ringtone = int(vars.ringtone, 1);
  const background = vars.background_file ?? '';
  const language = vars.language || 'en';
  const tonezone = vars.tonezone || 'us';
  const dateFormat = vars.date_format ?? '';
  const vlan = (value: string | undefined) => {
    const id = int(value);
    return id >= 1 && id <= 4094 ? id : 0;
  };

  return {
    v: vars,
    variant: template.variant,
    vendor: vendor ?? '',
    mac: input.mac,
    short_mac: shortMac,
    mac_upper: shortMac.toUpperCase(),
    model: input.model,
    display_name: input.displayName,
    user_agent: input.userAgent,
    provisioning_complete: input.complete,
    provisioning_url: provisioningUrl,
    provisioning_base: base,
    provisioning_path: `provisioning${token ? `/${token}` : ''}`,
    scheme,
    https: scheme === 'https',
    host,
    provisioning_host: where.authority,
    everyday: vars.provisioning_freq !== 'never',
    accounts,
    account: accounts[0],
    softkeys,
    linekeys,
    expkeys,
    expmodules: modules,
    expkeys_per_module: perModule,
    admin_password: input.blank ? '' : vars.adminpw || 'admin',
    user_password: input.blank ? '' : vars.userpw || '1234',
    firmware_url: asset('firmware', vars.firmware_file),
    ringtone: {
      number: ringtone,
      custom: ringtone === -1 && !!vars.ringtone_file,
      url: ringtone === -1 ? asset('ringtones', vars.ringtone_file) : '',
      count: int(vars.cap_ringtone_count, 1),
    },
    background_url: vars.cap_background_file === '1' ? asset('backgrounds', background) : '',
    background_file: background,
    screensaver_url: vars.cap_screensaver_file === '1' ? asset('screensavers', vars.screensaver_file) : '',
    backlight_time: int(vars.backlight_time, 30),
    screensaver_time: int(vars.screensaver_time),
    contrast: int(vars.contrast, 5),
    brightness: int(vars.brightness, 5),
    tz: timezoneView(vars.timezone ?? 'UTC', input.now),
    ntp_server: vars.ntp_server || 'pool.ntp.org',
    time_24: vars.time_format !== '12',
    date_format: dateFormat,
    date_us: /^MMM? DD/.test(dateFormat),
    language,
    language_name: YEALINK_LANGUAGE[language] ?? 'English',
    snom_language: SNOM_LANGUAGE[language] ?? 'English',
    tonezone,
    yealink_tone: YEALINK_TONE[tonezone] ?? 'United States',
    snom_tone: SNOM_TONE[tonezone] ?? 'USA',
    yealink_date: YEALINK_DATE[dateFormat] ?? '6',
    transfer: vars.dss_transfer || 'attended',
    ldap: {
      enabled: !!(vars.ldap_base || vars.ldap_server),
      server: vars.ldap_server || host,
      port: int(vars.ldap_port, ldapTls === 'ldaps' ? 636 : 389),
      tls: ldapTls,
      user: vars.ldap_user ?? '',
      password: vars.ldap_password ?? '',
      base: vars.ldap_base ?? '',
      name_display: vars.ldap_name_display ?? '',
      name_attr: vars.ldap_name_attr ?? '',
      number_attr: [
        vars.ldap_mainphone_number_attr,
        vars.ldap_mobilephone_number_attr,
        vars.ldap_otherphone_number_attr,
      ]
        .filter(Boolean)
        .join(' '),
      number_filter: vars.ldap_number_filter ?? '',
      name_filter: vars.ldap_name_filter ?? '',
    },
    vlan_phone: vlan(vars.vlan_id_phone),
    vlan_pc: vlan(vars.vlan_id_pcport),
    sip_udp_port: udpPort,
    sip_tls_port: tlsPort,
  };
}

/** Renders the template named by `templateName` for a phone; throws NoTemplateError when there is none. */
export async function renderFile(templateName: string, input: RenderInput): Promise<string> {
  let name = templateName;
  if (TEMPLATES[name]?.file === 'fallback') {
    const picked = fallbackTemplate(input.mac, input.userAgent);
    if (!picked) throw new NoTemplateError(`no template for ${input.mac} (${input.userAgent})`);
    name = picked;
  }
  const entry = TEMPLATES[name];
  if (!entry) throw new NoTemplateError(`unknown template ${templateName}`);
  const view = buildView(input, entry, vendorOfTemplate(entry, input.mac));
  // Templates use no asynchronous tags; the synchronous renderer is several times faster.
  return liquid().renderFileSync(entry.file, view);
}
