import type { Generated } from 'kysely';

/** Times are milliseconds since the epoch, stored as bigint on both databases. */
export interface AdminsTable {
  username: string;
  password_hash: string;
  created_at: number;
  updated_at: number;
  /** Migration 0024: `admin` may change things, `readonly` may only look (every write answers 403). */
  role: Generated<string>;
  /** Base32 TOTP secret; set at enrolment, used once totp_enabled_at is set. */
  totp_secret: string | null;
  totp_enabled_at: number | null;
  /** The last accepted TOTP time step (a code is accepted once). */
  totp_last_step: number | null;
  /** Migration 0035: a `readonly` account may listen to call recordings (an admin always may). */
  listen_recordings: Generated<number>;
}

/** Recovery codes of an administrator's second factor, SHA-256 hashed; a used one is deleted. */
export interface AdminRecoveryCodesTable {
  username: string;
  code_hash: string;
}

/** A sign-in waiting for its second factor: the password was right (migration 0024). */
export interface LoginChallengesTable {
  token_hash: string;
  username: string;
  created_at: number;
}

/** One audited event: a change through the API, a sign-in, a failed sign-in, a sign-out (migration 0024). */
export interface AuditLogTable {
  id: string;
  at: number;
  actor: string;
  address: string;
  action: string;
  method: string;
  path: string;
  object: string;
  status: number;
  /** JSON text, secrets redacted. */
  changes: string;
}

export interface SessionsTable {
  /** SHA-256 of the secret key: the key itself is never stored. */
  key_hash: string;
  username: string;
  created_at: number;
  last_seen_at: number;
}

/** Per-account sign-in throttle (migration 0012): one row per typed user name with recent failures. */
export interface LoginThrottleTable {
  /** SHA-256 (hex) of the trimmed, lower-cased user name as typed; the name itself is never stored. */
  account_hash: string;
  /** Consecutive failed (or still pending) sign-ins since the last success. */
  failures: number;
  /** Epoch ms before which sign-ins to this account are refused; 0 when not locked. */
  locked_until: number;
  updated_at: number;
}

export interface WizardTable {
  /** Always 1: the wizard has a single state row. */
  id: number;
  step: number;
  status: 'true' | 'false';
}

export interface SettingsTable {
  key: string;
  /** JSON-encoded value. */
  value: string;
}

export interface UsersTable {
  id: Generated<number>;
  /** Migration 0035: `always`, `never` or `on_demand` (`*1`); see docs/architecture.md, Call recordings. */
  recording_policy: Generated<'always' | 'never' | 'on_demand'>;
  /** Migration 0040: null = the CTI profile's (every class); else allowed outbound classes joined by ',' ('' internal). */
  call_permission: Generated<string | null>;
  username: string;
  displayname: string;
  fname: string | null;
  lname: string | null;
  email: string | null;
  /** 'local' for the built-in directory, 'ldap' for users mirrored from an external one. */
  source: 'local' | 'ldap';
  /** Salted SHA-512 in LDAP {SSHA512} form, for the built-in directory only. */
  password_hash: string | null;
  /** Last password set through the console, kept because the final report and export show it (spec). */
  password_clear: string | null;
  /** Main extension; null when the user is not configured ('none' in the API). */
  default_extension: string | null;
  /** Numeric value of default_extension, UNCONFIGURED_ORDER when none: the index behind number sorting. */
  extension_order: number;
  outboundcid: string | null;
  mobile: string | null;
  voicemail_pin: string | null;
  profile_id: number | null;
  /** Seconds a call rings before the no-answer destination; 0 = the system default. */
  ring_time: Generated<number>;
  /** 1 = a second call rings a busy user (the default); a phone's *70/*71 (AstDB CW) overrides it. */
  call_waiting: Generated<number>;
  /** Numeric call and pickup groups, '1,3-5' ('' = none). */
  call_group: Generated<string>;
  pickup_group: Generated<string>;
  /** Destinations ('context,exten,priority') when busy, not answered, unreachable; null = voicemail or busy tone. */
  busy_dest: string | null;
  noanswer_dest: string | null;
  unavailable_dest: string | null;
  /** Lower-cased username, name and extension, so search is one indexed-friendly LIKE on both databases. */
  search_key: string;
  created_at: number;
  updated_at: number;
}

export type JobStatus = 'running' | 'done' | 'failed';

export interface JobsTable {
  id: string;
  kind: string;
  status: JobStatus;
  progress: number;
  /** What the job is doing now (shown while it runs). */
  action: string;
  /** JSON of the job's outcome (per-item results). */
  result: string | null;
  error: string | null;
  created_at: number;
  updated_at: number;
  /** The process running it (jobs/claim.ts); null on rows from before migration 0027. */
  owner: string | null;
  /** When that process last said it is alive. */
  heartbeat_at: number | null;
  /** The kind, while a job that allows no second of its kind runs (unique); null otherwise. */
  exclusive_key: string | null;
}

export interface CtiProfilesTable {
  id: Generated<number>;
  name: string;
}
export interface CtiProfileMacrosTable {
  profile_id: number;
  macro: string;
}
export interface CtiProfilePermissionsTable {
  profile_id: number;
  permission: string;
}
export interface CtiProfileRoutesTable {
  profile_id: number;
  route_id: number;
  /** 1 allowed, 0 denied. */
  permission: number;
}
export interface CtiGroupsTable {
  id: Generated<number>;
  name: string;
}
export interface CtiUserGroupsTable {
  user_id: number;
  group_id: number;
}

export interface TrunksTable {
  id: Generated<number>;
  /** Channel id of the trunk in the PBX; unique. */
  name: string;
  /** 'voip' for a provider account, 'gateway' for a port of a physical gateway. */
  kind: 'voip' | 'gateway';
  /** Provider key of the catalogue (VoIP), or the gateway vendor. */
  provider: string | null;
  username: string | null;
  /** The provider account password: the PBX must send it, so it cannot be hashed; never answered by the API. */
  secret: string | null;
  /** The line's number, used as outbound caller id. */
  phone: string | null;
  /** Comma-separated codec list in order of preference. */
  codecs: string;
  force_codec: number;
  /** JSON object of PJSIP settings from the provider template (keyword → value). */
  settings: string;
  gateway_id: number | null;
  /** fxo, isdn or pri for gateway ports. */
  port_type: string | null;
  port: string | null;
  created_at: number;
  updated_at: number;
  /** Migration 0041: the music class of its calls on hold. */
  music: Generated<string>;
}

export interface OutboundRoutesTable {
  id: Generated<number>;
  name: string;
  /** Priority: lower first. */
  seq: number;
  outcid: string;
  emergency: number;
  created_at: number;
  updated_at: number;
}
export interface OutboundRoutePatternsTable {
  route_id: number;
  position: number;
  prepend: string;
  prefix: string;
  pattern: string;
  cid: string;
}
export interface OutboundRouteTrunksTable {
  route_id: number;
  trunk_id: number;
  /** Failover order within the route. */
  position: number;
}
export interface InboundRoutesTable {
  id: Generated<number>;
  /** '' matches any DID. */
  did: string;
  /** '' matches any caller. */
  cid: string;
  description: string;
  /** context,exten,priority */
  destination: string;
  /** Migration 0035: `always`, `never` or `on_demand` (`*1`); see docs/architecture.md, Call recordings. */
  recording_policy: Generated<'always' | 'never' | 'on_demand'>;
  /** Migration 0041: the music class callers hear instead of ringing; null: ringing. */
  music: Generated<string | null>;
}

export interface GatewaysTable {
  id: Generated<number>;
  model_id: number;
  name: string;
  manufacturer: string;
  /** Upper-case, colon-separated; unique. */
  mac: string;
  /** Address the device has now (where push reaches it); empty for a gateway added by hand. */
  ipv4: string;
  /** Address the generated file gives the device. */
  ipv4_new: string;
  gateway: string;
  /** PBX address written into the file. */
  ipv4_green: string;
  netmask_green: string;
  proxy: string;
  created_at: number;
  updated_at: number;
}

export interface GatewayPortsTable {
  gateway_id: number;
  port_type: 'isdn' | 'pri' | 'fxo' | 'fxs';
  /** 0-based position among the gateway's ports of this type. */
  port_index: number;
  /** The port's trunk (ISDN, PRI, FXO). */
  trunk_id: number | null;
  /** Prefix the PBX dials before the number to reach this port (the trunk's dialoutprefix). */
  trunk_number: string | null;
  /** ISDN: pp or pmp. */
  protocol: string | null;
  /** FXO: the analog line's number. */
  number: string | null;
  /** FXS: the linked user's main extension, null when the port is free. */
  extension: string | null;
  /** FXS: the device number made for the port (9N + main extension). */
  physical_extension: string | null;
  /** FXS: SIP secret of that device (trunk secrets live in trunks). */
  secret: string | null;
}

export interface PbxSecretsTable {
  extension: string;
  secret: string;
}
/** Single row (id 1): see pbx/apply.ts. */
export interface PbxApplyTable {
  id: number;
  generation: number;
  applied_generation: number;
  /** JSON of the last apply record. */
  last: string | null;
  /** The server process that wrote the files last (migration 0027): another one's memory of them is stale. */
  applied_by: string | null;
}

export interface DevicesTable {
  id: Generated<number>;
  /** Owner; null for a phone in the inventory that is not linked. */
  user_id: number | null;
  /** AA:BB:CC:DD:EE:FF for hardware phones; null for custom devices and softphones. */
  mac: string | null;
  vendor: string | null;
  model: string | null;
  line: number;
  /** Device extension (N or P‖N); null while unlinked. */
  extension: string | null;
  /** SIP password of the device extension: random, sent to the device, so not hashed. */
  secret: string | null;
  web_user: string | null;
  web_password: string | null;
  type: 'physical' | 'temporaryphysical' | 'webrtc' | 'mobile' | 'nethlink';
  /** 1 TLS + SRTP, 0 clear, null unset. */
  srtp: number | null;
  created_at: number;
}

/** Writable provisioning scopes: 'defaults' and models (rw copies of shipped ones, and custom ones). */
export interface ProvScopesTable {
  id: string;
  scope_type: 'defaults' | 'model';
  display_name: string | null;
  /** JSON object of string values. */
  variables: string;
  created_at: number;
  updated_at: number;
}

export interface ProvPhonesTable {
  /** Canonical MAC AA-BB-CC-DD-EE-FF. */
  mac: string;
  model: string | null;
  display_name: string;
  /** JSON object of the phone's own variables. */
  variables: string;
  /** JSON array of the SIP accounts the PBX gives the phone (see provisioning/accounts.ts). */
  accounts: string;
  /** First-access token; null once a steady-state fetch retired it. */
  tok1: string | null;
  tok2: string;
  created_at: number;
  updated_at: number;
}

export interface ProvFilesTable {
  collection: 'firmware' | 'ringtones' | 'backgrounds' | 'screensavers';
  /** Name given at upload; the bytes are stored under stored_name. */
  name: string;
  stored_name: string;
  size: number;
  /** Seconds since the epoch. */
  mtime: number;
}

/** Single row (id 1): bumped on every provisioning write so each process drops its file cache. */
export interface ProvStateTable {
  id: number;
  generation: number;
}

/** A delayed reboot: fired once at the next hours:minutes of the server's local time. */
export interface PhoneRebootsTable {
  /** AA:BB:CC:DD:EE:FF, as in devices.mac. */
  mac: string;
  hours: number;
  minutes: number;
  created_at: number;
}

export interface PhonebookSourcesTable {
  id: string;
  dbtype: string;
  /** JSON: host, port, user, dbname, query (mysql) or url (csv); never the password. */
  config: string;
  password: string | null;
  /** JSON: source column → destination field. */
  mapping: string;
  type: string;
  interval: number;
  enabled: number;
  /** Name of the uploaded CSV under DATA_DIR/phonebook, removed with the source. */
  file: string | null;
  last_sync_at: number | null;
  last_sync_count: number | null;
  /** When a process took the scheduled sync (the others skip the source until it is due again). */
  sync_claimed_at: number | null;
  last_sync_skipped: number | null;
  last_sync_error: string | null;
  /** The source_id its current contacts carry (a sync fills a new key, then switches to it). */
  contacts_key: string | null;
  created_at: number;
}

/** A contact of the central phonebook; `source_id` is its source's id. */
export type PhonebookContactsTable = { id: Generated<number>; source_id: string } & {
  [K in
    | 'owner_id'
    | 'type'
    | 'name'
    | 'company'
    | 'title'
    | 'notes'
    | 'cellphone'
    | 'workphone'
    | 'homephone'
    | 'fax'
    | 'workemail'
    | 'homeemail'
    | 'homestreet'
    | 'homepob'
    | 'homecity'
    | 'homeprovince'
    | 'homepostalcode'
    | 'homecountry'
    | 'workstreet'
    | 'workpob'
    | 'workcity'
    | 'workprovince'
    | 'workpostalcode'
    | 'workcountry'
    | 'url']?: string | null;
};

/** One row: a counter every change to `users` moves (triggers; migration 0016). */
export interface UsersVersionTable {
  id: number;
  n: number | string;
}

/** A change counter per table the PBX configuration is read from (migration 0031, pbx/model-rows.ts). */
export interface TableVersionsTable {
  name: string;
  n: number | string;
  /** Log entries (`row_changes`) up to this value may be gone (migration 0032). */
  forgotten: Generated<number | string>;
}

/** The key of a row changed in a table of LOGGED_ROWS, with that table's counter value (migration 0032). */
export interface RowChangesTable {
  name: string;
  version: number | string;
  key: string;
}

/** A customer-card source (migration 0017); `builtin` rows are Centralino's own database. */
export interface CardSourcesTable {
  id: Generated<number>;
  name: string;
  type: string;
  host: string | null;
  port: number | null;
  user: string | null;
  password: string | null;
  builtin: number;
  created_at: number;
}

export interface CardTemplatesTable {
  name: string;
  custom: number;
  builtin: number;
  html: string;
  created_at: number;
  updated_at: number;
}

/** Asterisk's standard CDR columns (migration 0018), one row per call leg as the PBX reports it over AMI. */
export interface CdrTable {
  id: Generated<number>;
  /** When the call started, Asterisk's local time as 'YYYY-MM-DD HH:MM:SS'. */
  calldate: string;
  clid: string;
  src: string;
  dst: string;
  dcontext: string;
  channel: string;
  dstchannel: string;
  lastapp: string;
  lastdata: string;
  duration: number;
  billsec: number;
  disposition: string;
  amaflags: number;
  accountcode: string;
  uniqueid: string;
  userfield: string;
  /** Caller number, name and company split from the older system's userfield (migration 0023). */
  cnum: Generated<string>;
  cnam: Generated<string>;
  ccompany: Generated<string>;
  /** The call's linked id (migration 0034): the legs of one call share it; '' on records copied from an older system. */
  linkedid: Generated<string>;
  sequence: Generated<number>;
  did: Generated<string>;
  recordingfile: Generated<string>;
}

/** One call of the history, derived from its call records (features/calls/indexer.ts, migration 0034). */
export interface CallsTable {
  id: Generated<number>;
  call_key: string;
  at: number;
  direction: 'inbound' | 'outbound' | 'internal';
  caller: string;
  caller_name: string;
  called: string;
  answered_by: string;
  trunk: string;
  queue: string;
  wait: number;
  talk: number;
  result: 'answered' | 'missed' | 'busy' | 'failed' | 'voicemail';
  recording: string;
  migrated: number;
  legs: number;
  /** Migration 0035: when the retention removed the recording's file (its row then says so). */
  recording_deleted_at: Generated<number | null>;
}

/** Single row (id 1): every call record up to `last_cdr_id` is in `calls`. */
export interface CallIndexTable {
  id: number;
  last_cdr_id: number;
}

export interface CustomerCardsTable {
  id: Generated<number>;
  name: string;
  permission: string;
  query: string;
  /** card_templates.name (without `_custom`). */
  template: string;
  dbconn_id: number;
  created_at: number;
}

/** A parameterised URL (migration 0019); its profiles are rows of paramurl_profiles. */
export interface ParamUrlsTable {
  id: Generated<number>;
  url: string;
  only_queues: number;
  created_at: number;
}

export interface ParamUrlProfilesTable {
  profile_id: number;
  paramurl_id: number;
}

/** A streaming (video) source (migration 0019); profiles hold its `permission` in cti_profile_permissions. */
export interface StreamingSourcesTable {
  id: Generated<number>;
  descr: string;
  permission: string;
  url: string;
  exten: string;
  open: string;
  created_at: number;
}

/** Call flows (migration 0020). */
export interface RecordingsTable {
  id: Generated<number>;
  displayname: string;
  description: Generated<string>;
  /** 8 kHz mono 16-bit WAV. */
  audio: Buffer;
  duration_ms: number;
  fcode: Generated<number>;
  fcode_pass: Generated<string>;
  created_at: number;
  updated_at: number;
}

export interface AnnouncementsTable {
  id: Generated<number>;
  description: string;
  recording_id: number | null;
  allow_skip: number;
  post_dest: string;
  return_ivr: number;
  noanswer: number;
  repeat_msg: string;
}

export interface IvrsTable {
  id: Generated<number>;
  name: string;
  description: string;
  /** recordings.id played as the menu. */
  announcement: number | null;
  directdial: number;
  timeout_time: number;
  invalid_loops: number;
  invalid_destination: string;
  timeout_loops: number;
  timeout_destination: string;
}

export interface IvrEntriesTable {
  ivr_id: number;
  selection: string;
  dest: string;
}

/** Day/night switches (migration 0021). */
export interface DayNightTable {
  /** 0–9: feature code *28<ext>, AstDB key DAYNIGHT/C<ext>. */
  ext: number;
  name: string;
  day_dest: string;
  night_dest: string;
}

/** A call queue (issue 26, migration 0022): ext-queues,<extension>,1; queues.conf section [<extension>]. */
export interface QueuesTable {
  id: Generated<number>;
  extension: string;
  name: string;
  strategy: string;
  ring_time: number;
  max_wait: number;
  failover_dest: string;
  music: string;
  announce_position: number;
  /** Migration 0035: `always`, `never` or `on_demand` (`*1`); see docs/architecture.md, Call recordings. */
  recording_policy: Generated<'always' | 'never' | 'on_demand'>;
}

/** A conference room (issue 42, migration 0038): ext-meetme,<extension>,1; confbridge.conf profiles conf-<extension>-*. */
export interface ConferencesTable {
  id: Generated<number>;
  extension: string;
  name: string;
  user_pin: string | null;
  admin_pin: string | null;
  max_members: number;
  music_when_alone: number;
  announce_join_leave: number;
  record: number;
  /** Migration 0041: the music class played while alone. */
  music_class: Generated<string>;
}

/** A music on hold class of uploaded audio (issue 42, migration 0041); `default` has no row. */
export interface MusicClassesTable {
  id: Generated<number>;
  name: string;
  play_order: string;
  created_at: number;
  updated_at: number;
}

export interface MusicFilesTable {
  id: Generated<number>;
  class_id: number;
  name: string;
  /** 8 kHz mono 16-bit WAV, as recordings. */
  audio: Buffer;
  duration_ms: number;
  created_at: number;
}

/** A parking lot (issue 42 item 2, migration 0039): res_parking.conf lot park-<id>; app-parking,<extension>,1. */
export interface ParkingLotsTable {
  id: Generated<number>;
  extension: string;
  name: string;
  first_slot: string;
  slots: number;
  timeout: number;
  /** null: back to whoever parked the call. */
  timeout_dest: string | null;
  music_class: Generated<string>;
}

/** A blocked caller (issue 42 item 7, migration 0040). */
export interface BlockedCallersTable {
  id: Generated<number>;
  match: 'number' | 'prefix' | 'anonymous';
  /** '' for anonymous callers. */
  number: string;
  description: Generated<string>;
  response: 'busy' | 'not_available' | 'recording' | 'destination';
  recording_id: number | null;
  destination: string | null;
  /** 1: every inbound route; 0: those in blocked_caller_routes. */
  all_routes: Generated<number>;
}

export interface BlockedCallerRoutesTable {
  blocked_id: number;
  route_id: number;
}

export interface QueueMembersTable {
  queue_id: number;
  user_id: number;
  /** 'static': always a member; 'agent': may log in and out with the feature code. */
  kind: string;
}

/** A ring group (issue 42, migration 0037): ext-group,<extension>,1. */
export interface RingGroupsTable {
  id: Generated<number>;
  extension: string;
  name: string;
  /** ringall, hunt, memoryhunt or random. */
  strategy: string;
  ring_time: number;
  /** 1: an outside number that answers must press 1 first. */
  confirm_external: Generated<number>;
  failover_dest: string;
  /** always, never or on_demand (migration 0043), as a queue's. */
  recording_policy: Generated<string>;
}

/** One member of a ring group in ring order: a user or an outside number (exactly one of the two is set). */
/** A user's follow-me (issue 42, migration 0042): after pre_ring seconds of the user's own phones, the list rings. */
export interface FollowMeTable {
  user_id: number;
  enabled: number;
  pre_ring: number;
  strategy: 'hunt' | 'ringall';
  confirm_external: number;
}

/** One number of a follow-me list: a user (target_user_id) or an outside number (external). */
export interface FollowMeLegsTable {
  user_id: number;
  position: number;
  target_user_id: number | null;
  external: string | null;
  ring_time: number;
}

export interface RingGroupMembersTable {
  ring_group_id: number;
  position: number;
  user_id: number | null;
  external: string | null;
}

export interface TimeGroupsTable {
  id: Generated<number>;
  name: string;
}

/** One GotoIfTime range of a time group: '*' or a value or range per field. */
export interface TimeGroupRangesTable {
  group_id: number;
  position: number;
  hours: string;
  weekdays: string;
  mdays: string;
  months: string;
}

export interface TimeConditionsTable {
  id: Generated<number>;
  name: string;
  time_group_id: number;
  true_dest: string;
  false_dest: string;
}

export interface CqrsTable {
  id: Generated<number>;
  name: string;
  source_id: number;
  query: string;
  timeout: number;
  default_dest: string;
}

export interface CqrEntriesTable {
  cqr_id: number;
  position: number;
  value: string;
  dest: string;
}

export interface BackupRunsTable {
  slot: string;
  started_at: number;
  finished_at: number | null;
  file: string | null;
  error: string | null;
}

export interface Database {
  admins: AdminsTable;
  sessions: SessionsTable;
  login_throttle: LoginThrottleTable;
  admin_recovery_codes: AdminRecoveryCodesTable;
  login_challenges: LoginChallengesTable;
  audit_log: AuditLogTable;
  wizard: WizardTable;
  settings: SettingsTable;
  users: UsersTable;
  users_version: UsersVersionTable;
  table_versions: TableVersionsTable;
  row_changes: RowChangesTable;
  jobs: JobsTable;
  cti_profiles: CtiProfilesTable;
  cti_profile_macros: CtiProfileMacrosTable;
  cti_profile_permissions: CtiProfilePermissionsTable;
  cti_profile_routes: CtiProfileRoutesTable;
  cti_groups: CtiGroupsTable;
  cti_user_groups: CtiUserGroupsTable;
  trunks: TrunksTable;
  gateways: GatewaysTable;
  gateway_ports: GatewayPortsTable;
  outbound_routes: OutboundRoutesTable;
  outbound_route_patterns: OutboundRoutePatternsTable;
  outbound_route_trunks: OutboundRouteTrunksTable;
  inbound_routes: InboundRoutesTable;
  devices: DevicesTable;
  phone_reboots: PhoneRebootsTable;
  pbx_secrets: PbxSecretsTable;
  pbx_apply: PbxApplyTable;
  prov_scopes: ProvScopesTable;
  prov_phones: ProvPhonesTable;
  prov_files: ProvFilesTable;
  prov_state: ProvStateTable;
  phonebook_sources: PhonebookSourcesTable;
  phonebook_contacts: PhonebookContactsTable;
  card_sources: CardSourcesTable;
  card_templates: CardTemplatesTable;
  customer_cards: CustomerCardsTable;
  cdr: CdrTable;
  paramurls: ParamUrlsTable;
  paramurl_profiles: ParamUrlProfilesTable;
  streaming_sources: StreamingSourcesTable;
  recordings: RecordingsTable;
  announcements: AnnouncementsTable;
  ivrs: IvrsTable;
  ivr_entries: IvrEntriesTable;
  daynight: DayNightTable;
  queues: QueuesTable;
  queue_members: QueueMembersTable;
  ring_groups: RingGroupsTable;
  ring_group_members: RingGroupMembersTable;
  followme: FollowMeTable;
  followme_legs: FollowMeLegsTable;
  time_groups: TimeGroupsTable;
  time_group_ranges: TimeGroupRangesTable;
  time_conditions: TimeConditionsTable;
  cqrs: CqrsTable;
  cqr_entries: CqrEntriesTable;
  backup_runs: BackupRunsTable;
  migration_report: MigrationReportTable;
  migration_cdr: MigrationCdrTable;
  cdr_spool: CdrSpoolTable;
  calls: CallsTable;
  call_index: CallIndexTable;
  queue_log: QueueLogTable;
  queue_log_spool: QueueLogSpoolTable;
  conferences: ConferencesTable;
  parking_lots: ParkingLotsTable;
  music_classes: MusicClassesTable;
  music_files: MusicFilesTable;
  blocked_callers: BlockedCallersTable;
  blocked_caller_routes: BlockedCallerRoutesTable;
}

/** One event of Asterisk's queue log (pbx/queue-log.ts, migration 0036). */
export interface QueueLogTable {
  id: Generated<number>;
  at: number;
  callid: string;
  queue: string;
  agent: string;
  event: string;
  wait: number;
  talk: number;
  data: string;
}

/** How far the console has read each queue-log spool file (migration 0036). */
export interface QueueLogSpoolTable {
  name: string;
  file_id: string;
  offset: number;
}

/** Errors and warnings of the migration steps (migration 0023). */
export interface MigrationReportTable {
  id: Generated<number>;
  step: string;
  type: 'errors' | 'warnings' | 'infos';
  /** The line in English, as first written. */
  message: string;
  /** Catalogue key of the line (features/migration/messages.ts), null on rows older than migration 0030. */
  message_key: string | null;
  /** Its parameters as JSON, null when it has none. */
  params: string | null;
  created_at: number;
}

/** How far the console has read each call-record spool file of Asterisk (migration 0029). */
export interface CdrSpoolTable {
  name: string;
  file_id: string;
  offset: number;
}

/** Single row (id 1): where the call-record copy is. */
export interface MigrationCdrTable {
  id: number;
  last_id: number;
  copied: number;
  total: number;
  state: 'running' | 'done' | 'failed';
  error: string | null;
  updated_at: number;
  /** The process copying (jobs/claim.ts). */
  owner: string | null;
  heartbeat_at: number | null;
}
