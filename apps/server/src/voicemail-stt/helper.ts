import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import { post } from '../features/cloud-speech/http.ts';
import { parseMail, wavAttachment, withTranscription } from './mail.ts';

/**
 * The voicemail mail command when transcription is on (contract api-core §17): Asterisk writes the
 * notification e-mail to this helper's standard input; the helper sends the WAV attachment to Centralino over
 * loopback (authenticated by the token Centralino keeps in a file Asterisk's group can read), Centralino
 * transcribes it with Google Speech-to-Text and its own key (which this helper, running as Asterisk, never
 * reads), and the helper hands the e-mail, with the text added, to sendmail. Whatever goes wrong (no token,
 * no attachment, Centralino refusing, failing or taking too long), the e-mail is sent as it came: a message is
 * never lost for its transcription.
 */

export interface HelperOptions {
  /** Centralino's transcription call, on loopback. */
  url: string;
  /** The file with the token (one line). */
  tokenFile: string;
  languageCode: string;
  /** The command the e-mail is handed to, split on spaces (default `/usr/sbin/sendmail -t`). */
  sendmail: string[];
  timeoutMs: number;
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
    const token = (await fs.readFile(options.tokenFile, 'utf8')).trim();
    const res = await post(
      options.url,
      JSON.stringify({ language: options.languageCode, audio: wav.toString('base64') }),
      { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      { deadline },
    );
    if (res.status !== 200) {
      let detail = '';
      try {
        detail = `: ${(JSON.parse(res.text) as { detail?: string }).detail ?? ''}`;
      } catch {}
      throw new Error(`Centralino answered ${res.status}${detail}`);
    }
    const text = (JSON.parse(res.text) as { text?: unknown }).text;
    if (typeof text !== 'string' || text === '') {
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

export function parseArgs(argv: string[]): Omit<HelperOptions, 'log'> {
  const value = (name: string) => {
    const at = argv.indexOf(name);
    return at >= 0 ? argv[at + 1] : undefined;
  };
  const url = value('--url');
  const tokenFile = value('--token-file');
  if (!url || !tokenFile) throw new Error('--url <transcription call> and --token-file <file> are required');
  return {
    url,
    tokenFile,
    languageCode: value('--language') ?? 'en-US',
    sendmail: (value('--sendmail') ?? '/usr/sbin/sendmail -t').split(' ').filter((s) => s !== ''),
    timeoutMs: Number(value('--timeout-ms') ?? 30_000),
  };
}
