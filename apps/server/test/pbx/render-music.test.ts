// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${NAME} is how the Asterisk dialplan reads variables.

import { describe, expect, it } from 'vitest';
import { reloadPlan } from '../../src/pbx/reloads.ts';
import { renderConfiguration } from '../../src/pbx/render/index.ts';
import { referenceModel } from './fixtures.ts';

/**
 * Music on hold in the rendered configuration (issue 42 item 6): the golden files hold the reference classes (a class
 * with files, an empty one) and their users; this covers what they cannot show side by side. The real-Asterisk tier
 * (test/asterisk/music-on-hold.test.ts) measures what a caller hears.
 */
describe('music on hold', () => {
  it('gives each class with files its folder and order, leaves an empty one out, and loads what plays them', () => {
    const files = renderConfiguration(referenceModel());
    const moh = files.get('musiconhold.conf') ?? '';
    expect(moh).toContain('[default]\nmode = files\ndirectory = moh\n');
    expect(moh).toContain('[sales]\nmode = files\ndirectory = /var/lib/centralino/sounds/moh/sales\nsort = random\n');
    expect(moh).not.toContain('[empty]');
    const modules = files.get('modules.conf') ?? '';
    for (const m of ['res_musiconhold.so', 'format_wav.so', 'format_gsm.so', 'func_channel.so']) {
      expect(modules).toContain(`load = ${m}\n`);
    }
  });

  it('changes musiconhold.conf when a file comes or goes, so res_musiconhold reads the folder again', () => {
    const before = renderConfiguration(referenceModel()).get('musiconhold.conf');
    const model = referenceModel();
    model.musicClasses?.[1]?.files.push('winter');
    const after = renderConfiguration(model).get('musiconhold.conf');
    expect(after).not.toBe(before);
    expect(after).toContain('; 3 files: jingle, theme-2, winter\n');
    expect(reloadPlan(['musiconhold.conf'])).toEqual({ modules: ['res_musiconhold.so'], restart: false });
  });

  it('plays ringing in a queue with the default class standing in, and a route without music keeps ringing', () => {
    const model = referenceModel();
    const queue = model.queues[0];
    if (queue) queue.music = 'ringing';
    const files = renderConfiguration(model);
    expect(files.get('queues.conf')).toContain('musicclass = default\n');
    expect(files.get('extensions.flows.conf')).toContain('Queue(500,tr,,,120)');
    const dialplan = files.get('extensions.conf') ?? '';
    expect(dialplan).toContain('DIAL_OPTIONS=HhTtr\n');
    // Only the VIP route chose music.
    expect(dialplan.match(/Set\(__DIAL_OPTIONS=/g)).toHaveLength(1);
    expect(dialplan).toContain('Set(CHANNEL(musicclass)=sales)\n same => n,Set(__DIAL_OPTIONS=HhTtm(sales))');
  });

  it('gives every trunk call the trunk class, and suggests it to the far end only when not the default', () => {
    const files = renderConfiguration(referenceModel());
    const dialplan = files.get('extensions.conf') ?? '';
    expect(dialplan).toContain('OUTMOH_1=default\n');
    expect(dialplan).toContain('OUTMOH_2=sales\n');
    expect(dialplan).toContain('${TRUNK_OPTIONS}b(sub-trunk-moh^s^1(${ARG1})))');
    expect(dialplan).toContain('[sub-trunk-moh]');
    const trunks = files.get('pjsip.trunks.conf') ?? '';
    expect(trunks.match(/moh_suggest = /g)).toEqual(['moh_suggest = ']);
    expect(trunks).toContain('moh_suggest = sales\n');
  });
});
