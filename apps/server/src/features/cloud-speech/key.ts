import { createPrivateKey } from 'node:crypto';
import type { UiLanguage } from '@centralino/contract';
import { AppError } from '../../errors.ts';

/*
 * Checking a Google service-account key file (at upload, and before each transcription the server makes with it).
 */

/** The settings key of the voicemail transcription switch ('enabled' / 'disabled'). */
export const VOICEMAIL_STT_SETTING = 'voicemail.googleStt';

/** The parts of a Google service-account key the transcription uses. */
export interface ServiceAccountKey {
  client_email: string;
  private_key: string;
  token_uri: string;
  project_id?: string;
}

export function notJson(): AppError {
  return new AppError(400, 'google_auth_invalid', (lang) =>
    lang === 'it'
      ? 'Errore nel formato del file: il file deve essere un JSON'
      : 'File format error: File must be a JSON',
  );
}

function notServiceAccount(what: Record<UiLanguage, string>): AppError {
  return new AppError(400, 'google_auth_invalid', (lang) =>
    lang === 'it'
      ? `Il file non è la chiave di un account di servizio Google: ${what.it}.`
      : `The file is not a Google service-account key: ${what.en}.`,
  );
}

/**
 * Checks a key file's text: JSON, `type` service_account, an e-mail in `client_email`, and a `private_key`
 * that node:crypto reads as a private key. Answers the fields the transcription needs.
 */
export function parseServiceAccountKey(text: string): ServiceAccountKey {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw notJson();
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw notJson();
  const key = value as Record<string, unknown>;
  if (key.type !== 'service_account') {
    throw notServiceAccount({ en: '"type" is not "service_account"', it: '"type" non è "service_account"' });
  }
  if (typeof key.client_email !== 'string' || !/^[^\s@]+@[^\s@]+$/.test(key.client_email)) {
    throw notServiceAccount({ en: '"client_email" is missing', it: 'manca "client_email"' });
  }
  if (typeof key.private_key !== 'string') {
    throw notServiceAccount({ en: '"private_key" is missing', it: 'manca "private_key"' });
  }
  try {
    createPrivateKey(key.private_key);
  } catch {
    throw notServiceAccount({
      en: '"private_key" is not a readable private key',
      it: '"private_key" non è una chiave privata leggibile',
    });
  }
  const tokenUri =
    typeof key.token_uri === 'string' && /^https:\/\//.test(key.token_uri)
      ? key.token_uri
      : 'https://oauth2.googleapis.com/token';
  return {
    client_email: key.client_email,
    private_key: key.private_key,
    token_uri: tokenUri,
    ...(typeof key.project_id === 'string' ? { project_id: key.project_id } : {}),
  };
}
