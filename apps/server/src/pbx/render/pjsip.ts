import { splitCallGroups } from '@centralino/contract';
import { allTrunks, type PbxDevice, type PbxModel, type PbxSettings, type PbxTrunk, type PbxUser } from '../model.ts';
import { permissionVars } from './blocking.ts';
import { displayName, type Entry, entriesParts, HEADER, section, sectionParts, value } from './common.ts';

/** Transport section names; endpoints name them, the validator checks they exist. */
export const TRANSPORTS = { udp: 'transport-udp', tcp: 'transport-tcp', tls: 'transport-tls', wss: 'transport-wss' };

/** Codecs of desk phones and soft clients, and of web phones, in order of preference (live state reads them too). */
export const DEVICE_CODEC_LIST = ['ulaw', 'alaw', 'gsm', 'g726', 'g722', 'vp8'];
export const WEBRTC_CODEC_LIST = ['opus', 'ulaw', 'alaw', 'vp8'];
const DEVICE_CODECS = DEVICE_CODEC_LIST.join(',');
const WEBRTC_CODECS = WEBRTC_CODEC_LIST.join(',');

export function deviceContext(user: PbxUser): string {
  return user.profileId === null ? 'from-internal' : `cti-profile-${user.profileId}`;
}

export function renderPjsipRoot(settings: PbxSettings, includes: string[]): string {
  let out = HEADER;
  out += section('global', [
    ['type', 'global'],
    ['user_agent', `Centralino-${settings.version}`],
    ['use_callerid_contact', 'no'],
    ['keep_alive_interval', 90],
    ['taskprocessor_overload_trigger', 'pjsip_only'],
    ['endpoint_identifier_order', 'header,ip,username,auth_username'],
    // After a restart the phones' kept registrations are unknown until first qualified, and a queue skips a member
    // whose phone is unknown: qualify them all within 10 s, not at random within the 60 s qualify period.
    ['max_initial_qualify_time', 10],
  ]);
  out += renderDeviceTemplates(settings);
  for (const file of includes) out += `#include ${file}\n`;
  return out;
}

export function renderTransports(settings: PbxSettings): string {
  const nat: Entry[] = [];
  if (settings.externalAddress) {
    nat.push(['external_media_address', settings.externalAddress]);
    nat.push(['external_signaling_address', settings.externalAddress]);
  }
  for (const net of settings.localNetworks) nat.push(['local_net', net]);
  const base: Entry[] = [['type', 'transport'], ...nat, ['allow_reload', 'no']];
  const common: Entry[] = [...base, ['tos', 'cs3'], ['cos', 3]];
  let out = HEADER;
  out += section(TRANSPORTS.udp, [...common, ['protocol', 'udp'], ['bind', `0.0.0.0:${settings.sipPort}`]]);
  out += section(TRANSPORTS.tcp, [...common, ['protocol', 'tcp'], ['bind', `0.0.0.0:${settings.sipPort}`]]);
  const tls: Entry[] = [
    ...common,
    ['protocol', 'tls'],
    ['bind', `0.0.0.0:${settings.tlsPort}`],
    ['cert_file', settings.tls.certFile],
    ['priv_key_file', settings.tls.keyFile],
  ];
  if (settings.tls.caFile) tls.push(['ca_list_file', settings.tls.caFile]);
  tls.push(['method', 'tlsv1_2'], ['verify_client', 'no'], ['verify_server', 'no']);
  out += section(TRANSPORTS.tls, tls);
  // The WSS listener itself is the HTTPS server of http.conf; this transport only names the protocol
  // (Asterisk ignores TOS/COS on it, with a warning). Its bind opens no socket, but without a port
  // Asterisk takes 5060 at start and sees a changed transport ("not fully reloadable") at every reload.
  out += section(TRANSPORTS.wss, [...base, ['protocol', 'wss'], ['bind', `0.0.0.0:${settings.sipPort}`]]);
  return out;
}

/** The type of the main account: a device that reuses the main number, else a bare extension. */
function mainDevice(user: PbxUser): PbxDevice {
  return (
    user.devices.find((d) => d.number === user.extension) ?? {
      number: user.extension,
      type: 'custom',
      secret: user.secret,
      encrypted: false,
    }
  );
}

/** Every SIP account of a user, main first, then devices in number order. */
export function userAccounts(user: PbxUser): PbxDevice[] {
  const main = mainDevice(user);
  const others = user.devices.filter((d) => d.number !== user.extension);
  return [{ ...main, secret: user.secret }, ...others];
}

/**
 * Settings every device shares live in templates (contract §1.4, §1.5 [Std], §1.6, §1.7), so each
 * account only carries what is its own and the files stay small for large systems.
 */
export function renderDeviceTemplates(settings: PbxSettings): string {
  const endpoint: Entry[] = [
    ['type', 'endpoint'],
    ['tos_audio', 'ef'],
    ['tos_video', 'af41'],
    ['cos_audio', 5],
    ['cos_video', 4],
    ['allow', DEVICE_CODECS],
    ['dtmf_mode', 'rfc4733'],
    ['direct_media', 'no'],
    ['language', settings.language],
    ['trust_id_inbound', 'yes'],
    ['send_pai', 'yes'],
    ['send_connected_line', 'yes'],
    ['rtp_timeout', 30],
    ['rtp_timeout_hold', 300],
    ['timers', 'yes'],
    ['timers_min_se', 90],
    ['refer_blind_progress', 'yes'],
    ['rewrite_contact', 'yes'],
    ['rtp_symmetric', 'yes'],
    ['force_rport', 'yes'],
    ['use_avpf', 'no'],
    ['ice_support', 'no'],
    ['transport', TRANSPORTS.udp],
    ['media_encryption', 'no'],
    ['media_encryption_optimistic', 'no'],
  ];
  return (
    section(TEMPLATES.endpoint, endpoint, '!') +
    section(
      TEMPLATES.endpointTls,
      [
        ['transport', TRANSPORTS.tls],
        ['media_encryption', 'sdes'],
      ],
      `!,${TEMPLATES.endpoint}`,
    ) +
    // allow adds to the inherited list: clear it first. webrtc=yes implies DTLS, AVPF, ICE and rtcp-mux.
    section(
      TEMPLATES.endpointWebrtc,
      [
        ['transport', TRANSPORTS.wss],
        ['disallow', 'all'],
        ['allow', WEBRTC_CODECS],
        ['webrtc', 'yes'],
        ['dtls_auto_generate_cert', 'yes'],
      ],
      `!,${TEMPLATES.endpoint}`,
    ) +
    section(
      TEMPLATES.aor,
      [
        ['type', 'aor'],
        // Browser tabs and phones re-register often: a new registration replaces the stale one.
        ['max_contacts', 1],
        ['remove_existing', 'yes'],
        ['maximum_expiration', 7200],
        ['minimum_expiration', 60],
        ['qualify_frequency', 60],
      ],
      '!',
    ) +
    section(
      TEMPLATES.auth,
      [
        ['type', 'auth'],
        ['auth_type', 'userpass'],
      ],
      '!',
    )
  );
}

export const TEMPLATES = {
  endpoint: 'device-endpoint',
  endpointTls: 'device-endpoint-tls',
  endpointWebrtc: 'device-endpoint-webrtc',
  aor: 'device-aor',
  auth: 'device-auth',
};

/** Endpoint, aor and auth of one account: only what differs from the device templates. */
export function renderAccount(user: PbxUser, device: PbxDevice): string {
  return accountParts([], device, userShared(user, userAccounts(user))).join('');
}

/** What all accounts of a user have in common, rendered once per user rather than once per account. */
interface UserShared {
  /** The endpoint's entries after aors and auth. */
  endpoint: string;
  /** The aor's mailboxes entry, or ''. */
  aorMailbox: string;
}

function userShared(user: PbxUser, accounts: PbxDevice[]): UserShared {
  const mailbox = user.voicemail ? `${user.extension}@default` : null;
  const name = displayName(user.name) || user.extension;
  const endpoint: Entry[] = [
    ['context', deviceContext(user)],
    ['callerid', `"${name}" <${user.extension}>`],
    ['accountcode', user.extension],
    // Who is calling, for the dialplan: the user's main number and all their accounts (contract §5.4 step 2).
    ['set_var', `MAINEXT=${user.extension}`],
    ['set_var', `USERNUMS=${accounts.map((d) => d.number).join('&')}`],
  ];
  if (user.outboundcid) endpoint.push(['set_var', `USEROUTCID=${user.outboundcid}`]);
  // The user's recording policy for the calls they make (render/call-recording.ts); on demand needs no variable.
  if (user.recording && user.recording !== 'on_demand') endpoint.push(['set_var', `REC_OWN=${user.recording}`]);
  // Outbound call permission (render/blocking.ts): only a restricted user's endpoints carry it.
  for (const v of permissionVars(user)) endpoint.push(['set_var', v]);
  if (mailbox) {
    endpoint.push(['mailboxes', mailbox], ['mwi_subscribe_replaces_unsolicited', 'yes'], ['aggregate_mwi', 'yes']);
  }
  // Named groups: the user's CTI groups and the names among the call and pickup groups set in bulk.
  const call = splitCallGroups(user.callGroup);
  const pickup = splitCallGroups(user.pickupGroup);
  const named = (names: string[]) => [...new Set([...user.groups, ...names])].sort().join(',');
  if (user.groups.length > 0 || call.names.length > 0) endpoint.push(['named_call_group', named(call.names)]);
  if (user.groups.length > 0 || pickup.names.length > 0) endpoint.push(['named_pickup_group', named(pickup.names)]);
  if (call.numbers) endpoint.push(['call_group', call.numbers]);
  if (pickup.numbers) endpoint.push(['pickup_group', pickup.numbers]);
  return {
    endpoint: entriesParts([], endpoint).join(''),
    aorMailbox: mailbox ? entriesParts([], [['mailboxes', mailbox]]).join('') : '',
  };
}

function accountParts(out: string[], device: PbxDevice, shared: UserShared): string[] {
  const n = device.number;
  const template =
    device.type === 'webrtc' ? TEMPLATES.endpointWebrtc : device.encrypted ? TEMPLATES.endpointTls : TEMPLATES.endpoint;
  out.push(
    '[',
    n,
    `](${template})\n`,
    'aors = ',
    value(n),
    '\nauth = ',
    value(`${n}-auth`),
    '\n',
    shared.endpoint,
    '\n',
  );
  out.push('[', n, `](${TEMPLATES.aor})\n`, shared.aorMailbox);
  // The mobile app is woken by push notifications and may stay silent for a long time.
  if (device.type === 'mobile') out.push('maximum_expiration = 2678400\n');
  if (device.type === 'webrtc') out.push('qualify_frequency = 0\n');
  out.push('\n');
  return sectionParts(
    out,
    `${n}-auth`,
    [
      ['username', n],
      ['password', device.secret],
    ],
    TEMPLATES.auth,
  );
}

export function renderUserAccounts(user: PbxUser): string {
  const out: string[] = [];
  const accounts = userAccounts(user);
  const shared = userShared(user, accounts);
  for (const device of accounts) accountParts(out, device, shared);
  return out.join('');
}

const TRANSPORT_OF: Record<PbxTrunk['transport'], string> = {
  udp: TRANSPORTS.udp,
  tcp: TRANSPORTS.tcp,
  tls: TRANSPORTS.tls,
};

/** Registration, auth, aor, endpoint and identify of one trunk (contract §4.2, §4.4 [Std]). */
export function renderTrunk(trunk: PbxTrunk, settings: PbxSettings): string {
  const t = trunk.name;
  const hostPort = trunk.port === 5060 ? trunk.host : `${trunk.host}:${trunk.port}`;
  const transport = TRANSPORT_OF[trunk.transport];
  let out = `; trunk ${trunk.id}\n`;
  if (trunk.registration === 'send') {
    out += section(t, [
      ['type', 'registration'],
      ['transport', transport],
      ['outbound_auth', t],
      ['retry_interval', trunk.retryInterval],
      ['fatal_retry_interval', 0],
      ['forbidden_retry_interval', 10],
      ['max_retries', 10000],
      ['expiration', trunk.expiration],
      ['auth_rejection_permanent', 'no'],
      // line + endpoint: inbound calls find the trunk, and live state can match registration to trunk.
      ['line', 'yes'],
      ['endpoint', t],
      ['contact_user', trunk.username],
      ['server_uri', `sip:${hostPort}`],
      ['client_uri', `sip:${trunk.username}@${hostPort}`],
    ]);
  }
  if (trunk.authentication !== 'none') {
    const inbound = trunk.authentication === 'inbound';
    out += section(t, [
      ['type', 'auth'],
      ['auth_type', 'userpass'],
      ['username', inbound ? t : (trunk.authUsername ?? trunk.username)],
      ['password', trunk.password],
    ]);
  }
  const aor: Entry[] = [['type', 'aor']];
  if (trunk.registration === 'receive') {
    aor.push(['max_contacts', 1], ['remove_existing', 'yes']);
  } else {
    aor.push(['contact', `sip:${trunk.username ? `${trunk.username}@` : ''}${hostPort}`]);
  }
  aor.push(['qualify_frequency', trunk.qualifyFrequency]);
  out += section(t, aor);
  const endpoint: Entry[] = [
    ['type', 'endpoint'],
    ['transport', transport],
    ['context', trunk.context],
    ['disallow', 'all'],
    ['allow', trunk.codecs.length > 0 ? trunk.codecs.join(',') : 'ulaw'],
    ['aors', t],
    ['language', settings.language],
    ['send_connected_line', 'no'],
    ['dtmf_mode', trunk.registration === 'receive' ? 'rfc4733' : 'auto'],
    ['direct_media', 'no'],
    ['rewrite_contact', 'yes'],
    ['rtp_symmetric', 'yes'],
    ['force_rport', 'yes'],
    ['media_encryption', trunk.mediaEncryption],
  ];
  if (trunk.authentication === 'outbound') endpoint.push(['outbound_auth', t]);
  if (trunk.authentication === 'inbound') endpoint.push(['auth', t]);
  if (trunk.fromDomain) endpoint.push(['from_domain', trunk.fromDomain]);
  // The class the far end's hold asks for: what our side hears when the provider's caller holds.
  if (trunk.music && trunk.music !== 'default') endpoint.push(['moh_suggest', trunk.music]);
  if (trunk.registration !== 'receive') {
    if (trunk.fromUser) endpoint.push(['from_user', trunk.fromUser]);
    if (trunk.username) endpoint.push(['contact_user', trunk.username]);
  }
  // From names the account (providers authenticate by it): the caller ID travels in its own header.
  if (trunk.callerIdHeader !== 'rpid') endpoint.push(['send_pai', 'yes']);
  if (trunk.callerIdHeader !== 'pai') endpoint.push(['send_rpid', 'yes']);
  // Offer every codec of the trunk in the configured order, not the calling phone's order (Asterisk's
  // default, 'remote_merge'); codec_prefs_outgoing_offer is reserved and changes nothing.
  endpoint.push(['outgoing_call_offer_pref', 'local_merge']);
  out += section(t, endpoint);
  if (trunk.registration !== 'receive') {
    out += section(t, [
      ['type', 'identify'],
      ['endpoint', t],
      ['match', trunk.host],
    ]);
  }
  return out;
}

export function renderTrunks(model: PbxModel): string {
  let out = HEADER;
  for (const trunk of [...allTrunks(model)].sort((a, b) => a.id - b.id)) out += renderTrunk(trunk, model.settings);
  return out;
}
