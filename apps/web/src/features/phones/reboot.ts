export interface RebootTime {
  hours: string;
  minutes: string;
}

/** The time a delayed reboot proposes: now rounded up to the next 5 minutes, as HH:MM. */
export function defaultRebootTime(now: Date): string {
  const d = new Date(now.getTime());
  d.setSeconds(0, 0);
  d.setMinutes(Math.ceil((now.getMinutes() + (now.getSeconds() > 0 || now.getMilliseconds() > 0 ? 1 : 0)) / 5) * 5);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
}
