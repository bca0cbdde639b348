import type { UiLanguage } from '@centralino/contract';

/**
 * The strings the dry run and the PBX configuration check add to the migration's report, in both languages. Kept
 * apart so they can join the migration's message catalogue (messages.ts) as they are.
 */
const MESSAGES = {
  en: {
    userWouldBeCreated: (username: string, ext: string) => `User ${username} would be created with extension ${ext}`,
    userRefused: (username: string, reason: string) => `User ${username} would be refused: ${reason}`,
    usernameTaken: (username: string) => `Username already used: ${username}`,
    noAccount: (ext: string) => `Extension ${ext} has no CTI account: link it to a user by hand`,
    pbxValid: 'The configuration was applied once, at the end, and the PBX validator found it valid',
    pbxInvalid: (n: number) => `The PBX validator refused the migrated configuration: ${n} problem(s)`,
    pbxFailed: (why: string) => `The migrated configuration could not be applied: ${why}`,
  },
  it: {
    userWouldBeCreated: (username: string, ext: string) => `L'utente ${username} verrebbe creato con l'interno ${ext}`,
    userRefused: (username: string, reason: string) => `L'utente ${username} verrebbe rifiutato: ${reason}`,
    usernameTaken: (username: string) => `Nome utente già usato: ${username}`,
    noAccount: (ext: string) => `L'interno ${ext} non ha un account CTI: va collegato a mano a un utente`,
    pbxValid: 'La configurazione è stata applicata una sola volta, alla fine, e il validatore del PBX la trova valida',
    pbxInvalid: (n: number) => `Il validatore del PBX ha rifiutato la configurazione migrata: ${n} problemi`,
    pbxFailed: (why: string) => `Non è stato possibile applicare la configurazione migrata: ${why}`,
  },
} satisfies Record<UiLanguage, Record<string, unknown>>;

export type DryRunMessages = (typeof MESSAGES)['en'];

export function dryRunMessages(lang: UiLanguage): DryRunMessages {
  return MESSAGES[lang];
}
