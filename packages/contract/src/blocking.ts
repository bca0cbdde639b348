import { z } from 'zod';
import { noControlChars, registerItalianMessages } from './text.ts';

/**
 * Blocked callers and outbound call permissions (issue 42 item 7).
 *
 * A blocked caller is matched on the inbound routes before anything else runs there (time conditions, queues, users
 * never see the call): an exact number, a number prefix, or a caller that gives no number (anonymous, withheld). What
 * the caller hears is a busy tone, the "number not in service" prompt, one of the recordings, or any destination.
 */

export const BLOCK_MATCHES = ['number', 'prefix', 'anonymous'] as const;
export type BlockMatch = (typeof BLOCK_MATCHES)[number];
export const BLOCK_RESPONSES = ['busy', 'not_available', 'recording', 'destination'] as const;
export type BlockResponse = (typeof BLOCK_RESPONSES)[number];

const NUMBER_MESSAGE = 'Digits only, with an optional leading +, up to 32';
const PREFIX_MESSAGE = 'Enter at least one digit of the prefix';
const RECORDING_MESSAGE = 'Choose a recording';
const DESTINATION_MESSAGE = 'Choose a destination from the list';
const DESCRIPTION_MESSAGE = 'Up to 80 characters';
registerItalianMessages({
  [NUMBER_MESSAGE]: 'Solo cifre, con un + iniziale facoltativo, fino a 32',
  [PREFIX_MESSAGE]: 'Inserisci almeno una cifra del prefisso',
  [RECORDING_MESSAGE]: 'Scegli una registrazione',
  [DESTINATION_MESSAGE]: 'Scegli una destinazione dall’elenco',
  [DESCRIPTION_MESSAGE]: 'Fino a 80 caratteri',
});

export const blockedCallerWriteSchema = z
  .object({
    match: z.enum(BLOCK_MATCHES),
    /** The number or prefix as the caller ID shows it; ignored (stored empty) for anonymous callers. */
    number: z.string().trim().max(33).default(''),
    description: z.string().trim().max(80, DESCRIPTION_MESSAGE).check(noControlChars).default(''),
    response: z.enum(BLOCK_RESPONSES).default('busy'),
    /** The recording played (response 'recording'). */
    recording_id: z.number().int().min(1).nullable().default(null),
    /** Where the call goes (response 'destination'): a destination of the catalogue. */
    destination: z.string().trim().max(120).nullable().default(null),
    /** Inbound route ids the entry applies to; empty: every inbound route. */
    routes: z.array(z.number().int().min(1)).max(500).default([]),
  })
  .superRefine((v, ctx) => {
    if (v.match !== 'anonymous') {
      if (v.match === 'prefix' && v.number === '') {
        ctx.addIssue({ code: 'custom', path: ['number'], message: PREFIX_MESSAGE });
      } else if (!/^\+?\d{1,32}$/.test(v.number)) {
        ctx.addIssue({ code: 'custom', path: ['number'], message: NUMBER_MESSAGE });
      }
    }
    if (v.response === 'recording' && v.recording_id === null) {
      ctx.addIssue({ code: 'custom', path: ['recording_id'], message: RECORDING_MESSAGE });
    }
    if (
      v.response === 'destination' &&
      (v.destination === null || !/^[A-Za-z0-9_-]+,[A-Za-z0-9_*#+-]+,\d+$/.test(v.destination))
    ) {
      ctx.addIssue({ code: 'custom', path: ['destination'], message: DESTINATION_MESSAGE });
    }
  })
  .meta({ id: 'BlockedCallerWrite' });
export type BlockedCallerWrite = z.input<typeof blockedCallerWriteSchema>;

export const blockedCallerSchema = z
  .object({
    id: z.number().int(),
    match: z.enum(BLOCK_MATCHES),
    number: z.string(),
    description: z.string(),
    response: z.enum(BLOCK_RESPONSES),
    recording_id: z.number().int().nullable(),
    destination: z.string().nullable(),
    routes: z.array(z.number().int()),
  })
  .meta({ id: 'BlockedCaller' });
export type BlockedCaller = z.infer<typeof blockedCallerSchema>;
export const blockedCallerListSchema = z.array(blockedCallerSchema).meta({ id: 'BlockedCallerList' });

/**
 * Outbound call permissions. A dialled number belongs to the class of its longest matching prefix (one table,
 * GET/PUT /api/callclasses); a number no prefix matches is national. Emergency numbers are never refused.
 */
export const CALL_CLASSES = ['local', 'national', 'mobile', 'international', 'premium'] as const;
export type CallClass = (typeof CALL_CLASSES)[number];
export const EMERGENCY_NUMBERS = ['112', '113', '115', '118'] as const;

/** Italian numbering: 00 abroad, 3 mobiles, 0 the geographic numbers, 89x/166/144 premium. */
export const DEFAULT_CALL_CLASS_PREFIXES: Record<CallClass, string[]> = {
  local: [],
  national: ['0'],
  mobile: ['3'],
  international: ['00', '+'],
  premium: ['89', '144', '166'],
};

const CLASS_PREFIX_MESSAGE = 'Prefixes are digits (or a leading +), one to eight';
const CLASS_TWICE_MESSAGE = 'A prefix may belong to one class only';
registerItalianMessages({
  [CLASS_PREFIX_MESSAGE]: 'I prefissi sono cifre (o un + iniziale), da una a otto',
  [CLASS_TWICE_MESSAGE]: 'Un prefisso può appartenere a una sola classe',
});
const classPrefix = z
  .string()
  .trim()
  .regex(/^(\+|\+?\d{1,8})$/, CLASS_PREFIX_MESSAGE);
export const callClassPrefixesSchema = z
  .object(
    Object.fromEntries(CALL_CLASSES.map((c) => [c, z.array(classPrefix).max(50)])) as Record<
      CallClass,
      z.ZodArray<typeof classPrefix>
    >,
  )
  .superRefine((v, ctx) => {
    const seen = new Set<string>();
    for (const c of CALL_CLASSES) {
      for (const p of v[c]) {
        if (seen.has(p)) ctx.addIssue({ code: 'custom', path: [c], message: CLASS_TWICE_MESSAGE });
        seen.add(p);
      }
    }
  })
  .meta({ id: 'CallClassPrefixes' });
export type CallClassPrefixes = z.infer<typeof callClassPrefixesSchema>;

/** The class of a number (what the dialplan's sub-call-permission computes), for the console's preview and tests. */
export function callClassOf(number: string, prefixes: CallClassPrefixes): CallClass {
  let best: { cls: CallClass; length: number } = { cls: 'national', length: 0 };
  for (const cls of CALL_CLASSES) {
    for (const p of prefixes[cls]) if (number.startsWith(p) && p.length > best.length) best = { cls, length: p.length };
  }
  return best.cls;
}

/**
 * A user's outbound permission as the bulk editor reads and writes it: 'profile' (inherits the CTI profile's, which
 * allows every class unless it says otherwise), else the allowed classes joined by ',' ('' = internal calls only).
 */
export const CALL_PERMISSION_INHERIT = 'profile';
const PERMISSION_MESSAGE = 'Choose the classes of calls allowed';
registerItalianMessages({ [PERMISSION_MESSAGE]: 'Scegli le classi di chiamate consentite' });
export const callPermissionValueSchema = z
  .string()
  .trim()
  .refine(
    (v) =>
      v === CALL_PERMISSION_INHERIT ||
      v === '' ||
      v.split(',').every((c) => (CALL_CLASSES as readonly string[]).includes(c)),
    PERMISSION_MESSAGE,
  );

/** Classes in their canonical order, without repeats. */
export function normaliseCallPermission(value: string): string {
  if (value === CALL_PERMISSION_INHERIT) return value;
  const wanted = new Set(value.split(','));
  return CALL_CLASSES.filter((c) => wanted.has(c)).join(',');
}
