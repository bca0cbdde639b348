import { z } from 'zod';
import { LIST_PAGE_SIZE } from './limits.ts';
import { canonicalMac, MAC_VENDOR_RANGES } from './provisioning.ts';

/**
 * Bulk phones (spec extended-areas "Bulk phones", /apps/bulkdevices): the phones of the provisioning engine
 * with their PBX line, filtered by CTI group and model, paged on the server, and two actions on a selection:
 * set model and reconfigure (with an optional delayed reboot).
 */

/** Most MACs a selection may name one by one (a selection by filter names none). */
export const BULK_PHONES_MAX_MACS = 10_000;
/** Largest page of the list. */
export const BULK_PHONES_MAX_PAGE = 200;
/** Spec §9: after a fully successful reconfiguration the modal closes after 2.5 s. */
export const BULK_RECONFIGURE_CLOSE_MS = 2500;

/** MAC_VENDOR_RANGES with their bounds worked out once, in match order (vendorOfMac redoes them per call). */
let vendorBounds: { start: string; end: string; vendor: string }[] | undefined;

function fastVendorOfMac(mac: string): string | undefined {
  const hex = canonicalMac(mac)?.replaceAll('-', '');
  if (!hex) return undefined;
  vendorBounds ??= MAC_VENDOR_RANGES.flatMap(({ vendor, ranges }) =>
    ranges.map((range) => {
      const [start = '', end = start] = range.split('-');
      return { start: start.padEnd(12, '0'), end: end.padEnd(12, 'F'), vendor };
    }),
  );
  for (const { start, end, vendor } of vendorBounds) if (start <= hex && hex <= end) return vendor;
  return undefined;
}

/**
 * The vendor the console shows for a phone: by MAC (as vendorOfMac, 10,000 phones in a few milliseconds),
 * else what the phone was added with.
 */
export function bulkPhoneVendor(mac: string, displayName: string | null | undefined): string | null {
  return fastVendorOfMac(mac) ?? (displayName?.trim() || null);
}

const mac = z
  .string()
  .trim()
  .max(32)
  .transform((value, ctx) => {
    const canonical = canonicalMac(value);
    if (!canonical) {
      ctx.addIssue({ code: 'custom', message: 'Invalid MAC address' });
      return z.NEVER;
    }
    return canonical;
  });

/** Filters of the list; a selection "all filtered" repeats them. Empty strings mean "any". */
export const bulkPhoneFilterSchema = z
  .object({
    /** CTI group id: phones whose user is a member. */
    group: z.coerce.number().int().min(1).max(2_147_483_647).optional(),
    /** Model name (e.g. yealink-T46). */
    model: z.string().trim().max(100).optional(),
    /** Part of the MAC, vendor, model, user name or extension. */
    search: z.string().trim().max(100).optional(),
  })
  .meta({ id: 'BulkPhoneFilter' });
export type BulkPhoneFilter = z.infer<typeof bulkPhoneFilterSchema>;

export const bulkPhoneListQuerySchema = bulkPhoneFilterSchema.extend({
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  limit: z.coerce.number().int().min(1).max(BULK_PHONES_MAX_PAGE).default(LIST_PAGE_SIZE),
});
// No id: a query string is described inline in the API document (a reference there breaks it).
export type BulkPhoneListQuery = z.input<typeof bulkPhoneListQuerySchema>;

export const bulkPhoneSchema = z
  .object({
    /** AA-BB-CC-DD-EE-FF. */
    mac: z.string(),
    vendor: z.string().nullable(),
    /** Model name, null without one. */
    model: z.string().nullable(),
    /** The model's display name. */
    modelName: z.string().nullable(),
    user: z.object({ username: z.string(), name: z.string() }).nullable(),
    /** The phone's line (device extension); null while the phone is not linked. */
    extension: z.string().nullable(),
    /** A contact of the line is registered with the PBX now (false without a PBX connection). */
    registered: z.boolean(),
  })
  .meta({ id: 'BulkPhone' });
export type BulkPhone = z.infer<typeof bulkPhoneSchema>;

export const bulkPhonePageSchema = z
  .object({
    items: z.array(bulkPhoneSchema),
    /** Phones matching the filter. */
    total: z.number().int(),
    /** Over the whole filter, not the page: phones per vendor ('' = unknown vendor). */
    vendors: z.record(z.string(), z.number().int()),
    /** Over the whole filter: phones registered now. */
    registered: z.number().int(),
  })
  .meta({ id: 'BulkPhonePage' });
export type BulkPhonePage = z.infer<typeof bulkPhonePageSchema>;

/** Phones named one by one, or every phone of a filter except some. */
export const bulkPhoneSelectionSchema = z
  .union([
    z.strictObject({ macs: z.array(mac).min(1, 'Select at least one phone').max(BULK_PHONES_MAX_MACS) }),
    z.strictObject({
      filter: bulkPhoneFilterSchema,
      except: z.array(mac).max(BULK_PHONES_MAX_MACS).default([]),
    }),
  ])
  .meta({ id: 'BulkPhoneSelection' });
export type BulkPhoneSelection = z.input<typeof bulkPhoneSelectionSchema>;

export const bulkSetModelRequestSchema = z
  .object({
    selection: bulkPhoneSelectionSchema,
    model: z.string({ error: 'Choose a model' }).trim().min(1, 'Choose a model').max(100),
  })
  .meta({ id: 'BulkSetModelRequest' });
export type BulkSetModelRequest = z.input<typeof bulkSetModelRequestSchema>;

export const bulkSetModelResultSchema = z.object({ updated: z.number().int() }).meta({ id: 'BulkSetModelResult' });
export type BulkSetModelResult = z.infer<typeof bulkSetModelResultSchema>;

const hours = z.string().regex(/^([01]?\d|2[0-3])$/, 'Hours from 00 to 23');
const minutes = z.string().regex(/^[0-5]?\d$/, 'Minutes from 00 to 59');

export const bulkReconfigureRequestSchema = z
  .object({
    selection: bulkPhoneSelectionSchema,
    /** A delayed reboot of the selected phones that have a line, at this time of the server's clock, once; null for none. */
    reboot: z.object({ hours, minutes }).nullable().default(null),
  })
  .meta({ id: 'BulkReconfigureRequest' });
export type BulkReconfigureRequest = z.input<typeof bulkReconfigureRequestSchema>;

export const bulkReconfigureStartedSchema = z.object({ task: z.string() }).meta({ id: 'BulkReconfigureStarted' });

export const bulkNotReconfiguredReasons = ['no_user', 'no_extension', 'failed'] as const;
export type BulkNotReconfiguredReason = (typeof bulkNotReconfiguredReasons)[number];

export const bulkReconfigureResultSchema = z
  .object({
    /** Phones in the selection. */
    total: z.number().int(),
    reconfigured: z.number().int(),
    notReconfigured: z.array(
      z.object({
        mac: z.string(),
        extension: z.string().nullable(),
        user: z.string().nullable(),
        reason: z.enum(bulkNotReconfiguredReasons),
        /** What the PBX answered, in the caller's language. */
        detail: z.string().optional(),
      }),
    ),
    /** Delayed reboots armed (phones with a line), and those refused with the reason. */
    rebootsArmed: z.number().int(),
    rebootsFailed: z.array(z.object({ mac: z.string(), detail: z.string() })),
  })
  .meta({ id: 'BulkReconfigureResult' });
export type BulkReconfigureResult = z.infer<typeof bulkReconfigureResultSchema>;

/** A reconfiguration as it runs: progress 0–99, 100 done (with the result), -1 failed (with the error). */
export const bulkReconfigureTaskSchema = z
  .object({
    task: z.string(),
    progress: z.number().int().min(-1).max(100),
    result: bulkReconfigureResultSchema.nullable(),
    error: z.string().nullable(),
  })
  .meta({ id: 'BulkReconfigureTask' });
export type BulkReconfigureTask = z.infer<typeof bulkReconfigureTaskSchema>;
