// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${NAME} is how the Asterisk dialplan reads variables.

import type { PbxModel, PbxNumberedRingGroup } from '../model.ts';
import { recordStep } from './call-recording.ts';
import { HEADER, legChannel, noteText } from './common.ts';
import { Context, gotoDestination, RING_GROUPS_CONTEXT } from './dialplan.ts';

/** What an outside member hears on answering when the group asks to confirm: "Press 1" (core sounds en and it). */
export const CONFIRM_PROMPT = 'vm-press&digits/1';

/** `recordings`: call recording is set up (issue 41), so the group's policy is asked before anyone rings. */
export function renderRingGroup(group: PbxNumberedRingGroup, recordings = false): string[] {
  const legs = group.members.map((m) => legChannel(m, group.confirmExternal));
  const t = group.ringTime;
  const lines: string[] = [
    `NoOp(Ring group ${noteText(group.name)})`,
    ...(recordings ? recordStep(group.recording, 'in') : []),
  ];
  // An answered leg ends the call when its conversation ends; anything else moves on to the next turn.
  const dial = (targets: string) => [
    `Dial(${targets},${t},\${DIAL_OPTIONS})`,
    'GotoIf($["${DIALSTATUS}" = "ANSWER"]?answered)',
  ];
  if (legs.length === 0) {
    lines.push('NoOp(No members to ring)');
  } else if (group.strategy === 'ringall') {
    lines.push(...dial(legs.join('&')));
  } else if (group.strategy === 'hunt') {
    for (const leg of legs) lines.push(...dial(leg));
  } else if (group.strategy === 'memoryhunt') {
    for (let i = 1; i <= legs.length; i++) lines.push(...dial(legs.slice(0, i).join('&')));
  } else {
    // A new order for each call: pick one of those left at random until none is.
    lines.push(
      `Set(RGLEFT=${legs.join('&')})`,
      '(next),GotoIf($["${RGLEFT}" = ""]?unanswered)',
      'Set(RGLEG=${CUT(RGLEFT,&,${RAND(1,${FIELDQTY(RGLEFT,&)})})})',
      // Nothing picked (a function missing): the destination rather than a loop that never rings anyone.
      'GotoIf($["${RGLEG}" = ""]?unanswered)',
      'Set(RGLEFT=${LISTFILTER(RGLEFT,&,${RGLEG})})',
      ...dial('${RGLEG}'),
      'Goto(next)',
    );
  }
  lines.push(`(unanswered),${gotoDestination(group.failover)}`, '(answered),Hangup()');
  return lines;
}

/**
 * ext-ringgroups (the groups' numbers) and the contexts their legs run in. Every context always exists: ext-group
 * includes the first, and the Local channels name the others.
 */
export function renderRingGroupsFile(
  model: Pick<PbxModel, 'numberedRingGroups'> & Partial<Pick<PbxModel, 'settings'>>,
): string {
  const recordings = Boolean(model.settings?.callRecording);
  const groups = new Context(RING_GROUPS_CONTEXT, 'Ring groups');
  for (const g of [...(model.numberedRingGroups ?? [])].sort((a, b) => (a.number < b.number ? -1 : 1))) {
    const [first, ...rest] = renderRingGroup(g, recordings);
    groups.ext(g.number, first as string, ...rest);
  }
  // A ring group rings a user as a queue does: the group, not the user's busy or no-answer destination, decides
  // what happens next (ext-local hangs up such a leg instead of going on).
  const user = new Context('from-ringgroup', 'A ring group ringing one of its users').ext(
    '_X.',
    'Set(__QUEUECALL=yes)',
    'Goto(ext-local,${EXTEN},1)',
  );
  // The caller's number goes out, as on a forwarded call.
  const out = new Context('from-ringgroup-out', 'A ring group ringing an outside number');
  const confirm = new Context('from-ringgroup-confirm', 'The same, answered only once the called party presses 1');
  for (const pattern of ['_X.', '_+X.']) {
    out.ext(pattern, 'Set(__KEEPCID=TRUE)', 'Goto(from-forward,${EXTEN},1)');
    // The ring group's Dial sees this leg answer only after the gosub returns: a voicemail that picks up does not
    // take the call from the others.
    confirm.ext(
      pattern,
      'Set(__KEEPCID=TRUE)',
      'Dial(Local/${EXTEN}@from-forward/n,,U(sub-ringgroup-confirm))',
      'Hangup()',
    );
  }
  const ask = new Context(
    'sub-ringgroup-confirm',
    'Runs on the answered outside leg: 1 accepts, else it is dropped',
  ).ext(
    's',
    'Set(RGTRIES=0)',
    `(ask),Read(RGKEY,${CONFIRM_PROMPT},1,,1,5)`,
    'GotoIf($["${RGKEY}" = "1"]?accepted)',
    'Set(RGTRIES=$[${RGTRIES} + 1])',
    'GotoIf($[${RGTRIES} < 3]?ask)',
    'Set(GOSUB_RESULT=ABORT)',
    'Return()',
    '(accepted),Return()',
  );
  return `${HEADER}${groups}${user}${out}${confirm}${ask}`;
}
