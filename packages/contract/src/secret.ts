import { z } from 'zod';

/**
 * Marking fields in the schemas themselves, once: what the audit log (and any other reader of a request) must not
 * keep. The marks are zod metadata (`.meta()`, kept through `.optional()`, `.max()` and the like, which clone
 * with a parent), so they also reach the OpenAPI document: `x-secret` with `writeOnly` and `format: password`,
 * `x-file-content`, `x-secret-keys`.
 */
export const SECRET_META = 'x-secret';
/** The field carries a whole file (base64 or a data URL): recorded by size and SHA-256, never its content. */
export const FILE_CONTENT_META = 'x-file-content';
/** On a record (a map of names to values): the names whose values are secrets, as a regular expression. */
export const SECRET_KEYS_META = 'x-secret-keys';

/** A secret field (password, PIN, key): never shown in the audit log, documented as write-only. */
export function secret<T extends z.ZodType>(schema: T): T {
  return schema.meta({ [SECRET_META]: true, writeOnly: true, format: 'password' });
}

/** A field whose value is the content of an uploaded file (base64 or a data URL). */
export function fileContent<T extends z.ZodType>(schema: T): T {
  return schema.meta({ [FILE_CONTENT_META]: true });
}

/** A record whose values are secrets for the names matching `names` (e.g. a phone's `adminpw` variable). */
export function secretKeys<T extends z.ZodType>(schema: T, names: RegExp): T {
  return schema.meta({ [SECRET_KEYS_META]: names.source });
}

/** What the schema itself (not a wrapper around it) says about its values. */
export function secretMarks(schema: z.ZodType): { secret: boolean; file: boolean; secretKeys: RegExp | undefined } {
  const meta = z.globalRegistry.get(schema) as Record<string, unknown> | undefined;
  const keys = meta?.[SECRET_KEYS_META];
  return {
    secret: meta?.[SECRET_META] === true,
    file: meta?.[FILE_CONTENT_META] === true,
    secretKeys: typeof keys === 'string' ? new RegExp(keys) : undefined,
  };
}
