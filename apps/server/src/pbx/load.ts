import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { CALL_CLASSES, type CallClass, type CallRecordingSettings, parkingSlots } from '@centralino/contract';
import type { Kysely, Selectable } from 'kysely';
import type { PbxPorts } from '../config.ts';
import type { Database, TrunksTable } from '../db/schema.ts';
import { SettingsStore } from '../db/settings-store.ts';
import { readCallClasses } from '../features/blocking/service.ts';
import { NOTICE_PROMPT, readCallRecordingSettings } from '../features/call-recordings/settings.ts';
import { VOICEMAIL_STT_SETTING } from '../features/cloud-speech/key.ts';
import { loadFollowMe } from './load-follow-me.ts';
import { loadRingGroups } from './load-ring-groups.ts';
import type {
  PbxDevice,
  PbxInboundRoute,
  PbxModel,
  PbxMusicClass,
  PbxOutboundRoute,
  PbxParkingLot,
  PbxProfile,
  PbxSettings,
  PbxTrunk,
  PbxUser,
} from './model.ts';
import { type ModelRows, modelRowsOf } from './model-rows.ts';
import type { PhoneRecordingSettings } from './phone-recording.ts';

/** Settings of the engine that come from the environment rather than from the database. */
export interface EngineSettings {
  tls: PbxSettings['tls'];
  ami: PbxSettings['ami'];
  system: PbxSettings['system'];
  version: string;
  /** The voicemail transcription mail command without its language (features/cloud-speech), if it can run. */
  voicemailStt?: string;
  /** Recording from a phone (*77), when the loopback token and the spool folder are in place. */
  phoneRecording?: PhoneRecordingSettings;
  /** Where recordings are written (config.pbx.soundsDir). */
  soundsDir: string;
  /** Where call recordings go (DATA_DIR/recordings or RECORDINGS_DIR) once the folder is made; absent: none. */
  callRecordingDir?: string;
  /** The phones' ports (SIP_PORT, SIP_TLS_PORT, SIP_WSS_PORT, RTP_PORT_*); the defaults when unset. */
  ports?: PbxPorts;
}

/** Speech-to-Text language codes of the PBX languages (spec §9: it, en, fr, de, es). */
const SPEECH_LANGUAGES: Record<string, string> = { it: 'it-IT', en: 'en-US', fr: 'fr-FR', de: 'de-DE', es: 'es-ES' };

/** 32 lowercase hex characters, like the original's SIP secrets (contract asterisk §1.4). */
export function newSipSecret(): string {
  return randomBytes(16).toString('hex');
}

/** Gives every main extension a SIP secret of its own the first time it is rendered. */
async function ensureSecrets(db: Kysely<Database>): Promise<void> {
  const missing = await db
    .selectFrom('users')
    .leftJoin('pbx_secrets', 'pbx_secrets.extension', 'users.default_extension')
    .select('users.default_extension')
    .where('users.default_extension', 'is not', null)
    .where('pbx_secrets.secret', 'is', null)
    .execute();
  for (let i = 0; i < missing.length; i += 500) {
    const rows = missing
      .slice(i, i + 500)
      .map((r) => ({ extension: r.default_extension as string, secret: newSipSecret() }));
    await db
      .insertInto('pbx_secrets')
      .values(rows)
      .onConflict((oc) => oc.column('extension').doNothing())
      .execute();
  }
}

const SECTION_NAME = /[^A-Za-z0-9_-]/g;

/** A trunk row (VoIP provider or gateway port) with its PJSIP settings JSON (contract §4.1, §4.4). */
function toTrunk(row: Selectable<TrunksTable>): PbxTrunk {
  let s: Record<string, string> = {};
  try {
    s = JSON.parse(row.settings) as Record<string, string>;
  } catch {
    s = {};
  }
  const gateway = row.kind === 'gateway';
  const num = (v: string | undefined, fallback: number) => (v && /^\d+$/.test(v) ? Number(v) : fallback);
  const registration = s.registration === 'none' || s.registration === 'receive' ? s.registration : 'send';
  const auth = s.authentication;
  const context = s.context === 'from-pstn' || s.context === 'from-pstn-identity' ? s.context : 'from-pstn-toheader';
  const transport = /tls$/.test(s.transport ?? '') ? 'tls' : /tcp$/.test(s.transport ?? '') ? 'tcp' : 'udp';
  return {
    id: Number(row.id),
    name: row.name.replace(SECTION_NAME, '_'),
    host: s.sip_server ?? '',
    port: num(s.sip_server_port, 5060),
    username: row.username ?? '',
    password: row.secret ?? '',
    authUsername: s.auth_username || null,
    fromDomain: s.from_domain || null,
    fromUser: s.from_user ?? row.username ?? '',
    callerIdHeader: s.sendrpid === 'yes' ? 'rpid' : s.sendrpid === 'both' ? 'both' : 'pai',
    registration: gateway ? 'receive' : registration,
    authentication: gateway || auth === 'inbound' ? 'inbound' : auth === 'off' || auth === 'none' ? 'none' : 'outbound',
    context: gateway ? 'from-pstn-identity' : context,
    codecs: row.codecs
      .split(',')
      .map((c) => c.trim())
      .filter(Boolean),
    transport,
    mediaEncryption: s.media_encryption === 'sdes' ? 'sdes' : 'no',
    outcid: row.phone ?? '',
    maxChannels: s.maxchans && /^\d+$/.test(s.maxchans) ? Number(s.maxchans) : null,
    dialPrefix: s.dialoutprefix ?? '',
    disabled: s.disabletrunk === 'on',
    continueOnFailure: s.continue === 'on',
    expiration: num(s.expiration, 300),
    retryInterval: num(s.retry_interval, 60),
    qualifyFrequency: num(s.qualify_frequency, 60),
    music: row.music,
  };
}

/**
 * Reads everything the renderer needs from the database; what did not change since the last read is kept
 * (`kept`, pbx/model-rows.ts: tests pass a new one to read everything afresh).
 */
export async function loadPbxModel(
  db: Kysely<Database>,
  engine: EngineSettings,
  kept: ModelRows = modelRowsOf(db),
): Promise<PbxModel> {
  await ensureSecrets(db);
  await kept.look();
  const store = new SettingsStore(db);
  const [language, toneZone, externalIp, localNetworks, stt, recordings] = await Promise.all([
    store.get<string>('pbx.language'),
    store.get<string>('pbx.tonezone'),
    store.get<string>('pbx.externalip'),
    store.get<{ net: string; mask: string }[]>('pbx.localnetworks'),
    store.get<string>(VOICEMAIL_STT_SETTING),
    readCallRecordingSettings(store),
  ]);
  const [rows, memberships, groups, profiles, permissions, routePermissions, trunkRows, fxs, deviceRows] =
    await Promise.all([
      kept.rows(
        db
          .selectFrom('users')
          .innerJoin('pbx_secrets', 'pbx_secrets.extension', 'users.default_extension')
          .select([
            'users.id',
            'users.username',
            'users.displayname',
            'users.default_extension',
            'users.outboundcid',
            'users.email',
            'users.mobile',
            'users.voicemail_pin',
            'users.profile_id',
            'users.ring_time',
            'users.call_waiting',
            'users.call_group',
            'users.pickup_group',
            'users.recording_policy',
            'users.call_permission',
            'users.busy_dest',
            'users.noanswer_dest',
            'users.unavailable_dest',
            'pbx_secrets.secret',
            'users.extension_order',
          ])
          .orderBy('users.extension_order'),
        {
          keys: {
            users: { column: 'users.id', field: 'id', numeric: true },
            pbx_secrets: { column: 'users.default_extension', field: 'default_extension' },
          },
          order: (a, b) => Number(a.extension_order) - Number(b.extension_order) || Number(a.id) - Number(b.id),
        },
      ),
      kept.rows(db.selectFrom('cti_user_groups').select(['user_id', 'group_id'])),
      kept.rows(db.selectFrom('cti_groups').select(['id', 'name']).orderBy('id')),
      kept.rows(db.selectFrom('cti_profiles').select(['id', 'name']).orderBy('id')),
      kept.rows(db.selectFrom('cti_profile_permissions').select(['profile_id', 'permission'])),
      kept.rows(db.selectFrom('cti_profile_routes').select(['profile_id', 'route_id', 'permission'])),
      kept.rows(db.selectFrom('trunks').selectAll().orderBy('id')),
      kept.rows(
        db
          .selectFrom('gateway_ports')
          .select(['extension', 'physical_extension', 'secret'])
          .where('port_type', '=', 'fxs')
          .where('physical_extension', 'is not', null),
      ),
      kept.rows(
        db
          .selectFrom('devices')
          .select(['id', 'user_id', 'extension', 'type', 'secret', 'srtp', 'mac'])
          .where('extension', 'is not', null)
          .where('user_id', 'is not', null)
          .orderBy('extension'),
        {
          keys: { devices: { column: 'devices.id', field: 'id', numeric: true } },
          // Code-unit order, as the devices of a user are sorted below: the same on every database's collation.
          order: (a, b) =>
            (a.extension as string) < (b.extension as string)
              ? -1
              : (a.extension as string) > (b.extension as string)
                ? 1
                : Number(a.id) - Number(b.id),
        },
      ),
    ]);

  const groupNames = new Map(groups.map((g) => [Number(g.id), g.name]));
  const userGroups = new Map<number, string[]>();
  const groupMembers = new Map<number, number[]>();
  for (const m of memberships) {
    const name = groupNames.get(Number(m.group_id));
    if (name === undefined) continue;
    userGroups.set(Number(m.user_id), [...(userGroups.get(Number(m.user_id)) ?? []), name]);
    groupMembers.set(Number(m.group_id), [...(groupMembers.get(Number(m.group_id)) ?? []), Number(m.user_id)]);
  }
  const devicesOf = new Map<string, PbxDevice[]>();
  for (const port of fxs) {
    if (!port.extension || !port.physical_extension) continue;
    devicesOf.set(port.extension, [
      ...(devicesOf.get(port.extension) ?? []),
      { number: port.physical_extension, type: 'fxs', secret: port.secret ?? '', encrypted: false },
    ]);
  }

  // Devices of users (desk phones, custom devices, softphones); a custom device is a phone without MAC.
  const userDevices = new Map<number, PbxDevice[]>();
  for (const d of deviceRows) {
    const list = userDevices.get(Number(d.user_id)) ?? [];
    list.push({
      number: d.extension as string,
      type: d.type === 'physical' && d.mac === null ? 'custom' : d.type,
      secret: d.secret ?? '',
      encrypted: Number(d.srtp) === 1,
    });
    userDevices.set(Number(d.user_id), list);
  }

  const followMe = await loadFollowMe(kept, db);
  const users: PbxUser[] = rows.map((r) => {
    const extension = r.default_extension as string;
    const own = userDevices.get(Number(r.id)) ?? [];
    // The first device uses the main number itself: the account then carries that device's secret.
    const onMain = own.find((d) => d.number === extension);
    return {
      username: r.username,
      name: r.displayname,
      extension,
      secret: onMain?.secret || r.secret,
      devices: [...own, ...(devicesOf.get(extension) ?? [])].sort((a, b) => (a.number < b.number ? -1 : 1)),
      outboundcid: r.outboundcid,
      email: r.email,
      mobile: r.mobile,
      voicemail: r.voicemail_pin ? { pin: r.voicemail_pin } : null,
      profileId: r.profile_id === null ? null : Number(r.profile_id),
      ringTime: Number(r.ring_time),
      groups: (userGroups.get(Number(r.id)) ?? []).map((g) => g.replace(/[^A-Za-z0-9_-]/g, '_')).sort(),
      callWaiting: Number(r.call_waiting) === 1,
      callGroup: r.call_group,
      pickupGroup: r.pickup_group,
      destinations: { busy: r.busy_dest, noAnswer: r.noanswer_dest, unavailable: r.unavailable_dest },
      recording: r.recording_policy,
      ...(followMe.has(Number(r.id)) ? { followMe: followMe.get(Number(r.id)) } : {}),
      callPermission: callPermissionOf(r.call_permission),
    };
  });
  const extensionOf = new Map(rows.map((r) => [Number(r.id), r.default_extension as string]));

  const profileList: PbxProfile[] = profiles.map((p) => ({
    id: Number(p.id),
    name: p.name,
    permissions: permissions
      .filter((x) => Number(x.profile_id) === Number(p.id))
      .map((x) => x.permission)
      .sort(),
    routes: Object.fromEntries(
      routePermissions
        .filter((x) => Number(x.profile_id) === Number(p.id))
        .map((x) => [Number(x.route_id), Number(x.permission) === 1]),
    ),
  }));

  const flows = await loadFlows(kept, db, engine.soundsDir);
  const numberedRingGroups = await loadRingGroups(kept, db);
  const trunks = trunkRows.map(toTrunk).filter((t) => t.host !== '' || t.registration === 'receive');
  const { outboundRoutes, inboundRoutes } = await loadRoutes(kept, db, new Set(trunks.map((t) => t.id)));

  return {
    settings: {
      language: language ?? 'en',
      toneZone: toneZone ?? 'us',
      sipPort: engine.ports?.sip ?? 5060,
      tlsPort: engine.ports?.tls ?? 5061,
      wssPort: engine.ports?.wss ?? 8089,
      tls: engine.tls,
      externalAddress: externalIp || null,
      localNetworks: (localNetworks ?? []).map((n) => `${n.net}/${n.mask}`),
      rtpStart: engine.ports?.rtpStart ?? 10000,
      rtpEnd: engine.ports?.rtpEnd ?? 20000,
      ringTimerDefault: 15,
      ami: engine.ami,
      system: engine.system,
      version: engine.version,
      voicemailMailCmd:
        stt === 'enabled' && engine.voicemailStt
          ? `${engine.voicemailStt} --language ${SPEECH_LANGUAGES[language ?? 'en'] ?? 'en-US'}`
          : null,
      phoneRecording: engine.phoneRecording ?? null,
      callRecording: engine.callRecordingDir
        ? { dir: engine.callRecordingDir, notice: noticeSound(recordings, engine.soundsDir) }
        : null,
    },
    users,
    trunks,
    gateways: [],
    outboundRoutes,
    inboundRoutes,
    ringGroups: groups.map((g) => ({
      key: `cti-group-${g.id}`,
      name: g.name,
      members: (groupMembers.get(Number(g.id)) ?? [])
        .map((id) => extensionOf.get(id))
        .filter((e): e is string => e !== undefined)
        .sort(),
      ringTime: 20,
    })),
    profiles: profileList,
    numberedRingGroups,
    ...flows,
    conferences: await loadConferences(kept, db),
    parkingLots: await loadParkingLots(kept, db),
    musicClasses: await loadMusicClasses(kept, db, engine.soundsDir),
    blockedCallers: await loadBlockedCallers(kept, db, engine.soundsDir),
    callClasses: await readCallClasses(store),
  };
}

async function loadParkingLots(kept: ModelRows, db: Kysely<Database>): Promise<PbxParkingLot[]> {
  const rows = await kept.rows(db.selectFrom('parking_lots').selectAll().orderBy('extension'));
  return rows.map((r) => ({
    id: Number(r.id),
    number: r.extension,
    name: r.name,
    slots: parkingSlots(r.first_slot, Number(r.slots)),
    timeout: Number(r.timeout),
    timeoutDestination: r.timeout_dest,
    musicClass: r.music_class,
  }));
}

async function loadMusicClasses(kept: ModelRows, db: Kysely<Database>, soundsDir: string): Promise<PbxMusicClass[]> {
  const [classes, files] = await Promise.all([
    kept.rows(db.selectFrom('music_classes').select(['id', 'name', 'play_order']).orderBy('name')),
    kept.rows(db.selectFrom('music_files').select(['class_id', 'name']).orderBy('name')),
  ]);
  return classes.map((c) => ({
    name: c.name,
    order: c.play_order === 'random' ? 'random' : 'alpha',
    dir: musicClassDir(soundsDir, c.name),
    files: files.filter((f) => Number(f.class_id) === Number(c.id)).map((f) => f.name),
  }));
}

/** A user's stored permission ('' internal only, else classes joined by ','); null: every class. */
function callPermissionOf(stored: string | null): CallClass[] | null {
  if (stored === null) return null;
  const wanted = new Set(stored.split(','));
  return CALL_CLASSES.filter((c) => wanted.has(c));
}

async function loadBlockedCallers(
  kept: ModelRows,
  db: Kysely<Database>,
  soundsDir: string,
): Promise<NonNullable<PbxModel['blockedCallers']>> {
  const [rows, links] = await Promise.all([
    kept.rows(db.selectFrom('blocked_callers').selectAll().orderBy('id')),
    kept.rows(db.selectFrom('blocked_caller_routes').selectAll().orderBy('blocked_id').orderBy('route_id')),
  ]);
  return rows.map((r) => ({
    id: Number(r.id),
    match: r.match,
    number: r.number,
    description: r.description,
    response: r.response,
    sound: r.recording_id === null ? null : recordingSoundPath(soundsDir, Number(r.recording_id)),
    destination: r.destination,
    routes:
      Number(r.all_routes) === 1
        ? null
        : links.filter((l) => Number(l.blocked_id) === Number(r.id)).map((l) => Number(l.route_id)),
  }));
}

async function loadConferences(kept: ModelRows, db: Kysely<Database>): Promise<NonNullable<PbxModel['conferences']>> {
  const rows = await kept.rows(db.selectFrom('conferences').selectAll().orderBy('extension'));
  return rows.map((r) => ({
    number: r.extension,
    name: r.name,
    userPin: r.user_pin,
    adminPin: r.admin_pin,
    maxMembers: Number(r.max_members),
    musicWhenAlone: Number(r.music_when_alone) === 1,
    musicClass: r.music_class,
    announceJoinLeave: Number(r.announce_join_leave) === 1,
    record: Number(r.record) === 1,
  }));
}

/** The sound file of a recording, as the dialplan plays it (no extension) and as it is written (with .wav). */
/** What Playback() plays before an `always` recording: the PBX's prompt, an uploaded recording, or nothing. */
function noticeSound(settings: CallRecordingSettings, soundsDir: string): string | null {
  if (settings.notice === 'prompt') return NOTICE_PROMPT;
  if (settings.notice === 'recording' && settings.notice_recording !== null) {
    return recordingSoundPath(soundsDir, settings.notice_recording);
  }
  return null;
}

export function recordingSoundPath(soundsDir: string, id: number): string {
  return path.join(soundsDir, `recording-${id}`);
}

/** The folder of an uploaded music on hold class (musiconhold.conf `directory`), beside the recordings. */
export function musicClassDir(soundsDir: string, name: string): string {
  return path.join(soundsDir, 'moh', name);
}

async function loadFlows(
  kept: ModelRows,
  db: Kysely<Database>,
  soundsDir: string,
): Promise<Pick<PbxModel, 'announcements' | 'ivrs' | 'dayNight' | 'queues' | 'timeConditions' | 'cqrs'>> {
  const [announcements, ivrs, entries, dayNight, queues, members, conditions, ranges, cqrs] = await Promise.all([
    kept.rows(db.selectFrom('announcements').selectAll().orderBy('id')),
    kept.rows(db.selectFrom('ivrs').selectAll().orderBy('id')),
    kept.rows(db.selectFrom('ivr_entries').selectAll().orderBy('ivr_id').orderBy('selection')),
    kept.rows(db.selectFrom('daynight').selectAll().orderBy('ext')),
    kept.rows(db.selectFrom('queues').selectAll().orderBy('extension')),
    // Members without an extension (taken away since) are left out: there is nothing to ring.
    kept.rows(
      db
        .selectFrom('queue_members')
        .innerJoin('users', 'users.id', 'queue_members.user_id')
        .select(['queue_members.queue_id', 'queue_members.kind', 'users.default_extension', 'users.displayname'])
        .where('users.default_extension', 'is not', null)
        .orderBy('users.default_extension'),
    ),
    kept.rows(db.selectFrom('time_conditions').selectAll().orderBy('id')),
    kept.rows(db.selectFrom('time_group_ranges').selectAll().orderBy('group_id').orderBy('position')),
    kept.rows(db.selectFrom('cqrs').select(['id', 'name', 'timeout', 'default_dest']).orderBy('id')),
  ]);
  const rangesOf = new Map<number, { hours: string; weekdays: string; mdays: string; months: string }[]>();
  for (const r of ranges) {
    const range = { hours: r.hours, weekdays: r.weekdays, mdays: r.mdays, months: r.months };
    const list = rangesOf.get(Number(r.group_id));
    if (list) list.push(range);
    else rangesOf.set(Number(r.group_id), [range]);
  }
  const membersOf = new Map<number, (typeof members)[number][]>();
  for (const m of members) {
    const list = membersOf.get(Number(m.queue_id));
    if (list) list.push(m);
    else membersOf.set(Number(m.queue_id), [m]);
  }
  const sound = (id: number | null) => (id === null ? null : recordingSoundPath(soundsDir, Number(id)));
  return {
    announcements: announcements.map((a) => ({
      id: Number(a.id),
      description: a.description,
      recording: sound(a.recording_id),
      allowSkip: Number(a.allow_skip) === 1,
      destination: a.post_dest,
      returnIvr: Number(a.return_ivr) === 1,
      noAnswer: Number(a.noanswer) === 1,
      repeatKey: a.repeat_msg,
    })),
    ivrs: ivrs.map((i) => ({
      id: Number(i.id),
      name: i.name,
      announcement: sound(i.announcement),
      directDial: Number(i.directdial) === 1,
      timeout: Number(i.timeout_time),
      invalidLoops: Number(i.invalid_loops),
      invalidDestination: i.invalid_destination,
      timeoutLoops: Number(i.timeout_loops),
      timeoutDestination: i.timeout_destination,
      entries: entries
        .filter((e) => Number(e.ivr_id) === Number(i.id))
        .map((e) => ({ selection: e.selection, destination: e.dest })),
    })),
    dayNight: dayNight.map((d) => ({
      index: Number(d.ext),
      name: d.name,
      dayDestination: d.day_dest,
      nightDestination: d.night_dest,
    })),
    queues: queues.map((q) => {
      const list = membersOf.get(Number(q.id)) ?? [];
      return {
        number: q.extension,
        name: q.name,
        strategy: q.strategy,
        ringTime: Number(q.ring_time),
        maxWait: Number(q.max_wait),
        failover: q.failover_dest,
        music: q.music,
        announcePosition: Number(q.announce_position) === 1,
        members: list
          .filter((m) => m.kind === 'static')
          .map((m) => ({ extension: m.default_extension as string, name: m.displayname })),
        agents: list.filter((m) => m.kind === 'agent').map((m) => m.default_extension as string),
        recording: q.recording_policy,
      };
    }),
    timeConditions: conditions.map((c) => ({
      id: Number(c.id),
      name: c.name,
      ranges: rangesOf.get(Number(c.time_group_id)) ?? [],
      trueDestination: c.true_dest,
      falseDestination: c.false_dest,
    })),
    cqrs: cqrs.map((c) => ({
      id: Number(c.id),
      name: c.name,
      timeout: Number(c.timeout),
      defaultDestination: c.default_dest,
    })),
  };
}

async function loadRoutes(
  kept: ModelRows,
  db: Kysely<Database>,
  trunkIds: Set<number>,
): Promise<{ outboundRoutes: PbxOutboundRoute[]; inboundRoutes: PbxInboundRoute[] }> {
  const [routes, patterns, routeTrunks, inbound] = await Promise.all([
    kept.rows(db.selectFrom('outbound_routes').selectAll().orderBy('seq').orderBy('id')),
    kept.rows(db.selectFrom('outbound_route_patterns').selectAll().orderBy('route_id').orderBy('position')),
    kept.rows(db.selectFrom('outbound_route_trunks').selectAll().orderBy('route_id').orderBy('position')),
    kept.rows(db.selectFrom('inbound_routes').selectAll().orderBy('id')),
  ]);
  return {
    outboundRoutes: routes.map((r) => ({
      id: Number(r.id),
      name: r.name,
      patterns: patterns
        .filter((p) => Number(p.route_id) === Number(r.id))
        .map((p) => ({ prefix: p.prefix, pass: p.pattern, cid: p.cid, prepend: p.prepend })),
      // A trunk deleted under a route simply drops out of its failover list.
      trunkIds: routeTrunks
        .filter((t) => Number(t.route_id) === Number(r.id) && trunkIds.has(Number(t.trunk_id)))
        .map((t) => Number(t.trunk_id)),
      outcid: r.outcid,
      outcidOverride: false,
      emergency: Number(r.emergency) === 1,
      failover: null,
    })),
    inboundRoutes: inbound.map((r) => ({
      id: Number(r.id),
      did: r.did,
      cid: r.cid,
      description: r.description,
      destination: r.destination,
      cidNamePrefix: '',
      recording: r.recording_policy,
      music: r.music,
    })),
  };
}
