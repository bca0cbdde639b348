import { AUTH_KEY_HEADER, AUTH_USER_HEADER } from '@centralino/contract/constants';
import i18n from '../i18n/index.ts';
import { readCredentials } from './credentials.ts';

/** A query string of the set values of a filter object (undefined and '' left out). */
export function queryString(query: object): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  return params.toString();
}

/**
 * Downloads a file the API makes (a CSV export) with the sign-in headers, which a plain link could not send; the
 * server's words when it refuses.
 */
export async function downloadFile(path: string, filename: string): Promise<void> {
  const credentials = readCredentials();
  const response = await fetch(path, {
    headers: credentials
      ? {
          [AUTH_USER_HEADER]: credentials.user,
          [AUTH_KEY_HEADER]: credentials.secretkey,
          'Accept-Language': i18n.language,
        }
      : {},
  });
  if (!response.ok) throw new Error((await response.json().catch(() => ({})))?.detail ?? response.statusText);
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
