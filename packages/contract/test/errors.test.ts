import { describe, expect, it } from 'vitest';
import {
  errorBodySchema,
  errorCodes,
  errorDetails,
  errorTitles,
  pickUiLanguage,
  toneZoneFor,
  UI_LANGUAGES,
} from '../src/index.ts';

describe('pickUiLanguage', () => {
  it.each([
    [undefined, 'en'],
    [null, 'en'],
    ['', 'en'],
    ['it', 'it'],
    ['IT', 'it'],
    ['it-IT', 'it'],
    ['it-IT,it;q=0.9,en;q=0.8', 'it'],
    ['en-US,en;q=0.9,it;q=0.8', 'en'],
    ['fr-FR,fr;q=0.9,it;q=0.8,en;q=0.7', 'it'],
    ['fr-FR,fr;q=0.9,en;q=0.5,it;q=0.8', 'it'],
    ['en;q=0.2, it;q=0.9', 'it'],
    ['de', 'en'],
    ['*', 'en'],
    ['fr, it;q=0', 'en'],
    ['it;q=0, en;q=0.1', 'en'],
    ['it;q=abc', 'en'],
    [' it ; q=0.5 , fr', 'it'],
  ])('%j → %s', (header, expected) => {
    expect(pickUiLanguage(header)).toBe(expected);
  });

  it('keeps the header order between equal weights', () => {
    expect(pickUiLanguage('it, en')).toBe('it');
    expect(pickUiLanguage('en, it')).toBe('en');
  });
});

describe('error catalogue', () => {
  it('has a title and a detail for every code in every interface language', () => {
    for (const lang of UI_LANGUAGES) {
      expect(Object.keys(errorTitles[lang]).sort()).toEqual([...errorCodes].sort());
      expect(Object.keys(errorDetails[lang]).sort()).toEqual([...errorCodes].sort());
      for (const code of errorCodes) {
        expect(errorTitles[lang][code]).not.toBe('');
        expect(errorDetails[lang][code]).not.toBe('');
      }
    }
  });

  it('uses the messages of the login screen', () => {
    expect(errorTitles.en.login_failed).toBe('Cannot login');
    expect(errorDetails.en.login_failed).toBe('Incorrect username or password');
    expect(errorTitles.it.login_failed).toBe('Impossibile accedere');
  });

  it('validates the error shape', () => {
    expect(errorBodySchema.safeParse({ title: 't', detail: 'd', code: 'validation' }).success).toBe(true);
    expect(
      errorBodySchema.safeParse({ title: 't', detail: 'd', code: 'validation', fields: { step: 'bad' } }).success,
    ).toBe(true);
    expect(errorBodySchema.safeParse({ title: 't', code: 'validation' }).success).toBe(false);
  });
});

describe('toneZoneFor', () => {
  it('uses the US tones for English and the language code otherwise', () => {
    expect(toneZoneFor('en')).toBe('us');
    expect(toneZoneFor('it')).toBe('it');
    expect(toneZoneFor('de')).toBe('de');
    expect(toneZoneFor('fr')).toBe('fr');
    expect(toneZoneFor('es')).toBe('es');
  });
});
