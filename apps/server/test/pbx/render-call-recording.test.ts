// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${NAME} is how the Asterisk dialplan reads variables.

import { describe, expect, it } from 'vitest';
import { renderConfiguration } from '../../src/pbx/render/index.ts';
import { referenceModel, user } from './fixtures.ts';

/**
 * Call recordings in the rendered configuration (issue 41): without a recordings folder nothing changes (the golden
 * files); with one, each policy that decides adds its step, `*1` is the console's own feature, and the subroutine
 * names the file by the linked id and links it from the call record. The real Asterisk runs it in
 * test/asterisk/call-recordings.test.ts.
 */

function recordingModel() {
  const model = referenceModel();
  model.settings.callRecording = { dir: '/srv/centralino/recordings', notice: 'conf-now-recording' };
  model.users = [
    ...model.users,
    user('230', { recording: 'always' }),
    user('231', { recording: 'never' }),
    user('232', { recording: 'on_demand' }),
  ];
  const [route] = model.inboundRoutes;
  if (route) route.recording = 'always';
  const [queue] = model.queues;
  if (queue) queue.recording = 'never';
  return model;
}

describe('call recordings in the dialplan', () => {
  it('adds nothing without a recordings folder, and keeps automixmon on *1', () => {
    const files = renderConfiguration(referenceModel());
    expect(files.get('extensions.conf')).not.toContain('[sub-record]');
    expect(files.get('extensions.conf')).not.toContain('Gosub(sub-record,');
    expect(files.get('features.conf')).toContain('automixmon = *1');
    expect(files.get('features.conf')).not.toContain('applicationmap');
  });

  it('records by policy: globals, steps of routes, queues, callers and called users, and *1', () => {
    const files = renderConfiguration(recordingModel());
    const dialplan = files.get('extensions.conf') ?? '';
    expect(dialplan).toContain('REC_DIR=/srv/centralino/recordings\n');
    expect(dialplan).toContain('REC_NOTICE=conf-now-recording\n');
    expect(dialplan).toContain('DYNAMIC_FEATURES=recordcall\n');
    // The file by the linked id in the day's folder of the call's first channel, linked from its call record.
    expect(dialplan).toContain(
      'Set(REC_NAME=${STRFTIME(${CUT(CHANNEL(linkedid),.,1)},,%Y-%m-%d)}/${CHANNEL(linkedid)}.wav)',
    );
    expect(dialplan).toContain('MixMonitor(${REC_DIR}/${REC_NAME},b${ARG1}i(REC_MIXID))');
    expect(dialplan).toContain('Set(MASTER_CHANNEL(CDR(recordingfile))=${REC_NAME})');
    // The first decision stays: a later step finds REC_POLICY set.
    expect(dialplan).toContain('GotoIf($["${REC_POLICY}" != "" | "${ARG1}" = "" | "${ARG1}" = "on_demand"]?done)');
    // The inbound route's step comes before its destination.
    expect(dialplan).toMatch(/Gosub\(sub-record,s,1\(always,in\)\)\n same => n,Goto\(/);
    // Callers' own policy on outbound and internal calls; the called user's next; a queue's member is the queue's.
    expect(dialplan).toContain('Gosub(sub-record,s,1(${REC_OWN},out))');
    expect(dialplan).toContain('Gosub(sub-record,s,1(${ARG6},in))');
    expect(dialplan).toContain('GotoIf($["${QUEUECALL}" = "yes"]?recorded)');
    // The notice to the called party on a call a user makes: Dial's A().
    expect(dialplan).toContain('${DIAL_OPTIONS}${REC_DIALOPT}');
    expect(dialplan).toContain('${TRUNK_OPTIONS}b(sub-trunk-moh^s^1(${ARG1}))${REC_DIALOPT}');
    // *1 toggles the console's own recording while no policy decided.
    expect(dialplan).toContain('[app-record-toggle]');
    expect(dialplan).toContain('StopMixMonitor(${REC_MIXID})');
    const features = files.get('features.conf') ?? '';
    expect(features).not.toContain('automixmon');
    expect(features).toContain('[applicationmap]\nrecordcall = *1,self,Gosub(app-record-toggle,s,1())\n');

    const users = [...files.entries()].filter(([name]) => name.startsWith('extensions.users.')).map(([, t]) => t);
    const all = users.join('');
    expect(all).toMatch(/exten => 230,1,Gosub\(sub-dial-user,s,1\(230,230,,230,ENABLED,always\)\)/);
    expect(all).toMatch(/exten => 231,1,Gosub\(sub-dial-user,s,1\(231,231,,231,ENABLED,never\)\)/);
    // On demand decides nothing: the line stays as it was.
    expect(all).toMatch(/exten => 232,1,Gosub\(sub-dial-user,s,1\(232,232,,232,ENABLED\)\)/);
    const endpoints = [...files.entries()]
      .filter(([name]) => name.startsWith('pjsip.users.'))
      .map(([, t]) => t)
      .join('');
    expect(endpoints).toContain('set_var = REC_OWN=always');
    expect(endpoints).toContain('set_var = REC_OWN=never');
    expect((endpoints.match(/REC_OWN=/g) ?? []).length).toBe(2);

    const flows = files.get('extensions.flows.conf') ?? '';
    expect(flows).toMatch(/Gosub\(sub-record,s,1\(never,in\)\)\n same => n,Queue\(/);
  });
});
