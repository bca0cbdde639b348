// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${NAME} is how the Asterisk dialplan reads variables.

import { FEATURE_CODES } from '../feature-codes.ts';
import type { PbxTimeCondition } from '../model.ts';
import { noteText } from './common.ts';
import { Context, gotoDestination } from './dialplan.ts';

/**
 * Time conditions (issue 26, contract asterisk §5.1): timeconditions,<id>,1 goes to the true destination while one of
 * its group's ranges matches (GotoIfTime, in the system's time zone) and to the false one otherwise. An override in
 * AstDB TC/<id> ('inside' or 'outside') wins until cleared; *27<id> sets the override opposite to what the time says,
 * or clears it, with no reload (as day/night switches do). Both contexts always exist: phones include the toggle's.
 */

/** GotoIfTime(times,weekdays,mdays,months?label) for each range. */
const timeTests = (c: PbxTimeCondition, target: string) =>
  c.ranges.map((r) => `GotoIfTime(${r.hours},${r.weekdays},${r.mdays},${r.months}?${target})`);

export function renderTimeConditions(conditions: readonly PbxTimeCondition[]): string {
  const route = new Context('timeconditions', 'Time conditions');
  const toggle = new Context('app-timecondition-toggle', 'Time condition overrides');
  for (const c of [...conditions].sort((a, b) => a.id - b.id)) {
    const key = `TC/${c.id}`;
    route.ext(
      String(c.id),
      `NoOp(Time condition ${noteText(c.name)})`,
      `GotoIf($["\${DB(${key})}" = "inside"]?inside)`,
      `GotoIf($["\${DB(${key})}" = "outside"]?outside)`,
      ...timeTests(c, 'inside'),
      `(outside),${gotoDestination(c.falseDestination)}`,
      `(inside),${gotoDestination(c.trueDestination)}`,
    );
    const code = `${FEATURE_CODES.timeConditionToggle}${c.id}`;
    toggle.hint(code, `Custom:TC${c.id}`);
    toggle.ext(
      code,
      'Answer()',
      `GotoIf($["\${DB(${key})}" != ""]?clear)`,
      ...timeTests(c, 'now_inside'),
      `Set(DB(${key})=inside)`,
      `Set(DEVICE_STATE(Custom:TC${c.id})=INUSE)`,
      'Playback(beep)',
      'Hangup()',
      `(now_inside),Set(DB(${key})=outside)`,
      `Set(DEVICE_STATE(Custom:TC${c.id})=INUSE)`,
      'Playback(beep)',
      'Hangup()',
      `(clear),NoOp(Deleting: ${key} \${DB_DELETE(${key})})`,
      `Set(DEVICE_STATE(Custom:TC${c.id})=NOT_INUSE)`,
      'Playback(beep&beep)',
      'Hangup()',
    );
  }
  return `${route}${toggle}`;
}
