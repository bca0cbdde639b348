// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${NAME} is how the Asterisk dialplan reads variables.

import { describe, expect, it } from 'vitest';
import { reloadPlan } from '../../src/pbx/reloads.ts';
import { renderConfiguration } from '../../src/pbx/render/index.ts';
import { referenceModel } from './fixtures.ts';

/**
 * Conference rooms in the rendered configuration (issue 42): the golden files hold the reference rooms (PINs, limits,
 * music, announcements); this covers what the golden files cannot: recording into the call recordings folder, and how
 * a change reaches Asterisk. test/asterisk/conferences.test.ts runs it in a real Asterisk.
 */
describe('conference rooms', () => {
  it('records only with a recordings folder, naming the file like a call recording and linking it', () => {
    const plain = renderConfiguration(referenceModel());
    expect(plain.get('confbridge.conf')).toContain(
      '[conf-600]\ntype = bridge\nmax_members = 10\nrecord_conference = no\n',
    );
    expect(plain.get('extensions.conferences.conf')).not.toContain('record_file');

    const model = referenceModel();
    model.settings.callRecording = { dir: '/srv/centralino/recordings', notice: null };
    const files = renderConfiguration(model);
    expect(files.get('confbridge.conf')).toContain(
      '[conf-600]\ntype = bridge\nmax_members = 10\nrecord_conference = yes\nrecord_file_timestamp = no\nrecord_file_append = yes\n',
    );
    // Rooms without recording stay as they were.
    expect(files.get('confbridge.conf')).toContain('[conf-601]\ntype = bridge\nrecord_conference = no\n');
    const dialplan = files.get('extensions.conferences.conf') ?? '';
    expect(dialplan).toContain('Set(CONFBRIDGE(bridge,template)=conf-600)');
    expect(dialplan).toContain('Set(CONFBRIDGE(bridge,record_file)=${REC_DIR}/${CONF_REC})');
    expect(dialplan).toContain(
      'Set(CONF_REC=${STRFTIME(${CUT(CHANNEL(linkedid),.,1)},,%Y-%m-%d)}/${CHANNEL(linkedid)}.wav)',
    );
    expect(dialplan).toContain('ConfBridge(600,,conf-600-user,conf-menu-user)');
    expect(dialplan).toContain('ConfBridge(601,conf-601,conf-601-user,conf-menu-user)');
  });

  it('is reached from every phone and reloads app_confbridge when confbridge.conf changes', () => {
    const files = renderConfiguration(referenceModel());
    expect(files.get('extensions.conf')).toContain('#include extensions.conferences.conf');
    expect(files.get('extensions.conf')).toContain('include => ext-meetme');
    expect(files.get('modules.conf')).toContain('load = app_confbridge.so\nload = bridge_softmix.so\n');
    expect(reloadPlan(['confbridge.conf'])).toEqual({ modules: ['app_confbridge.so'], restart: false });
    expect(reloadPlan(['extensions.conferences.conf'])).toEqual({ modules: ['pbx_config.so'], restart: false });
  });

  it('keeps a name from running anything in the dialplan', () => {
    const model = referenceModel();
    model.conferences = [
      {
        number: '650',
        name: 'Evil ${SHELL(rm -rf /)}, (x)|y',
        userPin: null,
        adminPin: null,
        maxMembers: 0,
        musicWhenAlone: false,
        announceJoinLeave: false,
        record: false,
      },
    ];
    const dialplan = renderConfiguration(model).get('extensions.conferences.conf') ?? '';
    expect(dialplan).toContain('exten => 650,1,NoOp(Conference Evil  {SHELL rm -rf / }   x  y)\n');
  });

  it('renders the contexts with no rooms (phones include ext-meetme)', () => {
    const model = referenceModel();
    model.conferences = undefined;
    const files = renderConfiguration(model);
    expect(files.get('extensions.conferences.conf')).toContain('[ext-meetme]');
    expect(files.get('confbridge.conf')).toContain('[conf-menu-user]');
  });
});
