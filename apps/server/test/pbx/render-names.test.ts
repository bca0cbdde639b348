// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${...} is what a hostile name would hold.

import { describe, expect, it } from 'vitest';
import { renderConfiguration } from '../../src/pbx/render/index.ts';
import { referenceModel } from './fixtures.ts';

/**
 * Names administrators type reach the dialplan as notes (NoOp), whose argument Asterisk substitutes before running
 * it: a name holding ${SHELL(...)} or $[...] must arrive as text that runs nothing.
 */
describe('names in the dialplan', () => {
  it('carry no substitution from any call object', () => {
    const evil = 'Sales ${SHELL(touch /tmp/pwned)} $[1+1]';
    const model = referenceModel();
    for (const list of [
      model.queues,
      model.ivrs,
      model.timeConditions,
      model.cqrs,
      model.conferences ?? [],
      model.numberedRingGroups ?? [],
    ] as { name: string }[][]) {
      for (const item of list) item.name = evil;
    }
    for (const a of model.announcements) a.description = evil;
    const files = renderConfiguration(model);
    const noted = [...files].filter(([name]) => name.startsWith('extensions')).map(([, text]) => text);
    // What Asterisk runs: a line up to its comment (an unescaped ';'), where a name is only text.
    const notes = noted
      .join('\n')
      .split('\n')
      .map((l) => l.split(/(?<!\\);/)[0] as string)
      .filter((l) => l.includes('Sales'));
    expect(notes.length).toBeGreaterThan(5);
    for (const line of notes) {
      expect(line).not.toContain('${SHELL');
      expect(line).not.toContain('$[');
    }
  });
});
