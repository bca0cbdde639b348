import { z } from 'zod';
import { recordingPolicySchema } from './call-recordings.ts';
import { musicChoiceSchema } from './music.ts';
import { noControlChars, registerItalianMessages } from './text.ts';

/**
 * Call flows (issue 26): recordings, announcements and IVRs. Field names follow the original's tables as the
 * migration of contract api-admin §11.2 copies them (recordings: id, displayname, filename, description;
 * announcements: description, recording_id, allow_skip, post_dest, return_ivr, noanswer, repeat_msg; IVRs: name,
 * description, announcement, directdial, timeout and invalid destinations with their retries, entries of
 * selection → dest). Destinations are dialplan strings 'context,exten,priority' (contract asterisk §5.1).
 */

/** Largest audio file accepted for a recording, before conversion. */
/** Feature code recording from a phone: alone a new recording, followed by a recording's id that one again. */
export const RECORDING_FEATURE_CODE = '*77';

export const RECORDING_UPLOAD_MAX_BYTES = 20 * 1024 * 1024;
/** Longest recording kept, in seconds (longer audio is refused, not cut). */
export const RECORDING_MAX_SECONDS = 600;
/** The audio formats a recording is uploaded in; the server converts them to 8 kHz mono 16-bit WAV. */
export const RECORDING_UPLOAD_TYPES = ['wav', 'mp3', 'ogg'] as const;
/** Keys of an IVR menu. */
export const IVR_SELECTIONS = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '*', '#'] as const;

const NAME_MESSAGE = 'Enter a name (up to 80 characters)';
const DESTINATION_MESSAGE = 'Choose a destination';
registerItalianMessages({
  [NAME_MESSAGE]: 'Inserisci un nome (fino a 80 caratteri)',
  [DESTINATION_MESSAGE]: 'Scegli una destinazione',
  'Up to 200 characters': 'Fino a 200 caratteri',
  'A key may appear once': 'Ogni tasto può comparire una volta sola',
  'From 1 to 60 seconds': 'Da 1 a 60 secondi',
  'From 0 to 10': 'Da 0 a 10',
  'From 0 to 9': 'Da 0 a 9',
});

const nameSchema = z.string().trim().min(1, NAME_MESSAGE).max(80, NAME_MESSAGE).check(noControlChars);
const descriptionSchema = z.string().trim().max(200, 'Up to 200 characters').check(noControlChars);
/** A destination string as the catalogue lists it (`GET /api/destinations`). */
export const flowDestinationSchema = z
  .string()
  .min(1, DESTINATION_MESSAGE)
  .max(200, DESTINATION_MESSAGE)
  .regex(/^[A-Za-z0-9_-]+,[A-Za-z0-9_*#+-]+,\d+$/, DESTINATION_MESSAGE);

// ---- Recordings ----

export const recordingSchema = z
  .object({
    id: z.number().int(),
    displayname: z.string(),
    /** Where Asterisk finds it: the sound file's path without extension. */
    filename: z.string(),
    description: z.string(),
    /** Length of the converted audio, in milliseconds. */
    duration_ms: z.number().int(),
    /** Size of the converted WAV, in bytes. */
    size: z.number().int(),
    /** Announcements and IVRs that play it, by name. */
    used_by: z.array(z.string()),
  })
  .meta({ id: 'Recording' });
export type Recording = z.infer<typeof recordingSchema>;
export const recordingListSchema = z.array(recordingSchema).meta({ id: 'RecordingList' });

/** Rename (and describe) a recording; the audio stays. */
export const recordingPatchSchema = z
  .object({ displayname: nameSchema, description: descriptionSchema.optional() })
  .meta({ id: 'RecordingPatch' });
export type RecordingPatch = z.infer<typeof recordingPatchSchema>;

// ---- Announcements ----

export const announcementWriteSchema = z
  .object({
    description: nameSchema,
    recording_id: z.number().int().min(1).nullable(),
    /** Any key pressed during the message skips to the destination. */
    allow_skip: z.boolean().default(false),
    post_dest: flowDestinationSchema,
    /** Back to the IVR the caller came from instead of post_dest, when there is one. */
    return_ivr: z.boolean().default(false),
    /** Play without answering (early media). */
    noanswer: z.boolean().default(false),
    /** A key that plays the message again, or ''. */
    repeat_msg: z.enum(['', ...IVR_SELECTIONS]).default(''),
  })
  .meta({ id: 'AnnouncementWrite' });
export type AnnouncementWrite = z.input<typeof announcementWriteSchema>;

export const announcementSchema = announcementWriteSchema
  .extend({ id: z.number().int(), destination: z.string() })
  .meta({ id: 'Announcement' });
export type Announcement = z.infer<typeof announcementSchema>;
export const announcementListSchema = z.array(announcementSchema).meta({ id: 'AnnouncementList' });

// ---- IVRs ----

export const ivrEntrySchema = z.object({
  selection: z.enum(IVR_SELECTIONS),
  dest: flowDestinationSchema,
});
export type IvrEntry = z.infer<typeof ivrEntrySchema>;

const seconds = z.number().int().min(1, 'From 1 to 60 seconds').max(60, 'From 1 to 60 seconds');
const retries = z.number().int().min(0, 'From 0 to 10').max(10, 'From 0 to 10');

export const ivrWriteSchema = z
  .object({
    name: nameSchema,
    description: descriptionSchema.default(''),
    /** The recording played as the menu, or null for none. */
    announcement: z.number().int().min(1).nullable(),
    /** Callers may dial an extension number directly. */
    directdial: z.boolean().default(false),
    /** Seconds to wait for a key after the menu. */
    timeout_time: seconds.default(10),
    /** Times the menu is played again after an invalid key before going to invalid_destination. */
    invalid_loops: retries.default(3),
    invalid_destination: flowDestinationSchema,
    /** Times the menu is played again after no key before going to timeout_destination. */
    timeout_loops: retries.default(3),
    timeout_destination: flowDestinationSchema,
    entries: z
      .array(ivrEntrySchema)
      .max(IVR_SELECTIONS.length)
      .refine((list) => new Set(list.map((e) => e.selection)).size === list.length, 'A key may appear once')
      .default([]),
  })
  .meta({ id: 'IvrWrite' });
export type IvrWrite = z.input<typeof ivrWriteSchema>;

export const ivrSchema = ivrWriteSchema.extend({ id: z.number().int(), destination: z.string() }).meta({ id: 'Ivr' });
export type Ivr = z.infer<typeof ivrSchema>;
export const ivrListSchema = z.array(ivrSchema).meta({ id: 'IvrList' });

// ---- Day/night switches

/** Feature code of day/night switch n is this followed by n (FreePBX's default *28). */
export const DAYNIGHT_FEATURE_CODE = '*28';

export const dayNightWriteSchema = z
  .object({
    /** 0–9: the switch's digit after the feature code. */
    ext: z.number().int().min(0, 'From 0 to 9').max(9, 'From 0 to 9'),
    name: nameSchema,
    day_dest: flowDestinationSchema,
    night_dest: flowDestinationSchema,
  })
  .meta({ id: 'DayNightWrite' });
export type DayNightWrite = z.infer<typeof dayNightWriteSchema>;

export const dayNightSchema = dayNightWriteSchema
  .extend({
    destination: z.string(),
    feature_code: z.string(),
    /** The current mode as Asterisk has it; unknown while the PBX is not connected. */
    state: z.enum(['day', 'night', 'unknown']),
  })
  .meta({ id: 'DayNight' });
export type DayNight = z.infer<typeof dayNightSchema>;
export const dayNightListSchema = z.array(dayNightSchema).meta({ id: 'DayNightList' });
export const dayNightStateSchema = z.object({ state: z.enum(['day', 'night']) }).meta({ id: 'DayNightState' });

/** Dialplan destinations of the flow objects (contract asterisk §5.1). */
export const announcementDestination = (id: number) => `app-announcement-${id},s,1`;
export const ivrDestination = (id: number) => `ivr-${id},s,1`;
export const dayNightDestination = (ext: number) => `app-daynight,${ext},1`;

// ---- Queues

/** How a queue rings its members (Asterisk queues.conf strategy). */
export const QUEUE_STRATEGIES = ['ringall', 'rrmemory', 'leastrecent', 'fewestcalls', 'random'] as const;
/** What a waiting caller hears: the default music on hold, or ringing (or a music class, music.ts). */
export const QUEUE_MUSIC = ['default', 'ringing'] as const;
/** Feature codes followed by the queue number: log in or out of it as an agent, pause or resume (contract §5.3). */
export const QUEUE_LOGIN_FEATURE_CODE = '*45';
export const QUEUE_PAUSE_FEATURE_CODE = '*46';

const EXTENSION_MESSAGE = 'From 2 to 10 digits';
registerItalianMessages({
  [EXTENSION_MESSAGE]: 'Da 2 a 10 cifre',
  'From 1 to 120 seconds': 'Da 1 a 120 secondi',
  'From 0 to 86400 seconds': 'Da 0 a 86400 secondi',
  'A user may appear once': 'Ogni utente può comparire una volta sola',
});
const extensionSchema = z
  .string()
  .trim()
  .regex(/^\d{2,10}$/, EXTENSION_MESSAGE);
const userExtensions = z
  .array(extensionSchema)
  .max(500)
  .refine((list) => new Set(list).size === list.length, 'A user may appear once')
  .default([]);

export const queueWriteSchema = z
  .object({
    /** The number callers and phones dial; checked by the numbering rules like any extension. */
    extension: extensionSchema,
    name: nameSchema,
    strategy: z.enum(QUEUE_STRATEGIES).default('ringall'),
    /** Static members: main extensions of users, always in the queue. */
    members: userExtensions,
    /** Dynamic agents: users who may log in and out with *45<queue> and pause with *46<queue>. */
    agents: userExtensions,
    /** Seconds each member's phones ring before the queue tries the next. */
    ring_time: z.number().int().min(1, 'From 1 to 120 seconds').max(120, 'From 1 to 120 seconds').default(15),
    /** Longest wait in the queue, in seconds, before the failover destination; 0 waits without limit. */
    max_wait: z.number().int().min(0, 'From 0 to 86400 seconds').max(86_400, 'From 0 to 86400 seconds').default(0),
    failover_dest: flowDestinationSchema,
    /** 'ringing', 'default' or a music class's name (the server checks the class exists). */
    music: z.union([z.enum(QUEUE_MUSIC), musicChoiceSchema]).default('default'),
    /** Tell waiting callers their position in the queue. */
    announce_position: z.boolean().default(false),
    /** Call recording of the calls it takes (see call-recordings.ts for which policy decides). */
    recording: recordingPolicySchema.default('on_demand'),
  })
  .meta({ id: 'QueueWrite' });
export type QueueWrite = z.input<typeof queueWriteSchema>;

export const queueSchema = queueWriteSchema
  .extend({
    id: z.number().int(),
    destination: z.string(),
    login_code: z.string(),
    pause_code: z.string(),
  })
  .meta({ id: 'Queue' });
export type Queue = z.infer<typeof queueSchema>;
export const queueListSchema = z.array(queueSchema).meta({ id: 'QueueList' });

export const queueDestination = (extension: string) => `ext-queues,${extension},1`;

// ---- Time groups and time conditions

/** Feature code of time condition n is this followed by n: it sets or clears the condition's override. */
export const TIME_CONDITION_FEATURE_CODE = '*27';

const RANGE_MESSAGE = 'Use * or a value or range as shown';
registerItalianMessages({
  [RANGE_MESSAGE]: 'Usa * oppure un valore o un intervallo come nell’esempio',
  'Add at least one time range': 'Aggiungi almeno un intervallo di tempo',
});
const WEEKDAY = '(mon|tue|wed|thu|fri|sat|sun)';
const MONTH = '(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)';
const TIME = '([01]\\d|2[0-3]):[0-5]\\d';
const MDAY = '([1-9]|[12]\\d|3[01])';
const rangeOf = (item: string) => new RegExp(`^(\\*|${item}(-${item})?)$`);
/** Writes a one-digit hour with its leading zero, `9:00-17:30` → `09:00-17:30`: both spellings are one time. */
export function normaliseHours(value: string): string {
  return value.replace(/(^|-)(\d):/g, (_, start: string, hour: string) => `${start}0${hour}:`);
}
/**
 * One range of a time group, as Asterisk's GotoIfTime reads it (in the system's time zone): hours `08:00-12:30`
 * (`8:00` is taken and stored as `08:00`), weekdays `mon-fri`, days of the month `1-15`, months `dec`; `*` for any.
 * A holiday is a day and a month.
 */
export const timeRangeSchema = z.object({
  hours: z.string().trim().toLowerCase().overwrite(normaliseHours).regex(rangeOf(TIME), RANGE_MESSAGE).default('*'),
  weekdays: z.string().trim().toLowerCase().regex(rangeOf(WEEKDAY), RANGE_MESSAGE).default('*'),
  mdays: z.string().trim().regex(rangeOf(MDAY), RANGE_MESSAGE).default('*'),
  months: z.string().trim().toLowerCase().regex(rangeOf(MONTH), RANGE_MESSAGE).default('*'),
});
export type TimeRange = z.infer<typeof timeRangeSchema>;

export const timeGroupWriteSchema = z
  .object({
    name: nameSchema,
    ranges: z.array(timeRangeSchema).min(1, 'Add at least one time range').max(50),
  })
  .meta({ id: 'TimeGroupWrite' });
export type TimeGroupWrite = z.input<typeof timeGroupWriteSchema>;
export const timeGroupSchema = timeGroupWriteSchema
  .extend({ id: z.number().int(), used_by: z.array(z.string()) })
  .meta({ id: 'TimeGroup' });
export type TimeGroup = z.infer<typeof timeGroupSchema>;
export const timeGroupListSchema = z.array(timeGroupSchema).meta({ id: 'TimeGroupList' });

export const timeConditionWriteSchema = z
  .object({
    name: nameSchema,
    time_group_id: z.number().int().min(1, 'Choose a time group'),
    /** Where calls go while the time group matches… */
    true_dest: flowDestinationSchema,
    /** …and where they go otherwise. */
    false_dest: flowDestinationSchema,
  })
  .meta({ id: 'TimeConditionWrite' });
export type TimeConditionWrite = z.infer<typeof timeConditionWriteSchema>;
registerItalianMessages({ 'Choose a time group': 'Scegli un gruppo orario' });

/** auto: the time group decides; inside / outside: forced until cleared (console or feature code). */
export const TIME_CONDITION_OVERRIDES = ['auto', 'inside', 'outside'] as const;
export const timeConditionSchema = timeConditionWriteSchema
  .extend({
    id: z.number().int(),
    destination: z.string(),
    feature_code: z.string(),
    /** The override as Asterisk holds it (AstDB TC/<id>); unknown while the PBX is not connected. */
    override: z.enum([...TIME_CONDITION_OVERRIDES, 'unknown']),
  })
  .meta({ id: 'TimeCondition' });
export type TimeCondition = z.infer<typeof timeConditionSchema>;
export const timeConditionListSchema = z.array(timeConditionSchema).meta({ id: 'TimeConditionList' });
export const timeConditionOverrideSchema = z
  .object({ override: z.enum(TIME_CONDITION_OVERRIDES) })
  .meta({ id: 'TimeConditionOverride' });

export const timeConditionDestination = (id: number) => `timeconditions,${id},1`;

// ---- Caller query routing (CQR) ----

/** The longest a CQR waits for its query, in seconds (the card query runner stops any query at 5 s); the dialplan's CURL() gives up two seconds later. */
export const CQR_MAX_TIMEOUT_SECONDS = 5;
export const cqrEntrySchema = z.object({
  /** The query's first column of its first row, compared as text (trimmed). */
  value: z.string().trim().min(1, 'Enter the value to match').max(200, 'Up to 200 characters').check(noControlChars),
  destination: flowDestinationSchema,
});
export const cqrWriteSchema = z
  .object({
    name: nameSchema,
    /** A customer-card source (`GET /api/dbconn`). */
    source_id: z.number().int().min(1, 'Choose a source'),
    /** Read-only; the caller's number is bound where the query says `$NUMBER`, as in card queries. */
    query: z.string().trim().min(1, 'The query is required').max(20_000, 'The query is too long'),
    timeout: z
      .number()
      .int()
      .min(1, `Between 1 and ${CQR_MAX_TIMEOUT_SECONDS} seconds`)
      .max(CQR_MAX_TIMEOUT_SECONDS, `Between 1 and ${CQR_MAX_TIMEOUT_SECONDS} seconds`),
    entries: z.array(cqrEntrySchema).max(100),
    /** Where calls go on no match, an error or a timeout. */
    default_dest: flowDestinationSchema,
  })
  .meta({ id: 'CqrWrite' });
export type CqrWrite = z.infer<typeof cqrWriteSchema>;
registerItalianMessages({
  'Enter the value to match': 'Inserisci il valore da confrontare',
  'Choose a source': 'Scegli una sorgente',
  'The query is required': 'La query è obbligatoria',
  'The query is too long': 'La query è troppo lunga',
  [`Between 1 and ${CQR_MAX_TIMEOUT_SECONDS} seconds`]: `Tra 1 e ${CQR_MAX_TIMEOUT_SECONDS} secondi`,
});
export const cqrSchema = cqrWriteSchema.extend({ id: z.number().int(), destination: z.string() }).meta({ id: 'Cqr' });
export type Cqr = z.infer<typeof cqrSchema>;
export const cqrListSchema = z.array(cqrSchema).meta({ id: 'CqrList' });
/** The destination string the original's migration check knows (contract api-admin §11). */
export const cqrDestination = (id: number) => `nethcqr,${id},1`;
