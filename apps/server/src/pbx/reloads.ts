/** Which Asterisk module reloads a changed file (contract asterisk §7); some files need a restart. */

const RESTART = new Set(['asterisk.conf', 'modules.conf', 'http.conf', 'pjsip.transports.conf']);

const BY_NAME: Record<string, string[]> = {
  'voicemail.conf': ['app_voicemail.so'],
  // `queue reload all` (contract §7).
  'queues.conf': ['app_queue.so'],
  // Conference rooms (issue 42): `module reload app_confbridge.so`; rooms in progress keep their profiles.
  'confbridge.conf': ['app_confbridge.so'],
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
  return { modules: [...modules].sort(), restart };
}
