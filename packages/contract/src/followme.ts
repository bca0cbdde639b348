import { z } from 'zod';
import { noControlChars, registerItalianMessages } from './text.ts';

/**
 * Follow-me (issue 42, item 5): once the user's own phones have rung for `pre_ring` seconds unanswered, a list of
 * other numbers (colleagues' extensions, the mobile, any outside number) rings, one after another or all together.
 * Nobody answering still ends where an unanswered call to the user ends today (voicemail, the no-answer destination).
 * Kept per user: GET/PUT /api/users/{username}/followme.
 */

/** hunt: each number in list order for its own ring time; ringall: all of them together, for the longest time. */
export const FOLLOWME_STRATEGIES = ['hunt', 'ringall'] as const;
export type FollowMeStrategy = (typeof FOLLOWME_STRATEGIES)[number];

/** Seconds, for the user's own phones and for each number of the list. */
export const FOLLOWME_TIME = { min: 1, max: 120 } as const;

const TIME_MESSAGE = 'From 1 to 120 seconds';
const EXTENSION_MESSAGE = 'An extension: from 2 to 10 digits';
const EXTERNAL_MESSAGE = 'An outside number: digits only, a + at the start at most (up to 30)';
const LEGS_MESSAGE = 'Add at least one number to follow the user to';
const TWICE_MESSAGE = 'A number may appear once';
const MAX_LEGS_MESSAGE = 'At most 10 numbers';
registerItalianMessages({
  [TIME_MESSAGE]: 'Da 1 a 120 secondi',
  [EXTENSION_MESSAGE]: 'Un interno: da 2 a 10 cifre',
  [EXTERNAL_MESSAGE]: 'Un numero esterno: solo cifre, al massimo un + iniziale (fino a 30)',
  [LEGS_MESSAGE]: 'Aggiungi almeno un numero a cui seguire l’utente',
  [TWICE_MESSAGE]: 'Ogni numero può comparire una volta sola',
  [MAX_LEGS_MESSAGE]: 'Al massimo 10 numeri',
});

const time = z.number().int().min(FOLLOWME_TIME.min, TIME_MESSAGE).max(FOLLOWME_TIME.max, TIME_MESSAGE);

/** A number of the list: another user by main extension, or an outside number dialled through the outbound routes. */
export const followMeLegSchema = z
  .discriminatedUnion('type', [
    z.object({
      type: z.literal('extension'),
      number: z
        .string()
        .trim()
        .regex(/^\d{2,10}$/, EXTENSION_MESSAGE),
      ring_time: time.default(20),
    }),
    z.object({
      type: z.literal('external'),
      number: z
        .string()
        .trim()
        .regex(/^\+?\d{1,30}$/, EXTERNAL_MESSAGE)
        .check(noControlChars),
      ring_time: time.default(20),
    }),
  ])
  .meta({ id: 'FollowMeLeg' });
export type FollowMeLeg = z.infer<typeof followMeLegSchema>;

export const followMeSchema = z
  .object({
    enabled: z.boolean(),
    /** Seconds the user's own phones ring alone before the list. */
    pre_ring: time.default(15),
    strategy: z.enum(FOLLOWME_STRATEGIES).default('hunt'),
    /** An outside number that answers must press 1 first, so its voicemail cannot take the call. */
    confirm_external: z.boolean().default(false),
    legs: z
      .array(followMeLegSchema)
      .max(10, MAX_LEGS_MESSAGE)
      .refine((list) => new Set(list.map((l) => l.number)).size === list.length, TWICE_MESSAGE),
  })
  // A switched-off follow-me may keep an empty list (nothing to ring); a switched-on one needs something to ring.
  .refine((v) => !v.enabled || v.legs.length > 0, { message: LEGS_MESSAGE, path: ['legs'] })
  .meta({ id: 'FollowMe' });
export type FollowMe = z.infer<typeof followMeSchema>;
export type FollowMeWrite = z.input<typeof followMeSchema>;

/** What a user without a follow-me has. */
export const FOLLOWME_OFF: FollowMe = {
  enabled: false,
  pre_ring: 15,
  strategy: 'hunt',
  confirm_external: false,
  legs: [],
};
