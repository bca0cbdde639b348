import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import { parseServiceAccountKey } from '../features/cloud-speech/key.ts';
import { accessToken, recognize } from './google.ts';
import { parseMail, wavAttachment, wavFormat, withTranscription } from './mail.ts';

/**
 * The voicemail mail command when transcription is on (contract api-core §17): Asterisk writes the
 * notification e-mail to this helper's standard input; the helper transcribes the WAV attachment with Google
 * Speech-to-Text and hands the e-mail, with the text added, to sendmail. Whatever goes wrong (no key, no
 * attachment, the token or the recognition failing or taking too long), the e-mail is sent as it came: a
 * message is never lost for its transcription.
 */

export interface HelperOptions {
  keyFile: string;
  languageCode: string;
  /** The command the e-mail is handed to, split on spaces (default `/usr/sbin/sendmail -t`). */
  sendmail: string[];
  speechUrl: string;
  timeoutMs: number;
  ca?: string;
  /** Where problems are reported (standard error in production, so Asterisk's log has them). */
  log: (line: string) => void;
}

export function labelFor(languageCode: string): string {
  return languageCode.toLowerCase().startsWith('it') ? 'Trascrizione del messaggio:' : 'Message transcription:';
}

/** The e-mail to send: with the transcription, or the original when it cannot be had. */
export async function transcribeMail(original: string, options: HelperOptions): Promise<string> {
  const deadline = Date.now() + options.timeoutMs;
  try {
    const mail = parseMail(original);
    const wav = wavAttachment(mail);
    if (!wav) {
      options.log('voicemail-stt: no WAV attachment, e-mail sent without transcription');
      return original;
    }
    const format = wavFormat(wav);
    if (format?.bits !== 16) {
      options.log('voicemail-stt: the attachment is not 16-bit PCM WAV, e-mail sent without transcription');
      return original;
    }
    const key = parseServiceAccountKey(await fs.readFile(options.keyFile, 'utf8'));
    const http = { deadline, ...(options.ca ? { ca: options.ca } : {}) };
    const token = await accessToken(key, http);
    const text = await recognize(
      options.speechUrl,
      token,
      { wav, sampleRate: format.sampleRate, channels: format.channels, languageCode: options.languageCode },
      http,
    );
    if (text === '') {
      options.log('voicemail-stt: nothing recognised, e-mail sent without transcription');
      return original;
    }
    return withTranscription(mail, labelFor(options.languageCode), text);
  } catch (error) {
    options.log(`voicemail-stt: transcription failed (${(error as Error).message}), e-mail sent without it`);
    return original;
  }
}

/** Hands the e-mail to sendmail; resolves with its exit code. */
export function sendMail(command: string[], message: string): Promise<number> {
  return new Promise((resolve) => {
    const [file, ...args] = command;
    const child = spawn(file as string, args, { stdio: ['pipe', 'inherit', 'inherit'] });
    child.on('error', () => resolve(75));
    child.on('close', (code) => resolve(code ?? 75));
    child.stdin.on('error', () => undefined);
    child.stdin.end(message);
  });
}

export function parseArgs(argv: string[]): Omit<HelperOptions, 'log'> & { caFile?: string } {
  const value = (name: string) => {
    const at = argv.indexOf(name);
    return at >= 0 ? argv[at + 1] : undefined;
  };
  const keyFile = value('--key');
  if (!keyFile) throw new Error('--key <service-account file> is required');
  const caFile = value('--ca');
  return {
    keyFile,
    languageCode: value('--language') ?? 'en-US',
    sendmail: (value('--sendmail') ?? '/usr/sbin/sendmail -t').split(' ').filter((s) => s !== ''),
    speechUrl: value('--speech-url') ?? 'https://speech.googleapis.com',
    timeoutMs: Number(value('--timeout-ms') ?? 30_000),
    ...(caFile ? { caFile } : {}),
  };
}
