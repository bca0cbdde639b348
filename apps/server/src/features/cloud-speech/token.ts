import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { ensureReadableDir, writeAtomically } from '../../pbx/write-files.ts';

/** Where the mail command's token lives: beside Asterisk's TLS key, in <ASTERISK_CONFIG_DIR>/keys. */
export function voicemailSttTokenPath(configDir: string): string {
  return path.join(configDir, 'keys', 'voicemail-stt.token');
}

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/**
 * The voicemail mail command's credential for Centralino's loopback transcription call: 32 random bytes made
 * once per install, kept in a file 0640 owned by Asterisk's group (the mail command runs as Asterisk; the
 * Google key itself stays owner-only and never leaves the server).
 */
export class VoicemailSttToken {
  private value: Promise<string> | undefined;

  constructor(
    readonly file: string,
    private readonly gid: number | null,
  ) {}

  /**
   * The token, the file written once per process: an existing token is kept (Asterisk may be running a mail
   * command with it) and its file given back the group and mode it needs.
   */
  ensure(): Promise<string> {
    this.value ??= this.make().catch((error: unknown) => {
      this.value = undefined;
      throw error;
    });
    return this.value;
  }

  private async make(): Promise<string> {
    const stored = (await fs.readFile(this.file, 'utf8').catch(() => '')).trim();
    const token = TOKEN.test(stored) ? stored : randomBytes(32).toString('base64url');
    await ensureReadableDir(path.dirname(this.file), this.gid);
    await writeAtomically(this.file, `${token}\n`, this.gid);
    return token;
  }

  /** Constant-time comparison (of digests, so the length does not show either); false without a token. */
  async matches(candidate: string | undefined): Promise<boolean> {
    if (!candidate) return false;
    let token: string;
    try {
      token = await this.ensure();
    } catch {
      return false;
    }
    const digest = (value: string) => createHash('sha256').update(value).digest();
    return timingSafeEqual(digest(token), digest(candidate));
  }
}
