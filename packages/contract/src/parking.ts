import { z } from 'zod';
import { flowDestinationSchema } from './flows.ts';
import { noControlChars, registerItalianMessages } from './text.ts';

/**
 * Call parking (issue 42 item 2, Asterisk res_parking). A lot has a number that parks the caller (dialled, reached
 * as a destination, or a blind transfer to it), a range of slots each of which picks up the call parked there, a
 * timeout and where a call goes when nobody picks it up: a destination of the catalogue, or back to whoever parked it.
 * The lot number and every slot number are numbers of the numbering plan, taken like an extension.
 */

export const PARKING_DEFAULTS = { extension: '70', first_slot: '71', slots: 8, timeout: 45 } as const;
export const PARKING_MAX_SLOTS = 50;
export const PARKING_MIN_TIMEOUT = 10;
export const PARKING_MAX_TIMEOUT = 3600;

const NUMBER_MESSAGE = 'From 2 to 10 digits';
const NAME_MESSAGE = 'Enter a name (up to 80 characters)';
const SLOT_MESSAGE = 'From 2 to 10 digits, not starting with 0';
const SLOTS_MESSAGE = `From 1 to ${PARKING_MAX_SLOTS} slots`;
const TIMEOUT_MESSAGE = `From ${PARKING_MIN_TIMEOUT} to ${PARKING_MAX_TIMEOUT} seconds`;
const MUSIC_MESSAGE = 'Letters, digits, - and _ (up to 80)';
export const PARKING_LOT_IN_SLOTS_MESSAGE = 'The lot number may not be one of its slots';
registerItalianMessages({
  [NUMBER_MESSAGE]: 'Da 2 a 10 cifre',
  [NAME_MESSAGE]: 'Inserisci un nome (fino a 80 caratteri)',
  [SLOT_MESSAGE]: 'Da 2 a 10 cifre, senza 0 iniziale',
  [SLOTS_MESSAGE]: `Da 1 a ${PARKING_MAX_SLOTS} posti`,
  [TIMEOUT_MESSAGE]: `Da ${PARKING_MIN_TIMEOUT} a ${PARKING_MAX_TIMEOUT} secondi`,
  [MUSIC_MESSAGE]: 'Lettere, cifre, - e _ (fino a 80)',
  [PARKING_LOT_IN_SLOTS_MESSAGE]: 'Il numero del parcheggio non può essere uno dei suoi posti',
});

/** The slot numbers of a lot, in order: first, first + 1, … (res_parking reads parkpos as numbers). */
export function parkingSlots(firstSlot: string, slots: number): string[] {
  const first = Number(firstSlot);
  if (!Number.isSafeInteger(first)) return [];
  return Array.from({ length: Math.max(0, slots) }, (_, i) => String(first + i));
}

export const parkingLotWriteSchema = z
  .object({
    /** Dialled (or transferred to) to park; checked by the numbering rules like any extension. */
    extension: z
      .string()
      .trim()
      .regex(/^\d{2,10}$/, NUMBER_MESSAGE)
      .default(PARKING_DEFAULTS.extension),
    name: z.string().trim().min(1, NAME_MESSAGE).max(80, NAME_MESSAGE).check(noControlChars),
    /** The first slot; the lot has `slots` consecutive numbers from it, each dialled to pick up its call. */
    first_slot: z
      .string()
      .trim()
      .regex(/^[1-9]\d{1,9}$/, SLOT_MESSAGE)
      .default(PARKING_DEFAULTS.first_slot),
    slots: z
      .number()
      .int(SLOTS_MESSAGE)
      .min(1, SLOTS_MESSAGE)
      .max(PARKING_MAX_SLOTS, SLOTS_MESSAGE)
      .default(PARKING_DEFAULTS.slots),
    /** Seconds a call waits in its slot before it goes on. */
    timeout: z
      .number()
      .int(TIMEOUT_MESSAGE)
      .min(PARKING_MIN_TIMEOUT, TIMEOUT_MESSAGE)
      .max(PARKING_MAX_TIMEOUT, TIMEOUT_MESSAGE)
      .default(PARKING_DEFAULTS.timeout),
    /** Where a call nobody picked up goes; null: back to the phone that parked it. */
    timeout_dest: flowDestinationSchema.nullable().default(null),
    /** The music-on-hold class a parked caller hears. */
    music_class: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9_-]{1,80}$/, MUSIC_MESSAGE)
      .default('default'),
  })
  .refine((v) => !parkingSlots(v.first_slot, v.slots).includes(v.extension), {
    message: PARKING_LOT_IN_SLOTS_MESSAGE,
    path: ['first_slot'],
  })
  .refine((v) => (parkingSlots(v.first_slot, v.slots).at(-1)?.length ?? 0) <= 10, {
    message: SLOT_MESSAGE,
    path: ['first_slot'],
  })
  .meta({ id: 'ParkingLotWrite' });
export type ParkingLotWrite = z.input<typeof parkingLotWriteSchema>;

export const parkingLotSchema = z
  .object({
    id: z.number().int(),
    extension: z.string(),
    name: z.string(),
    first_slot: z.string(),
    slots: z.number().int(),
    /** The last slot's number (first_slot + slots - 1). */
    last_slot: z.string(),
    timeout: z.number().int(),
    timeout_dest: z.string().nullable(),
    music_class: z.string(),
    /** Where routes and flows send calls to park them here. */
    destination: z.string(),
  })
  .meta({ id: 'ParkingLot' });
export type ParkingLot = z.infer<typeof parkingLotSchema>;
export const parkingLotListSchema = z.array(parkingLotSchema).meta({ id: 'ParkingLotList' });

/** A lot as a destination: the caller is parked in it (context app-parking, one extension per lot number). */
export const parkingDestination = (extension: string) => `app-parking,${extension},1`;

/** A call waiting in a slot now (AMI ParkedCalls and the ParkedCall… events). */
export const parkedCallSchema = z
  .object({
    lot_id: z.number().int().nullable(),
    lot: z.string(),
    slot: z.string(),
    /** The parked channel. */
    channel: z.string(),
    caller_number: z.string(),
    caller_name: z.string(),
    /** Who parked it: the parker's number (empty when the caller parked themself). */
    parker_number: z.string(),
    parker_name: z.string(),
    /** Seconds since it was parked. */
    seconds: z.number().int(),
    /** Seconds left before it times out. */
    remaining: z.number().int(),
  })
  .meta({ id: 'ParkedCall' });
export type ParkedCall = z.infer<typeof parkedCallSchema>;
export const parkedCallListSchema = z.array(parkedCallSchema).meta({ id: 'ParkedCallList' });

/** "Pick up on…": ring a user's phone, which takes the call in `slot` when answered. */
export const parkedCallPickupSchema = z
  .object({
    slot: z.string().regex(/^\d{2,10}$/, NUMBER_MESSAGE),
    /** The user's main extension, whose phone is rung. */
    extension: z.string().regex(/^\d{2,10}$/, NUMBER_MESSAGE),
  })
  .meta({ id: 'ParkedCallPickup' });
export type ParkedCallPickup = z.infer<typeof parkedCallPickupSchema>;
