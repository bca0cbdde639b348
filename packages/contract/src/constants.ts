/**
 * The facts the console needs before sign-in, free of zod: the sign-in page imports this module
 * (`@centralino/contract/constants`) instead of the package index, so it does not download zod and every
 * schema (see docs/architecture.md, "What loads before sign-in").
 */
export * from './limits.ts';

export const AUTH_USER_HEADER = 'user';
export const AUTH_KEY_HEADER = 'secretkey';

/** What the browser keeps in localStorage under this key. */
export const STORED_CREDENTIALS_KEY = 'secretkey';
