import type { UiLanguage } from '@centralino/contract';

/**
 * A text in the reader's language (the console's Accept-Language); logs and the terminal read it in English.
 * Server texts that reach the console as sentences (the managed PBX's state, an apply's warnings) are made as
 * Words, so the same fact is worded once per language where it is found.
 */
export type Words = (lang: UiLanguage) => string;

export const words =
  (en: string, it: string): Words =>
  (lang) =>
    lang === 'it' ? it : en;

/** Words as stored in a JSON record (an apply's outcome), read back in either language. */
export interface StoredWords {
  en: string;
  it: string;
}

export const storeWords = (w: Words): StoredWords => ({ en: w('en'), it: w('it') });

/** A stored text in `lang`; a record written before its texts were stored in both languages holds a plain string. */
export const readWords = (stored: StoredWords | string, lang: UiLanguage): string =>
  typeof stored === 'string' ? stored : lang === 'it' ? stored.it : stored.en;
