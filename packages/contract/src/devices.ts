import { z } from 'zod';
import { secret } from './secret.ts';
import { noControlChars } from './text.ts';

/** Product limit of devices per user (spec §5/§9), below the 9 numbers the scheme allows. */
export const MAX_DEVICES_PER_USER = 7;
export const deviceTypes = ['physical', 'temporaryphysical', 'webrtc', 'mobile', 'nethlink'] as const;
export type DeviceType = (typeof deviceTypes)[number];

/** 12 hex digits with :, - or nothing between pairs, any case → AA:BB:CC:DD:EE:FF; undefined when invalid. */
export function normalizeMac(input: string): string | undefined {
  const hex = input.trim().replace(/[:-]/g, '');
  if (!/^[0-9a-fA-F]{12}$/.test(hex)) return undefined;
  return (hex.toUpperCase().match(/../g) as string[]).join(':');
}

export const macSchema = z
  .string()
  .max(17)
  .transform((value, ctx) => {
    const mac = normalizeMac(value);
    if (!mac) {
      ctx.addIssue({ code: 'custom', message: 'Invalid MAC address' });
      return z.NEVER;
    }
    return mac;
  });

const mainExtension = z
  .string()
  .trim()
  .regex(/^[0-9]{2,6}$/, 'A main extension number');
const webCredential = z
  .string()
  .max(128)
  .regex(/^[^\s;#"\\]*$/, 'No spaces, ; # " or \\')
  .check(noControlChars)
  .nullish();

export const physicalExtensionCreateSchema = z
  .object({
    mainextension: mainExtension.optional().or(z.literal('')),
    mac: macSchema.nullish(),
    model: z
      .string()
      .max(64)
      .regex(/^[A-Za-z0-9._ -]*$/, 'A model name')
      .nullish(),
    line: z.number().int().min(1).max(16).nullish(),
    web_user: webCredential,
    web_password: secret(webCredential),
    clear_temporary: z.unknown().optional(),
  })
  .meta({ id: 'PhysicalExtensionCreate' });
export type PhysicalExtensionCreate = z.input<typeof physicalExtensionCreateSchema>;

export const voicemailRequestSchema = z
  .object({ extension: z.union([z.string(), z.number()]).transform(String), state: z.string() })
  .meta({ id: 'VoicemailRequest' });
export const voicemailSchema = z
  .object({
    mailbox: z.string(),
    pwd: z.string(),
    name: z.string(),
    email: z.string(),
    pager: z.string(),
    options: z.record(z.string(), z.string()),
  })
  .nullable()
  .meta({ id: 'Voicemail' });

export const mobileRequestSchema = z
  .object({
    username: z.string().trim().toLowerCase().min(1).max(64),
    mobile: z
      .string()
      .max(40)
      .regex(/^[+0-9\s().-]*$/, 'A phone number: digits, spaces and an optional leading +'),
  })
  .meta({ id: 'MobileRequest' });

/**
 * Stored form of a mobile number: the digits as typed without spaces or separators, a leading + kept (the
 * original turned it into 00, so '+39…' came back as '0039…'); null when empty. At most 20 characters.
 */
export function normalizeMobile(input: string): string | null {
  const trimmed = input.trim();
  const digits = trimmed.replace(/\D/g, '');
  if (digits === '') return null;
  return `${trimmed.startsWith('+') ? '+' : ''}${digits}`.slice(0, 20);
}

export const deviceExtensionRequestSchema = z
  .object({ extension: z.union([z.string(), z.number()]).transform(String).pipe(mainExtension) })
  .meta({ id: 'DeviceExtensionRequest' });
export const mobileAppRequestSchema = z
  .object({ mainextension: z.union([z.string(), z.number()]).transform(String).pipe(mainExtension) })
  .meta({ id: 'MobileAppRequest' });
