const UNITS = ['Bytes', 'KB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB', 'YB'] as const;

/**
 * A file size for people: base 1024, units Bytes to YB, at most two decimals (spec §9), with the
 * decimal separator of `locale`.
 */
export function formatFileSize(bytes: number, locale = 'en'): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 Bytes';
  const exponent = Math.min(Math.floor(Math.log(bytes) / Math.log(1024)), UNITS.length - 1);
  const value = bytes / 1024 ** exponent;
  const number = new Intl.NumberFormat(locale, { maximumFractionDigits: exponent === 0 ? 0 : 2 }).format(value);
  return `${number} ${UNITS[exponent]}`;
}
