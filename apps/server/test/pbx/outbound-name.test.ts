import { describe, expect, it } from 'vitest';
import { renderConfiguration } from '../../src/pbx/render/index.ts';
import { referenceModel } from './fixtures.ts';

/**
 * Issue 38 (5b): an outbound call's From and P-Asserted-Identity carry CALLERID(name) to the provider, which was
 * the calling user's internal name. The trunk's dial step sends the number and no name (unless a forwarded
 * outside caller keeps their own).
 */
// biome-ignore lint/suspicious/noTemplateCurlyInString: ${NAME} is how the Asterisk dialplan reads variables.
const BLANK_NAME = 'ExecIf($["${KEEPCID}" != "TRUE"]?Set(CALLERID(name)=))';

describe('the caller name an outbound call gives the provider', () => {
  const files = renderConfiguration(referenceModel());
  const steps = (files.get('extensions.conf') ?? '')
    .split(/\n(?=\[)/)
    .find((c) => c.startsWith('[sub-dial-trunk]'))
    ?.split('\n')
    .map((l) => /^\s*(?:exten\s*=>\s*[^,]+,[^,]+,|same\s*=>\s*[^,]+,)(.*)$/.exec(l)?.[1])
    .filter((s): s is string => s !== undefined);

  it('blanks the name before the trunk is dialled, except for a kept (forwarded) caller', () => {
    expect(steps).toBeDefined();
    const dial = steps?.findIndex((s) => s.startsWith('Dial(')) ?? -1;
    const blank = steps?.indexOf(BLANK_NAME) ?? -1;
    expect(dial).toBeGreaterThan(0);
    expect(blank).toBeGreaterThan(-1);
    expect(blank).toBeLessThan(dial);
    // Nothing sets a name again between the two.
    expect(steps?.slice(blank + 1, dial).filter((s) => s.includes('CALLERID(name)'))).toEqual([]);
  });
});
