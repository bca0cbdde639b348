import { z } from 'zod';
import { musicChoiceSchema } from './music.ts';
import { noControlChars, registerItalianMessages } from './text.ts';

/**
 * Conference rooms (issue 42 item 1, Asterisk ConfBridge). A room is dialled at its number (ext-meetme,<n>,1, the
 * destination FreePBX gave its meetme rooms, so a migrated route keeps its string). The PINs are write-only: a list
 * says whether a room has one, and a write that leaves a PIN out keeps the stored one ('' removes it).
 */

/** The most members a room may be limited to; 0 means no limit. */
export const CONFERENCE_MAX_MEMBERS = 100;

const NUMBER_MESSAGE = 'From 2 to 10 digits';
const NAME_MESSAGE = 'Enter a name (up to 80 characters)';
const PIN_MESSAGE = 'Digits only, up to 12';
const MAX_MESSAGE = `From 0 (no limit) to ${CONFERENCE_MAX_MEMBERS}`;
export const CONFERENCE_PINS_EQUAL_MESSAGE = 'The admin PIN must differ from the user PIN';
registerItalianMessages({
  [NUMBER_MESSAGE]: 'Da 2 a 10 cifre',
  [NAME_MESSAGE]: 'Inserisci un nome (fino a 80 caratteri)',
  [PIN_MESSAGE]: 'Solo cifre, fino a 12',
  [MAX_MESSAGE]: `Da 0 (nessun limite) a ${CONFERENCE_MAX_MEMBERS}`,
  [CONFERENCE_PINS_EQUAL_MESSAGE]: 'Il PIN amministratore deve essere diverso dal PIN utente',
});

const pinSchema = z
  .string()
  .trim()
  .regex(/^\d{0,12}$/, PIN_MESSAGE);

export const conferenceWriteSchema = z
  .object({
    /** The number phones and destinations dial; checked by the numbering rules like any extension. */
    extension: z
      .string()
      .trim()
      .regex(/^\d{2,10}$/, NUMBER_MESSAGE),
    name: z.string().trim().min(1, NAME_MESSAGE).max(80, NAME_MESSAGE).check(noControlChars),
    /** Asked of every caller when set; left out: unchanged (none for a new room); '': none. */
    user_pin: pinSchema.optional(),
    /** Joins as the room's administrator (may mute and kick); left out: unchanged; '': none. */
    admin_pin: pinSchema.optional(),
    /** 0: no limit. */
    max_members: z.number().int().min(0, MAX_MESSAGE).max(CONFERENCE_MAX_MEMBERS, MAX_MESSAGE).default(0),
    /** Music on hold while a caller is alone in the room. */
    music_when_alone: z.boolean().default(true),
    /** The music class played while alone (the server checks it exists). */
    music_class: musicChoiceSchema.default('default'),
    /** Callers are announced when they join and leave (else the room is quiet: no join/leave sounds). */
    announce_join_leave: z.boolean().default(false),
    /** The whole conference is recorded into the call recordings folder. */
    record: z.boolean().default(false),
  })
  .refine((v) => !v.user_pin || !v.admin_pin || v.user_pin !== v.admin_pin, {
    message: CONFERENCE_PINS_EQUAL_MESSAGE,
    path: ['admin_pin'],
  })
  .meta({ id: 'ConferenceWrite' });
export type ConferenceWrite = z.input<typeof conferenceWriteSchema>;

export const conferenceSchema = z
  .object({
    id: z.number().int(),
    extension: z.string(),
    name: z.string(),
    has_user_pin: z.boolean(),
    has_admin_pin: z.boolean(),
    max_members: z.number().int(),
    music_when_alone: z.boolean(),
    music_class: z.string(),
    announce_join_leave: z.boolean(),
    record: z.boolean(),
    destination: z.string(),
  })
  .meta({ id: 'Conference' });
export type Conference = z.infer<typeof conferenceSchema>;
export const conferenceListSchema = z.array(conferenceSchema).meta({ id: 'ConferenceList' });

export const conferenceDestination = (extension: string) => `ext-meetme,${extension},1`;

/** Someone in a room now (AMI ConfbridgeList). */
export const conferenceParticipantSchema = z
  .object({
    /** The channel, which names the participant to mute or kick. */
    channel: z.string(),
    caller_number: z.string(),
    caller_name: z.string(),
    admin: z.boolean(),
    muted: z.boolean(),
    /** Seconds since they joined. */
    seconds: z.number().int(),
  })
  .meta({ id: 'ConferenceParticipant' });
export type ConferenceParticipant = z.infer<typeof conferenceParticipantSchema>;
export const conferenceParticipantListSchema = z
  .array(conferenceParticipantSchema)
  .meta({ id: 'ConferenceParticipantList' });
/** A room with people in it now, for the dashboard (rooms nobody is in are left out). */
export const conferenceLiveRoomSchema = z
  .object({
    id: z.number().int(),
    extension: z.string(),
    name: z.string(),
    participants: conferenceParticipantListSchema,
  })
  .meta({ id: 'ConferenceLiveRoom' });
export type ConferenceLiveRoom = z.infer<typeof conferenceLiveRoomSchema>;
export const conferenceLiveListSchema = z.array(conferenceLiveRoomSchema).meta({ id: 'ConferenceLiveList' });
export const conferenceParticipantActionSchema = z
  .object({ channel: z.string().min(1).max(200), muted: z.boolean().optional() })
  .meta({ id: 'ConferenceParticipantAction' });
