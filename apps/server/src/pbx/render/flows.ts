// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${NAME} is how the Asterisk dialplan reads variables.

import { FEATURE_CODES } from '../feature-codes.ts';
import type { PbxAnnouncement, PbxDayNight, PbxIvr, PbxModel } from '../model.ts';
import { HEADER, noteText } from './common.ts';
import { renderCqrs } from './cqr.ts';
import { Context, FLOWS_FILE, gotoDestination } from './dialplan.ts';
import { renderQueuesDialplan } from './queues.ts';
import { renderTimeConditions } from './time-conditions.ts';

/**
 * Call flows of issue 26 (contract asterisk §5.1): an announcement is the context app-announcement-<id>
 * (destination `app-announcement-<id>,s,1`), an IVR the context ivr-<id> (`ivr-<id>,s,1`). Sound files are named
 * by absolute path without extension, so Asterisk picks the WAV the console wrote.
 */

/** Answers unless the channel is up already (an IVR or announcement reached from another flow). */
function answerLines(noAnswer: boolean): string[] {
  return ['GotoIf($["${CHANNEL(state)}" = "Up"]?begin)', noAnswer ? 'Progress()' : 'Answer()', 'Wait(1)'];
}

export function renderAnnouncement(a: PbxAnnouncement): string {
  const context = new Context(`app-announcement-${a.id}`, a.description);
  const listens = a.allowSkip || a.repeatKey !== '';
  const lines = [...answerLines(a.noAnswer), `(begin),NoOp(Announcement ${noteText(a.description)})`];
  if (a.recording) {
    // Background hears keys while it plays; 'm' only for the repeat key, 'n' keeps an unanswered channel so.
    const options = [a.noAnswer ? 'n' : '', a.allowSkip ? '' : 'm'].join('');
    lines.push(
      listens
        ? `(play),Background(${a.recording}${options ? `,${options}` : ''})`
        : `(play),Playback(${a.recording}${a.noAnswer ? ',noanswer' : ''})`,
    );
  } else {
    lines.push('(play),NoOp(No recording)');
  }
  if (a.returnIvr) lines.push('(done),GotoIf($["${IVR_CONTEXT}" != ""]?${IVR_CONTEXT},return,1)');
  else lines.push('(done),NoOp()');
  lines.push(gotoDestination(a.destination));
  context.ext('s', lines[0] as string, ...lines.slice(1));
  if (a.repeatKey) context.ext(a.repeatKey, 'Goto(s,play)');
  if (a.allowSkip) {
    context.ext('_[0-9*#]', 'Goto(s,done)');
    context.ext('i', 'Goto(s,done)');
  }
  return context.toString();
}

export function renderIvr(ivr: PbxIvr): string {
  const context = new Context(`ivr-${ivr.id}`, ivr.name);
  // Direct dial: an extension number typed during the menu rings that extension.
  if (ivr.directDial) context.include('ext-local');
  const lines = [
    'Set(__IVR_CONTEXT=${CONTEXT})',
    'Set(IVR_INVALIDS=0)',
    'Set(IVR_TIMEOUTS=0)',
    ...answerLines(false),
    `(begin),NoOp(IVR ${noteText(ivr.name)})`,
    '(start),Set(TIMEOUT(digit)=3)',
    `Set(TIMEOUT(response)=${ivr.timeout})`,
  ];
  if (ivr.announcement) lines.push(`Background(${ivr.announcement})`);
  lines.push(`WaitExten(${ivr.timeout})`);
  context.ext('s', lines[0] as string, ...lines.slice(1));
  for (const entry of [...ivr.entries].sort((a, b) => (a.selection < b.selection ? -1 : 1))) {
    context.ext(entry.selection, `Set(IVR_SELECTION=${entry.selection})`, gotoDestination(entry.destination));
  }
  // Wrong key: the menu again, up to invalidLoops times, then the invalid destination.
  context.ext(
    'i',
    'Set(IVR_INVALIDS=$[${IVR_INVALIDS} + 1])',
    `GotoIf($[\${IVR_INVALIDS} > ${ivr.invalidLoops}]?give-up)`,
    'Playback(option-is-invalid)',
    'Goto(s,start)',
    `(give-up),${gotoDestination(ivr.invalidDestination)}`,
  );
  // No key: the same with the timeout destination.
  context.ext(
    't',
    'Set(IVR_TIMEOUTS=$[${IVR_TIMEOUTS} + 1])',
    `GotoIf($[\${IVR_TIMEOUTS} > ${ivr.timeoutLoops}]?give-up)`,
    'Goto(s,start)',
    `(give-up),${gotoDestination(ivr.timeoutDestination)}`,
  );
  // An announcement set to return to the IVR comes back here.
  context.ext('return', 'Set(IVR_INVALIDS=0)', 'Set(IVR_TIMEOUTS=0)', 'Goto(s,start)');
  return context.toString();
}

/**
 * Day/night switches: app-daynight,<n>,1 goes to the night destination while AstDB DAYNIGHT/C<n> is NIGHT, else
 * to the day one; *28<n> flips it (both contexts always exist: phones include the toggle's).
 */
export function renderDayNight(switches: readonly PbxDayNight[]): string {
  const route = new Context('app-daynight', 'Day/night switches');
  const toggle = new Context('app-daynight-toggle', 'Day/night feature codes');
  for (const d of [...switches].sort((x, y) => x.index - y.index)) {
    const n = d.index;
    const key = `DAYNIGHT/C${n}`;
    route.ext(
      String(n),
      `NoOp(Day/night ${noteText(d.name)})`,
      `GotoIf($["\${DB(${key})}" = "NIGHT"]?night)`,
      gotoDestination(d.dayDestination),
      `(night),${gotoDestination(d.nightDestination)}`,
    );
    const code = `${FEATURE_CODES.dayNightToggle}${n}`;
    toggle.hint(code, `Custom:DAYNIGHT${n}`);
    toggle.ext(
      code,
      'Answer()',
      `GotoIf($["\${DB(${key})}" = "NIGHT"]?day)`,
      `Set(DB(${key})=NIGHT)`,
      `Set(DEVICE_STATE(Custom:DAYNIGHT${n})=INUSE)`,
      'Playback(beep)',
      'Hangup()',
      `(day),Set(DB(${key})=DAY)`,
      `Set(DEVICE_STATE(Custom:DAYNIGHT${n})=NOT_INUSE)`,
      'Playback(beep&beep)',
      'Hangup()',
    );
  }
  return `${route}${toggle}`;
}

/** IVRs and time conditions are written in files of this many ids each (ids 0–99, 100–199…). */
export const FLOW_BLOCK = 100;
const blockOf = (id: number) => Math.floor(id / FLOW_BLOCK);
export const ivrFile = (block: number) => `extensions.flows.ivr.${block}.conf`;
export const timeConditionFile = (block: number) => `extensions.flows.tc.${block}.conf`;

/**
 * Renders the call-flow files: extensions.flows.conf (announcements, day/night switches, queues, the time-condition
 * contexts, and an #include of each block), plus IVRs and time conditions in blocks of FLOW_BLOCK ids, so a change to
 * one of them rewrites and checks again one small file, as a user's change does with the hundred-blocks of users.
 * Each object's text is kept between renders and reused while the object holds the same data.
 */
export class FlowsRenderer {
  private ivrs = new Map<number, { key: string; text: string }>();
  private conditions = new Map<number, { key: string; text: string }>();

  private cached<T extends { id: number }>(
    cache: Map<number, { key: string; text: string }>,
    item: T,
    render: (item: T) => string,
  ): string {
    const key = JSON.stringify(item);
    const hit = cache.get(item.id);
    if (hit && hit.key === key) return hit.text;
    const text = render(item);
    cache.set(item.id, { key, text });
    return text;
  }

  render(model: PbxModel): Map<string, string> {
    const files = new Map<string, string>();
    const blocks = <T extends { id: number }>(
      items: readonly T[],
      cache: Map<number, { key: string; text: string }>,
      render: (item: T) => string,
      file: (block: number) => string,
    ) => {
      const parts = new Map<number, string[]>();
      const alive = new Set<number>();
      for (const item of [...items].sort((x, y) => x.id - y.id)) {
        alive.add(item.id);
        const list = parts.get(blockOf(item.id)) ?? [];
        list.push(this.cached(cache, item, render));
        parts.set(blockOf(item.id), list);
      }
      for (const id of cache.keys()) if (!alive.has(id)) cache.delete(id);
      for (const [block, list] of parts) files.set(file(block), `${HEADER}${list.join('')}`);
      return [...parts.keys()].sort((a, b) => a - b).map(file);
    };
    const ivrFiles = blocks(model.ivrs, this.ivrs, renderIvr, ivrFile);
    const conditionFiles = blocks(
      model.timeConditions,
      this.conditions,
      (c) => renderTimeConditions([c]),
      timeConditionFile,
    );
    const out: string[] = [HEADER];
    for (const a of [...model.announcements].sort((x, y) => x.id - y.id)) out.push(renderAnnouncement(a));
    out.push(renderDayNight(model.dayNight));
    out.push(renderQueuesDialplan(model.queues, Boolean(model.settings.callRecording)));
    // Both time-condition contexts exist even without conditions: phones include the toggle's.
    out.push(renderTimeConditions([]));
    out.push(renderCqrs(model.cqrs, model.settings.phoneRecording));
    out.push([...ivrFiles, ...conditionFiles].map((f) => `#include ${f}\n`).join(''));
    files.set(FLOWS_FILE, out.join(''));
    return files;
  }
}

/** Every call-flow file at once, without a cache (tests, tools). */
export function renderFlows(model: PbxModel): Map<string, string> {
  return new FlowsRenderer().render(model);
}
