import { z } from 'zod';
import { callRecordingStates } from './call-recordings.ts';

/**
 * Call history (issue 41): one row per call, built from the call records (CDR) of its legs, which share Asterisk's
 * linked id. Records copied from an older system have no linked id: each is a call of its own.
 */
export const callDirections = ['inbound', 'outbound', 'internal'] as const;
export type CallDirection = (typeof callDirections)[number];

export const callResults = ['answered', 'missed', 'busy', 'failed', 'voicemail'] as const;
export type CallResult = (typeof callResults)[number];

/** Rows per page of the list (scroll-paged); an export has no limit. */
export const CALLS_PAGE_MAX = 200;

const day = z.string().regex(/^\d{4}-\d\d-\d\d$/, 'YYYY-MM-DD');

/**
 * The filters of the list, the export and the screen's URL alike. `from`/`to` are days (YYYY-MM-DD) in the PBX's
 * time zone, both included; `cursor` is the last row of the previous page, as the page gave it.
 */
export const callFiltersSchema = z.object({
  from: day.optional(),
  to: day.optional(),
  direction: z.enum(callDirections).optional(),
  result: z.enum(callResults).optional(),
  /** A user's main extension (or any number of theirs): calls they made, got or answered. */
  extension: z
    .string()
    .regex(/^[0-9*#+]{1,20}$/)
    .optional(),
  /** Part of the caller's or the called number, digits and + only. */
  number: z
    .string()
    .regex(/^[0-9*#+]{1,30}$/)
    .optional(),
  trunk: z.string().max(80).optional(),
  queue: z.string().max(80).optional(),
});
export type CallFilters = z.infer<typeof callFiltersSchema>;

export const callQuerySchema = callFiltersSchema.extend({
  cursor: z
    .string()
    .regex(/^\d{1,15}\.\d{1,12}$/)
    .optional(),
  limit: z.coerce.number().int().min(1).max(CALLS_PAGE_MAX).default(50),
});
export type CallQuery = z.input<typeof callQuerySchema>;

export const callSchema = z
  .object({
    id: z.number(),
    /** When the call began, milliseconds since the epoch. */
    at: z.number(),
    direction: z.enum(callDirections),
    caller: z.string(),
    /** The user's or contact's name of the caller, else the name the call carried; '' when none. */
    callerName: z.string(),
    called: z.string(),
    calledName: z.string(),
    /** The number (a user's extension or device, or the outside number) that answered; '' when nobody did. */
    answeredBy: z.string(),
    answeredByName: z.string(),
    trunk: z.string(),
    queue: z.string(),
    /** Seconds from the start until it was answered (or until it ended, unanswered). */
    wait: z.number(),
    /** Seconds of conversation. */
    talk: z.number(),
    result: z.enum(callResults),
    /** Whether a recording of the call is kept. */
    recorded: z.boolean(),
    /** `deleted`: there was one, the retention removed it (the row says so instead of offering a player). */
    recording: z.enum(callRecordingStates),
    /** The call came from the older system's records (migration). */
    migrated: z.boolean(),
  })
  .meta({ id: 'Call' });
export type Call = z.infer<typeof callSchema>;

export const callPageSchema = z
  .object({
    rows: z.array(callSchema),
    /** Pass as `cursor` for the next page; null on the last one. */
    next: z.string().nullable(),
  })
  .meta({ id: 'CallPage' });
export type CallPage = z.infer<typeof callPageSchema>;

/** One leg of a call: one call record, as Asterisk wrote it. */
export const callLegSchema = z
  .object({
    at: z.number(),
    from: z.string(),
    fromName: z.string(),
    to: z.string(),
    channel: z.string(),
    dstchannel: z.string(),
    /** The dialplan application the leg ended in (Dial, Queue, VoiceMail…) and its arguments. */
    app: z.string(),
    data: z.string(),
    duration: z.number(),
    billsec: z.number(),
    disposition: z.string(),
  })
  .meta({ id: 'CallLeg' });
export type CallLeg = z.infer<typeof callLegSchema>;

export const callDetailSchema = z
  .object({
    call: callSchema,
    legs: z.array(callLegSchema),
    /** The path in words' parts: each step a kind and the number or name it went to, in order. */
    path: z.array(
      z.object({
        kind: z.enum(['route', 'ivr', 'queue', 'user', 'voicemail', 'trunk', 'external', 'other']),
        target: z.string(),
        answered: z.boolean(),
      }),
    ),
  })
  .meta({ id: 'CallDetail' });
export type CallDetail = z.infer<typeof callDetailSchema>;

/** The CSV export's columns, in order (English names: a file for spreadsheets and scripts). */
export const CALL_CSV_COLUMNS = [
  'time',
  'direction',
  'caller',
  'caller_name',
  'called',
  'called_name',
  'answered_by',
  'trunk',
  'queue',
  'wait_s',
  'talk_s',
  'result',
  'recorded',
] as const;
