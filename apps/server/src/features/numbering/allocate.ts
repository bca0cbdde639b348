import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { holdersOf, lockNumbering } from './holders.ts';
import {
  clashError,
  companionNumbers,
  freeDeviceNumber,
  mainExtensionCandidates,
  mainExtensionClash,
  parkingNumberClash,
  queueNumberCandidates,
  queueNumberClash,
  trunkNameCandidates,
  trunkNameClash,
} from './rules.ts';

/**
 * Every write that takes a number calls one of these inside its own transaction: the numbering lock
 * is held until that transaction ends, so the number checked free is still free when it is stored.
 */
type Trx = Transaction<Database> | Kysely<Database>;

/** Refuses (422, naming the holder) main extension N for user `userId` unless the plan allows it. */
export async function assertMainExtensionFree(trx: Trx, main: string, userId?: number): Promise<void> {
  await lockNumbering(trx);
  const clash = mainExtensionClash(main, await holdersOf(trx, mainExtensionCandidates(main)), userId);
  if (clash) throw clashError(main, clash);
}

/** The number for a new device of main extension N, or undefined when its range is full. */
export async function takeDeviceNumber(
  trx: Trx,
  main: string,
  options: { withMain: boolean; prefixes: number[] },
): Promise<string | undefined> {
  await lockNumbering(trx);
  return freeDeviceNumber(main, await holdersOf(trx, [main, ...companionNumbers(main)]), options);
}

/** Refuses a trunk name that would take an extension number (its PJSIP sections would clash). */
export async function assertTrunkNameFree(trx: Trx, name: string, currentName?: string): Promise<void> {
  const candidates = trunkNameCandidates(name);
  if (candidates.length === 0) return;
  await lockNumbering(trx);
  const clash = trunkNameClash(name, await holdersOf(trx, candidates), currentName);
  if (clash) throw clashError(name, clash, 'trunk');
}

/** Refuses (422, naming the holder) number N for a queue (queueId: the queue being changed). */
export async function assertQueueNumberFree(trx: Trx, n: string, queueId?: number): Promise<void> {
  await lockNumbering(trx);
  const clash = queueNumberClash(n, await holdersOf(trx, queueNumberCandidates(n)), queueId);
  if (clash) throw clashError(n, clash, 'queue');
}

/** Refuses (422, naming the holder) number N for a conference room (roomId: the room being changed). */
export async function assertConferenceNumberFree(trx: Trx, n: string, roomId?: number): Promise<void> {
  await lockNumbering(trx);
  const clash = queueNumberClash(n, await holdersOf(trx, queueNumberCandidates(n)), roomId, 'conference');
  if (clash) throw clashError(n, clash, 'conference');
}

/** Refuses (422, naming the holder) number N for a ring group (groupId: the group being changed); a queue's rules. */
export async function assertRingGroupNumberFree(trx: Trx, n: string, groupId?: number): Promise<void> {
  await lockNumbering(trx);
  const clash = queueNumberClash(n, await holdersOf(trx, queueNumberCandidates(n)), groupId, 'ringgroup');
  if (clash) throw clashError(n, clash, 'ringgroup');
}

/**
 * Refuses (422, naming the holder and the number) a parking lot's number or any of its slots (lotId: the lot being
 * changed); `numbers` is the lot number then its slots, so the first clash named is the one typed first.
 */
export async function assertParkingNumbersFree(trx: Trx, numbers: string[], lotId?: number): Promise<void> {
  await lockNumbering(trx);
  const candidates = numbers.flatMap((n) => queueNumberCandidates(n));
  const clash = parkingNumberClash(numbers, await holdersOf(trx, candidates), lotId);
  if (clash) throw clashError(numbers.find((n) => n === clash.number) ?? clash.number, clash, 'parking');
}

export const DEVICE_PREFIXES = [91, 92, 93, 94, 95, 96, 97, 98];
export const FXS_PREFIXES = [...DEVICE_PREFIXES, 99];
