import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Directory users' passwords in the salted SHA-512 form OpenLDAP stores ({SSHA512}). They are not
 * console logins: the scrypt hash of the administrator would make a 5,000-user import take minutes,
 * and the spec keeps their clear text for the final report anyway.
 */
export function directoryPasswordHash(password: string): string {
  const salt = randomBytes(8);
  const digest = createHash('sha512').update(password).update(salt).digest();
  return `{SSHA512}${Buffer.concat([digest, salt]).toString('base64')}`;
}

export function verifyDirectoryPassword(password: string, stored: string): boolean {
  if (!stored.startsWith('{SSHA512}')) return false;
  const raw = Buffer.from(stored.slice('{SSHA512}'.length), 'base64');
  if (raw.length <= 64) return false;
  const digest = raw.subarray(0, 64);
  const salt = raw.subarray(64);
  const actual = createHash('sha512').update(password).update(salt).digest();
  return timingSafeEqual(actual, digest);
}
