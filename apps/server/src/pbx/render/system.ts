import type { PbxSettings } from '../model.ts';
import { HEADER, section } from './common.ts';

/** The configuration files that do not depend on users, trunks or routes (contract §8). */

export function renderAsteriskConf(): string {
  return `${HEADER}[directories](!)
astetcdir => /etc/asterisk
astmoddir => /usr/lib/asterisk/modules
astvarlibdir => /var/lib/asterisk
astdbdir => /var/lib/asterisk
astkeydir => /var/lib/asterisk
astdatadir => /var/lib/asterisk
astagidir => /var/lib/asterisk/agi-bin
astspooldir => /var/spool/asterisk
astrundir => /var/run/asterisk
astlogdir => /var/log/asterisk

[options]
runuser = asterisk
rungroup = asterisk
transmit_silence_during_record = yes
languageprefix = yes
dontwarn = yes
nocolor = yes

[files]
astctlpermissions = 775
`;
}

export function renderModules(): string {
  const noload = [
    'chan_sip.so',
    'chan_dahdi.so',
    'codec_dahdi.so',
    'res_pjsip_phoneprov_provider.so',
    'res_phoneprov.so',
    'res_stir_shaken.so',
    'res_pjsip_stir_shaken.so',
    'cdr_csv.so',
    'cdr_syslog.so',
    'app_alarmreceiver.so',
    'res_http_media_cache.so',
    'res_ari_mailboxes.so',
  ];
  return `${HEADER}[modules]\nautoload = yes\npreload = func_db.so\n${noload.map((m) => `noload = ${m}\n`).join('')}`;
}

export function renderLogger(): string {
  return `${HEADER}[general]\ndateformat = %F %T.%3q\n\n[logfiles]\nconsole => notice,warning,error\nmessages => notice,warning,error\nfull => notice,warning,error,verbose,dtmf\n`;
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

export function renderFeatures(): string {
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
    section('featuremap', [
      ['blindxfer', '##'],
      ['atxfer', '*2'],
      ['disconnect', '*#'],
      ['automixmon', '*1'],
    ])
  );
}

export function renderPjsipNotify(): string {
  return `${HEADER}[generic-reload]\nEvent => check-sync\\;reboot=false\nContent-Length => 0\n\n[generic-reboot]\nEvent => check-sync\\;reboot=true\nContent-Length => 0\n`;
}

export function renderMusicOnHold(): string {
  return (
    HEADER +
    section('default', [
      ['mode', 'files'],
      ['directory', 'moh'],
    ])
  );
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

export function renderDefaults(): Map<string, string> {
  return new Map([
    ['ccss.conf', `${HEADER}[general]\n`],
    ['udptl.conf', `${HEADER}[general]\nudptlstart = 4000\nudptlend = 4999\n`],
    ['cdr.conf', `${HEADER}[general]\nenable = yes\n`],
  ]);
}
