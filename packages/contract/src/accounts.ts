import { z } from 'zod';
import { ADMIN_PASSWORD_MIN_LENGTH } from './limits.ts';

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

export const accountPasswordSchema = z
  .string()
  .min(ADMIN_PASSWORD_MIN_LENGTH, `At least ${ADMIN_PASSWORD_MIN_LENGTH} characters`)
  .max(128);

/** One console account in the list (no secret: the password hash and TOTP secret never leave the server). */
export const accountSchema = z
  .object({
    username: z.string(),
    role: accountRoleSchema,
    two_factor: z.boolean(),
    created_at: z.number(),
  })
  .meta({ id: 'Account' });
export type Account = z.infer<typeof accountSchema>;

export const accountCreateSchema = z
  .object({ username: accountNameSchema, password: accountPasswordSchema, role: accountRoleSchema })
  .meta({ id: 'AccountCreate' });
export type AccountCreate = z.infer<typeof accountCreateSchema>;

export const accountUpdateSchema = z.object({ role: accountRoleSchema }).meta({ id: 'AccountUpdate' });
export const accountPasswordResetSchema = z
  .object({ password: accountPasswordSchema })
  .meta({ id: 'AccountPasswordReset' });

/** GET /api/login: who is signed in and with which role (the console hides write controls for `readonly`). */
export const sessionInfoSchema = z.object({ success: z.literal(true), user: z.string(), role: accountRoleSchema });
export type SessionInfo = z.infer<typeof sessionInfoSchema>;
