import fs from 'node:fs';
import path from 'node:path';
import enSignIn from 'virtual:sign-in-catalogue/en';
import itSignIn from 'virtual:sign-in-catalogue/it';
import { describe, expect, it } from 'vitest';
import { SIGN_IN_SECTIONS } from '../signInCatalogue.ts';
import en from '../src/i18n/en.json';

// The modules the sign-in page is made of (the main chunk): every message they show must be in the part of the
// catalogue the sign-in page loads, or it would read as its key.
const SIGN_IN_MODULES = [
  'main.tsx',
  'app/App.tsx',
  'app/auth.tsx',
  'app/router.tsx',
  'app/lazyLayout.tsx',
  'app/LanguageMenu.tsx',
  'app/LanguageMenuPopup.tsx',
  'app/theme.ts',
  'api/client.ts',
  'components/notificationsHost.tsx',
  ...fs.readdirSync(path.resolve(import.meta.dirname, '../src/features/login')).map((f) => `features/login/${f}`),
];

describe('the sign-in page’s catalogue', () => {
  it('holds every section the sign-in modules use, in both languages', () => {
    const sections = new Set<string>();
    for (const file of SIGN_IN_MODULES) {
      const source = fs.readFileSync(path.resolve(import.meta.dirname, '../src', file), 'utf8');
      for (const match of source.matchAll(/\bt\(\s*['`]([a-zA-Z]+)\./g)) sections.add(match[1] as string);
    }
    expect(sections.size).toBeGreaterThan(2);
    for (const section of sections) expect(SIGN_IN_SECTIONS, section).toContain(section);
    for (const catalogue of [enSignIn, itSignIn]) {
      expect(Object.keys(catalogue).sort()).toEqual([...SIGN_IN_SECTIONS].sort());
      for (const section of SIGN_IN_SECTIONS) expect(catalogue[section], section).toBeTypeOf('object');
    }
    expect(enSignIn.login).toEqual(en.login);
    // Only a few sections: the sign-in page must not carry the whole console's text.
    expect(JSON.stringify(itSignIn).length).toBeLessThan(JSON.stringify(en).length / 5);
  });
});
