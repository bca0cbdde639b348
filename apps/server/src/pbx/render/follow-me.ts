// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${NAME} is how the Asterisk dialplan reads variables.

import type { PbxFollowMe } from '../model.ts';
import { legChannel } from './common.ts';

/**
 * The tail of a user's main extension that rings the follow-me list (issue 42 item 5), reached at n(followme) once the
 * user's own phones went unanswered or unreachable. Its legs are the ring groups' (legChannel), confirm leg included:
 * a colleague rings as a ring group member would (not the colleague's own voicemail or follow-me). When nobody
 * answers, the call takes the path the user's own result gave (noanswer or unavail), so voicemail and the no-answer
 * destination stay where they were.
 */
export function followMeLines(fm: PbxFollowMe): string[] {
  const legs = fm.legs.map((l) => ({ channel: legChannel(l, fm.confirmExternal), time: l.ringTime }));
  const dial = (targets: string, time: number) => [
    `Dial(${targets},${time},\${DIAL_OPTIONS})`,
    'GotoIf($["${DIALSTATUS}" = "ANSWER"]?fmanswered)',
  ];
  const lines = ['(followme),Set(FMRESULT=${DIALRESULT})', 'NoOp(Follow-me)'];
  if (fm.strategy === 'ringall') {
    // Dial() has one timeout for all its legs: the longest, so nobody rings for less than asked.
    lines.push(...dial(legs.map((l) => l.channel).join('&'), Math.max(...legs.map((l) => l.time))));
  } else {
    for (const leg of legs) lines.push(...dial(leg.channel, leg.time));
  }
  lines.push('GotoIf($["${FMRESULT}" = "CHANUNAVAIL"]?unavail)', 'Goto(noanswer)', '(fmanswered),Hangup()');
  return lines;
}
