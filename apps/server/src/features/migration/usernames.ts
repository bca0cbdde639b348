import { isSystemAccount, USERNAME_PATTERN } from '@centralino/contract';

/**
 * A user name for an old extension that had no CTI account: the old system let an extension live without a user,
 * Centralino gives every main extension one. An administrator would expect the name the old console showed
 * ("Chiara Rossi" → chiara.rossi, as the fixture's and most sites' accounts read), or, when that says nothing or is
 * taken, one made from the extension number (user210: a user name starts with a letter) — always something the users step shows and lets them change.
 */
export type UsernameFrom = 'cti' | 'name' | 'extension';

/** `name` as a user name (letters and digits, words joined by dots), or '' when no valid one is left of it. */
export function usernameFromName(name: string): string {
  const made = name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '.')
    .replace(/^[^a-z]+/, '')
    .slice(0, 64)
    .replace(/\.+$/, '');
  return USERNAME_PATTERN.test(made) && !isSystemAccount(made) ? made : '';
}

/** The derived name and where it came from; `taken` (lower case) gains it. */
export function deriveUsername(
  extension: string,
  name: string,
  taken: Set<string>,
): { username: string; from: Exclude<UsernameFrom, 'cti'> } {
  const fromName = usernameFromName(name);
  if (fromName && !taken.has(fromName)) {
    taken.add(fromName);
    return { username: fromName, from: 'name' };
  }
  // An extension is unique among the old ones, but a user here may already bear that name.
  let username = `user${extension}`;
  for (let i = 2; taken.has(username); i++) username = `user${extension}.${i}`;
  taken.add(username);
  return { username, from: 'extension' };
}
