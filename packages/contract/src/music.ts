import { z } from 'zod';
import { registerItalianMessages } from './text.ts';

/**
 * Music on hold (issue 42 item 6). The class `default` plays the distribution's music (Debian's
 * asterisk-moh-opsound-*); the administrator adds classes of uploaded audio. Queues, inbound routes, trunks and
 * conference rooms choose a class by its name, which is also its name in musiconhold.conf, so a class is never
 * renamed (a new name would be a new class for everything that plays it).
 */

export const MUSIC_DEFAULT_CLASS = 'default';
/** Not a class: a queue's callers hear ringing instead of music. Reserved so no class can take the name. */
export const MUSIC_RINGING = 'ringing';
/** Files of a class: alphabetical order of their names, or shuffled (musiconhold.conf `sort`). */
export const MUSIC_PLAY_ORDERS = ['alpha', 'random'] as const;
export type MusicPlayOrder = (typeof MUSIC_PLAY_ORDERS)[number];
/** The most files one class holds. */
export const MUSIC_MAX_FILES = 50;

const NAME_MESSAGE = 'Lower-case letters, digits, - and _, starting with a letter or digit (up to 40)';
const RESERVED_MESSAGE = 'This name is reserved';
registerItalianMessages({
  [NAME_MESSAGE]: 'Lettere minuscole, cifre, - e _, iniziando con una lettera o una cifra (fino a 40)',
  [RESERVED_MESSAGE]: 'Questo nome è riservato',
});

/** A class name as musiconhold.conf and CHANNEL(musicclass) take it: a section name without spaces or brackets. */
const classNameText = z
  .string()
  .trim()
  .regex(/^[a-z0-9][a-z0-9_-]{0,39}$/, NAME_MESSAGE);

/** The name of a new class: not one of the reserved ones. */
export const musicClassNameSchema = classNameText.refine(
  (name) => name !== MUSIC_DEFAULT_CLASS && name !== MUSIC_RINGING,
  RESERVED_MESSAGE,
);

/** What plays: `default` or an uploaded class (the server checks it exists). */
export const musicChoiceSchema = classNameText;

export const musicClassWriteSchema = z
  .object({
    name: musicClassNameSchema,
    play_order: z.enum(MUSIC_PLAY_ORDERS).default('alpha'),
  })
  .meta({ id: 'MusicClassWrite' });
export type MusicClassWrite = z.input<typeof musicClassWriteSchema>;

/** Only the play order changes: the name is the class's identity (see above). */
export const musicClassPatchSchema = z
  .object({ play_order: z.enum(MUSIC_PLAY_ORDERS) })
  .meta({ id: 'MusicClassPatch' });
export type MusicClassPatch = z.infer<typeof musicClassPatchSchema>;

export const musicFileSchema = z
  .object({
    id: z.number().int(),
    /** The file's name in the class (from the uploaded name, without its extension); sets the alphabetical order. */
    name: z.string(),
    duration_ms: z.number().int(),
    size: z.number().int(),
  })
  .meta({ id: 'MusicFile' });
export type MusicFile = z.infer<typeof musicFileSchema>;

export const musicClassSchema = z
  .object({
    /** 0 for the distribution's `default` class. */
    id: z.number().int(),
    name: z.string(),
    /** The distribution's class: its files are the installed packages', not uploads; it cannot be removed. */
    builtin: z.boolean(),
    play_order: z.enum(MUSIC_PLAY_ORDERS),
    files: z.array(musicFileSchema),
    /** What plays this class (queues, inbound routes, trunks, conference rooms), in the caller's language. */
    used_by: z.array(z.string()),
  })
  .meta({ id: 'MusicClass' });
export type MusicClass = z.infer<typeof musicClassSchema>;
export const musicClassListSchema = z.array(musicClassSchema).meta({ id: 'MusicClassList' });

/** The name a file gets from its upload's name: extension dropped, what a file name should not hold replaced. */
export function musicFileName(uploaded: string): string {
  const base = uploaded.replace(/^.*[\\/]/, '').replace(/\.[A-Za-z0-9]{1,5}$/, '');
  const clean = base
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return clean || 'music';
}
