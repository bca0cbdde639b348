import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { UsersRepository } from './repository.ts';

/** Device extensions of main extension N are P‖N for P in 90…99 (contract §11), so those are reserved too. */
export function companionNumbers(main: string): string[] {
  return Array.from({ length: 10 }, (_, i) => `9${i}${main}`);
}

/**
 * The number that makes N unavailable for a user, or undefined when N is free: N itself or one of
 * its companions held by another user, or N being a companion of another user's extension.
 */
export async function extensionConflict(
  db: Kysely<Database>,
  main: string,
  userId: number | undefined,
): Promise<string | undefined> {
  const repo = new UsersRepository(db);
  const candidates = [main, ...companionNumbers(main)];
  const companionOf = /^9\d(\d{2,})$/.exec(main)?.[1];
  if (companionOf) candidates.push(companionOf);
  const holders = (await repo.holdersOf(candidates, db)).filter((h) => h.id !== userId);
  if (holders.length === 0) return undefined;
  // Name the number the administrator typed unless the clash is with one of its device numbers.
  const clashesWithMain = holders.some((h) => h.default_extension === main || h.default_extension === companionOf);
  return clashesWithMain ? main : (holders[0]?.default_extension ?? main);
}
