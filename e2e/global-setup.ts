import { createNetLab } from '../apps/server/test/support/netlab.ts';
import { SCAN_LAB_DEVICES, SCAN_LAB_ENV } from './scan-lab.ts';

/**
 * The scan tests' network (a bridge and a namespace per device) is built before any browser starts and
 * removed after the last test: Chromium aborts every request in flight (net::ERR_NETWORK_CHANGED) when an
 * interface comes or goes, so a lab built in a test's beforeAll broke whatever the other worker's page was
 * loading at that moment ('Server not reachable' in an unrelated test).
 */
export default function globalSetup() {
  const made = createNetLab(SCAN_LAB_DEVICES);
  if ('skipped' in made) {
    process.env[SCAN_LAB_ENV] = JSON.stringify({ skipped: made.skipped });
    return undefined;
  }
  const { destroy, ...lab } = made;
  process.env[SCAN_LAB_ENV] = JSON.stringify(lab);
  return destroy;
}
