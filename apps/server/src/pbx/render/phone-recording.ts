// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${NAME} is how the Asterisk dialplan reads variables.

import { FEATURE_CODES as FC } from '../feature-codes.ts';
import type { PhoneRecordingSettings } from '../phone-recording.ts';
import { bearerFromFile } from './cqr.ts';
import { Context } from './dialplan.ts';

/** How long a recording from a phone may last, in seconds (Record's maximum; the console's limit is longer). */
const MAX_SECONDS = 300;

/**
 * *77 records a new recording, *77<id> records recording <id> again (pbx/phone-recording.ts): Record() beeps, `#`
 * ends; the file is handed to the console with CURL() over loopback, which answers the recording's id, said back
 * to the caller after a beep. Three beeps when nothing was recorded or the console refused it. Without the
 * loopback token the code answers three beeps and records nothing. Only phones reach it (from-internal and the
 * profiles' contexts include it); the extension, when the phone has one, names a new recording.
 */
export function renderPhoneRecording(settings: PhoneRecordingSettings | null): string {
  const context = new Context('app-record-sound', 'Recording from a phone');
  context.ext(FC.recordSound, 'Gosub(sub-record-sound,s,1(new))', 'Hangup()');
  context.ext(`_${FC.recordSound}X.`, 'Gosub(sub-record-sound,s,1(${EXTEN:3}))', 'Hangup()');
  const sub = new Context('sub-record-sound', 'Records into the spool folder, then the console takes the file in');
  if (!settings) {
    sub.ext('s', 'Answer()', 'Playback(beep&beep&beep)', 'Return()');
    return `${context}${sub}`;
  }
  sub.ext(
    's',
    'Answer()',
    'Wait(1)',
    'Set(REC_NAME=phone-${FILTER(0-9.,${UNIQUEID})})',
    // The beep played here, Record() quiet: Record() gives up when its own beep is missing from the sounds.
    'Playback(beep)',
    `Record(${settings.dir}/\${REC_NAME}.wav,0,${MAX_SECONDS},q)`,
    'GotoIf($["${RECORD_STATUS}" != "DTMF" & "${RECORD_STATUS}" != "TIMEOUT"]?failed)',
    // The token without a log line (render/cqr.ts).
    ...bearerFromFile(settings.tokenFile),
    'Set(CURLOPT(conntimeout)=5)',
    'Set(CURLOPT(httptimeout)=30)',
    `Set(REC_ID=\${CURL(${settings.url},file=\${REC_NAME}&recording=\${ARG1}&caller=\${MAINEXT})})`,
    'GotoIf($[${REGEX("^[0-9]+$" ${REC_ID})}]?saved)',
    '(failed),Playback(beep&beep&beep)',
    'Return()',
    '(saved),Playback(beep)',
    'SayDigits(${REC_ID})',
    'Return()',
  );
  return `${context}${sub}`;
}
