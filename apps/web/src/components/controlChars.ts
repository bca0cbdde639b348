import { CONTROL_CHARS_MESSAGE, controlCharsMessage, type UiLanguage } from '@centralino/contract';

/**
 * The shared schemas refuse control characters with one message (`noControlChars`); a form that words
 * its own per-field errors shows that one instead, in the interface language, when it is the reason.
 */
export function controlCharsError(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
  field: string,
  language: string | undefined,
): string | undefined {
  const hit = issues.some((i) => i.path[0] === field && i.message === CONTROL_CHARS_MESSAGE);
  return hit ? controlCharsMessage((language === 'it' ? 'it' : 'en') as UiLanguage) : undefined;
}
