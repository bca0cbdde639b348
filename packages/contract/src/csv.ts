import { z } from 'zod';
import type { UiLanguage } from './errors.ts';
import { fileContent } from './secret.ts';

/**
 * Columns of the users CSV (contract §15.1), in order. A header line is optional; when present it
 * must name these columns (any prefix of them), so that a file laid out differently is refused
 * instead of being imported into the wrong fields.
 */
export const csvColumns = [
  'username',
  'fullname',
  'extension',
  'password',
  'mobile',
  'voicemail',
  'webrtc',
  'groups',
  'profile',
  'nethlink',
] as const;
export type CsvColumn = (typeof csvColumns)[number];
/** Spellings accepted in a header line for each column. */
export const csvHeaderAliases: Record<CsvColumn, readonly string[]> = {
  username: ['username', 'user', 'user name'],
  fullname: ['fullname', 'full name', 'displayname', 'display name', 'name'],
  extension: ['extension', 'main extension', 'default_extension'],
  password: ['password'],
  mobile: ['mobile', 'cell', 'mobile number'],
  voicemail: ['voicemail'],
  webrtc: ['webrtc', 'web phone'],
  groups: ['groups', 'cti groups'],
  profile: ['profile', 'cti profile'],
  nethlink: ['nethlink', 'desktop client'],
};

/** Body of POST /csv/csvimport and of the preview: a data URL or bare base64 of the file. */
export const csvFileSchema = z
  .object({
    file: fileContent(
      z
        .string()
        .min(1)
        .max(8 * 1024 * 1024),
    ),
  })
  .meta({ id: 'CsvFile' });

export const csvRowActions = ['create', 'update', 'unchanged', 'reject'] as const;
export type CsvRowAction = (typeof csvRowActions)[number];

export const csvPreviewRowSchema = z.object({
  line: z.number().int(),
  username: z.string(),
  fullname: z.string(),
  extension: z.string().nullable(),
  action: z.enum(csvRowActions),
  /** Why the row is rejected (empty unless action is reject). */
  errors: z.array(z.string()),
  /** Parts of the row that are accepted but not applied. */
  warnings: z.array(z.string()),
});
export type CsvPreviewRow = z.infer<typeof csvPreviewRowSchema>;

export const csvPreviewSchema = z
  .object({
    rows: z.array(csvPreviewRowSchema),
    create: z.number().int(),
    update: z.number().int(),
    unchanged: z.number().int(),
    reject: z.number().int(),
  })
  .meta({ id: 'CsvPreview' });
export type CsvPreview = z.infer<typeof csvPreviewSchema>;

export const csvImportStartedSchema = z.object({ result: z.string() }).meta({ id: 'CsvImportStarted' });

export const csvRowFailureSchema = z.object({ line: z.number().int(), username: z.string(), message: z.string() });
export type CsvRowFailure = z.infer<typeof csvRowFailureSchema>;

/** GET /csv/csvimport: progress 0–100, -1 when some rows failed or the job broke. */
export const csvImportStatusSchema = z
  .object({
    result: z.number().int().min(-1).max(100),
    /** Users created and updated so far: what is committed, also when the import was cut short. */
    created: z.number().int(),
    updated: z.number().int(),
    /** Rows already as the file says (a re-run of an interrupted import finds the saved rows here). */
    unchanged: z.number().int().optional(),
    /**
     * Rows refused, each in `failures` with why. A finished import with refusals answers result 100 (success with
     * refusals); -1 only when it was cut short or refused every row.
     */
    refused: z.number().int().optional(),
    /** The server stopped during the import; created/updated are what it had saved. */
    interrupted: z.boolean().optional(),
    failures: z.array(csvRowFailureSchema),
  })
  .meta({ id: 'CsvImportStatus' });
export type CsvImportStatus = z.infer<typeof csvImportStatusSchema>;

export const csvExportSchema = z.string().meta({ id: 'CsvExport', description: 'base64 of users.csv' });

export const csvProblems = [
  'notUtf8',
  'binary',
  'empty',
  'badHeader',
  'tooManyRows',
  'tooManyColumns',
  'badQuotes',
  'usernameMissing',
  'usernameInvalid',
  'fullnameMissing',
  'extensionInvalid',
  'extensionInUse',
  'extensionRouted',
  'extensionDuplicate',
  'usernameDuplicate',
  'mobileInvalid',
  'readOnlyDirectory',
  'notApplied',
  'needsExtension',
  'groupInvalid',
  'profileUnknown',
  'failed',
  'interrupted',
  'stopped',
  'controlChars',
] as const;
export type CsvProblem = (typeof csvProblems)[number];

/** Messages about a CSV file or row, with {{placeholders}}; the server answers in the caller's language. */
export const csvMessages: Record<UiLanguage, Record<CsvProblem, string>> = {
  en: {
    notUtf8: 'The file is not UTF-8 text. Save it as CSV UTF-8 and try again.',
    binary: 'The file is not a text CSV file.',
    empty: 'The file has no users.',
    badHeader: 'Unknown column "{{name}}" in the header (column {{column}}). Expected: {{expected}}.',
    tooManyRows: 'The file has more than {{max}} rows.',
    tooManyColumns: 'The row has {{count}} columns; at most {{max}} are allowed.',
    badQuotes: 'The row has unbalanced quotes.',
    usernameMissing: 'Username is missing.',
    usernameInvalid:
      'Username "{{value}}" is not valid: use letters, digits, dot, underscore or hyphen, starting with a letter.',
    fullnameMissing: 'Full name is missing.',
    extensionInvalid: 'Extension "{{value}}" is not valid: 2 to 6 digits, not starting with 0.',
    extensionInUse: 'Extension {{value}} already in use.',
    extensionRouted: 'Calls go to extension {{value}} from: {{routes}}. Give them another destination first.',
    extensionDuplicate: 'Extension {{value}} is also on line {{line}}.',
    usernameDuplicate: 'User {{value}} is also on line {{line}}.',
    mobileInvalid: 'Mobile number "{{value}}" is not valid.',
    readOnlyDirectory: 'User {{value}} is not in the external directory; add users there.',
    notApplied: 'Column {{column}} is not applied by this version and was ignored.',
    needsExtension: 'Column {{column}} was ignored: the user has no main extension to add the device to.',
    groupInvalid: 'Group "{{value}}" is not valid: only letters and numbers are allowed.',
    profileUnknown: 'There is no CTI profile named "{{value}}".',
    failed: 'Could not save this row: {{reason}}',
    interrupted:
      'The import was interrupted (the server process running it stopped) after saving {{saved}} users. Import the same file again to finish: the users already saved show as unchanged.',
    stopped:
      'The import stopped on an error after saving {{saved}} users: {{reason}}. Import the same file again once the cause is fixed: the users already saved show as unchanged.',
    controlChars: 'Column {{column}} contains control characters (tab, line break, NUL and the like).',
  },
  it: {
    notUtf8: 'Il file non è testo UTF-8. Salvalo come CSV UTF-8 e riprova.',
    binary: 'Il file non è un file CSV di testo.',
    empty: 'Il file non contiene utenti.',
    badHeader: 'Colonna "{{name}}" sconosciuta nell\'intestazione (colonna {{column}}). Attese: {{expected}}.',
    tooManyRows: 'Il file ha più di {{max}} righe.',
    tooManyColumns: 'La riga ha {{count}} colonne; al massimo {{max}} sono ammesse.',
    badQuotes: 'La riga ha virgolette non bilanciate.',
    usernameMissing: 'Manca il nome utente.',
    usernameInvalid:
      'Il nome utente "{{value}}" non è valido: usa lettere, cifre, punto, trattino basso o trattino, iniziando con una lettera.',
    fullnameMissing: 'Manca il nome completo.',
    extensionInvalid: 'L\'interno "{{value}}" non è valido: da 2 a 6 cifre, senza 0 iniziale.',
    extensionInUse: 'Interno {{value}} già in uso.',
    extensionRouted: "Inviano chiamate all'interno {{value}}: {{routes}}. Assegna loro prima un'altra destinazione.",
    extensionDuplicate: "L'interno {{value}} è anche alla riga {{line}}.",
    usernameDuplicate: "L'utente {{value}} è anche alla riga {{line}}.",
    mobileInvalid: 'Il numero di cellulare "{{value}}" non è valido.',
    readOnlyDirectory: "L'utente {{value}} non è nella directory esterna; aggiungi gli utenti lì.",
    notApplied: 'La colonna {{column}} non è applicata da questa versione ed è stata ignorata.',
    needsExtension:
      "La colonna {{column}} è stata ignorata: l'utente non ha un interno principale a cui aggiungere il dispositivo.",
    groupInvalid: 'Il gruppo "{{value}}" non è valido: sono ammessi solo lettere e numeri.',
    profileUnknown: 'Non esiste un profilo CTI di nome "{{value}}".',
    failed: 'Impossibile salvare questa riga: {{reason}}',
    interrupted:
      "L'importazione è stata interrotta (il processo del server che la eseguiva si è fermato) dopo aver salvato {{saved}} utenti. Importa di nuovo lo stesso file per completarla: gli utenti già salvati risultano invariati.",
    stopped:
      "L'importazione si è fermata per un errore dopo aver salvato {{saved}} utenti: {{reason}}. Importa di nuovo lo stesso file una volta risolta la causa: gli utenti già salvati risultano invariati.",
    controlChars: 'La colonna {{column}} contiene caratteri di controllo (tabulazione, a capo, NUL e simili).',
  },
};

export function csvMessage(lang: UiLanguage, problem: CsvProblem, params: Record<string, string | number> = {}) {
  return csvMessages[lang][problem].replace(/\{\{(\w+)\}\}/g, (_, key: string) => String(params[key] ?? ''));
}
