import path from 'node:path';
import { callRecordSpoolFile, SPOOL_FIELDS } from '../call-records.ts';
import type { PbxMusicClass, PbxSettings } from '../model.ts';
import { queueLogSpoolFile } from '../queue-log.ts';
import { RECORD_FEATURE } from './call-recording.ts';
import { type Entry, HEADER, section } from './common.ts';

/** The configuration files that do not depend on users, trunks or routes (contract §8). */

/** asterisk.conf: read only at start. Its directories come from the settings, so any install layout works. */
export function renderAsteriskConf(settings: PbxSettings): string {
  const { runUser, runGroup, directories: d } = settings.system;
  const options: Entry[] = [];
  if (runUser) options.push(['runuser', runUser]);
  if (runGroup) options.push(['rungroup', runGroup]);
  options.push(
    ['transmit_silence_during_record', 'yes'],
    ['languageprefix', 'yes'],
    ['dontwarn', 'yes'],
    ['nocolor', 'yes'],
  );
  // A real section, not a template '(!)': Asterisk ignores templates here and would use its built-in paths.
  return `${HEADER}[directories]
astetcdir => ${d.config}
astmoddir => ${d.modules}
astvarlibdir => ${d.varlib}
astdbdir => ${d.varlib}
astkeydir => ${d.varlib}
astdatadir => ${d.data}
astagidir => ${d.varlib}/agi-bin
astspooldir => ${d.spool}
astrundir => ${d.run}
astlogdir => ${d.log}

${section('options', options)}[files]
astctlpermissions = 775
`;
}

/**
 * The modules the generated configuration uses, loaded explicitly (autoload = no): every other module
 * stays out, and so do the dozens of warnings of modules that find no configuration of their own.
 */
export const LOADED_MODULES = [
  // Timing, sorcery, RTP, media, HTTP/WebSocket (web phones)
  'res_timing_timerfd.so',
  'res_sorcery_config.so',
  'res_sorcery_memory.so',
  'res_sorcery_astdb.so',
  'res_rtp_asterisk.so',
  'res_srtp.so',
  'res_http_websocket.so',
  'res_musiconhold.so',
  'res_format_attr_opus.so',
  'res_format_attr_vp8.so',
  'res_format_attr_h264.so',
  // PJSIP: endpoints, registrations, identification, presence, MWI, NOTIFY, transfers
  'res_pjproject.so',
  'res_pjsip.so',
  'res_pjsip_session.so',
  'chan_pjsip.so',
  'res_pjsip_authenticator_digest.so',
  'res_pjsip_outbound_authenticator_digest.so',
  'res_pjsip_endpoint_identifier_ip.so',
  'res_pjsip_endpoint_identifier_user.so',
  'res_pjsip_registrar.so',
  'res_pjsip_outbound_registration.so',
  'res_pjsip_caller_id.so',
  'res_pjsip_diversion.so',
  'res_pjsip_rfc3326.so',
  'res_pjsip_header_funcs.so',
  'res_pjsip_sdp_rtp.so',
  'res_pjsip_nat.so',
  'res_pjsip_dtmf_info.so',
  'res_pjsip_empty_info.so',
  'res_pjsip_dlg_options.so',
  'res_pjsip_path.so',
  'res_pjsip_refer.so',
  'res_pjsip_notify.so',
  'res_pjsip_pubsub.so',
  'res_pjsip_outbound_publish.so',
  'res_pjsip_exten_state.so',
  'res_pjsip_mwi.so',
  'res_pjsip_mwi_body_generator.so',
  'res_pjsip_pidf_body_generator.so',
  'res_pjsip_xpidf_body_generator.so',
  'res_pjsip_dialog_info_body_generator.so',
  'res_pjsip_pidf_eyebeam_body_supplement.so',
  'res_pjsip_pidf_digium_body_supplement.so',
  'res_pjsip_one_touch_record_info.so',
  'res_pjsip_transport_websocket.so',
  'res_pjsip_logger.so',
  // Codecs and file formats (voicemail records wav)
  'codec_ulaw.so',
  'codec_alaw.so',
  'codec_a_mu.so',
  'codec_gsm.so',
  'codec_g726.so',
  'codec_g722.so',
  'codec_resample.so',
  'format_wav.so',
  'format_wav_gsm.so',
  'format_gsm.so',
  'format_pcm.so',
  'format_g726.so',
  'format_sln.so',
  'format_h264.so',
  // Bridging and call features (transfers, one-touch recording, pickup)
  'bridge_simple.so',
  'bridge_native_rtp.so',
  'bridge_holding.so',
  'bridge_builtin_features.so',
  'bridge_builtin_interval_features.so',
  'app_mixmonitor.so',
  // Dialplan and what it calls
  'pbx_config.so',
  'app_dial.so',
  'app_stack.so',
  'app_exec.so',
  'app_playback.so',
  'app_playtones.so',
  'app_read.so',
  'app_userevent.so',
  'app_verbose.so',
  'app_voicemail.so',
  'app_directed_pickup.so',
  'app_zapateller.so',
  'app_queue.so',
  // Conference rooms (issue 42): ConfBridge mixes with bridge_softmix; Read() asks for the PIN.
  'app_confbridge.so',
  'bridge_softmix.so',
  // Call parking (issue 42): Park(), ParkedCall(), the lots' extensions and hints, ParkedCalls over AMI.
  'res_parking.so',
  'func_db.so',
  'func_callerid.so',
  'func_cdr.so',
  'func_channel.so',
  'func_cut.so',
  'func_devstate.so',
  'func_presencestate.so',
  'func_extstate.so',
  'func_groupcount.so',
  'func_logic.so',
  'func_strings.so',
  // DIALPLAN_EXISTS(): an inbound route asks whether the caller is blocked (render/blocking.ts).
  'func_dialplan.so',
  // RAND(): a random ring group's new order for each call (render/ring-groups.ts)
  'func_rand.so',
  // TIMEOUT(digit) / TIMEOUT(response) of IVR menus
  'func_timeout.so',
  // HANGUPCAUSE_KEYS(): did a trunk send any SIP response (sub-dial-trunk's failover)
  'func_hangupcause.so',
  'func_pjsip_endpoint.so',
  'func_pjsip_aor.so',
  'func_pjsip_contact.so',
  // Recording from a phone (*77, render/phone-recording.ts): Record(), FILE() for the token, CURL() to the console
  'app_record.so',
  'func_env.so',
  'res_curl.so',
  'func_curl.so',
  // Live state over AMI
  'res_manager_devicestate.so',
  'res_manager_presencestate.so',
  'res_mwi_devstate.so',
  // Call records appended to a spool file the console takes in, for the Last calls card (pbx/call-records.ts)
  'res_cdrel_custom.so',
  'cdr_custom.so',
];

export function renderModules(): string {
  return `${HEADER}[modules]\nautoload = no\npreload = func_db.so\n${LOADED_MODULES.filter((m) => m !== 'func_db.so')
    .map((m) => `load = ${m}\n`)
    .join('')}`;
}

/**
 * logger.conf. The queue log goes to the console's spool file (pbx/queue-log.ts) for the queue reports: the logger
 * opens `queue_log_name` inside its log folder, so the name is the spool file's path relative to that folder.
 */
export function renderLogger(settings: PbxSettings): string {
  const { config, log } = settings.system.directories;
  const queueLog = path.relative(log, queueLogSpoolFile(config));
  return `${HEADER}[general]\ndateformat = %F %T.%3q\nqueue_log = yes\nqueue_log_to_file = yes\nqueue_log_name = ${queueLog}\n\n[logfiles]\nconsole => notice,warning,error\nmessages => notice,warning,error\nfull => notice,warning,error,verbose,dtmf\n`;
}

export function renderManager(settings: PbxSettings): string {
  let out = HEADER;
  out += section('general', [
    ['enabled', 'yes'],
    ['port', settings.ami.port],
    ['bindaddr', settings.ami.bindAddress],
    ['displayconnects', 'no'],
  ]);
  // The classes the console needs: live state (system, call, dialplan for Newexten), AstDB (system),
  // reloads and CLI commands (config, command), presence (user, reporting).
  const classes = 'system,call,log,verbose,command,agent,user,config,dtmf,reporting,cdr,dialplan,originate';
  for (const user of [...settings.ami.users].sort((a, b) => (a.username < b.username ? -1 : 1))) {
    out += section(user.username, [
      ['secret', user.secret],
      ['deny', '0.0.0.0/0.0.0.0'],
      ['permit', '127.0.0.1/255.255.255.0'],
      ['read', classes],
      ['write', classes],
      ['writetimeout', 5000],
    ]);
  }
  return out;
}

export function renderRtp(settings: PbxSettings): string {
  return (
    HEADER +
    section('general', [
      ['rtpstart', settings.rtpStart],
      ['rtpend', settings.rtpEnd],
      ['rtpchecksums', 'yes'],
      ['strictrtp', 'yes'],
      ['icesupport', 'yes'],
    ])
  );
}

/** features.conf. With call recordings, `*1` is the console's own feature (render/call-recording.ts), which names the
 * file by the call and sets the call record; Asterisk's automixmon names it by the time and cannot place it in a
 * folder. */
export function renderFeatures(recordings = false): string {
  const map: Entry[] = [
    ['blindxfer', '##'],
    ['atxfer', '*2'],
    ['disconnect', '*#'],
  ];
  if (!recordings) map.push(['automixmon', '*1']);
  return (
    HEADER +
    section('general', [
      ['pickupexten', '*8'],
      ['transferdigittimeout', 3],
      ['atxfernoanswertimeout', 15],
      ['featuredigittimeout', 1000],
      ['atxfercallbackretries', 2],
      ['atxferloopdelay', 10],
    ]) +
    section('featuremap', map) +
    (recordings ? section('applicationmap', [[RECORD_FEATURE, '*1,self,Gosub(app-record-toggle,s,1())']]) : '')
  );
}

export function renderPjsipNotify(): string {
  return `${HEADER}[generic-reload]\nEvent => check-sync\\;reboot=false\nContent-Length => 0\n\n[generic-reboot]\nEvent => check-sync\\;reboot=true\nContent-Length => 0\n`;
}

/**
 * musiconhold.conf: `default` plays the distribution's music (the data folder's `moh`, linked to Debian's
 * asterisk-moh-opsound-* by the managed PBX), each uploaded class its own folder. A class's files are listed in a
 * comment so an upload or a deletion changes the file and reloads res_musiconhold, which reads a folder only then.
 * An empty class is left out: Asterisk would refuse it, and whatever chose it then plays the default.
 */
export function renderMusicOnHold(classes: readonly PbxMusicClass[] = []): string {
  let out =
    HEADER +
    section('default', [
      ['mode', 'files'],
      ['directory', 'moh'],
    ]);
  for (const c of classes) {
    if (c.files.length === 0) continue;
    out += `; ${c.files.length} file${c.files.length === 1 ? '' : 's'}: ${c.files.join(', ')}
`;
    out += section(c.name, [
      ['mode', 'files'],
      ['directory', c.dir],
      ['sort', c.order],
    ]);
  }
  return out;
}

/** Tone definitions of the zones the PBX languages use (values of Asterisk's sample indications.conf). */
const ZONES: Record<string, [string, string][]> = {
  us: [
    ['description', 'United States / North America'],
    ['ringcadence', '2000,4000'],
    ['dial', '350+440'],
    ['busy', '480+620/500,0/500'],
    ['ring', '440+480/2000,0/4000'],
    ['congestion', '480+620/250,0/250'],
    ['callwaiting', '440/300,0/10000'],
    ['record', '1400/500,0/15000'],
    ['info', '!950/330,!1400/330,!1800/330,0'],
  ],
  it: [
    ['description', 'Italy'],
    ['ringcadence', '1000,4000'],
    ['dial', '425/200,0/200,425/600,0/1000'],
    ['busy', '425/500,0/500'],
    ['ring', '425/1000,0/4000'],
    ['congestion', '425/200,0/200'],
    ['callwaiting', '425/400,0/100,425/250,0/100,425/150,0/14000'],
    ['record', '1400/400,0/15000'],
    ['info', '!950/330,!1400/330,!1800/330,0/1000'],
  ],
  fr: [
    ['description', 'France'],
    ['ringcadence', '1500,3500'],
    ['dial', '440'],
    ['busy', '440/500,0/500'],
    ['ring', '440/1500,0/3500'],
    ['congestion', '440/250,0/250'],
    ['callwaiting', '440/300,0/10000'],
    ['record', '1400/500,0/15000'],
    ['info', '!950/330,!1400/330,!1800/330'],
  ],
  de: [
    ['description', 'Germany'],
    ['ringcadence', '1000,4000'],
    ['dial', '425'],
    ['busy', '425/480,0/480'],
    ['ring', '425/1000,0/4000'],
    ['congestion', '425/240,0/240'],
    ['callwaiting', '!425/200,!0/200,!425/200,!0/5000,!425/200,!0/200,!425/200,0'],
    ['record', '1400/80,0/15000'],
    ['info', '950/330,1400/330,1800/330,0/1000'],
  ],
  es: [
    ['description', 'Spain'],
    ['ringcadence', '1500,3000'],
    ['dial', '425'],
    ['busy', '425/200,0/200'],
    ['ring', '425/1500,0/3000'],
    ['congestion', '425/200,0/200,425/200,0/200,425/200,0/600'],
    ['callwaiting', '425/175,0/175,425/175,0/3500'],
    ['record', '1400/500,0/15000'],
    ['info', '950/330,0/1000'],
  ],
};

export function renderIndications(settings: PbxSettings): string {
  const country = ZONES[settings.toneZone] ? settings.toneZone : 'us';
  let out = HEADER + section('general', [['country', country]]);
  for (const zone of Object.keys(ZONES).sort()) out += section(zone, ZONES[zone] ?? []);
  return out;
}

/** Asterisk's HTTPS server carries the WebSocket transport of web phones (contract §1.7 [Std]). */
export function renderHttp(settings: PbxSettings): string {
  return (
    HEADER +
    section('general', [
      ['enabled', 'yes'],
      ['bindaddr', '127.0.0.1'],
      ['bindport', 8088],
      ['tlsenable', 'yes'],
      ['tlsbindaddr', `0.0.0.0:${settings.wssPort}`],
      ['tlscertfile', settings.tls.certFile],
      ['tlsprivatekey', settings.tls.keyFile],
    ])
  );
}

/**
 * cdr_custom.conf: one CSV line per finished call, appended to the console's spool file (pbx/call-records.ts). A
 * legacy mapping of CSV_QUOTE(CDR()) only, which cdr_custom turns into its fast built-in CSV writer (quote '"',
 * doubled inside a value, every field quoted); not an advanced [file] section, whose name Asterisk cuts at 80
 * characters, too short for every install's path.
 */
export function renderCdrCustom(settings: PbxSettings): string {
  const file = callRecordSpoolFile(settings.system.directories.config);
  const fields = SPOOL_FIELDS.map((name) => `\${CSV_QUOTE(\${CDR(${name})})}`).join(',');
  return `${HEADER}[mappings]\n${file} => ${fields}\n`;
}

export function renderDefaults(): Map<string, string> {
  return new Map([
    ['ccss.conf', `${HEADER}[general]\n`],
    ['udptl.conf', `${HEADER}[general]\nudptlstart = 4000\nudptlend = 4999\n`],
    ['cdr.conf', `${HEADER}[general]\nenable = yes\n`],
    // Read by the core and res_pjproject at every start: missing, each is an error line.
    ['cel.conf', `${HEADER}[general]\nenable = no\n`],
    ['acl.conf', HEADER],
    ['pjproject.conf', HEADER],
  ]);
}
