import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { uptimeText } from '../src/features/pbx/pbxSystem.ts';
import en from '../src/i18n/en.json';
import it_ from '../src/i18n/it.json';

const i18n = i18next.createInstance();
await i18n.init({ resources: { en: { translation: en }, it: { translation: it_ } }, lng: 'en', fallbackLng: 'en' });

describe('the phone system in words', () => {
  it('says uptime in days, hours, minutes or seconds', () => {
    const t = i18n.getFixedT('en');
    expect(uptimeText(t, 45)).toBe('45 s');
    expect(uptimeText(t, 3 * 3600 + 12 * 60)).toBe('3 h 12 min');
    expect(uptimeText(t, 2 * 86_400 + 4 * 3600)).toBe('2 d 4 h');
  });
});
