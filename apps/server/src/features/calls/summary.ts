import type { CallDirection, CallResult } from '@centralino/contract';
import type { Selectable } from 'kysely';
import type { CdrTable } from '../../db/schema.ts';

/** The columns of a call record a call's summary is made from. */
export const LEG_COLUMNS = [
  'id',
  'calldate',
  'clid',
  'src',
  'dst',
  'dcontext',
  'channel',
  'dstchannel',
  'lastapp',
  'lastdata',
  'duration',
  'billsec',
  'disposition',
  'linkedid',
  'sequence',
  'did',
  'recordingfile',
] as const;

type LegRow = Pick<Selectable<CdrTable>, (typeof LEG_COLUMNS)[number]>;

/** A leg as read: PostgreSQL's driver gives the start as a Date and may give numbers as strings. */
export type Leg = Omit<LegRow, 'calldate'> & { calldate: string | Date };

/** A row of LEG_COLUMNS as the summary reads it, its numbers as numbers. */
export function legOf(row: Leg): Leg {
  return {
    ...row,
    id: Number(row.id),
    duration: Number(row.duration),
    billsec: Number(row.billsec),
    sequence: Number(row.sequence),
  };
}

export interface CallSummary {
  call_key: string;
  at: number;
  direction: CallDirection;
  caller: string;
  caller_name: string;
  called: string;
  answered_by: string;
  trunk: string;
  queue: string;
  wait: number;
  talk: number;
  result: CallResult;
  recording: string;
  migrated: number;
  legs: number;
}

/** The call a record belongs to: its linked id, or the record alone when it has none (an older system's). */
export function callKey(leg: Pick<Leg, 'id' | 'linkedid'>): string {
  return leg.linkedid ? leg.linkedid : `cdr:${leg.id}`;
}

/**
 * A record's start as milliseconds. Asterisk writes its local time without a zone (the console runs beside it, in
 * the same zone); PostgreSQL's driver already gives a Date read in that zone.
 */
export function startOf(leg: Pick<Leg, 'calldate'>): number {
  if (leg.calldate instanceof Date) return leg.calldate.getTime();
  const at = new Date(String(leg.calldate).replace(' ', 'T')).getTime();
  return Number.isNaN(at) ? 0 : at;
}

/**
 * The endpoint of a channel name: `PJSIP/201-0000002a` → 201, `PJSIP/provider-000001` → provider,
 * `Local/201@from-queue-00000001;1` → 201, `SIP/trunk-0000` (an older system) → trunk. '' for none.
 */
export function endpointOf(channel: string): { tech: string; name: string } {
  const slash = channel.indexOf('/');
  if (slash < 0) return { tech: '', name: '' };
  const tech = channel.slice(0, slash);
  const rest = channel.slice(slash + 1);
  if (tech === 'Local') return { tech, name: rest.split('@')[0] ?? '' };
  const dash = rest.lastIndexOf('-');
  return { tech, name: dash > 0 ? rest.slice(0, dash) : rest };
}

/**
 * Whether a channel's endpoint is a trunk (a provider or a gateway): one the console knows by name, or — for
 * records copied from an older system, whose trunks may have been named otherwise — any SIP/IAX/DAHDI endpoint
 * that is not a number (phones are named by their extension).
 */
export type TrunkTest = (endpoint: string) => boolean;

export function trunkTest(trunkNames: Iterable<string>): TrunkTest {
  const names = new Set(trunkNames);
  return (endpoint) => names.has(endpoint) || (endpoint !== '' && !/^[0-9*#+]+$/.test(endpoint));
}

function isTrunkChannel(channel: string, isTrunk: TrunkTest): string {
  const { tech, name } = endpointOf(channel);
  if (tech === '' || tech === 'Local' || tech === 'Message' || tech === 'Recorder') return '';
  if (tech === 'DAHDI') return `DAHDI/${name.split('-')[0]}`;
  return isTrunk(name) ? name : '';
}

/** `"Anna Rossi" <201>` → Anna Rossi; '' when the caller ID carries no name other than the number. */
export function nameOfClid(clid: string, number: string): string {
  const match = /^"?(.*?)"?\s*<[^>]*>$/.exec(clid.trim());
  const name = (match ? match[1] : '')?.trim() ?? '';
  return name === number ? '' : name;
}

/** The legs of a call in the order Asterisk wrote them. */
function inOrder(legs: Leg[]): Leg[] {
  return [...legs].sort((a, b) => startOf(a) - startOf(b) || a.sequence - b.sequence || a.id - b.id);
}

const answered = (leg: Leg) => leg.disposition === 'ANSWERED' && leg.billsec > 0;
const isVoicemail = (leg: Leg) => /^voicemail$/i.test(leg.lastapp);
const isLocal = (channel: string) => channel.startsWith('Local/');

/** The summary of one call from its records, in the order Asterisk wrote them. */
export function summarize(key: string, legs: Leg[], isTrunk: TrunkTest): CallSummary {
  const ordered = inOrder(legs);
  const first = ordered[0] as Leg;
  const start = startOf(first);
  const did = ordered.find((l) => l.did)?.did ?? '';
  const trunkIn = isTrunkChannel(first.channel, isTrunk);
  const trunkOutLeg = ordered.find((l) => isTrunkChannel(l.dstchannel, isTrunk));
  const trunkOut = trunkOutLeg ? isTrunkChannel(trunkOutLeg.dstchannel, isTrunk) : '';
  const direction: CallDirection = trunkIn || did ? 'inbound' : trunkOut ? 'outbound' : 'internal';

  // Who answered: the first leg a phone (or a queue's member, through its Local channel) took, not voicemail.
  const talking = ordered.find((l) => answered(l) && l.dstchannel && !isVoicemail(l));
  const mailbox = ordered.find((l) => isVoicemail(l) && l.disposition === 'ANSWERED');
  const queueLeg = ordered.find((l) => /^queue$/i.test(l.lastapp));

  let result: CallResult;
  if (talking) result = 'answered';
  else if (mailbox) result = 'voicemail';
  else if (ordered.some((l) => l.disposition === 'BUSY')) result = 'busy';
  else if (ordered.some((l) => l.disposition === 'FAILED' || l.disposition === 'CONGESTION')) result = 'failed';
  else result = 'missed';

  const end = Math.max(...ordered.map((l) => startOf(l) + l.duration * 1000));
  const answerAt = talking
    ? startOf(talking) + (talking.duration - talking.billsec) * 1000
    : mailbox
      ? startOf(mailbox) + (mailbox.duration - mailbox.billsec) * 1000
      : end;
  // A queue member's Local channel repeats the conversation its caller's leg already counts.
  const talk = talking
    ? ordered.filter((l) => answered(l) && l.dstchannel && !isLocal(l.channel)).reduce((s, l) => s + l.billsec, 0) ||
      talking.billsec
    : 0;
  const answeredBy = talking
    ? direction === 'outbound'
      ? talking.dst
      : endpointOf(talking.dstchannel).name
    : mailbox && direction !== 'outbound'
      ? mailbox.dst.replace(/^vm[ubsi]?/, '')
      : '';

  return {
    call_key: key,
    at: start,
    direction,
    caller: first.src.slice(0, 80),
    caller_name: nameOfClid(first.clid, first.src).slice(0, 80),
    called: (direction === 'inbound' && did ? did : (trunkOutLeg?.dst ?? first.dst)).slice(0, 80),
    answered_by: answeredBy.slice(0, 80),
    trunk: (trunkIn || trunkOut).slice(0, 80),
    queue: queueLeg ? (queueLeg.lastdata.split(',')[0] ?? '').slice(0, 80) : '',
    wait: Math.max(0, Math.round((answerAt - start) / 1000)),
    talk,
    result,
    recording: ordered.find((l) => l.recordingfile)?.recordingfile ?? '',
    migrated: first.linkedid ? 0 : 1,
    legs: ordered.length,
  };
}

export type PathStep = {
  kind: 'route' | 'ivr' | 'queue' | 'user' | 'voicemail' | 'trunk' | 'external' | 'other';
  target: string;
  answered: boolean;
};

/** The way a call went, step by step, from its records: the DID, queues, phones rung, voicemail, trunks. */
export function pathOf(legs: Leg[], isTrunk: TrunkTest): PathStep[] {
  const ordered = inOrder(legs);
  const steps: PathStep[] = [];
  const push = (step: PathStep) => {
    const last = steps[steps.length - 1];
    if (last && last.kind === step.kind && last.target === step.target) last.answered ||= step.answered;
    else steps.push(step);
  };
  const did = ordered.find((l) => l.did)?.did;
  if (did) push({ kind: 'route', target: did, answered: false });
  for (const leg of ordered) {
    if (/^queue$/i.test(leg.lastapp))
      push({ kind: 'queue', target: leg.lastdata.split(',')[0] ?? '', answered: false });
    if (/^background$|^read$/i.test(leg.lastapp) && !leg.dstchannel)
      push({ kind: 'ivr', target: leg.dst, answered: false });
    if (isVoicemail(leg)) {
      push({ kind: 'voicemail', target: leg.dst.replace(/^vm[ubsi]?/, ''), answered: leg.disposition === 'ANSWERED' });
      continue;
    }
    if (!leg.dstchannel || isLocal(leg.channel)) continue;
    const trunk = isTrunkChannel(leg.dstchannel, isTrunk);
    if (trunk) {
      push({ kind: 'trunk', target: trunk, answered: false });
      push({ kind: 'external', target: leg.dst, answered: answered(leg) });
    } else {
      push({ kind: 'user', target: endpointOf(leg.dstchannel).name, answered: answered(leg) });
    }
  }
  return steps;
}
