import { z } from 'zod';
import { recordingPolicySchema } from './call-recordings.ts';
import { musicChoiceSchema } from './music.ts';
import { noControlChars } from './text.ts';

// ---- Dial patterns ----

/** Locales with a default set of outbound routes, and the routes of each set (contract api-admin §2.11). */
export const routeLocales = ['it', 'fr', 'es', 'de', 'en'] as const;
export type RouteLocale = (typeof routeLocales)[number];
export const routeKeys = ['national', 'cellphone', 'international', 'toll'] as const;
export type RouteKey = (typeof routeKeys)[number];

type Row = [RouteKey, string, string];
const rows = (list: Row[]) => list.map(([key, prefix, pattern]) => ({ key, prefix, pattern }));

/** The 70 default dial patterns: route key, prefix stripped before dialling, match pattern. */
export const defaultDialPatterns: Record<RouteLocale, { key: RouteKey; prefix: string; pattern: string }[]> = {
  it: rows([
    ['national', '', '0ZXXX.'],
    ['national', '+39', '0ZXXX.'],
    ['national', '0039', '0ZXXX.'],
    ['national', '', '1XX'],
    ['national', '', '15XX'],
    ['national', '', '800XX.'],
    ['national', '', '803XX.'],
    ['cellphone', '', '3XXXXXX.'],
    ['cellphone', '+39', '3XXXXXX.'],
    ['cellphone', '0039', '3XXXXXX.'],
    ['international', '', '00XXX.'],
    ['toll', '', '12XX'],
    ['toll', '', '144XXX.'],
    ['toll', '', '166XXX.'],
    ['toll', '', '178XXX.'],
    ['toll', '', '199XXX.'],
    ['toll', '', '702XXX.'],
    ['toll', '', '8ZXXXX.'],
  ]),
  fr: rows([
    ['national', '', '0[1-59]XXX.'],
    ['national', '+33', '0[1-59]XXX.'],
    ['national', '0033', '0[1-59]XXX.'],
    ['national', '', '0800XX.'],
    ['national', '', '0801XX.'],
    ['national', '', '1X'],
    ['national', '', '1XX'],
    ['cellphone', '', '0[67]XXXX.'],
    ['cellphone', '+33', '0[67]XXXX.'],
    ['cellphone', '0033', '0[67]XXXX.'],
    ['international', '', '00XXX.'],
    ['toll', '', '08XXXX.'],
  ]),
  es: rows([
    ['national', '', '9ZXXX.'],
    ['national', '+34', '9ZXXX.'],
    ['national', '0034', '9ZXXX.'],
    ['national', '', '1XX'],
    ['national', '', '0XX'],
    ['national', '', '800XX.'],
    ['national', '', '900XX.'],
    ['cellphone', '', '06XXX.'],
    ['cellphone', '+34', '06XXX.'],
    ['cellphone', '0034', '06XXX.'],
    ['international', '', '00XXX.'],
    ['toll', '', '80ZXXX.'],
    ['toll', '', '90ZXXX.'],
  ]),
  de: rows([
    ['national', '', '0[2-7]XXX.'],
    ['national', '+49', '0[2-7]XXX.'],
    ['national', '0049', '0[2-7]XXX.'],
    ['national', '', '0[89]XZXX.'],
    ['national', '+49', '0[89]XZXX.'],
    ['national', '0049', '0[89]XZXX.'],
    ['national', '', '1XX'],
    ['national', '', '0800XXX.'],
    ['cellphone', '', '01[5-7]XXX.'],
    ['cellphone', '+49', '01[5-7]XXX.'],
    ['cellphone', '0049', '01[5-7]XXX.'],
    ['international', '', '00XXX.'],
    ['toll', '', '0900XX.'],
    ['toll', '', '01[2389]XX.'],
  ]),
  en: rows([
    ['national', '', '0[1235]XXX.'],
    ['national', '+44', '0[1235]XXX.'],
    ['national', '0044', '0[1235]XXX.'],
    ['national', '', '0800XX.'],
    ['national', '', '9XX'],
    ['national', '', '1XX'],
    ['cellphone', '', '07XXX.'],
    ['cellphone', '+44', '07XXX.'],
    ['cellphone', '0044', '07XXX.'],
    ['international', '', '00XXX.'],
    ['toll', '', '084XXX.'],
    ['toll', '', '087XXX.'],
    ['toll', '', '09XXX.'],
  ]),
};

/**
 * Why an Asterisk match pattern is not valid, or undefined when it is: digits, * # +, X Z N,
 * bracketed sets of digits and ranges, and a final '.' or '!' for "more digits".
 */
export function dialPatternProblem(pattern: string): string | undefined {
  if (pattern.length === 0) return 'The pattern is empty';
  if (pattern.length > 64) return 'The pattern is longer than 64 characters';
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i] as string;
    if (/[0-9*#+xXzZnN]/.test(c)) {
      i++;
      continue;
    }
    if ((c === '.' || c === '!') && i === pattern.length - 1 && i > 0) {
      i++;
      continue;
    }
    if (c === '[') {
      const end = pattern.indexOf(']', i);
      if (end < 0) return 'A [ is not closed';
      const set = pattern.slice(i + 1, end);
      if (!/^([0-9](-[0-9])?)+$/.test(set)) return `The set [${set}] may hold only digits and ranges like 1-5`;
      for (const range of set.matchAll(/([0-9])-([0-9])/g)) {
        if ((range[1] as string) > (range[2] as string)) return `The range ${range[0]} goes backwards`;
      }
      i = end + 1;
      continue;
    }
    if (c === '.' || c === '!') return `'${c}' may only end a pattern`;
    return `'${c}' is not allowed in a dial pattern`;
  }
  return undefined;
}

export const dialPatternSchema = z
  .string()
  .trim()
  .superRefine((value, ctx) => {
    const problem = dialPatternProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });
/** Digits to strip or add: digits, + * # only. */
export const dialDigitsSchema = z
  .string()
  .trim()
  .max(32)
  .regex(/^[0-9+*#]*$/, 'Digits, + * or # only');
const callerIdSchema = z
  .string()
  .trim()
  .max(32)
  .regex(/^\+?[0-9]*$/, 'A number of digits, optionally starting with +');

// ---- Trunk names ----

/** Gateway trunk names are vendor_uid_type_port (contract §3.16): show them as "Patton a1b2c3 ISDN 0". */
export function decodeTrunkName(name: string): string {
  const match = /^([A-Za-z][A-Za-z0-9]*)_([0-9a-fA-F]+)_(fxo|isdn|pri|fxs)_(\d+)$/i.exec(name);
  if (!match) return name;
  const [, vendor, uid, type, port] = match as unknown as [string, string, string, string, string];
  return `${vendor} ${uid} ${type.toUpperCase()} ${port}`;
}

// ---- Outbound routes ----

export const routeTrunkSchema = z.object({ trunkid: z.number().int(), name: z.string() });
export const outboundRouteSchema = z
  .object({
    route_id: z.number().int(),
    name: z.string(),
    outcid: z.string(),
    emergency: z.boolean(),
    seq: z.number().int(),
    trunks: z.array(routeTrunkSchema),
  })
  .meta({ id: 'OutboundRoute' });
export type OutboundRoute = z.infer<typeof outboundRouteSchema>;
export const outboundRouteListSchema = z.array(outboundRouteSchema).meta({ id: 'OutboundRouteList' });

export const routeNameSchema = z
  .string()
  .trim()
  .min(1, 'Name is required')
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, 'Letters, digits, underscore or hyphen');

/** POST /outboundroutes: one locale key, the routes as shown (creation without route_id, update with). */
export const outboundSaveSchema = z
  .partialRecord(
    z.enum(routeLocales),
    z
      .array(
        z.object({
          route_id: z.number().int().optional(),
          name: routeNameSchema,
          trunks: z.array(z.object({ trunkid: z.coerce.number().int(), name: z.string().optional() })).max(100),
        }),
      )
      .min(1)
      .max(500),
  )
  .refine((value) => Object.keys(value).length === 1, 'Send the routes of exactly one language')
  .meta({ id: 'OutboundSave' });
export type OutboundSave = z.infer<typeof outboundSaveSchema>;

export const outboundDefaultsSchema = z
  .record(z.string(), z.array(z.object({ name: z.string(), trunks: z.array(routeTrunkSchema) })))
  .meta({ id: 'OutboundDefaults' });

export const dialPatternRowSchema = z.object({
  prepend: dialDigitsSchema,
  prefix: dialDigitsSchema,
  match_pattern: dialPatternSchema,
  match_cid: callerIdSchema,
});
export type DialPatternRow = z.infer<typeof dialPatternRowSchema>;

/** The Advanced page: everything about one route. */
export const outboundRouteDetailSchema = z
  .object({
    name: routeNameSchema,
    outcid: callerIdSchema,
    emergency: z.boolean(),
    patterns: z.array(dialPatternRowSchema).max(500),
    trunks: z.array(z.number().int()).max(100),
  })
  .meta({ id: 'OutboundRouteDetail' });
export type OutboundRouteDetail = z.infer<typeof outboundRouteDetailSchema>;

// ---- Inbound routes ----

/** Destinations an inbound route can send calls to, as context,exten,priority (contract §2.1). */
export const inboundDestinationSchema = z.object({
  destination: z.string(),
  description: z.string(),
  category: z.string(),
});
export type InboundDestination = z.infer<typeof inboundDestinationSchema>;

export const inboundRouteSchema = z
  .object({
    /** Row id (Centralino's): what a blocked caller's list of routes names (blocking.ts). */
    id: z.number().int(),
    /** DID: '' for any, digits, or an Asterisk pattern starting with _. */
    extension: z.string(),
    /** Caller id filter, '' for any. */
    cidnum: z.string(),
    description: z.string(),
    destination: z.string(),
    /** Call recording of the calls it takes in (see call-recordings.ts for which policy decides). */
    recording: recordingPolicySchema,
    /** Music class callers hear instead of ringing while the call waits for an answer; null: ringing. */
    music: z.string().nullable(),
  })
  .meta({ id: 'InboundRoute' });
export type InboundRoute = z.infer<typeof inboundRouteSchema>;

export const inboundListSchema = z
  .object({ destinations: z.record(z.string(), inboundDestinationSchema), routes: z.array(inboundRouteSchema) })
  .meta({ id: 'InboundRouteList' });

/** A DID is digits (an exact number) or _ followed by a dial pattern; empty means any number. */
export const didSchema = z
  .string()
  .trim()
  .max(64)
  .superRefine((value, ctx) => {
    if (value === '' || /^\+?[0-9]+$/.test(value)) return;
    if (value.startsWith('_')) {
      const problem = dialPatternProblem(value.slice(1));
      if (!problem) return;
      ctx.addIssue({ code: 'custom', message: problem });
      return;
    }
    ctx.addIssue({ code: 'custom', message: 'A DID is a number, or _ followed by a dial pattern' });
  });

export const inboundWriteSchema = z
  .object({
    extension: didSchema,
    cidnum: z
      .string()
      .trim()
      .max(64)
      .regex(/^(\+?[0-9]*|_[0-9xXzZnN[\]\-.!]+)$/, 'A caller number, or _ followed by a dial pattern'),
    description: z.string().trim().max(255).check(noControlChars),
    destination: z.string().min(1, 'Choose a destination').max(128).check(noControlChars),
    recording: recordingPolicySchema.default('on_demand'),
    /** A music class played instead of ringing (the server checks it exists); null or left out: ringing. */
    music: musicChoiceSchema.nullable().default(null),
  })
  .meta({ id: 'InboundWrite' });
export type InboundWrite = z.input<typeof inboundWriteSchema>;

/** Replacing a route: the key it had, then the new values. */
export const inboundUpdateSchema = inboundWriteSchema
  .extend({ old: z.object({ extension: z.string().max(64), cidnum: z.string().max(64) }) })
  .meta({ id: 'InboundUpdate' });

export const inboundDeleteSchema = z
  .object({ extension: z.string().max(64), cid: z.string().max(64).nullable().optional() })
  .meta({ id: 'InboundDelete' });

export const INBOUND_POLL_MS = 2000;
export const INBOUND_POLL_TRIES = 6;
