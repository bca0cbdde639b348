// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${NAME} is how the Asterisk dialplan reads variables.

import type { PbxCqr } from '../model.ts';
import type { PhoneRecordingSettings } from '../phone-recording.ts';
import { noteText } from './common.ts';
import { Context, gotoDestination } from './dialplan.ts';

/** The console's call-time lookup (loopback, the voicemail mail command's token): `GET <path>/<id>?caller=<n>`. */
export const CQR_LOOKUP_PATH = '/api/internal/cqr';

/** Seconds CURL() waits beyond the CQR's own timeout before the dialplan gives up on the console itself. */
const CURL_MARGIN_SECONDS = 2;

/**
 * The two dialplan steps that give CURL() the console's bearer token without Asterisk writing it in its log: the
 * verbose log shows every step's arguments once substituted, so a `Set(CURLOPT(httpheader)=…${FILE(…)})` would
 * echo the token. Here the Set is held in a variable with `%{` for `${` (nothing to substitute, logged as is),
 * and Exec() gets it back with the `$` (its logged argument names the file, not its content); Exec then
 * substitutes it itself and runs the Set without a log line. The token file's path must hold no `%`.
 */
export function bearerFromFile(tokenFile: string): [string, string] {
  if (tokenFile.includes('%')) throw new Error(`the token file's path must not contain '%': ${tokenFile}`);
  return [
    // The token file holds 43 characters and a newline: FILE() reads just the token.
    `Set(CURL_AUTH=Set(CURLOPT(httpheader)=Authorization: Bearer %{FILE(${tokenFile},0,43)}))`,
    'Exec(${STRREPLACE(CURL_AUTH,%,$)})',
  ];
}

/**
 * Caller query routing (issue 26, contract asterisk §5.1: nethcqr,<id>,1). The dialplan asks the console which
 * destination the caller goes to; the console runs the query with the caller's number bound and answers a
 * destination ('context,exten,priority') within the CQR's timeout, the default on no match, an error or a timeout.
 * Anything that does not look like a destination (the console down, CURL's own timeout, a refusal) takes the default
 * here. Without the loopback token (settings null) every CQR goes straight to its default.
 */
export function renderCqrs(cqrs: readonly PbxCqr[], loopback: PhoneRecordingSettings | null): string {
  const context = new Context('nethcqr', 'Caller query routing');
  const origin = loopback ? new URL(loopback.url).origin : null;
  for (const c of [...cqrs].sort((a, b) => a.id - b.id)) {
    if (!loopback || !origin) {
      context.ext(
        String(c.id),
        `NoOp(Caller query routing ${noteText(c.name)}: no loopback token)`,
        gotoDestination(c.defaultDestination),
      );
      continue;
    }
    context.ext(
      String(c.id),
      `NoOp(Caller query routing ${noteText(c.name)})`,
      ...bearerFromFile(loopback.tokenFile),
      'Set(CURLOPT(conntimeout)=2)',
      `Set(CURLOPT(httptimeout)=${c.timeout + CURL_MARGIN_SECONDS})`,
      // Digits and * only: nothing to encode in a URL (a leading + would read as a space; func_uri is not loaded).
      `Set(CQR_DEST=\${CURL(${origin}${CQR_LOOKUP_PATH}/${c.id}?caller=\${FILTER(0-9*,\${CALLERID(num)})})})`,
      'GotoIf($[${REGEX("^[A-Za-z0-9_-]+,[A-Za-z0-9_*#+-]+,[0-9]+$" ${CQR_DEST})}]?found)',
      gotoDestination(c.defaultDestination),
      '(found),Goto(${CQR_DEST})',
    );
  }
  return `${context}`;
}
