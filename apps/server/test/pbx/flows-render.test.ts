// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${NAME} is how the Asterisk dialplan reads variables.

import { describe, expect, it } from 'vitest';
import { mainExtensionClash } from '../../src/features/numbering/rules.ts';
import { featureCodeReached } from '../../src/pbx/feature-codes.ts';
import type { PbxModel } from '../../src/pbx/model.ts';
import { renderAnnouncement, renderIvr } from '../../src/pbx/render/flows.ts';
import { renderConfiguration } from '../../src/pbx/render/index.ts';
import { formatIssue, validateConfiguration } from '../../src/pbx/validate.ts';
import { referenceModel } from './fixtures.ts';

/** Announcements and IVRs (issue 26): the golden files show the reference system's; these are the edge cases. */
describe('call-flow dialplan', () => {
  const ivr = (referenceModel().ivrs[0] as PbxModel['ivrs'][number]) ?? undefined;

  it('refuses, before anything is written, a flow that points at an object that is not there', () => {
    const model = referenceModel();
    model.ivrs[0]?.entries.push({ selection: '5', destination: 'app-announcement-9,s,1' });
    model.announcements[0] = {
      ...(model.announcements[0] as PbxModel['announcements'][number]),
      destination: 'ivr-7,s,1',
    };
    const issues = validateConfiguration(renderConfiguration(model)).map(formatIssue);
    expect(issues).toEqual([
      expect.stringMatching(
        /^extensions\.flows\.conf:\d+: \[app-announcement-1\] Goto: context "ivr-7" does not exist$/,
      ),
      expect.stringMatching(
        /^extensions\.flows\.ivr\.0\.conf:\d+: \[ivr-1\] Goto: context "app-announcement-9" does not exist$/,
      ),
    ]);
  });

  it('plays nothing when no recording is chosen, and answers only when asked to', () => {
    const text = renderAnnouncement({
      id: 5,
      description: 'No (sound); here',
      recording: null,
      allowSkip: false,
      destination: 'from-did-direct,201,1',
      returnIvr: false,
      noAnswer: true,
      repeatKey: '',
    });
    expect(text).toContain('[app-announcement-5] ; No (sound)\\; here\n');
    expect(text).toContain(' same => n,Progress()\n');
    expect(text).not.toContain('Answer()');
    expect(text).not.toMatch(/Playback|Background/);
    expect(text).toContain('Goto(ext-local,201,1)');
  });

  it('gives up after the retries: none at all goes straight on', () => {
    const text = renderIvr({
      ...ivr,
      directDial: false,
      invalidLoops: 0,
      timeoutLoops: 0,
      announcement: null,
      entries: [],
    });
    expect(text).not.toContain('include => ext-local');
    expect(text).toContain('GotoIf($[${IVR_INVALIDS} > 0]?give-up)');
    expect(text).toContain('GotoIf($[${IVR_TIMEOUTS} > 0]?give-up)');
    expect(text).not.toContain('Background(');
    expect(
      validateConfiguration(renderConfiguration({ ...referenceModel(), ivrs: [{ ...ivr, entries: [] }] })),
    ).toEqual([]);
  });

  it('keeps *28<n> for day/night switches: a main extension whose direct voicemail would dial it is refused', () => {
    expect(featureCodeReached('*283')).toEqual({ name: 'dayNightToggle', code: '*28' });
    expect(mainExtensionClash('283', [])).toEqual({
      number: '283',
      featureCode: { name: 'dayNightToggle', code: '*28' },
    });
    expect(mainExtensionClash('290', [])).toBeUndefined();
  });
});
