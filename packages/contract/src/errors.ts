import { z } from 'zod';

/** Every error the API returns has this one shape (problem+json style). */
export const errorBodySchema = z
  .object({
    title: z.string(),
    detail: z.string(),
    code: z.string(),
    /** Per-field problems of a validation error, keyed by a dotted path. */
    fields: z.record(z.string(), z.string()).optional(),
  })
  .meta({ id: 'Error' });
export type ErrorBody = z.infer<typeof errorBodySchema>;

export const errorCodes = [
  'validation',
  'unauthorized',
  'login_failed',
  'rate_limited',
  'not_found',
  'method_not_allowed',
  'payload_too_large',
  'unsupported_media_type',
  'internal',
] as const;
export type ErrorCode = (typeof errorCodes)[number];

export type UiLanguage = 'en' | 'it';

/** Titles for each error code, in every interface language; the server answers in the caller's. */
export const errorTitles: Record<UiLanguage, Record<ErrorCode, string>> = {
  en: {
    validation: 'Invalid request',
    unauthorized: 'Authentication required',
    login_failed: 'Cannot login',
    rate_limited: 'Too many attempts',
    not_found: 'Not found',
    method_not_allowed: 'Method not allowed',
    payload_too_large: 'Request too large',
    unsupported_media_type: 'Unsupported content type',
    internal: 'Internal error',
  },
  it: {
    validation: 'Richiesta non valida',
    unauthorized: 'Autenticazione richiesta',
    login_failed: 'Impossibile accedere',
    rate_limited: 'Troppi tentativi',
    not_found: 'Non trovato',
    method_not_allowed: 'Metodo non consentito',
    payload_too_large: 'Richiesta troppo grande',
    unsupported_media_type: 'Tipo di contenuto non supportato',
    internal: 'Errore interno',
  },
};

export const errorDetails: Record<UiLanguage, Record<ErrorCode, string>> = {
  en: {
    validation: 'Some fields are not valid.',
    unauthorized: 'Sign in again to continue.',
    login_failed: 'Incorrect username or password',
    rate_limited: 'Wait a minute before trying again.',
    not_found: 'The requested resource does not exist.',
    method_not_allowed: 'This method is not allowed here.',
    payload_too_large: 'The request body is larger than allowed.',
    unsupported_media_type: 'Send the request body as JSON.',
    internal: 'Something went wrong on the server. Try again.',
  },
  it: {
    validation: 'Alcuni campi non sono validi.',
    unauthorized: 'Accedi di nuovo per continuare.',
    login_failed: 'Nome utente o password errati',
    rate_limited: 'Attendi un minuto prima di riprovare.',
    not_found: 'La risorsa richiesta non esiste.',
    method_not_allowed: 'Questo metodo non è consentito qui.',
    payload_too_large: 'Il corpo della richiesta supera il limite consentito.',
    unsupported_media_type: 'Invia il corpo della richiesta in formato JSON.',
    internal: 'Si è verificato un errore sul server. Riprova.',
  },
};

/** Picks en or it from an Accept-Language header; English when nothing matches. */
export function pickUiLanguage(acceptLanguage: string | undefined | null): UiLanguage {
  if (!acceptLanguage) return 'en';
  const ranked = acceptLanguage
    .split(',')
    .map((part) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { tag: (tag ?? '').trim().toLowerCase(), q: q ? Number(q.slice(2)) || 0 : 1 };
    })
    // q=0 means "not acceptable" (RFC 9110), so such a language is never picked.
    .filter(({ q }) => q > 0)
    .sort((a, b) => b.q - a.q);
  for (const { tag } of ranked) {
    const base = tag.split('-')[0];
    if (base === 'it' || base === 'en') return base;
  }
  return 'en';
}
