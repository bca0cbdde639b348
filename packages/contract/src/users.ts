import { z } from 'zod';
import { secret } from './secret.ts';
import { noControlChars } from './text.ts';

/** Directory accounts that are never PBX users (compared case-insensitively). */
export const SYSTEM_ACCOUNTS = ['admin', 'administrator', 'guest', 'krbtgt', 'ldapservice'] as const;
export function isSystemAccount(username: string): boolean {
  return (SYSTEM_ACCOUNTS as readonly string[]).includes(username.toLowerCase());
}

/** Sentinel of an unconfigured user, as in the original API. */
export const NO_EXTENSION = 'none';
/** Polling of directory sync and CSV import (spec §9). */
export const SYNC_POLL_MS = 5000;
export const IMPORT_POLL_MS = 5000;
export const NEW_USER_PASSWORD_LENGTH = 8;
/** Largest CSV accepted for import, decoded. */
export const CSV_MAX_BYTES = 5 * 1024 * 1024;
export const CSV_MAX_ROWS = 20_000;

/**
 * Usernames the directories accept: lower case, starting with a letter (the original refused a
 * leading digit), then letters, digits, dot, underscore or hyphen.
 */
export const USERNAME_PATTERN = /^[a-z][a-z0-9._-]{0,63}$/;
/** Main extensions: 2 to 6 digits, not starting with 0 (0 is the outside-line prefix of the dial plans). */
export const EXTENSION_PATTERN = /^[1-9][0-9]{1,5}$/;

export const usernameSchema = z
  .string()
  .trim()
  .toLowerCase()
  .min(1, 'Username is required')
  .max(64)
  .regex(USERNAME_PATTERN, 'Use letters, digits, dot, underscore or hyphen, starting with a letter')
  .check(noControlChars)
  .refine((name) => !isSystemAccount(name), 'This name is reserved for the system');
export const fullnameSchema = z.string().trim().min(1, 'Full name is required').max(255).check(noControlChars);
export const extensionNumberSchema = z
  .string()
  .trim()
  .regex(EXTENSION_PATTERN, 'An extension is 2 to 6 digits and does not start with 0');

export const newUserSchema = z.object({ username: usernameSchema, fullname: fullnameSchema }).meta({ id: 'NewUser' });
export type NewUser = z.input<typeof newUserSchema>;

export const passwordRequestSchema = z
  .object({ password: secret(z.string().min(1, 'Password is required').max(128)) })
  .meta({ id: 'PasswordRequest' });

/**
 * Device of a user (filled by the per-user configuration; empty until then). Lists carry no secrets: the
 * SIP secret and the web password come from GET /api/extensions/{extension}/credentials, one device at a time.
 */
export const userDeviceSchema = z.object({
  id: z.number().int(),
  type: z.enum(['physical', 'temporaryphysical', 'webrtc', 'mobile', 'nethlink']),
  extension: z.string().nullable(),
  mac: z.string().nullable(),
  vendor: z.string().nullable(),
  model: z.string().nullable(),
  line: z.number().int().nullable(),
  web_user: z.string().nullable(),
  srtp: z.enum(['0', '1']).nullable(),
  registered: z.boolean(),
});
export type UserDevice = z.infer<typeof userDeviceSchema>;

export const userSchema = z
  .object({
    id: z.number().int(),
    username: z.string(),
    displayname: z.string(),
    fname: z.string().nullable(),
    lname: z.string().nullable(),
    email: z.string().nullable(),
    /** Main extension number, or 'none' when the user is not configured. */
    default_extension: z.string(),
    /**
     * Whether a password set through the console is stored (local directory); the password itself comes only
     * from GET /api/users/{username}/password, the final report and the CSV export.
     */
    has_password: z.boolean(),
    mobile: z.string().nullable(),
    profile: z.string().nullable(),
    source: z.enum(['local', 'ldap']),
    devices: z.array(userDeviceSchema),
  })
  .meta({ id: 'User' });
export type User = z.infer<typeof userSchema>;
export const userListSchema = z.array(userSchema).meta({ id: 'UserList' });
/** Answer of POST /api/users: the new user and, this once, the random password it was given. */
export const createdUserSchema = userSchema.extend({ password: z.string() }).meta({ id: 'CreatedUser' });
export type CreatedUser = z.infer<typeof createdUserSchema>;

/** One device's credentials (GET /api/extensions/{extension}/credentials), for the device information. */
export const deviceCredentialsSchema = z
  .object({ secret: z.string().nullable(), web_user: z.string().nullable(), web_password: z.string().nullable() })
  .meta({ id: 'DeviceCredentials' });
export type DeviceCredentials = z.infer<typeof deviceCredentialsSchema>;
/** Password of GET /api/users/{username}/password. */
export const storedPasswordSchema = z.object({ result: z.string() }).meta({ id: 'StoredPassword' });

export const userListFilters = ['all', 'configured', 'unconfigured'] as const;
export type UserListFilter = (typeof userListFilters)[number];
export const userListSorts = ['extension', 'username', 'displayname'] as const;
export type UserListSort = (typeof userListSorts)[number];

/**
 * Query of GET /users/{arg}. Without limit it answers every user (the original contract); the console
 * asks for pages, and the total arrives in the X-Total-Count header.
 */
export const userListQuerySchema = z.object({
  search: z.string().trim().max(100).optional(),
  filter: z.enum(userListFilters).optional(),
  sort: z.enum(userListSorts).optional(),
  offset: z.coerce.number().int().min(0).optional(),
  limit: z.coerce.number().int().min(1).max(500).optional(),
});
export type UserListQuery = z.infer<typeof userListQuerySchema>;
export const TOTAL_COUNT_HEADER = 'x-total-count';

export const mainExtensionRequestSchema = z
  .object({
    username: z.string().trim().toLowerCase().min(1).max(64),
    /** Digits to set, '' or 'none' to remove. */
    extension: z.union([z.literal(''), z.literal(NO_EXTENSION), extensionNumberSchema]),
    outboundcid: z
      .string()
      .trim()
      .max(32)
      .regex(/^\+?[0-9]*$/, 'Digits only, optionally starting with +')
      .optional(),
  })
  .meta({ id: 'MainExtensionRequest' });
export type MainExtensionRequest = z.input<typeof mainExtensionRequestSchema>;

export const userLimitsSchema = z
  .object({
    configured: z.number().int(),
    limit: z.union([z.number().int(), z.literal(false)]),
    configurable: z.union([z.number().int(), z.literal(false)]),
  })
  .meta({ id: 'UserLimits' });
export type UserLimits = z.infer<typeof userLimitsSchema>;

export const finalReportRowSchema = z.object({
  username: z.string(),
  displayname: z.string(),
  password: z.string().nullable(),
  default_extension: z.string(),
  voicemailpwd: z.string(),
});
export type FinalReportRow = z.infer<typeof finalReportRowSchema>;
export const finalReportSchema = z.array(finalReportRowSchema).meta({ id: 'FinalReport' });
