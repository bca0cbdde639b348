import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

// scrypt with N=2^15 takes ~50 ms here: slow enough to resist guessing, fast enough for a login.
const N = 32768;
const r = 8;
const p = 1;
const KEY_LENGTH = 64;
const MAX_MEM = 64 * 1024 * 1024;

function derive(password: string, salt: Buffer, n: number, rr: number, pp: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password, salt, KEY_LENGTH, { N: n, r: rr, p: pp, maxmem: MAX_MEM }, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });
}

/** Format: scrypt$N$r$p$salt$hash (base64url parts), so parameters can change later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, N, r, p);
  return ['scrypt', N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, rr, pp, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await derive(password, Buffer.from(salt, 'base64url'), Number(n), Number(rr), Number(pp));
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/**
 * A hash of a random password, verified against when the user does not exist so timing leaks nothing.
 * Build it at start (AuthService does), or the first failed sign-in pays for two hashes.
 */
export function makeDecoyHash(): Promise<string> {
  return hashPassword(randomBytes(16).toString('hex'));
}

const ALPHANUMERIC = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';

/** Random password of letters and digits without look-alike characters. */
export function randomPassword(length: number): string {
  const bytes = randomBytes(length * 2);
  let out = '';
  for (const byte of bytes) {
    // Rejection sampling keeps every character equally likely.
    if (byte < 256 - (256 % ALPHANUMERIC.length)) out += ALPHANUMERIC[byte % ALPHANUMERIC.length];
    if (out.length === length) return out;
  }
  return out + randomPassword(length - out.length);
}
