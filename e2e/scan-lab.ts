import type { NetLab } from '../apps/server/test/support/netlab.ts';

/** The scan tests' devices: a Yealink, a Nethesis phone and a MAC of no known vendor. */
export const SCAN_LAB_DEVICES = [
  { suffix: 2, mac: '80:5e:c0:aa:bb:01' },
  { suffix: 3, mac: 'e0:e6:56:01:00:07' },
  { suffix: 4, mac: '02:12:34:56:78:9a' },
];

/** How the global setup hands the lab to the workers. */
export const SCAN_LAB_ENV = 'CENTRALINO_E2E_SCAN_LAB';

export type ScanLab = Omit<NetLab, 'destroy'>;

/** The lab the global setup built, or why there is none. */
export function scanLab(): ScanLab | { skipped: string } {
  const raw = process.env[SCAN_LAB_ENV];
  if (!raw) return { skipped: 'the global setup did not run' };
  return JSON.parse(raw) as ScanLab | { skipped: string };
}
