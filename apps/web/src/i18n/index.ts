import enSignIn from 'virtual:sign-in-catalogue/en';
import { DEFAULT_UI_LANGUAGE, PREFERRED_LANGUAGE_KEY, UI_LANGUAGES } from '@centralino/contract/constants';
import i18n, { type BackendModule } from 'i18next';
import { initReactI18next } from 'react-i18next';

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

type Catalogue = () => Promise<{ default: Record<string, unknown> }>;

/**
 * What the sign-in page shows (the sections of `signInCatalogue.ts`, cut out at build time), in the main chunk
 * for English (the fallback: as a chunk of its own it cost the sign-in page one more round trip after the main
 * script ran, ~0.6 s on Fast 3G). Only those sections: the whole catalogue grows with every screen, and the
 * sign-in page would pay for all of them. Italian's sections come in a small chunk of their own when first shown.
 */
const signInCatalogues: Record<UiLanguage, Catalogue> = {
  en: () => Promise.resolve({ default: enSignIn }),
  it: () => import('virtual:sign-in-catalogue/it'),
};

/** Everything, loaded with the signed-in frame (lazyLayout.tsx). Both have the same keys (a test checks). */
const fullCatalogues: Record<UiLanguage, Catalogue> = {
  en: () => import('./en.json'),
  it: () => import('./it.json'),
};

let signedInFrame = false;

/**
 * Adds the whole catalogue of every language loaded so far, and makes languages loaded later whole: call it
 * before the signed-in frame draws. A key missing in Italian still reads in English.
 */
export async function loadFullCatalogues(): Promise<void> {
  signedInFrame = true;
  const loaded = UI_LANGUAGES.filter((lang) => i18n.hasResourceBundle(lang, 'translation'));
  await Promise.all(
    loaded.map(async (lang) => {
      const module = await fullCatalogues[lang]();
      i18n.addResourceBundle(lang, 'translation', module.default, true, true);
    }),
  );
}

const catalogueBackend: BackendModule = {
  type: 'backend',
  init() {},
  read(language, _namespace, callback) {
    if (!isUiLanguage(language)) return callback(null, {});
    (signedInFrame ? fullCatalogues : signInCatalogues)[language]().then(
      (module) => callback(null, module.default),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), false),
    );
  },
};

/** Resolves once the first language is loaded. */
export const i18nReady = i18n
  .use(catalogueBackend)
  .use(initReactI18next)
  .init({
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
