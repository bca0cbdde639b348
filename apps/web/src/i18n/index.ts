import { DEFAULT_UI_LANGUAGE, PREFERRED_LANGUAGE_KEY, UI_LANGUAGES } from '@centralino/contract';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from './en.json';
import it from './it.json';

export type UiLanguage = (typeof UI_LANGUAGES)[number];

function isUiLanguage(value: string | null | undefined): value is UiLanguage {
  return !!value && (UI_LANGUAGES as readonly string[]).includes(value);
}

/** Last choice first, then the browser's languages, then English. */
export function initialLanguage(): UiLanguage {
  const stored = typeof localStorage === 'undefined' ? null : localStorage.getItem(PREFERRED_LANGUAGE_KEY);
  if (isUiLanguage(stored)) return stored;
  const browser = typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language]);
  for (const tag of browser) {
    const base = tag?.toLowerCase().split('-')[0];
    if (isUiLanguage(base)) return base;
  }
  return DEFAULT_UI_LANGUAGE;
}

export function changeUiLanguage(lang: UiLanguage) {
  localStorage.setItem(PREFERRED_LANGUAGE_KEY, lang);
  void i18n.changeLanguage(lang);
}

void i18n.use(initReactI18next).init({
  resources: { en: { translation: en }, it: { translation: it } },
  lng: initialLanguage(),
  fallbackLng: 'en',
  supportedLngs: [...UI_LANGUAGES],
  interpolation: { escapeValue: false },
  returnNull: false,
});

i18n.on('languageChanged', (lang) => {
  if (typeof document !== 'undefined') document.documentElement.lang = lang;
});
if (typeof document !== 'undefined') document.documentElement.lang = i18n.language;

export default i18n;
