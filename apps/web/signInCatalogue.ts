import fs from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';

/**
 * The catalogue sections the sign-in page shows. The whole catalogue grows with every screen; the sign-in page
 * loads only these (test/signInCatalogue.test.ts checks that its modules use no other section).
 */
export const SIGN_IN_SECTIONS = ['app', 'common', 'errors', 'list', 'login', 'nav', 'uiLanguages'] as const;

const PREFIX = 'virtual:sign-in-catalogue/';

/**
 * `import catalogue from 'virtual:sign-in-catalogue/<lang>'`: the SIGN_IN_SECTIONS of src/i18n/<lang>.json as a
 * module of its own, so the sign-in page's chunk does not carry the rest (a named import of the JSON file would
 * keep the whole file, since the signed-in frame imports all of it).
 */
export function signInCatalogue(): Plugin {
  return {
    name: 'centralino:sign-in-catalogue',
    resolveId(id) {
      return id.startsWith(PREFIX) ? `\0${id}` : undefined;
    },
    load(id) {
      if (!id.startsWith(`\0${PREFIX}`)) return undefined;
      const lang = id.slice(PREFIX.length + 1);
      if (!/^[a-z]{2}$/.test(lang)) throw new Error(`no catalogue "${lang}"`);
      const file = path.resolve(import.meta.dirname, 'src/i18n', `${lang}.json`);
      this.addWatchFile(file);
      const all = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
      const part = Object.fromEntries(SIGN_IN_SECTIONS.map((section) => [section, all[section]]));
      return `export default ${JSON.stringify(part)};`;
    },
  };
}
