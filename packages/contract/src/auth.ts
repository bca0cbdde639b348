import { z } from 'zod';

export { AUTH_KEY_HEADER, AUTH_USER_HEADER, STORED_CREDENTIALS_KEY } from './constants.ts';

export const loginRequestSchema = z
  .object({
    username: z.string().trim().min(1).max(64),
    password: z.string().min(1).max(256),
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
