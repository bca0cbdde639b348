/** Screens this version of the console has; any other path falls back to /. */
export const ROUTED_PATHS = [
  '/',
  '/login',
  '/users',
  '/extensions',
  '/trunks',
  '/trunks/physical',
  '/trunks/voip',
  '/routes',
  '/routes/inbound',
  '/routes/outbound',
  '/devices',
  '/devices/inventory',
  '/devices/models',
  '/configurations',
  '/configurations/devices',
  '/configurations/groups',
  '/configurations/preferences',
  '/configurations/preferencesFreepbx',
  '/configurations/profiles',
  '/final',
  '/apps',
  '/apps/paramurl',
  '/apps/streaming',
  '/apps/cloudServices',
  '/apps/bulkextensions',
  '/apps/phonebook',
  '/apps/cards',
  '/flows/recordings',
  '/flows/announcements',
  '/flows/ivr',
  '/flows/daynight',
  '/flows/queues',
  '/flows/ringgroups',
  '/flows/timegroups',
  '/flows/timeconditions',
  '/flows/cqr',
  '/apps/bulkdevices',
  '/bulkdevices',
  '/migration',
  '/migration/users',
  '/migration/config',
  '/migration/cdr',
  '/migration/report',
  '/admin',
  '/admin/languages',
  '/admin/settings',
  '/admin/report',
  '/admin/backup',
  '/admin/accounts',
  '/admin/audit',
  '/calls',
  '/calls/reports',
] as const;

export function isRouted(path: string): boolean {
  return (ROUTED_PATHS as readonly string[]).includes(path);
}

/** i18n key of a wizard step title: '/trunks/physical' → 'wizard.steps.trunks_physical'. */
export function stepTitleKey(path: string): string {
  return `wizard.steps.${path.replace(/^\//, '').replaceAll('/', '_')}`;
}
