import { z } from 'zod';
import { ADMIN_PASSWORD_MIN_LENGTH } from './limits.ts';
import { secret } from './secret.ts';

/** `admin` may change everything; `readonly` sees every screen and downloads reports, every write answers 403. */
export const accountRoles = ['admin', 'readonly'] as const;
export const accountRoleSchema = z.enum(accountRoles);
export type AccountRole = z.infer<typeof accountRoleSchema>;

/** Console account names: lower-case letters, digits, dot, dash, underscore (sign-in lower-cases what is typed). */
export const accountNameSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9][a-z0-9._-]{0,63}$/, 'Use letters, digits, dot, dash or underscore (up to 64)');

export const accountPasswordSchema = secret(
  z.string().min(ADMIN_PASSWORD_MIN_LENGTH, `At least ${ADMIN_PASSWORD_MIN_LENGTH} characters`).max(128),
);

/** One console account in the list (no secret: the password hash and TOTP secret never leave the server). */
export const accountSchema = z
  .object({
    username: z.string(),
    role: accountRoleSchema,
    two_factor: z.boolean(),
    /** May listen to and download call recordings (an `admin` always may). */
    listen_recordings: z.boolean(),
    created_at: z.number(),
  })
  .meta({ id: 'Account' });
export type Account = z.infer<typeof accountSchema>;

export const accountCreateSchema = z
  .object({
    username: accountNameSchema,
    password: accountPasswordSchema,
    role: accountRoleSchema,
    listen_recordings: z.boolean().default(false),
  })
  .meta({ id: 'AccountCreate' });
export type AccountCreate = z.input<typeof accountCreateSchema>;

export const accountUpdateSchema = z
  .object({ role: accountRoleSchema.optional(), listen_recordings: z.boolean().optional() })
  .meta({ id: 'AccountUpdate' });
export const accountPasswordResetSchema = z
  .object({ password: accountPasswordSchema })
  .meta({ id: 'AccountPasswordReset' });

/** GET /api/login: who is signed in and with which role (the console hides write controls for `readonly`). */
export const sessionInfoSchema = z.object({
  success: z.literal(true),
  user: z.string(),
  role: accountRoleSchema,
  /** The account may play and download call recordings. */
  listen_recordings: z.boolean(),
});
export type SessionInfo = z.infer<typeof sessionInfoSchema>;

/** What an audit row records: a change through the API, a sign-in, a refused sign-in, a sign-out. */
export const auditActions = [
  'change',
  'login',
  'login_failed',
  'logout',
  'recording_listen',
  'recording_download',
] as const;

/** Search of the audit log (`/admin/audit`), paged on the server; dates are milliseconds since the epoch. */
export const auditQuerySchema = z.object({
  q: z.string().max(200).optional(),
  user: z.string().max(64).optional(),
  object: z.string().max(200).optional(),
  from: z.coerce.number().int().min(0).optional(),
  to: z.coerce.number().int().min(0).optional(),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(50),
});
export type AuditQuery = z.input<typeof auditQuerySchema>;
export type AuditFilters = Omit<z.infer<typeof auditQuerySchema>, 'page' | 'pageSize'>;

export const auditEntrySchema = z
  .object({
    id: z.string(),
    at: z.number(),
    actor: z.string(),
    address: z.string(),
    action: z.string(),
    method: z.string(),
    path: z.string(),
    object: z.string(),
    status: z.number(),
    /** `{ before, after }` of the fields the change touched, secrets shown as "[redacted]". */
    changes: z.unknown(),
  })
  .meta({ id: 'AuditEntry' });
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const auditPageSchema = z
  .object({ total: z.number(), rows: z.array(auditEntrySchema) })
  .meta({ id: 'AuditPage' });
export type AuditPage = z.infer<typeof auditPageSchema>;

export const AUDIT_RETENTION_DEFAULT_DAYS = 365;
export const auditSettingsSchema = z
  .object({ retention_days: z.number().int().min(1).max(3650) })
  .meta({ id: 'AuditSettings' });
export type AuditSettings = z.infer<typeof auditSettingsSchema>;
