import { z } from 'zod';
import { secret } from './secret.ts';

export { AUTH_KEY_HEADER, AUTH_USER_HEADER, STORED_CREDENTIALS_KEY } from './constants.ts';

export const loginRequestSchema = z
  .object({
    username: z.string().trim().min(1).max(64),
    password: secret(z.string().min(1).max(256)),
  })
  .meta({ id: 'LoginRequest' });
export type LoginRequest = z.infer<typeof loginRequestSchema>;

export const loginResponseSchema = z
  .object({
    user: z.string(),
    /** Random key issued by the server; send it back in the Secretkey header. */
    secretkey: z.string(),
  })
  .meta({ id: 'LoginResponse' });
export type LoginResponse = z.infer<typeof loginResponseSchema>;

export const successSchema = z.object({ success: z.literal(true) }).meta({ id: 'Success' });

/** What the browser keeps in localStorage (under STORED_CREDENTIALS_KEY). */
export const storedCredentialsSchema = z.object({ user: z.string().min(1), secretkey: z.string().min(1) });
export type StoredCredentials = z.infer<typeof storedCredentialsSchema>;

export const adminPasswordMinLength = 8;

/** POST /api/login for an account with a second factor: the password was right, a code is due next. */
export const loginChallengeSchema = z
  .object({ user: z.string(), second_factor: z.literal(true), challenge: z.string() })
  .meta({ id: 'LoginChallenge' });
export type LoginChallenge = z.infer<typeof loginChallengeSchema>;

/** POST /api/login/code: the second step, with a 6-digit TOTP code or a recovery code. */
export const secondFactorRequestSchema = z
  .object({ challenge: z.string().min(1).max(128), code: z.string().trim().min(6).max(32) })
  .meta({ id: 'SecondFactorRequest' });

export const twoFactorStatusSchema = z.object({ enabled: z.boolean() }).meta({ id: 'TwoFactorStatus' });
/** Enrolment: the secret (for typing it in) and the otpauth:// URI the console draws as a QR code. */
export const twoFactorSetupSchema = z.object({ secret: z.string(), uri: z.string() }).meta({ id: 'TwoFactorSetup' });
export const twoFactorEnableSchema = z
  .object({
    code: secret(
      z
        .string()
        .trim()
        .regex(/^\d{6}$/, 'Six digits'),
    ),
  })
  .meta({ id: 'TwoFactorEnable' });
/**
 * POST /api/users/admin/password (the signed-in account's own password): the new password and proof that the
 * caller is the account's owner, the current password or, for an account with a second factor, a code from
 * the app or a recovery code. Without either: 400 `current_password_required`; wrong: 403 `current_password_wrong`.
 */
export const ownPasswordChangeSchema = z
  .object({
    password: secret(z.string().min(1, 'Password is required').max(128)),
    current_password: secret(z.string().max(256)).optional(),
    code: secret(z.string().trim().max(32)).optional(),
  })
  .meta({ id: 'OwnPasswordChange' });
export type OwnPasswordChange = z.infer<typeof ownPasswordChangeSchema>;

/** Shown once, when the second factor is turned on; stored hashed. */
export const recoveryCodesSchema = z.object({ recovery_codes: z.array(z.string()) }).meta({ id: 'RecoveryCodes' });
