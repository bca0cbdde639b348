import { z } from 'zod';
import { recordingPolicySchema } from './call-recordings.ts';
import { flowDestinationSchema } from './flows.ts';
import { noControlChars, registerItalianMessages } from './text.ts';

/**
 * Ring groups (issue 42, item 4): a number that rings a list of users and outside numbers all together or in turn,
 * then sends an unanswered call on. Dialled at `ext-group,<number>,1` (contract asterisk §5.1), as FreePBX's
 * `ringgroups` were, so migrated destinations keep their meaning.
 */

/**
 * ringall: every member at once; hunt: one after another in list order; memoryhunt: the first, then the first two,
 * then the first three…; random: one at a time in a new random order for each call.
 */
export const RING_GROUP_STRATEGIES = ['ringall', 'hunt', 'memoryhunt', 'random'] as const;
export type RingGroupStrategy = (typeof RING_GROUP_STRATEGIES)[number];

const NUMBER_MESSAGE = 'From 2 to 10 digits';
const NAME_MESSAGE = 'Enter a name (up to 80 characters)';
const TIME_MESSAGE = 'From 1 to 300 seconds';
const EXTERNAL_MESSAGE = 'An outside number: digits only, a + at the start at most (up to 30)';
const MEMBERS_MESSAGE = 'Add at least one member';
const TWICE_MESSAGE = 'A member may appear once';
registerItalianMessages({
  [NUMBER_MESSAGE]: 'Da 2 a 10 cifre',
  [NAME_MESSAGE]: 'Inserisci un nome (fino a 80 caratteri)',
  [TIME_MESSAGE]: 'Da 1 a 300 secondi',
  [EXTERNAL_MESSAGE]: 'Un numero esterno: solo cifre, al massimo un + iniziale (fino a 30)',
  [MEMBERS_MESSAGE]: 'Aggiungi almeno un membro',
  [TWICE_MESSAGE]: 'Ogni membro può comparire una volta sola',
});

/** A member: a user, by main extension, or an outside number dialled through the outbound routes. */
export const ringGroupMemberSchema = z
  .discriminatedUnion('type', [
    z.object({
      type: z.literal('extension'),
      number: z
        .string()
        .trim()
        .regex(/^\d{2,10}$/, NUMBER_MESSAGE),
    }),
    z.object({
      type: z.literal('external'),
      number: z
        .string()
        .trim()
        .regex(/^\+?\d{1,30}$/, EXTERNAL_MESSAGE),
    }),
  ])
  .meta({ id: 'RingGroupMember' });
export type RingGroupMember = z.infer<typeof ringGroupMemberSchema>;

export const ringGroupWriteSchema = z
  .object({
    /** The number callers and phones dial; checked by the numbering rules like any extension. */
    extension: z
      .string()
      .trim()
      .regex(/^\d{2,10}$/, NUMBER_MESSAGE),
    name: z.string().trim().min(1, NAME_MESSAGE).max(80, NAME_MESSAGE).check(noControlChars),
    strategy: z.enum(RING_GROUP_STRATEGIES).default('ringall'),
    /** Seconds: the whole ringing for ringall, each member's (each step's for memoryhunt) turn otherwise. */
    ring_time: z.number().int().min(1, TIME_MESSAGE).max(300, TIME_MESSAGE).default(20),
    /** In ring order. */
    members: z
      .array(ringGroupMemberSchema)
      .min(1, MEMBERS_MESSAGE)
      .max(100)
      .refine((list) => new Set(list.map((m) => `${m.type}:${m.number}`)).size === list.length, TWICE_MESSAGE),
    /** An outside number that answers must press 1 before the call is put through (a voicemail would not). */
    confirm_external: z.boolean().default(false),
    /** Where a call goes that nobody answered. */
    failover_dest: flowDestinationSchema,
    /** Whether its calls are recorded (issue 41's policies, as a queue's): on demand (*1) unless set. */
    recording: recordingPolicySchema.default('on_demand'),
  })
  .meta({ id: 'RingGroupWrite' });
export type RingGroupWrite = z.input<typeof ringGroupWriteSchema>;

export const ringGroupSchema = ringGroupWriteSchema
  .extend({
    id: z.number().int(),
    /** Where routes and flows send calls to it. */
    destination: z.string(),
  })
  .meta({ id: 'RingGroup' });
export type RingGroup = z.infer<typeof ringGroupSchema>;
export const ringGroupListSchema = z.array(ringGroupSchema).meta({ id: 'RingGroupList' });

export const ringGroupDestination = (extension: string) => `ext-group,${extension},1`;
