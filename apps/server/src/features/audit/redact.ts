/**
 * Field names whose values are secrets: passwords, PINs, secrets, tokens, keys (the same families the route walk
 * keeps out of lists, plus tokens and codes of the second factor). Their values never reach the audit log.
 */
export const SECRET_FIELD = /pass(word)?|secret|pwd|token|(^|_)pin$|(^|_)key$|apikey|credential|recovery|otp|^code$/i;

export const REDACTED = '[redacted]';

/** A deep copy with every secret-named field's value replaced (kept as `null` when it was empty or null). */
export function redact(value: unknown, depth = 0): unknown {
  if (depth > 20) return REDACTED;
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (SECRET_FIELD.test(key)) out[key] = inner === null || inner === undefined || inner === '' ? inner : REDACTED;
    else out[key] = redact(inner, depth + 1);
  }
  return out;
}

/**
 * The fields the change touched: for each field of the request body, its value before (from the object as the
 * API showed it just before) and after, only where they differ. Without a before (a creation), the body itself.
 */
export function fieldChanges(before: unknown, body: unknown, method: string): { before: unknown; after: unknown } {
  if (method === 'DELETE') return { before: redact(before ?? null), after: null };
  const isRecord = (v: unknown): v is Record<string, unknown> =>
    v !== null && typeof v === 'object' && !Array.isArray(v);
  if (!isRecord(before) || !isRecord(body)) return { before: redact(before ?? null), after: redact(body ?? null) };
  const was: Record<string, unknown> = {};
  const now: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (JSON.stringify(before[key]) === JSON.stringify(value)) continue;
    was[key] = before[key] ?? null;
    now[key] = value;
  }
  return { before: redact(was), after: redact(now) };
}
