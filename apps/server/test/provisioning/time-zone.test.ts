import { describe, expect, it } from 'vitest';
import { serverTimeZone } from '../../src/provisioning/time-zone.ts';

const none = () => {
  throw new Error('ENOENT');
};

describe("phones' default time zone", () => {
  it("is the system's zone on an Italian system where Node's Intl only sees UTC", () => {
    expect(serverTimeZone({ intl: 'UTC', etcTimezone: () => 'Europe/Rome\n', localtimeLink: none })).toBe(
      'Europe/Rome',
    );
    expect(
      serverTimeZone({ intl: 'UTC', etcTimezone: none, localtimeLink: () => '/usr/share/zoneinfo/Europe/Rome' }),
    ).toBe('Europe/Rome');
  });

  it('follows TZ first, then what Intl resolved, and stays UTC where the system says nothing else', () => {
    expect(serverTimeZone({ tz: 'America/New_York', intl: 'Europe/Rome', etcTimezone: () => 'Europe/Rome' })).toBe(
      'America/New_York',
    );
    expect(serverTimeZone({ tz: 'Not/AZone', intl: 'Europe/Berlin', etcTimezone: () => 'Europe/Rome' })).toBe(
      'Europe/Berlin',
    );
    expect(serverTimeZone({ intl: 'UTC', etcTimezone: () => 'Etc/UTC', localtimeLink: none })).toBe('UTC');
    expect(serverTimeZone({ etcTimezone: none, localtimeLink: none })).toBe('UTC');
  });
});
