import { z } from 'zod';
import { callDirections } from './calls.ts';

/**
 * Call reports (issue 41, item 9): figures over a range of days, from the call history (`calls`) and Asterisk's
 * queue log. Days are in the PBX's time zone, both ends included, like the history's filters.
 */

/** The longest range one report covers. */
export const CALL_REPORT_MAX_DAYS = 366;
/** The service level's default threshold: answered within this many seconds. */
export const SERVICE_LEVEL_DEFAULT = 20;

const day = z.string().regex(/^\d{4}-\d\d-\d\d$/, 'YYYY-MM-DD');

export const callReportQuerySchema = z
  .object({
    /** First day; without one, 29 days before `to`. */
    from: day.optional(),
    /** Last day; without one, today. */
    to: day.optional(),
    /** Only calls of this direction (the hourly, daily and trunk figures; the queues are inbound anyway). */
    direction: z.enum(callDirections).optional(),
    /** Seconds within which an answered queue call counts towards the service level. */
    serviceLevel: z.coerce.number().int().min(1).max(3600).default(SERVICE_LEVEL_DEFAULT),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: 'from after to', path: ['from'] });
export type CallReportQuery = z.input<typeof callReportQuerySchema>;

const byDirection = z.object({ inbound: z.number(), outbound: z.number(), internal: z.number() });
export type ByDirection = z.infer<typeof byDirection>;

/** Calls of one slot, answered and not (missed, busy, failed or left to voicemail), by direction. */
const slot = { answered: byDirection, missed: byDirection };

export const queueReportSchema = z.object({
  /** The queue's number, as Asterisk logs it. */
  queue: z.string(),
  /** Its name in the console; '' once the queue is deleted. */
  name: z.string(),
  /** Callers who entered it. */
  offered: z.number(),
  answered: z.number(),
  /** Callers who hung up while waiting. */
  abandoned: z.number(),
  /** Callers sent on when the maximum wait ran out. */
  timedOut: z.number(),
  /** Callers who left otherwise: no agent available, or a key pressed. */
  left: z.number(),
  /** Seconds waited by the callers who left the queue (answered or not); null when none did. */
  avgWait: z.number().nullable(),
  /** 90th percentile of the same waits (nearest rank). */
  p90Wait: z.number().nullable(),
  /** Seconds waited by the answered callers only, on average. */
  avgAnswerWait: z.number().nullable(),
  /** Answered within the service level's seconds. */
  answeredWithin: z.number(),
  /** answeredWithin over offered, 0 to 1; null when nobody called. */
  serviceLevel: z.number().nullable(),
});
export type QueueReport = z.infer<typeof queueReportSchema>;

export const agentReportSchema = z.object({
  queue: z.string(),
  /** The member's name as the queue knows it. */
  agent: z.string(),
  answered: z.number(),
  /** Seconds of conversation of the calls they answered through the queue. */
  talk: z.number(),
  /** Times they were rung and did not answer. */
  ringNoAnswer: z.number(),
});
export type AgentReport = z.infer<typeof agentReportSchema>;

export const trunkReportSchema = z.object({
  trunk: z.string(),
  calls: z.number(),
  inbound: z.number(),
  outbound: z.number(),
  /** Seconds of conversation over the trunk. */
  talk: z.number(),
  /** Most calls on the trunk at one instant within the range. */
  peak: z.number(),
});
export type TrunkReport = z.infer<typeof trunkReportSchema>;

export const callReportSchema = z
  .object({
    from: day,
    to: day,
    serviceLevel: z.number(),
    totals: z.object({ calls: z.number(), answered: z.number(), missed: z.number() }),
    /** 24 rows, hour 0 to 23, summed over the range's days. */
    hours: z.array(z.object({ hour: z.number(), ...slot })),
    /** One row per day of the range, in order. */
    days: z.array(z.object({ day, ...slot })),
    queues: z.array(queueReportSchema),
    agents: z.array(agentReportSchema),
    trunks: z.array(trunkReportSchema),
  })
  .meta({ id: 'CallReport' });
export type CallReport = z.infer<typeof callReportSchema>;

export const callReportPdfQuerySchema = z.object({
  month: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'YYYY-MM'),
  lang: z.enum(['en', 'it']).default('en'),
  serviceLevel: z.coerce.number().int().min(1).max(3600).default(SERVICE_LEVEL_DEFAULT),
});
export type CallReportPdfQuery = z.input<typeof callReportPdfQuerySchema>;
