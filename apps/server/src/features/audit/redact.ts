import { createHash } from 'node:crypto';
import { secretMarks } from '@centralino/contract';
import type { z } from 'zod';

/**
 * Safety net under the schema marks (`secret()`, `fileContent()`, `secretKeys()` in the contract, which are what
 * decides): field names whose values are secrets even where no schema says so — bodies of routes with an inline
 * schema, multipart fields, objects read back for the before. Passwords, PINs, secrets, tokens, keys, a phone's
 * `adminpw`/`userpw`, and the codes of the second factor.
 */
export const SECRET_FIELD =
  /pass(word)?|secret|pwd|pw$|token|(^|_)pin$|(^|_)key$|apikey|credential|recovery|otp|^code$/i;

export const REDACTED = '[redacted]';

/** What the audit keeps of a file: its name when it has one, its size and its SHA-256, never its content. */
export interface FileDigest {
  name?: string;
  size: number;
  sha256: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v) && !Buffer.isBuffer(v);

function hide(value: unknown): unknown {
  return value === null || value === undefined || value === '' ? value : REDACTED;
}

/** The digest of bytes (a raw body) or of a file field's text (a data URL, bare base64, or plain text). */
export function fileDigest(content: Buffer | string, name?: string): FileDigest {
  let bytes: Buffer;
  if (Buffer.isBuffer(content)) bytes = content;
  else {
    const data = /^data:[^,]*;base64,/i.exec(content);
    const base64 = data ? content.slice(data[0].length) : content;
    bytes = /^[A-Za-z0-9+/\s]*={0,2}\s*$/.test(base64) ? Buffer.from(base64, 'base64') : Buffer.from(content);
  }
  return { ...(name === undefined ? {} : { name }), size: bytes.length, sha256: sha256(bytes) };
}

export function sha256(bytes: Buffer | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * A URL with its user info (user:pass@) and its query and fragment values replaced; any other string as it is.
 * Parameter names stay (which parameters a URL has is useful), their values may be tokens.
 */
export function redactUrl(text: string): string {
  const match = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)([^?#]*)(\?[^#]*)?(#.*)?$/is.exec(text);
  if (!match) return text;
  const [, scheme, authority = '', path = '', query, fragment] = match;
  const at = authority.lastIndexOf('@');
  const host = at >= 0 ? `${REDACTED}@${authority.slice(at + 1)}` : authority;
  const params = query
    ?.slice(1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      return eq < 0
        ? pair === ''
          ? pair
          : REDACTED
        : `${pair.slice(0, eq)}=${pair.slice(eq + 1) === '' ? '' : REDACTED}`;
    })
    .join('&');
  return `${scheme}${host}${path}${query === undefined ? '' : `?${params}`}${fragment === undefined ? '' : `#${REDACTED}`}`;
}

type Schema = z.ZodType;

/**
 * Applies the schema's marks to a value shaped by it: a `secret()` field's value is replaced, a `fileContent()`
 * field becomes its digest, a `secretKeys()` record's matching entries are replaced. Walks objects, arrays,
 * records, tuples, unions (every option's marks: a value may match any of them), intersections, pipes (both sides)
 * and the wrappers (optional, nullable, default, ...). Parts of the value the schema does not describe are kept
 * for the name and URL pass that follows.
 */
export function applyMarks(schema: Schema | undefined, value: unknown, depth = 0): unknown {
  if (!schema || value === undefined || depth > 40) return value;
  const marks = secretMarks(schema);
  if (marks.secret) return hide(value);
  if (marks.file) return typeof value === 'string' || Buffer.isBuffer(value) ? fileDigest(value) : hide(value);
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string };
  const inner = (key: string) => def[key] as Schema | undefined;
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'nonoptional':
    case 'readonly':
    case 'catch':
    case 'success':
      return applyMarks(inner('innerType'), value, depth + 1);
    case 'lazy':
      return applyMarks((def.getter as () => Schema)(), value, depth + 1);
    case 'pipe':
      return applyMarks(inner('out'), applyMarks(inner('in'), value, depth + 1), depth + 1);
    case 'intersection':
      return applyMarks(inner('right'), applyMarks(inner('left'), value, depth + 1), depth + 1);
    case 'union':
      return (def.options as Schema[]).reduce<unknown>((v, option) => applyMarks(option, v, depth + 1), value);
    case 'array':
      return Array.isArray(value) ? value.map((item) => applyMarks(inner('element'), item, depth + 1)) : value;
    case 'tuple': {
      if (!Array.isArray(value)) return value;
      const items = def.items as Schema[];
      return value.map((item, i) => applyMarks(items[i] ?? inner('rest'), item, depth + 1));
    }
    case 'record': {
      if (!isRecord(value)) return value;
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) {
        out[key] = marks.secretKeys?.test(key) ? hide(item) : applyMarks(inner('valueType'), item, depth + 1);
      }
      return out;
    }
    case 'object': {
      if (!isRecord(value)) return value;
      const shape = def.shape as Record<string, Schema>;
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) {
        out[key] = applyMarks(Object.hasOwn(shape, key) ? shape[key] : inner('catchall'), item, depth + 1);
      }
      return out;
    }
    default:
      return value;
  }
}

/**
 * The safety net after the marks, over the whole value: secret-named fields replaced (kept as `null` or '' when
 * empty), URLs without user info and query values, raw bytes as their digest.
 */
export function redact(value: unknown, depth = 0): unknown {
  if (depth > 20) return REDACTED;
  if (typeof value === 'string') return redactUrl(value);
  if (Buffer.isBuffer(value)) return fileDigest(value);
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    out[key] = SECRET_FIELD.test(key) ? hide(inner) : redact(inner, depth + 1);
  }
  return out;
}

/** A value as the audit may keep it: the marks of each schema that describes it, then the safety net. */
export function clean(value: unknown, schemas: readonly (Schema | undefined)[] = []): unknown {
  let out = value;
  for (const schema of schemas) out = applyMarks(schema, out);
  return redact(out);
}

/** The schemas that describe a change's values: the body's, and those describing the object read as its before. */
export interface ChangeSchemas {
  body?: Schema;
  object?: readonly (Schema | undefined)[];
}

/**
 * The fields the change touched: for each field of the request body, its value before (from the object as the
 * API showed it just before) and after, only where they differ. Without a before (a creation), the body itself.
 * A delete keeps the whole object it removed.
 */
export function fieldChanges(
  before: unknown,
  body: unknown,
  method: string,
  schemas: ChangeSchemas = {},
): { before: unknown; after: unknown } {
  const objectSchemas = [schemas.body, ...(schemas.object ?? [])];
  if (method === 'DELETE') return { before: clean(before ?? null, objectSchemas), after: null };
  const after = (value: unknown) => clean(value ?? null, [schemas.body]);
  if (!isRecord(before) || !isRecord(body)) return { before: clean(before ?? null, objectSchemas), after: after(body) };
  const was: Record<string, unknown> = {};
  const now: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (JSON.stringify(before[key]) === JSON.stringify(value)) continue;
    was[key] = before[key] ?? null;
    now[key] = value;
  }
  return { before: clean(was, objectSchemas), after: after(now) };
}
