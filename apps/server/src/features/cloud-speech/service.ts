import fs from 'node:fs/promises';
import path from 'node:path';
import type { VoicemailSttStatus } from '@centralino/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { SettingsStore } from '../../db/settings-store.ts';
import { AppError } from '../../errors.ts';
import { accessToken, recognize, wavFormat } from './google.ts';
import { notJson, parseServiceAccountKey, VOICEMAIL_STT_SETTING } from './key.ts';

/** Where the service-account key lives: DATA_DIR/google/credentials.json, owner-only (0600, folder 0700). */
export function googleCredentialsPath(dataDir: string): string {
  return path.join(dataDir, 'google', 'credentials.json');
}

/** Where Google is reached; tests point it at a loopback double. */
export interface GoogleSpeechOptions {
  /** Speech-to-Text's base URL (default https://speech.googleapis.com). */
  speechUrl?: string;
  /** Extra certificate authorities (PEM) for the token and speech endpoints. */
  ca?: string;
  /** How long a transcription may take, token included (default 25 s: the mail command waits 30). */
  timeoutMs?: number;
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
    private readonly google: GoogleSpeechOptions = {},
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

  /**
   * The text of a voicemail message (a 16-bit PCM WAV), with the stored key: a token for the service account,
   * then speech:recognize. '' when nothing was recognised; 412 without a key, 502 when Google fails or is late.
   */
  async transcribe(wav: Buffer, languageCode: string): Promise<string> {
    const format = wavFormat(wav);
    if (format?.bits !== 16) {
      throw new AppError(400, 'validation', (lang) =>
        lang === 'it' ? "L'audio non è un WAV PCM a 16 bit." : 'The audio is not a 16-bit PCM WAV.',
      );
    }
    let keyText: string;
    try {
      keyText = await fs.readFile(this.credentialsPath, 'utf8');
    } catch {
      throw new AppError(412, 'google_auth_missing');
    }
    const key = parseServiceAccountKey(keyText);
    const http = {
      deadline: Date.now() + (this.google.timeoutMs ?? 25_000),
      ...(this.google.ca ? { ca: this.google.ca } : {}),
    };
    try {
      const token = await accessToken(key, http);
      return await recognize(
        this.google.speechUrl ?? 'https://speech.googleapis.com',
        token,
        { wav, sampleRate: format.sampleRate, channels: format.channels, languageCode },
        http,
      );
    } catch (error) {
      const reason = (error as Error).message;
      throw new AppError(502, 'voicemail_stt_failed', (lang) =>
        lang === 'it' ? `Trascrizione non riuscita: ${reason}.` : `Transcription failed: ${reason}.`,
      );
    }
  }
}
