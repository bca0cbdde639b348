import { z } from 'zod';
import type { UiLanguage } from './errors.ts';

/**
 * Control characters (U+0000–U+001F, U+007F): a NUL, line break or tab in a name ends up inside the
 * Asterisk configuration files, where it cuts or splits the line. No field that reaches those files
 * allows them, so every such field of the contract refuses them with `noControlChars`.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;

export function hasControlChars(value: string): boolean {
  return CONTROL_CHARS.test(value);
}

/** The message of `noControlChars` as zod reports it (English); `controlCharsMessage` gives it per language. */
export const CONTROL_CHARS_MESSAGE = 'Must not contain control characters (tab, line break, NUL and the like)';

const controlCharsMessages: Record<UiLanguage, string> = {
  en: CONTROL_CHARS_MESSAGE,
  it: 'Non deve contenere caratteri di controllo (tabulazione, a capo, NUL e simili)',
};

export function controlCharsMessage(lang: UiLanguage): string {
  return controlCharsMessages[lang];
}

/** Validation messages of the shared schemas in the caller's language (unknown ones stay as they are). */
export function localiseValidationMessage(lang: UiLanguage, message: string): string {
  if (message === CONTROL_CHARS_MESSAGE) return controlCharsMessage(lang);
  return (lang === 'it' ? italianMessages.get(message) : undefined) ?? message;
}

const italianMessages = new Map<string, string>();
/** Italian for the English messages of a schema module, so the server answers them in the caller's language. */
export function registerItalianMessages(messages: Record<string, string>): void {
  for (const [en, it] of Object.entries(messages)) italianMessages.set(en, it);
}

/** Refuses control characters: `z.string().check(noControlChars)`. */
export const noControlChars = z.refine<string>((value) => !hasControlChars(value), { message: CONTROL_CHARS_MESSAGE });
