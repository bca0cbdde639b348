/** Which Asterisk module reloads a changed file (contract asterisk §7); some files need a restart. */

const RESTART = new Set(['asterisk.conf', 'modules.conf', 'http.conf', 'pjsip.transports.conf']);

const BY_NAME: Record<string, string[]> = {
  'voicemail.conf': ['app_voicemail.so'],
  // `queue reload all` (contract §7).
  'queues.conf': ['app_queue.so'],
  // Conference rooms (issue 42): `module reload app_confbridge.so`; rooms in progress keep their profiles.
  'confbridge.conf': ['app_confbridge.so'],
  // Parking lots (issue 42): res_parking rebuilds its lots and their extensions; a lot with calls in it keeps them.
  'res_parking.conf': ['res_parking.so'],
  'features.conf': ['features'],
  'rtp.conf': ['res_rtp_asterisk.so'],
  'manager.conf': ['manager'],
  'musiconhold.conf': ['res_musiconhold.so'],
  'pjsip_notify.conf': ['res_pjsip_notify.so'],
  'logger.conf': ['logger'],
  'indications.conf': ['indications'],
  'ccss.conf': ['ccss'],
  'udptl.conf': ['udptl'],
  'cdr.conf': ['cdr'],
  'cdr_custom.conf': ['cdr_custom.so'],
  'cel.conf': ['cel'],
  'acl.conf': ['acl'],
  'pjproject.conf': ['res_pjproject.so'],
  // Trunk registrations are owned by their own module.
  'pjsip.trunks.conf': ['res_pjsip.so', 'res_pjsip_outbound_registration.so'],
};

/**
 * The order of the reloads, where it matters: endpoints before the dialplan (a hint resolves its devices), the
 * dialplan before the queues. A queue member watches its user's hint (hint:201@ext-local) from the moment app_queue
 * reads it, and app_queue reads queues.conf only when the file changed: a member added in the same apply as its
 * user's extension, read before the hint existed, stayed Invalid and was never rung (seen in Asterisk 22).
 */
const FIRST = ['res_pjsip.so', 'res_pjsip_outbound_registration.so', 'pbx_config.so'];
const LAST = ['app_queue.so'];
const rank = (module: string) =>
  FIRST.includes(module) ? FIRST.indexOf(module) - FIRST.length : LAST.includes(module) ? 1 + LAST.indexOf(module) : 0;

/** Modules in the order Asterisk should reload them. */
export function orderReloads(modules: Iterable<string>): string[] {
  return [...new Set(modules)].sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
}

export interface ReloadPlan {
  modules: string[];
  restart: boolean;
}

export function reloadPlan(changedFiles: readonly string[]): ReloadPlan {
  const modules = new Set<string>();
  let restart = false;
  for (const file of changedFiles) {
    if (RESTART.has(file)) restart = true;
    else if (BY_NAME[file]) for (const m of BY_NAME[file]) modules.add(m);
    else if (file.startsWith('pjsip')) modules.add('res_pjsip.so');
    else if (file.startsWith('extensions')) modules.add('pbx_config.so');
  }
  return { modules: orderReloads(modules), restart };
}
