import type { StoredCredentials } from '@centralino/contract';
import { STORED_CREDENTIALS_KEY } from '@centralino/contract/constants';

/**
 * The signed-in administrator's key, kept in localStorage so a reload signs in again. Checked by hand
 * against the shape of storedCredentialsSchema: this runs before sign-in, where no zod is loaded.
 */
export function readCredentials(): StoredCredentials | undefined {
  try {
    const stored = JSON.parse(localStorage.getItem(STORED_CREDENTIALS_KEY) ?? 'null') as Record<string, unknown> | null;
    const user = stored?.user;
    const secretkey = stored?.secretkey;
    return typeof user === 'string' && user !== '' && typeof secretkey === 'string' && secretkey !== ''
      ? { user, secretkey }
      : undefined;
  } catch {
    return undefined;
  }
}

export function storeCredentials(credentials: StoredCredentials): void {
  localStorage.setItem(STORED_CREDENTIALS_KEY, JSON.stringify(credentials));
}

export function forgetCredentials(): void {
  localStorage.removeItem(STORED_CREDENTIALS_KEY);
}
