import fs from 'node:fs';

/** Where the server's time zone can be read, in order of preference (injectable for tests). */
export interface TimeZoneSources {
  /** The TZ environment variable. */
  tz?: string | undefined;
  /** What Node's Intl resolved (TZ, else /etc/localtime). */
  intl?: string | undefined;
  /** The contents of /etc/timezone (Debian's administrator-set name). */
  etcTimezone?: () => string;
  /** Where /etc/localtime links to (…/zoneinfo/Europe/Rome). */
  localtimeLink?: () => string;
}

function valid(name: string | undefined): string | undefined {
  const zone = name?.trim().replace(/^:/, '');
  if (!zone) return undefined;
  try {
    return new Intl.DateTimeFormat('en', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

const isUtc = (zone: string) => /^(Etc\/)?(UTC|UCT|GMT|Universal|Zulu)$/.test(zone);

/**
 * The time zone phones get on a new installation: the server's own. Node's Intl says UTC wherever it cannot read
 * /etc/localtime (a container, a service without TZ) even when the system names its zone in /etc/timezone, so a
 * UTC answer is checked against the system files before it is believed.
 */
export function serverTimeZone(sources: TimeZoneSources = systemSources()): string {
  const fromTz = valid(sources.tz);
  if (fromTz) return fromTz;
  const fromIntl = valid(sources.intl);
  if (fromIntl && !isUtc(fromIntl)) return fromIntl;
  const read = (source: (() => string) | undefined) => {
    try {
      return source?.();
    } catch {
      return undefined;
    }
  };
  const fromFile = valid(read(sources.etcTimezone));
  if (fromFile && !isUtc(fromFile)) return fromFile;
  const link = read(sources.localtimeLink);
  const fromLink = valid(link?.split('/zoneinfo/')[1]);
  if (fromLink && !isUtc(fromLink)) return fromLink;
  return fromIntl ?? fromFile ?? fromLink ?? 'UTC';
}

function systemSources(): TimeZoneSources {
  return {
    tz: process.env.TZ,
    intl: Intl.DateTimeFormat().resolvedOptions().timeZone,
    etcTimezone: () => fs.readFileSync('/etc/timezone', 'utf8'),
    localtimeLink: () => fs.readlinkSync('/etc/localtime'),
  };
}
