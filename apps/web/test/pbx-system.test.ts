import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { problemText, uptimeText } from '../src/features/pbx/pbxSystem.ts';
import en from '../src/i18n/en.json';
import it_ from '../src/i18n/it.json';

const i18n = i18next.createInstance();
await i18n.init({ resources: { en: { translation: en }, it: { translation: it_ } }, lng: 'en', fallbackLng: 'en' });

describe('the phone system in words', () => {
  it('says a taken port and its setting in the reader language, and the server words for an unknown code', () => {
    const problem = {
      code: 'port_taken' as const,
      values: { port: 5060, protocol: 'UDP', setting: 'SIP_PORT' },
      detail: 'Port 5060 (UDP) is taken',
    };
    expect(problemText(i18n.getFixedT('en'), problem)).toBe(
      'Port 5060 (UDP) is taken by another program: stop it or choose another port with SIP_PORT. Asterisk starts as soon as the port is free.',
    );
    expect(problemText(i18n.getFixedT('it'), problem)).toMatch(/^La porta 5060 \(UDP\) è occupata .* SIP_PORT\./);
    const unknown = { code: 'start_failed' as const, values: {}, detail: 'x' };
    expect(problemText(i18n.getFixedT('en'), unknown)).toBe("Asterisk could not be started: see the console's log.");
  });
  it('says uptime in days, hours, minutes or seconds', () => {
    const t = i18n.getFixedT('en');
    expect(uptimeText(t, 45)).toBe('45 s');
    expect(uptimeText(t, 3 * 3600 + 12 * 60)).toBe('3 h 12 min');
    expect(uptimeText(t, 2 * 86_400 + 4 * 3600)).toBe('2 d 4 h');
  });
});
