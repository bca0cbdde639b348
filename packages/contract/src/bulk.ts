import { z } from 'zod';
import { callPermissionValueSchema } from './blocking.ts';
import { recordingPolicySchema } from './call-recordings.ts';
import { noControlChars, registerItalianMessages } from './text.ts';
import { extensionNumberSchema } from './users.ts';

/**
 * Ring time in seconds, at most 120. 0 = none of its own: rings until the caller hangs up ("infinite"), or for the
 * system default when an unanswered call goes on to voicemail or a no-answer destination.
 */
export const RING_TIME_MAX = 120;
/** Most main extensions a GET /api/bulk/{exts} path may carry; larger selections go in a POST body. */
export const BULK_PATH_MAX = 1000;
/** Most users one bulk edit may change (a whole 10,000-user system with room to spare). */
export const BULK_SELECTION_MAX = 20_000;

/** A named call or pickup group (PJSIP named_call_group): a letter, then letters, digits, '_' and '-'. */
export const NAMED_CALL_GROUP = /^[A-Za-z][A-Za-z0-9_-]{0,39}$/;

/**
 * A call or pickup group list, comma separated: numbers 0–63 and ranges (PJSIP call_group) and named groups
 * (named_call_group, contract §4.2), e.g. '1', '1,3-5', 'reception', '2,reception'; '' = none.
 */
export const callGroupSchema = z
  .string()
  .trim()
  .max(200)
  .refine(
    (value) =>
      value === '' ||
      value.split(',').every((raw) => {
        const part = raw.trim();
        if (NAMED_CALL_GROUP.test(part)) return true;
        const m = /^(\d{1,2})(?:-(\d{1,2}))?$/.exec(part);
        if (!m) return false;
        const from = Number(m[1]);
        const to = m[2] === undefined ? from : Number(m[2]);
        return from <= 63 && to <= 63 && from <= to;
      }),
    'Numbers from 0 to 63, ranges and names, separated by commas (1,3-5,reception)',
  );

/** A group list split as PJSIP takes it: the numbers and ranges (call_group), and the names (named_call_group). */
export function splitCallGroups(value: string): { numbers: string; names: string[] } {
  const parts = value
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  return {
    numbers: parts.filter((p) => !NAMED_CALL_GROUP.test(p)).join(','),
    names: parts.filter((p) => NAMED_CALL_GROUP.test(p)),
  };
}

/** A destination as 'context,exten,priority' (GET /api/destinations); '' = none. */
export const destinationValueSchema = z
  .string()
  .trim()
  .max(120)
  .regex(/^$|^[A-Za-z0-9_-]+,[A-Za-z0-9_*#+-]+,\d+$/, 'Choose a destination from the list');

/**
 * A display-name template: '????', '???', '??' and '?' stand for the whole number and its last 3, 2 and 1
 * digits (contract §4.2), so one template names every selected user ('Room ???').
 */
export const displayNameTemplateSchema = z
  .string()
  .trim()
  .min(1, 'Display name is required')
  .max(255)
  .check(noControlChars);

const digitsOnly = 'Digits only';

registerItalianMessages({
  'Numbers from 0 to 63, ranges and names, separated by commas (1,3-5,reception)':
    'Numeri da 0 a 63, intervalli e nomi, separati da virgole (1,3-5,reception)',
  'Choose a destination from the list': "Scegli una destinazione dall'elenco",
  'Display name is required': 'Il nome visualizzato è obbligatorio',
  'Choose a profile': 'Scegli un profilo',
  'A number from 0 to 120': 'Un numero da 0 a 120',
  'Digits only': 'Solo cifre',
  'Select at least one user': 'Seleziona almeno un utente',
  'Minimum 0': 'Minimo 0',
});

/**
 * The settings the bulk editor reads (GET /api/bulk/{exts}): the common value of the selected users, or null
 * where they differ ("mixed").
 */
export const bulkSettingsSchema = z
  .object({
    /** Display name with the user's own digits masked by '?' (the template that gives each user's name). */
    displayname: z.string().nullable(),
    /** CTI profile id, '-1' for none. */
    profile: z.string().nullable(),
    callwaiting: z.boolean().nullable(),
    /** Seconds as a string, '0' = the system default. */
    ringtime: z.string().nullable(),
    callgroup: z.string().nullable(),
    pickupgroup: z.string().nullable(),
    noanswerdest: z.string().nullable(),
    busydest: z.string().nullable(),
    notreachabledest: z.string().nullable(),
    /** Outbound caller ID, '' for none. */
    outboundcid: z.string().nullable(),
    /** Call recording of the user's calls. */
    recording: recordingPolicySchema.nullable(),
    /** Outbound call permission: 'profile' (the CTI profile's), else the allowed classes joined by ',' ('' internal only). */
    callpermission: z.string().nullable(),
  })
  .meta({ id: 'BulkSettings' });
export type BulkSettings = z.infer<typeof bulkSettingsSchema>;

/**
 * One bulk edit (POST /api/bulk/{exts}): a key that is absent or null is locked and left untouched.
 * `context` and `outboundcid` are accepted and ignored, as in the original.
 */
export const bulkEditSchema = z
  .object({
    displayname: displayNameTemplateSchema.nullish(),
    /** CTI profile id; '-1' or '' removes the profile. */
    profile: z
      .union([
        z.number().int(),
        z
          .string()
          .trim()
          .regex(/^(-1|\d+)?$/, 'Choose a profile'),
      ])
      .nullish(),
    callwaiting: z.boolean().nullish(),
    ringtime: z.coerce
      .number({ error: 'A number from 0 to 120' })
      .int('A number from 0 to 120')
      .min(0, 'A number from 0 to 120')
      .max(RING_TIME_MAX, 'A number from 0 to 120')
      .nullish(),
    callgroup: callGroupSchema.nullish(),
    pickupgroup: callGroupSchema.nullish(),
    noanswerdest: destinationValueSchema.nullish(),
    busydest: destinationValueSchema.nullish(),
    notreachabledest: destinationValueSchema.nullish(),
    /** Outbound caller ID root: digits; '' removes the caller ID. */
    outboundcid_fixed: z.string().trim().max(32).regex(/^\d*$/, digitsOnly).nullish(),
    /** How many of each user's last digits follow the root; 0 or '' = the root alone. */
    outboundcid_variable: z
      .union([z.literal(''), z.coerce.number().int(digitsOnly).min(0, digitsOnly).max(10)])
      .nullish(),
    recording: recordingPolicySchema.nullish(),
    callpermission: callPermissionValueSchema.nullish(),
    context: z.unknown().optional(),
    outboundcid: z.unknown().optional(),
  })
  .meta({ id: 'BulkEdit' });
export type BulkEdit = z.input<typeof bulkEditSchema>;
export type BulkEditParsed = z.output<typeof bulkEditSchema>;

/** The selection in a body, for selections too long for a path. */
export const bulkSelectionSchema = z.object({
  extensions: z.array(extensionNumberSchema).min(1, 'Select at least one user').max(BULK_SELECTION_MAX),
});
export const bulkReadRequestSchema = bulkSelectionSchema.meta({ id: 'BulkReadRequest' });
export const bulkEditRequestSchema = bulkEditSchema.extend(bulkSelectionSchema.shape).meta({ id: 'BulkEditRequest' });
export type BulkEditRequest = z.input<typeof bulkEditRequestSchema>;

/** What an edit would change, before it is applied (POST /api/bulk/preview). */
export const bulkPreviewSchema = z
  .object({
    /** Selected users that exist and have a main extension. */
    users: z.number().int(),
    /** Of those, the users at least one field changes (each counted once, whatever the number of fields). */
    changed: z.number().int(),
    /** Phones of those users (devices and gateway FXS ports) whose account configuration changes; 0 without phones. */
    devices: z.number().int(),
    /** Per field: how many users get a different value. */
    changes: z.array(z.object({ field: z.string(), users: z.number().int() })),
  })
  .meta({ id: 'BulkPreview' });
export type BulkPreview = z.infer<typeof bulkPreviewSchema>;

/** How the page picks users: by CTI group, by an interval of main extensions, or by the search text. */
export const bulkSelectQuerySchema = z.object({
  group: z.coerce.number().int().optional(),
  from: z.coerce.number().int().min(0, 'Minimum 0').optional(),
  to: z.coerce.number().int().min(0, 'Minimum 0').optional(),
  search: z.string().trim().max(100).optional(),
});
// No component id: a query-string schema with one breaks the OpenAPI document.
export type BulkSelectQuery = z.infer<typeof bulkSelectQuerySchema>;
/** The main extensions of the users a selection mode picks, in number order. */
export const bulkSelectionAnswerSchema = z.array(z.string()).meta({ id: 'BulkSelection' });

/** One entry of GET /api/destinations (contract §4.4). */
export const destinationEntrySchema = z.object({
  destination: z.string(),
  description: z.string(),
  category: z.string(),
  selected: z.boolean(),
});
export type DestinationEntry = z.infer<typeof destinationEntrySchema>;
/** Category → entries keyed "0", "1", … (categories in alphabetical order). */
export const destinationsSchema = z
  .record(z.string(), z.record(z.string(), destinationEntrySchema))
  .meta({ id: 'Destinations' });
export type Destinations = z.infer<typeof destinationsSchema>;

/** GET /api/contexts: dial contexts by name, 'from-internal' (Standard) first. */
export const contextsSchema = z.record(z.string(), z.string()).meta({ id: 'Contexts' });
