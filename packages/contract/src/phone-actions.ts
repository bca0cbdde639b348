import { z } from 'zod';
import { normalizeMac } from './devices.ts';
import { IPV4_PATTERN } from './gateways.ts';

/** Phone actions (contract api-core §13) and network discovery (api-admin §3.1, §3.3). */

// --------------------------------------------------------------------------------------------- network scan

/** Widest network a scan accepts: a /22 is about a thousand addresses. */
export const MIN_SCAN_PREFIX = 22;

/** Prefix length of a dotted netmask, or undefined when the ones are not contiguous. */
export function prefixOfNetmask(mask: string): number | undefined {
  if (!IPV4_PATTERN.test(mask.trim())) return undefined;
  const bits = mask
    .trim()
    .split('.')
    .map((p) => Number(p).toString(2).padStart(8, '0'))
    .join('');
  if (!/^1*0*$/.test(bits)) return undefined;
  return bits.replace(/0+$/, '').length;
}

/** The network string a scan is named by: `<address>/<prefix>`, exactly as the console sends it. */
export const scanRequestSchema = z
  .object({
    network: z
      .string()
      .trim()
      .max(18)
      .refine((value) => {
        const [ip = '', prefix = '', ...rest] = value.split('/');
        return rest.length === 0 && IPV4_PATTERN.test(ip) && /^\d{1,2}$/.test(prefix) && Number(prefix) <= 32;
      }, 'must be an IPv4 address and a prefix length, such as 192.168.1.10/24'),
  })
  .meta({ id: 'ScanRequest' });
export type ScanRequest = z.infer<typeof scanRequestSchema>;

/** `result` is the task id (contract); `hash` names the results, so a browser needs no md5 of its own. */
export const scanStartedSchema = z.object({ result: z.string(), hash: z.string() }).meta({ id: 'ScanStarted' });

export const scannedDeviceSchema = z
  .object({
    /** Upper-case, colon-separated. */
    mac: z.string(),
    ipv4: z.string(),
    manufacturer: z.string(),
    type: z.enum(['phone', 'gateway', 'unknown']),
    /** Stored in the inventory, or told by the MAC of a provider-brand phone. */
    model: z.string().optional(),
  })
  .meta({ id: 'ScannedDevice' });
export type ScannedDevice = z.infer<typeof scannedDeviceSchema>;
export const scannedDeviceListSchema = z.array(scannedDeviceSchema);

/** One IPv4 network of the server (GET /configuration/networks). */
export const hostNetworkSchema = z
  .object({ network: z.string(), ip: z.string(), netmask: z.string(), gateway: z.string() })
  .meta({ id: 'HostNetwork' });
export type HostNetwork = z.infer<typeof hostNetworkSchema>;
export const hostNetworkListSchema = z.array(hostNetworkSchema);

// --------------------------------------------------------------------------------------------------- reboot

const timePart = z.union([z.string().max(4), z.number()]).optional();

/** Body of POST /phones/reboot: MAC → `{hours, minutes}` to schedule, `{}` to reboot now. */
export const rebootRequestSchema = z
  .record(z.string().max(32), z.object({ hours: timePart, minutes: timePart }))
  .refine((body) => Object.keys(body).length <= 500, 'at most 500 phones at once')
  .meta({ id: 'RebootRequest' });
export type RebootRequest = z.input<typeof rebootRequestSchema>;

/** Per-phone outcome: `code` as the reference (204 done, 202 cancelled, 4xx/5xx failed), `error` our code. */
export const rebootOutcomeSchema = z
  .object({
    code: z.number().int(),
    title: z.string().optional(),
    detail: z.string().optional(),
    error: z.string().optional(),
  })
  .meta({ id: 'RebootOutcome' });
export type RebootOutcome = z.infer<typeof rebootOutcomeSchema>;
export const rebootResultSchema = z.record(z.string(), rebootOutcomeSchema).meta({ id: 'RebootResult' });

export const rebootScheduleSchema = z
  .record(z.string(), z.object({ hours: z.string(), minutes: z.string() }))
  .meta({ id: 'RebootSchedule' });
export type RebootSchedule = z.infer<typeof rebootScheduleSchema>;

export const rebootCancelSchema = z.array(z.string().max(32)).max(500).meta({ id: 'RebootCancel' });

// ------------------------------------------------------------------------------------------------------ RPS

/** Redirect-service provider of each console vendor (contract api-core §13.2). */
export const RPS_PROVIDER_OF_VENDOR: Readonly<Record<string, string>> = {
  Snom: 'snom',
  Gigaset: 'gigaset',
  Fanvil: 'fanvil',
  Nethesis: 'fanvil',
  'Yealink/Dreamwave': 'yealink',
};

export const rpsRequestSchema = z
  .object({ url: z.string().trim().min(1, 'A provisioning URL is required').max(1024).url('Must be a URL') })
  .meta({ id: 'RpsRequest' });

// ----------------------------------------------------------------------------- old-mode phone configuration

/** GET /devices/phones/manufacturers: vendor → names of the models a phone of that vendor can be given. */
export const phoneManufacturersSchema = z.record(z.string(), z.array(z.string())).meta({ id: 'PhoneManufacturers' });
export type PhoneManufacturers = z.infer<typeof phoneManufacturersSchema>;

const phoneMac = z
  .string({ error: 'A MAC address is required' })
  .trim()
  .max(17, 'Invalid MAC address')
  .transform((value, ctx) => {
    const mac = normalizeMac(value);
    if (!mac) {
      ctx.addIssue({ code: 'custom', message: 'Invalid MAC address' });
      return z.NEVER;
    }
    return mac;
  });

/** Body of POST /devices/phones/model (old-mode device configuration: the model select of a phone). */
export const phoneModelRequestSchema = z
  .object({
    mac: phoneMac,
    vendor: z.string({ error: 'A vendor is required' }).trim().min(1, 'A vendor is required').max(64),
    model: z.string({ error: 'A model is required' }).trim().min(1, 'A model is required').max(64),
  })
  .meta({ id: 'PhoneModelRequest' });
export type PhoneModelRequest = z.input<typeof phoneModelRequestSchema>;

/** Body of POST /devices/phones/provision: the phone whose configuration is prepared again. */
export const phoneProvisionRequestSchema = z.object({ mac: phoneMac }).meta({ id: 'PhoneProvisionRequest' });

export const phoneLineSchema = z
  .object({
    extension: z.string().nullable(),
    mainextension: z.string().nullable(),
    line: z.string(),
    username: z.string().nullable(),
    displayname: z.string().nullable(),
    /** PBX state of the line's extension: '0' Idle (registered), '4' Unavailable. */
    status: z.string().optional(),
    statusText: z.string().optional(),
  })
  .meta({ id: 'PhoneLine' });

/**
 * One item of GET /devices/phones/list: a custom device (no MAC, model 'custom'), a scanned phone with a
 * stored model, or an inventory phone. Secrets are not listed (GET /extensions/{ext}/credentials has them).
 */
export const phoneListItemSchema = z
  .object({
    mac: z.string().optional(),
    ipv4: z.string().optional(),
    type: z.string().optional(),
    manufacturer: z.string(),
    model: z.string().nullable(),
    lines: z.array(phoneLineSchema),
  })
  .meta({ id: 'PhoneListItem' });
export type PhoneListItem = z.infer<typeof phoneListItemSchema>;
export const phoneListSchema = z.array(phoneListItemSchema).meta({ id: 'PhoneList' });
