import fs from 'node:fs/promises';
import path from 'node:path';
import type { VoicemailSttStatus } from '@centralino/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { SettingsStore } from '../../db/settings-store.ts';
import { AppError } from '../../errors.ts';
import { notJson, parseServiceAccountKey, VOICEMAIL_STT_SETTING } from './key.ts';

/** Where the service-account key lives: DATA_DIR/google/credentials.json, owner-only (0600, folder 0700). */
export function googleCredentialsPath(dataDir: string): string {
  return path.join(dataDir, 'google', 'credentials.json');
}

/** Largest key file accepted (a Google service-account key is about 2.3 kB). */
const MAX_KEY_BYTES = 64 * 1024;

/**
 * The cloud speech service (contract api-core §17): the Google service-account key (uploaded, checked, stored
 * owner-only, never answered) and the switch that makes voicemail notification e-mails carry the transcription.
 */
export class CloudSpeechService {
  private readonly settings: SettingsStore;

  constructor(
    db: Kysely<Database>,
    private readonly dataDir: string,
  ) {
    this.settings = new SettingsStore(db);
  }

  get credentialsPath(): string {
    return googleCredentialsPath(this.dataDir);
  }

  async credentialsExist(): Promise<boolean> {
    try {
      return (await fs.stat(this.credentialsPath)).isFile();
    } catch {
      return false;
    }
  }

  /** `file`: a data URL (`data:application/json;base64,…`, as the console sends it) or bare base64. */
  async upload(file: string): Promise<void> {
    const comma = file.startsWith('data:') ? file.indexOf(',') : -1;
    if (file.startsWith('data:') && (comma < 0 || !/;base64$/i.test(file.slice(0, comma)))) throw notJson();
    const payload = comma >= 0 ? file.slice(comma + 1) : file;
    if (!/^[A-Za-z0-9+/=\s]*$/.test(payload)) throw notJson();
    const bytes = Buffer.from(payload, 'base64');
    if (bytes.length === 0 || bytes.length > MAX_KEY_BYTES) throw notJson();
    const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
    parseServiceAccountKey(text);
    const target = this.credentialsPath;
    await fs.mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
    await fs.chmod(path.dirname(target), 0o700);
    const temp = `${target}.${process.pid}.${Date.now()}.tmp`;
    const handle = await fs.open(temp, 'w', 0o600);
    try {
      await handle.writeFile(text);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.chmod(temp, 0o600);
    await fs.rename(temp, target);
  }

  async status(): Promise<VoicemailSttStatus> {
    return (await this.settings.get<VoicemailSttStatus>(VOICEMAIL_STT_SETTING)) === 'enabled' ? 'enabled' : 'disabled';
  }

  /** Enabling needs the key file (412 `google_auth_missing` otherwise). */
  async setStatus(status: VoicemailSttStatus): Promise<void> {
    if (status === 'enabled' && !(await this.credentialsExist())) {
      throw new AppError(412, 'google_auth_missing');
    }
    await this.settings.set(VOICEMAIL_STT_SETTING, status);
  }
}
