import type { Generated } from 'kysely';

/** Times are milliseconds since the epoch, stored as bigint on both databases. */
export interface AdminsTable {
  username: string;
  password_hash: string;
  created_at: number;
  updated_at: number;
}

export interface SessionsTable {
  /** SHA-256 of the secret key: the key itself is never stored. */
  key_hash: string;
  username: string;
  created_at: number;
  last_seen_at: number;
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
}

export interface Database {
  admins: AdminsTable;
  sessions: SessionsTable;
  wizard: WizardTable;
  settings: SettingsTable;
  users: UsersTable;
  jobs: JobsTable;
  cti_profiles: CtiProfilesTable;
  cti_profile_macros: CtiProfileMacrosTable;
  cti_profile_permissions: CtiProfilePermissionsTable;
  cti_profile_routes: CtiProfileRoutesTable;
  cti_groups: CtiGroupsTable;
  cti_user_groups: CtiUserGroupsTable;
  trunks: TrunksTable;
}
