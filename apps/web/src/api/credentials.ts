import { STORED_CREDENTIALS_KEY, type StoredCredentials, storedCredentialsSchema } from '@centralino/contract';

/** The signed-in administrator's key, kept in localStorage so a reload signs in again. */
export function readCredentials(): StoredCredentials | undefined {
  try {
    const parsed = storedCredentialsSchema.safeParse(
      JSON.parse(localStorage.getItem(STORED_CREDENTIALS_KEY) ?? 'null'),
    );
    return parsed.success ? parsed.data : undefined;
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
