import path from 'node:path';
import { ensureSpoolDir } from './write-files.ts';

/**
 * Recording a sound from a phone (*77, issue 26): Asterisk records into a spool folder, then asks the console over
 * loopback to take the file in (the same loopback call and token as the voicemail transcription: one way for
 * "Asterisk calls the console"). A synchronous call rather than a spool watcher, because the phone is told the
 * recording's number at once, and because the caller query routing must get an answer back anyway.
 */
export const PHONE_RECORDING_PATH = '/api/internal/phone-recording';

/** What the dialplan needs to record and hand the file over; null when the token file could not be written. */
export interface PhoneRecordingSettings {
  /** The folder Asterisk records into (group-writable by Asterisk's group). */
  dir: string;
  /** http://127.0.0.1:<PORT>/api/internal/phone-recording */
  url: string;
  /** The loopback token's file (43 characters and a newline), read by the dialplan with FILE(). */
  tokenFile: string;
}

/** A recorded file's name, without folder or extension: what the dialplan sends and the console accepts. */
export const PHONE_RECORDING_NAME = /^phone-[0-9]{1,20}(\.[0-9]{1,10})?$/;

/** The spool folder under the sounds folder. */
export function phoneRecordingDir(soundsDir: string): string {
  return path.join(soundsDir, 'phone-recorded');
}

/** Creates the spool folder (see ensureSpoolDir): Asterisk writes files there, the console reads and removes them. */
export async function ensurePhoneRecordingDir(dir: string, gid: number | null): Promise<void> {
  await ensureSpoolDir(dir, gid);
}
