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
  'directory_not_configured',
  'directory_unreachable',
  'directory_bind_failed',
  'directory_tls_failed',
  'directory_search_failed',
  'directory_read_only',
  'user_exists',
  'user_not_found',
  'extension_in_use',
  'licence_exhausted',
  'csv_invalid',
  'import_running',
  'no_csv_import',
  'sync_running',
  'licence_required',
  'profile_in_use',
  'group_exists',
  'trunk_exists',
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
    directory_not_configured: 'No user directory',
    directory_unreachable: 'Directory not reachable',
    directory_bind_failed: 'Directory login failed',
    directory_tls_failed: 'Secure connection failed',
    directory_search_failed: 'Directory search failed',
    directory_read_only: 'Users come from an external directory',
    user_exists: 'User already exists',
    user_not_found: 'User not found',
    extension_in_use: 'Extension already in use',
    licence_exhausted: 'Licence limit reached',
    csv_invalid: 'File format error',
    import_running: 'Import already running',
    no_csv_import: 'No CSV import active',
    sync_running: 'Synchronisation running',
    licence_required: 'Licence required',
    profile_in_use: 'Profile in use',
    group_exists: 'Group already exists',
    trunk_exists: 'Trunk already exists',
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
    directory_not_configured: 'Nessuna directory utenti',
    directory_unreachable: 'Directory non raggiungibile',
    directory_bind_failed: 'Accesso alla directory non riuscito',
    directory_tls_failed: 'Connessione sicura non riuscita',
    directory_search_failed: 'Ricerca nella directory non riuscita',
    directory_read_only: 'Gli utenti provengono da una directory esterna',
    user_exists: 'Utente già esistente',
    user_not_found: 'Utente non trovato',
    extension_in_use: 'Interno già in uso',
    licence_exhausted: 'Limite della licenza raggiunto',
    csv_invalid: 'Errore nel formato del file',
    import_running: 'Importazione già in corso',
    no_csv_import: 'Nessuna importazione CSV attiva',
    sync_running: 'Sincronizzazione in corso',
    licence_required: 'Licenza richiesta',
    profile_in_use: 'Profilo in uso',
    group_exists: 'Gruppo già esistente',
    trunk_exists: 'Fascio già esistente',
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
    directory_not_configured: 'Choose how to manage your PBX users first.',
    directory_unreachable: 'Could not connect to the directory server. Check host, port and security.',
    directory_bind_failed: 'The directory refused the bind DN or password.',
    directory_tls_failed: 'The secure connection failed or the server certificate is not trusted.',
    directory_search_failed: 'The directory refused the search. Check the base DN and the user filter.',
    directory_read_only: 'Users and passwords are managed in the external directory itself.',
    user_exists: 'A user with this username already exists.',
    user_not_found: 'The user does not exist.',
    extension_in_use: 'Extension already in use',
    licence_exhausted: 'No more extensions can be configured with this licence.',
    csv_invalid: 'File must be a CSV',
    import_running: 'Wait for the current import to finish.',
    no_csv_import: 'No CSV import has been started.',
    sync_running: 'Wait for the directory synchronisation to finish.',
    licence_required: 'The queue manager needs an active licence.',
    profile_in_use: 'Users have this profile: assign them another profile first.',
    group_exists: 'A group with this name already exists.',
    trunk_exists: 'A trunk with this name already exists.',
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
    directory_not_configured: 'Scegli prima come gestire gli utenti del centralino.',
    directory_unreachable: 'Impossibile connettersi al server della directory. Controlla host, porta e sicurezza.',
    directory_bind_failed: 'La directory ha rifiutato il bind DN o la password.',
    directory_tls_failed: 'La connessione sicura non è riuscita o il certificato del server non è attendibile.',
    directory_search_failed: 'La directory ha rifiutato la ricerca. Controlla il base DN e il filtro utenti.',
    directory_read_only: 'Utenti e password si gestiscono nella directory esterna.',
    user_exists: 'Esiste già un utente con questo nome utente.',
    user_not_found: "L'utente non esiste.",
    extension_in_use: 'Interno già in uso',
    licence_exhausted: 'Con questa licenza non si possono configurare altri interni.',
    csv_invalid: 'Il file deve essere un CSV',
    import_running: "Attendi la fine dell'importazione in corso.",
    no_csv_import: 'Nessuna importazione CSV avviata.',
    sync_running: 'Attendi la fine della sincronizzazione della directory.',
    licence_required: 'Il gestore delle code richiede una licenza attiva.',
    profile_in_use: 'Alcuni utenti hanno questo profilo: assegna loro prima un altro profilo.',
    group_exists: 'Esiste già un gruppo con questo nome.',
    trunk_exists: 'Esiste già un fascio con questo nome.',
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
