/** Constants of spec §9 shared by server and console. */
export const LIST_PAGE_SIZE = 20;
export const LIST_SCROLL_INCREMENT = 20;
export const UI_LANGUAGES = ['en', 'it'] as const;
export const DEFAULT_UI_LANGUAGE = 'en';
export const PREFERRED_LANGUAGE_KEY = 'preferredLanguage';
/** Shortest administrator password the console and the server accept. */
export const ADMIN_PASSWORD_MIN_LENGTH = 8;
