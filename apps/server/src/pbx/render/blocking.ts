// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${NAME} is how the Asterisk dialplan reads variables.

import {
  CALL_CLASSES,
  type CallClassPrefixes,
  DEFAULT_CALL_CLASS_PREFIXES,
  EMERGENCY_NUMBERS,
} from '@centralino/contract';
import type { PbxBlockedCaller, PbxModel, PbxUser } from '../model.ts';
import { HEADER, noteText } from './common.ts';
import { Context, gotoDestination } from './dialplan.ts';

/**
 * Blocked callers and outbound call permissions (issue 42 item 7).
 *
 * Inbound: each route's first steps (render/dialplan.ts, `blockCheck`) reduce the caller's number to digits and '+'
 * ('anonymous' when nothing is left or the caller asked for privacy) and, when `blocklist-<scope>` has that number,
 * go there instead of the route's destination: before the CTI hears of the call, before any recording, time
 * condition or phone. `blocklist-all` holds the entries of every route; a route with entries of its own gets
 * `blocklist-route-<id>`, which includes it. A prefix is a pattern `_<prefix>.` and its bare digits.
 *
 * Outbound: `sub-call-permission` classifies the number a route is about to dial by the longest matching prefix
 * (a number none matches is national) and refuses a class the caller's endpoint does not allow: a restricted
 * user's endpoints carry CALLPERM=on and CALLOK_<class>=yes per allowed class (render/pjsip.ts). Emergency numbers
 * always pass. The refused caller hears cannot-complete-as-dialed in their channel's language, then congestion.
 */

export const BLOCKING_FILE = 'extensions.blocking.conf';
export const BLOCKLIST_ALL = 'blocklist-all';
const blocklistOfRoute = (id: number) => `blocklist-route-${id}`;

/** The blocklist context a route checks; null when nothing is blocked at all. */
export function blocklistContextOf(model: PbxModel, routeId: number | undefined): string | null {
  const entries = model.blockedCallers ?? [];
  if (entries.length === 0) return null;
  if (routeId !== undefined && entries.some((e) => e.routes?.includes(routeId))) return blocklistOfRoute(routeId);
  return BLOCKLIST_ALL;
}

/** The first steps of an inbound route: a blocked caller leaves here for what it should hear. */
export function blockCheck(context: string): string[] {
  return [
    'Set(BLOCKNUM=${FILTER(0-9+,${CALLERID(num)})})',
    'ExecIf($["${BLOCKNUM}" = "" | "${CALLERID(num-pres):0:6}" = "prohib"]?Set(BLOCKNUM=anonymous))',
    `GotoIf(\${DIALPLAN_EXISTS(${context},\${BLOCKNUM},1)}?${context},\${BLOCKNUM},1)`,
  ];
}

function response(entry: PbxBlockedCaller): string[] {
  const note = `NoOp(Blocked caller ${entry.id}${entry.description ? ` ${noteText(entry.description)}` : ''})`;
  const notInService = ['Progress()', 'Playback(ss-noservice,noanswer)', 'Hangup(1)'];
  switch (entry.response) {
    // A busy signal without answering: the caller's network plays the tone (SIP 486).
    case 'busy':
      return [note, 'Busy(20)'];
    case 'recording':
      return entry.sound
        ? [note, 'Progress()', `Playback(${entry.sound},noanswer)`, 'Hangup(21)']
        : [note, ...notInService];
    case 'destination':
      return entry.destination ? [note, gotoDestination(entry.destination)] : [note, ...notInService];
    default:
      return [note, ...notInService];
  }
}

function addEntries(context: Context, entries: readonly PbxBlockedCaller[]): void {
  const exact = new Set(entries.filter((e) => e.match === 'number').map((e) => e.number));
  for (const entry of entries) {
    const lines = response(entry);
    if (entry.match === 'anonymous') context.ext('anonymous', lines[0] as string, ...lines.slice(1));
    else if (entry.match === 'number') context.ext(entry.number, lines[0] as string, ...lines.slice(1));
    else {
      context.ext(`_${entry.number}.`, lines[0] as string, ...lines.slice(1));
      // The prefix dialled alone is blocked too, unless an exact entry says what that number hears.
      if (!exact.has(entry.number)) context.ext(entry.number, lines[0] as string, ...lines.slice(1));
    }
  }
}

/** The blocklist contexts (extensions.blocking.conf). */
export function renderBlockingDialplan(model: PbxModel): string {
  const entries = model.blockedCallers ?? [];
  const all = new Context(BLOCKLIST_ALL, 'callers blocked on every inbound route');
  addEntries(
    all,
    entries.filter((e) => e.routes === null),
  );
  let out = `${HEADER}${all.toString()}`;
  const routeIds = [...new Set(entries.flatMap((e) => e.routes ?? []))].sort((a, b) => a - b);
  for (const id of routeIds) {
    const context = new Context(blocklistOfRoute(id), `callers blocked on inbound route ${id}`);
    addEntries(
      context,
      entries.filter((e) => e.routes?.includes(id)),
    );
    context.include(BLOCKLIST_ALL);
    out += context.toString();
  }
  return out;
}

/** Whether any user's outbound calls are limited (the routes then check, else they stay as they were). */
export const permissionsInUse = (model: PbxModel): boolean => model.users.some((u) => Array.isArray(u.callPermission));

/** The endpoint variables of a restricted user. */
export function permissionVars(user: PbxUser): string[] {
  if (!Array.isArray(user.callPermission)) return [];
  return ['CALLPERM=on', ...user.callPermission.map((c) => `CALLOK_${c}=yes`)];
}

/** sub-call-permission: ARG1 the number a route is about to dial. */
export function renderCallPermission(prefixes: CallClassPrefixes = DEFAULT_CALL_CLASS_PREFIXES): string {
  const byLength = CALL_CLASSES.flatMap((cls) => prefixes[cls].map((prefix) => ({ cls, prefix }))).sort(
    (a, b) => a.prefix.length - b.prefix.length || (a.prefix < b.prefix ? -1 : 1),
  );
  const emergency = EMERGENCY_NUMBERS.map((n) => `"\${ARG1}" = "${n}"`).join(' | ');
  return new Context('sub-call-permission', 'ARG1 number; refuses a class the caller may not call')
    .ext(
      's',
      'GotoIf($["${CALLPERM}" != "on"]?ok)',
      `GotoIf($[${emergency}]?ok)`,
      'Set(CALLCLASS=national)',
      // Shortest first: a longer prefix that also matches decides.
      ...byLength.map(
        ({ cls, prefix }) => `ExecIf($["\${ARG1:0:${prefix.length}}" = "${prefix}"]?Set(CALLCLASS=${cls}))`,
      ),
      'GotoIf($["${CALLOK_${CALLCLASS}}" = "yes"]?ok)',
      'Log(NOTICE,Outbound call to ${ARG1} (${CALLCLASS}) refused to ${CALLERID(num)})',
      'Progress()',
      'Playback(cannot-complete-as-dialed,noanswer)',
      'Congestion(20)',
      '(ok),Return()',
    )
    .toString();
}
