import { z } from 'zod';

export const AUTH_USER_HEADER = 'user';
export const AUTH_KEY_HEADER = 'secretkey';

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

/** What the browser keeps in localStorage under this key. */
export const STORED_CREDENTIALS_KEY = 'secretkey';
export const storedCredentialsSchema = z.object({ user: z.string().min(1), secretkey: z.string().min(1) });
export type StoredCredentials = z.infer<typeof storedCredentialsSchema>;

export const adminPasswordMinLength = 8;
