// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${NAME} is how the Asterisk dialplan reads variables.

import type { RecordingPolicy } from '@centralino/contract';
import { Context } from './dialplan.ts';

/**
 * Call recordings (issue 41). Each user, inbound route and queue has a policy; the dialplan asks `sub-record` at each
 * step of a call's way (the inbound route, the queue, the calling user, the called user) and the first step that
 * says `always` or `never` decides for the rest of the call (REC_POLICY, inherited by the channels it dials). `*1`
 * (the `recordcall` feature of features.conf) starts and stops a recording while nobody decided. Every recording is
 * `<recordings>/<day>/<linked id>.wav`, the day of the call's first channel, and the call's first channel carries
 * its name in CDR(recordingfile), so the history row of the call links it.
 */

export interface CallRecordingRender {
  /** The recordings folder (DATA_DIR/recordings or RECORDINGS_DIR). */
  dir: string;
  /** What Playback() plays before an `always` recording (a prompt name or an absolute path), null for nothing. */
  notice: string | null;
}

/** The dynamic feature `*1` runs (features.conf [applicationmap]). */
export const RECORD_FEATURE = 'recordcall';

/** A line that asks the policy at one step; nothing for `on_demand`, which decides nothing. */
export function recordStep(policy: RecordingPolicy | undefined, hears: 'in' | 'out'): string[] {
  return policy && policy !== 'on_demand' ? [`Gosub(sub-record,s,1(${policy},${hears}))`] : [];
}

export function renderCallRecordingDialplan(): string {
  // ARG1 the policy of this step; ARG2 who hears the notice: `in` the caller (answered first), `out` the called
  // party, on answer (Dial's A() through REC_DIALOPT), for a call a user makes.
  const record = new Context(
    'sub-record',
    'ARG1 always, never or on_demand; ARG2 in or out (who hears the notice)',
  ).ext(
    's',
    'GotoIf($["${REC_POLICY}" != "" | "${ARG1}" = "" | "${ARG1}" = "on_demand"]?done)',
    'Set(__REC_POLICY=${ARG1})',
    'GotoIf($["${ARG1}" != "always"]?done)',
    'Gosub(sub-record-start,s,1())',
    'GotoIf($["${REC_NOTICE}" = ""]?done)',
    'GotoIf($["${ARG2}" = "out"]?called)',
    'Answer()',
    'Playback(${REC_NOTICE})',
    'Return()',
    '(called),Set(REC_DIALOPT=A(${REC_NOTICE}))',
    '(done),Return()',
  );
  // 'b': only while bridged, so the file is the conversation, not the ringing; ARG1 'a' appends after a *1 pause.
  const start = new Context(
    'sub-record-start',
    "ARG1 more MixMonitor options; names the file by the call's linked id",
  ).ext(
    's',
    'Set(REC_NAME=${STRFTIME(${CUT(CHANNEL(linkedid),.,1)},,%Y-%m-%d)}/${CHANNEL(linkedid)}.wav)',
    'MixMonitor(${REC_DIR}/${REC_NAME},b${ARG1}i(REC_MIXID))',
    'Set(MASTER_CHANNEL(CDR(recordingfile))=${REC_NAME})',
    'Return()',
  );
  // *1: a call that a policy decided (always or never) keeps that; otherwise the party who pressed starts a recording
  // or stops theirs. The other party finds the file there and leaves it alone (two writers would mix it up).
  const toggle = new Context('app-record-toggle', '*1 during a call (features.conf recordcall)').ext(
    's',
    'GotoIf($["${REC_POLICY}" != ""]?done)',
    'GotoIf($["${REC_MIXID}" != ""]?stop)',
    'Set(REC_NAME=${STRFTIME(${CUT(CHANNEL(linkedid),.,1)},,%Y-%m-%d)}/${CHANNEL(linkedid)}.wav)',
    'GotoIf($["${REC_MINE}" != "yes" & ${STAT(e,${REC_DIR}/${REC_NAME})}]?done)',
    'Set(REC_MINE=yes)',
    'Gosub(sub-record-start,s,1(a))',
    'Return()',
    '(stop),StopMixMonitor(${REC_MIXID})',
    'Set(REC_MIXID=)',
    '(done),Return()',
  );
  return [record, start, toggle].join('');
}

/** Globals of the recordings: where files go, what the notice plays, *1 for every channel. */
export function callRecordingGlobals(settings: CallRecordingRender): string[] {
  return [`REC_DIR=${settings.dir}`, `REC_NOTICE=${settings.notice ?? ''}`, `DYNAMIC_FEATURES=${RECORD_FEATURE}`];
}
