import type { CallClass, CallClassPrefixes, RecordingPolicy } from '@centralino/contract';
import type { PhoneRecordingSettings } from './phone-recording.ts';
import type { CallRecordingRender } from './render/call-recording.ts';
/**
 * Input of the Asterisk configuration renderer: everything the PBX needs, already resolved from the
 * database (see load.ts). Renderers are pure functions of this model, so tests and benchmarks build
 * it directly and the features that do not exist yet (devices, trunks, routes) slot in by filling
 * their lists.
 */

/** Device types of contract asterisk §1.5; 'fxs' is a gateway FXS port linked to a user (§4.4). */
export type DeviceType = 'physical' | 'custom' | 'temporaryphysical' | 'webrtc' | 'nethlink' | 'mobile' | 'fxs';

/** One SIP account: endpoint, aor and auth named after `number`. */
export interface PbxDevice {
  number: string;
  type: DeviceType;
  secret: string;
  /** TLS transport and SRTP (contract §1.6 [Std]); ignored for webrtc, which always uses DTLS over WSS. */
  encrypted: boolean;
}

/** A dialplan destination 'context,exten,priority' (the format of the original's destination strings). */
export type Destination = string;

export interface PbxUser {
  username: string;
  name: string;
  /** Main extension. */
  extension: string;
  /** SIP secret of the main extension's own account. */
  secret: string;
  /**
   * Devices of the user. A device whose number is the main extension gives the main account its type;
   * the others are the 91M..98M numbers. Empty until devices exist: the main account is then a bare
   * extension (contract §1.2).
   */
  devices: PbxDevice[];
  outboundcid: string | null;
  email: string | null;
  mobile: string | null;
  /** Voicemail box of the main extension, null when the user has none. */
  voicemail: { pin: string } | null;
  /** CTI profile: dial context cti-profile-<id>; null = from-internal. */
  profileId: number | null;
  /**
   * Seconds; 0 = none of its own: the system default (RINGTIMER_DEFAULT) when an unanswered call goes on to
   * voicemail or a no-answer destination, otherwise ringing until the caller hangs up (the spec's "infinite").
   */
  ringTime: number;
  /** Named call and pickup groups (endpoint named_call_group / named_pickup_group): the user's CTI groups. */
  groups: string[];
  /** A second call rings while the user is busy, unless a phone's *71 said otherwise (AstDB CW). */
  callWaiting: boolean;
  /**
   * Call and pickup groups set in bulk ('1,3-5,reception', '' = none): numbers and ranges go to the endpoint's
   * call_group / pickup_group, names join the CTI groups in named_call_group / named_pickup_group.
   */
  callGroup: string;
  pickupGroup: string;
  destinations: { busy: Destination | null; noAnswer: Destination | null; unavailable: Destination | null };
  /** Call recording of the user's calls (issue 41); absent: on demand. */
  recording?: RecordingPolicy;
  /** Outbound classes the user may call (issue 42 item 7); absent or null: every class. Emergency numbers always. */
  callPermission?: CallClass[] | null;
  /** Follow-me (issue 42): only when switched on with something to ring; absent: none. */
  followMe?: PbxFollowMe;
}

/**
 * After the user's own phones rang `preRing` seconds unanswered (or none is registered), the list rings; nobody
 * answering ends on the user's no-answer (or unavailable) path as before.
 */
export interface PbxFollowMe {
  preRing: number;
  /** hunt: one after another, each for its time; ringall: together, for the longest of the times. */
  strategy: 'hunt' | 'ringall';
  /** Outside numbers must press 1 before the call is put through. */
  confirmExternal: boolean;
  /** Colleagues by main extension, outside numbers as dialled; ringTime in seconds. */
  legs: { kind: 'user' | 'external'; number: string; ringTime: number }[];
}

export type TrunkTransport = 'udp' | 'tcp' | 'tls';

/** A PJSIP trunk: a VoIP provider (contract §4.1, §4.2) or one port of a gateway (§4.4). */
export interface PbxTrunk {
  id: number;
  /** Section name: letters, digits, '_' and '-' only. */
  name: string;
  host: string;
  port: number;
  username: string;
  password: string;
  /** Auth user when it differs from username (some providers). */
  authUsername: string | null;
  fromDomain: string | null;
  /** User part of From: the account, or the line's number for providers that want it there; '' = none. */
  fromUser: string;
  /**
   * How the outbound caller ID set by the dialplan reaches the provider while From carries the account:
   * P-Asserted-Identity, Remote-Party-ID (the preset's sendrpid = yes) or both.
   */
  callerIdHeader: 'pai' | 'rpid' | 'both';
  /** Who registers: we to the provider ('send'), nobody ('none'), the gateway to us ('receive'). */
  registration: 'send' | 'none' | 'receive';
  /** Who authenticates whom: we to the provider ('outbound'), the far side to us ('inbound'), nobody. */
  authentication: 'outbound' | 'inbound' | 'none';
  context: 'from-pstn' | 'from-pstn-toheader' | 'from-pstn-identity';
  /** In preference order; forceCodec decides upstream whether provider defaults are appended. */
  codecs: string[];
  transport: TrunkTransport;
  mediaEncryption: 'no' | 'sdes';
  /** Caller ID number of the trunk (the VoIP trunk's 'phone'). */
  outcid: string;
  /** Concurrent outbound calls; null = unlimited. */
  maxChannels: number | null;
  /** Digits dialled before the number (a gateway port's trunk number). */
  dialPrefix: string;
  disabled: boolean;
  /** Always try the next trunk of the route, whatever the hang-up cause. */
  continueOnFailure: boolean;
  expiration: number;
  retryInterval: number;
  qualifyFrequency: number;
  /** Music class of its calls on hold (issue 42); absent: the default. */
  music?: string;
}

export type GatewayPortKind = 'isdn' | 'pri' | 'fxo';

/** A physical gateway: each ISDN/PRI/FXO port is a trunk registering to us; FXS ports are user devices. */
export interface PbxGateway {
  id: number;
  manufacturer: string;
  /** 12 hex digits. */
  mac: string;
  ip: string;
  encrypted: boolean;
  ports: { kind: GatewayPortKind; index: number; trunkId: number; trunkNumber: string; secret: string }[];
}

export interface OutboundPattern {
  /** Stripped before dialling. */
  prefix: string;
  /** The rest of the pattern (Asterisk pattern syntax without the leading '_'). */
  pass: string;
  /** Caller ID the route is restricted to, or ''. */
  cid: string;
  prepend: string;
}

export interface PbxOutboundRoute {
  id: number;
  name: string;
  patterns: OutboundPattern[];
  /** Trunk ids in failover order. */
  trunkIds: number[];
  /** Caller ID forced by the route, or ''. */
  outcid: string;
  /** Route caller ID wins over the user's outboundcid. */
  outcidOverride: boolean;
  emergency: boolean;
  /** Where calls go when every trunk failed; null plays 'all circuits busy'. */
  failover: Destination | null;
}

export interface PbxInboundRoute {
  /** Row id: blocked callers may be scoped to it (issue 42 item 7); absent in older fixtures. */
  id?: number;
  /** DID, '' = any. */
  did: string;
  /** Caller ID, '' = any. */
  cid: string;
  description: string;
  destination: Destination;
  /** Caller name prefix. */
  cidNamePrefix: string;
  /** Call recording of the calls it takes in (issue 41); absent: on demand. */
  recording?: RecordingPolicy;
  /** Music class callers hear instead of ringing (issue 42); absent or null: ringing. */
  music?: string | null;
}

/** Ring group (here: one per CTI group, rung by its members' main extensions). */
export interface PbxRingGroup {
  /** Dialplan extension of the group in ext-group. */
  key: string;
  name: string;
  /** Main extensions, in ring order. */
  members: string[];
  ringTime: number;
}

/**
 * A ring group of issue 42 (not a CTI group): ext-group,<number>,1 rings its members together or in turn (render/
 * ring-groups.ts), then goes to the failover destination.
 */
export interface PbxNumberedRingGroup {
  number: string;
  name: string;
  strategy: 'ringall' | 'hunt' | 'memoryhunt' | 'random';
  /** Seconds: the whole ringing for ringall, each turn otherwise. */
  ringTime: number;
  /** Outside members must press 1 before the call is put through. */
  confirmExternal: boolean;
  failover: Destination;
  /** In ring order: users by main extension, outside numbers as dialled. */
  members: { kind: 'user' | 'external'; number: string }[];
  /** always / never decide for the whole call; on_demand (the default) leaves it to *1. */
  recording?: RecordingPolicy;
}

/** CTI profile: its context offers the feature codes and routes its permissions allow (contract §1.8). */
export interface PbxProfile {
  id: number;
  name: string;
  permissions: string[];
  /** Route id → allowed; routes without an entry are allowed. */
  routes: Record<number, boolean>;
}

/** An announcement (issue 26): plays a recording, then goes on (context app-announcement-<id>). */
export interface PbxAnnouncement {
  id: number;
  description: string;
  /** Sound file for Playback: an absolute path without extension; null plays nothing. */
  recording: string | null;
  /** A key pressed during the message goes on to the destination at once. */
  allowSkip: boolean;
  destination: Destination;
  /** Back to the IVR the caller came from, when there is one, instead of the destination. */
  returnIvr: boolean;
  /** Played as early media, without answering. */
  noAnswer: boolean;
  /** Key that plays the message again, or ''. */
  repeatKey: string;
}

/** An IVR menu (issue 26): context ivr-<id>. */
export interface PbxIvr {
  id: number;
  name: string;
  /** The menu's sound file (absolute path without extension), or null. */
  announcement: string | null;
  /** Callers may dial extensions directly. */
  directDial: boolean;
  /** Seconds waited for a key. */
  timeout: number;
  invalidLoops: number;
  invalidDestination: Destination;
  timeoutLoops: number;
  timeoutDestination: Destination;
  entries: { selection: string; destination: Destination }[];
}

/** A day/night switch (issue 26): app-daynight,<index>,1; *28<index> toggles it (AstDB DAYNIGHT/C<index>). */
export interface PbxDayNight {
  index: number;
  name: string;
  dayDestination: Destination;
  nightDestination: Destination;
}

/** A call queue (issue 26): queues.conf [<number>], dialled at ext-queues,<number>,1. */
export interface PbxQueue {
  number: string;
  name: string;
  strategy: string;
  /** Seconds a member rings before the next attempt. */
  ringTime: number;
  /** Seconds a caller waits before the failover destination; 0: no limit. */
  maxWait: number;
  failover: Destination;
  /** 'ringing', 'default' or a music class's name. */
  music: string;
  announcePosition: boolean;
  /** Static members: main extension and name. */
  members: { extension: string; name: string }[];
  /** Main extensions allowed to log in as dynamic agents. */
  agents: string[];
  /** Call recording of the calls it takes (issue 41); absent: on demand. */
  recording?: RecordingPolicy;
}

/** A conference room (issue 42): ext-meetme,<number>,1; confbridge.conf profiles conf-<number>[-user|-admin]. */
export interface PbxConference {
  number: string;
  name: string;
  /** null: none. */
  userPin: string | null;
  adminPin: string | null;
  /** 0: no limit. */
  maxMembers: number;
  musicWhenAlone: boolean;
  /** The class played while alone (issue 42 item 6); absent: the default. */
  musicClass?: string;
  announceJoinLeave: boolean;
  /** Recorded into the call recordings folder (only when that folder exists). */
  record: boolean;
}

/** A parking lot (issue 42 item 2): res_parking lot park-<id>, parked at app-parking,<number>,1. */
export interface PbxParkingLot {
  id: number;
  number: string;
  name: string;
  /** The slots' numbers, in order. */
  slots: string[];
  timeout: number;
  /** Where a call nobody picked up goes; null: back to whoever parked it. */
  timeoutDestination: string | null;
  musicClass: string;
}

/** A time condition (issue 26): timeconditions,<id>,1; *27<id> sets or clears its override (AstDB TC/<id>). */
export interface PbxTimeCondition {
  id: number;
  name: string;
  /** GotoIfTime ranges: any one matching sends calls to the true destination. */
  ranges: { hours: string; weekdays: string; mdays: string; months: string }[];
  trueDestination: Destination;
  falseDestination: Destination;
}

export interface AmiUser {
  username: string;
  secret: string;
}

export interface AsteriskSystem {
  runUser: string | null;
  runGroup: string | null;
  directories: {
    config: string;
    modules: string;
    /** Asterisk's own state (astdb, keys). */
    varlib: string;
    /** The installed data: XML documentation (needed at start), sounds, static HTTP. */
    data: string;
    spool: string;
    run: string;
    log: string;
  };
}

export interface PbxSettings {
  /** Sound language of endpoints and trunks. */
  language: string;
  toneZone: string;
  sipPort: number;
  tlsPort: number;
  /** Asterisk HTTPS port for WebRTC WSS. */
  wssPort: number;
  tls: { certFile: string; keyFile: string; caFile: string | null };
  /** Public address for NAT (external_media_address / external_signaling_address), null when not behind NAT. */
  externalAddress: string | null;
  /** Networks reached without NAT, CIDR ('192.168.1.0/24'). */
  localNetworks: string[];
  rtpStart: number;
  rtpEnd: number;
  ringTimerDefault: number;
  ami: { port: number; bindAddress: string; users: AmiUser[] };
  /** How Asterisk is installed and runs: asterisk.conf's runuser / rungroup (null: not set) and [directories]. */
  system: AsteriskSystem;
  /** Written into the SIP User-Agent. */
  version: string;
  /** voicemail.conf's mailcmd: the transcription helper while voicemail transcription is on, else null. */
  voicemailMailCmd: string | null;
  /** Recording from a phone (*77): spool folder and the console's loopback call; null without the token. */
  phoneRecording: PhoneRecordingSettings | null;
  /** Call recordings (issue 41): the folder and the notice; absent or null: no recordings (policies and *1 off). */
  callRecording?: CallRecordingRender | null;
}

export interface PbxModel {
  settings: PbxSettings;
  users: PbxUser[];
  trunks: PbxTrunk[];
  gateways: PbxGateway[];
  outboundRoutes: PbxOutboundRoute[];
  inboundRoutes: PbxInboundRoute[];
  ringGroups: PbxRingGroup[];
  /** Ring groups of issue 42; absent: none. */
  numberedRingGroups?: PbxNumberedRingGroup[];
  profiles: PbxProfile[];
  announcements: PbxAnnouncement[];
  ivrs: PbxIvr[];
  dayNight: PbxDayNight[];
  queues: PbxQueue[];
  timeConditions: PbxTimeCondition[];
  cqrs: PbxCqr[];
  /** Conference rooms (issue 42); absent: none. */
  conferences?: PbxConference[];
  /** Parking lots (issue 42); absent: none. */
  parkingLots?: PbxParkingLot[];
  /** Uploaded music on hold classes (issue 42 item 6); absent: only the distribution's default. */
  musicClasses?: PbxMusicClass[];
  /** Blocked callers (issue 42 item 7); absent: none. */
  blockedCallers?: PbxBlockedCaller[];
  /** Prefixes of the outbound call classes; absent: the Italian defaults (contract blocking.ts). */
  callClasses?: CallClassPrefixes;
}

/** A musiconhold.conf class of uploaded files: mode files, its own folder. */
export interface PbxMusicClass {
  name: string;
  order: 'alpha' | 'random';
  /** Absolute folder the console writes the class's files into. */
  dir: string;
  /** File names in it, without extension, alphabetically. */
  files: string[];
}

/** A blocked caller: turned away on the inbound routes before anything else runs. */
export interface PbxBlockedCaller {
  id: number;
  match: 'number' | 'prefix' | 'anonymous';
  number: string;
  description: string;
  response: 'busy' | 'not_available' | 'recording' | 'destination';
  /** The recording's sound (response 'recording'); null: gone, "not in service" is played instead. */
  sound: string | null;
  destination: Destination | null;
  /** Inbound route ids; null: every route. */
  routes: number[] | null;
}

/** A caller query routing (issue 26): nethcqr,<id>,1 asks the console where to go, else its default. */
export interface PbxCqr {
  id: number;
  name: string;
  /** Seconds the console waits for the query; the dialplan's CURL() waits a little longer. */
  timeout: number;
  defaultDestination: Destination;
}

export const defaultPbxSettings: PbxSettings = {
  language: 'en',
  toneZone: 'us',
  sipPort: 5060,
  tlsPort: 5061,
  wssPort: 8089,
  tls: { certFile: '/etc/asterisk/keys/asterisk.crt', keyFile: '/etc/asterisk/keys/asterisk.key', caFile: null },
  externalAddress: null,
  localNetworks: [],
  rtpStart: 10000,
  rtpEnd: 20000,
  ringTimerDefault: 15,
  voicemailMailCmd: null,
  phoneRecording: null,
  ami: { port: 5038, bindAddress: '127.0.0.1', users: [] },
  system: {
    runUser: 'asterisk',
    runGroup: 'asterisk',
    directories: {
      config: '/etc/asterisk',
      modules: '/usr/lib/asterisk/modules',
      varlib: '/var/lib/asterisk',
      data: '/var/lib/asterisk',
      spool: '/var/spool/asterisk',
      run: '/var/run/asterisk',
      log: '/var/log/asterisk',
    },
  },
  version: '0',
};

/** Gateway ports as trunks (contract §4.4 [Std]): inbound-registering, authenticated by trunk name. */
export function gatewayTrunks(gateway: PbxGateway): PbxTrunk[] {
  const tail = gateway.mac
    .toLowerCase()
    .replace(/[^0-9a-f]/g, '')
    .slice(-6);
  return gateway.ports.map((port) => ({
    id: port.trunkId,
    name: `${gateway.manufacturer}_${tail}_${port.kind}_${port.index}`,
    host: gateway.ip,
    port: 5060,
    username: `${gateway.manufacturer}_${tail}_${port.kind}_${port.index}`,
    password: port.secret,
    authUsername: null,
    fromDomain: null,
    fromUser: '',
    callerIdHeader: 'pai',
    registration: 'receive',
    authentication: 'inbound',
    context: 'from-pstn-identity',
    codecs: ['alaw', 'ulaw', 'g729'],
    transport: gateway.encrypted ? 'tls' : 'udp',
    mediaEncryption: gateway.encrypted ? 'sdes' : 'no',
    outcid: '',
    maxChannels: null,
    dialPrefix: port.trunkNumber,
    disabled: false,
    continueOnFailure: false,
    expiration: 3600,
    retryInterval: 60,
    qualifyFrequency: 60,
  }));
}

/** Every trunk of the system, VoIP first, in id order within each kind. */
export function allTrunks(model: PbxModel): PbxTrunk[] {
  return [...model.trunks, ...model.gateways.flatMap(gatewayTrunks)];
}
