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

export interface Database {
  admins: AdminsTable;
  sessions: SessionsTable;
  wizard: WizardTable;
  settings: SettingsTable;
}
