// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${NAME} is how the Asterisk dialplan reads variables.

import { FEATURE_CODES } from '../feature-codes.ts';
import type { PbxQueue } from '../model.ts';
import { recordStep } from './call-recording.ts';
import { displayName, type Entry, HEADER, noteText, section, value } from './common.ts';
import { Context, gotoDestination } from './dialplan.ts';

/**
 * Call queues (issue 26, contract asterisk §5.1, §5.3, §7): queues.conf holds one section per queue (reloaded with
 * `queue reload all`, module app_queue.so); the dialplan has ext-queues,<n> (the destination), from-queue (how a
 * member is rung) and app-queue-toggle (the agents' *45<n> and *46<n>).
 */

/**
 * A member is the Local channel from-queue,<ext>: it rings the user's phones as a direct call does, and the user's
 * hint tells the queue when they are busy. Through the queue a member's busy, no-answer or voicemail fallbacks
 * must not take the call (sub-dial-user's result is dropped when QUEUECALL is set).
 */
export const queueMemberInterface = (extension: string) => `Local/${extension}@from-queue/n`;
const stateInterface = (extension: string) => `hint:${extension}@ext-local`;

export function renderQueuesConf(queues: readonly PbxQueue[]): string {
  let out = `${HEADER}${section('general', [
    // Dynamic agents stay logged in across restarts (kept in AstDB by app_queue).
    ['persistentmembers', 'yes'],
    ['autofill', 'yes'],
    ['shared_lastcall', 'yes'],
  ])}`;
  for (const q of [...queues].sort((a, b) => (a.number < b.number ? -1 : a.number > b.number ? 1 : 0))) {
    const entries: Entry[] = [
      ['strategy', q.strategy],
      ['timeout', q.ringTime],
      ['retry', 5],
      ['wrapuptime', 0],
      ['maxlen', 0],
      // A caller may wait for an agent to log in; max wait (the dialplan) bounds it.
      ['joinempty', 'yes'],
      ['leavewhenempty', 'no'],
      ['ringinuse', 'no'],
      // Ringing ('r' in the dialplan) needs no class; the default stands in.
      ['musicclass', q.music === 'ringing' ? 'default' : q.music],
      ['announce-position', q.announcePosition ? 'yes' : 'no'],
      ['announce-frequency', q.announcePosition ? 30 : 0],
    ];
    out += section(q.number, entries).replace(/\n$/, '');
    for (const m of q.members) {
      const name = displayName(m.name) || m.extension;
      out += `member => ${queueMemberInterface(m.extension)},0,${value(name)},${stateInterface(m.extension)}\n`;
    }
    out += '\n';
  }
  return out;
}

/** ext-queues, from-queue and the agents' feature codes. Both contexts always exist: phones include them. */
export function renderQueuesDialplan(queues: readonly PbxQueue[], recordings = false): string {
  const sorted = [...queues].sort((a, b) => (a.number < b.number ? -1 : a.number > b.number ? 1 : 0));
  const ext = new Context('ext-queues', 'Call queues');
  const toggle = new Context('app-queue-toggle', 'Queue agent feature codes');
  for (const q of sorted) {
    // 't': the member may transfer; 'r': ringing instead of music on hold. Queue's 5th argument is the max wait.
    const options = `t${q.music === 'ringing' ? 'r' : ''}`;
    ext.ext(
      q.number,
      `NoOp(Queue ${noteText(q.name)})`,
      'Answer()',
      ...(recordings ? recordStep(q.recording, 'in') : []),
      `Queue(${q.number},${options},,,${q.maxWait > 0 ? q.maxWait : ''})`,
      // Max wait reached, or the queue was left: the failover destination.
      gotoDestination(q.failover),
    );
    if (q.agents.length > 0) {
      const agents = q.agents.join('&');
      toggle.ext(`${FEATURE_CODES.queueLoginToggle}${q.number}`, `Gosub(sub-queue-login,s,1(${q.number},${agents}))`);
      toggle.ext(`${FEATURE_CODES.queuePauseToggle}${q.number}`, `Gosub(sub-queue-pause,s,1(${q.number},${agents}))`);
    }
  }
  const fromQueue = new Context('from-queue', 'A queue ringing one member').ext(
    '_X.',
    'Set(__QUEUECALL=yes)',
    'Goto(ext-local,${EXTEN},1)',
  );
  const mine = [
    'ExecIf($["${MAINEXT}" = ""]?Hangup())',
    'Answer()',
    'Set(AGENTS=${ARG2})',
    // Only the queue's agents may log in.
    'GotoIf($[${FIELDNUM(AGENTS,&,${MAINEXT})} = 0]?denied)',
    `Set(IFACE=${queueMemberInterface('${MAINEXT}')})`,
  ];
  const login = new Context('sub-queue-login', 'ARG1 queue, ARG2 agents joined by &: logs the caller in or out').ext(
    's',
    mine[0] as string,
    ...mine.slice(1),
    // A member's penalty reads empty for an interface that is not in the queue.
    'GotoIf($["${QUEUE_MEMBER(${ARG1},penalty,${IFACE})}" != ""]?out)',
    `AddQueueMember(\${ARG1},\${IFACE},,,\${MAINEXT},${stateInterface('${MAINEXT}')})`,
    'Playback(agent-loginok)',
    'Hangup()',
    '(out),RemoveQueueMember(${ARG1},${IFACE})',
    'Playback(agent-loggedoff)',
    'Hangup()',
    '(denied),Playback(access-denied)',
    'Hangup()',
  );
  const pause = new Context('sub-queue-pause', 'ARG1 queue, ARG2 agents joined by &: pauses or resumes the caller').ext(
    's',
    mine[0] as string,
    ...mine.slice(1),
    'GotoIf($["${QUEUE_MEMBER(${ARG1},paused,${IFACE})}" = "1"]?resume)',
    'PauseQueueMember(${ARG1},${IFACE})',
    'Playback(dictate/paused)',
    'Hangup()',
    '(resume),UnpauseQueueMember(${ARG1},${IFACE})',
    'Playback(beep)',
    'Hangup()',
    '(denied),Playback(access-denied)',
    'Hangup()',
  );
  return `${ext}${fromQueue}${toggle}${login}${pause}`;
}
