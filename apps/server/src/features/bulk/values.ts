/**
 * The per-user values a bulk edit writes from one template (contract §4.1, §4.2), as pure functions.
 */

/** 'Room 201' with 201 → 'Room ???': the number, then its last 3, 2 and 1 digits, masked by as many '?'. */
export function maskDisplayName(name: string, extension: string): string {
  let out = name;
  const tails = [extension, extension.slice(-3), extension.slice(-2), extension.slice(-1)];
  for (const tail of [...new Set(tails)]) {
    if (tail) out = out.split(tail).join('?'.repeat(tail.length));
  }
  return out;
}

/**
 * 'Room ???' for 201 → 'Room 201': a run of four or more '?' is the whole number, three, two and one '?'
 * are its last 3, 2 and 1 digits.
 */
export function expandDisplayName(template: string, extension: string): string {
  return template.replace(/\?+/g, (run) => (run.length >= 4 ? extension : extension.slice(-run.length)));
}

/** The root alone, or the root followed by the last `digits` digits of the user's number; '' = none. */
export function outboundCid(root: string, digits: number, extension: string): string | null {
  if (root === '') return null;
  return digits > 0 ? root + extension.slice(-digits) : root;
}

/** The one value every item has, or null when they differ (the bulk editor's "mixed"). */
export function common<T>(items: readonly T[]): T | null {
  if (items.length === 0) return null;
  const first = items[0] as T;
  for (const item of items) if (item !== first) return null;
  return first;
}
