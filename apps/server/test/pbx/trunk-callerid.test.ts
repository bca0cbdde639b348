import { describe, expect, it } from 'vitest';
import { defaultPbxSettings } from '../../src/pbx/model.ts';
import { renderTrunk } from '../../src/pbx/render/pjsip.ts';
import { voipTrunk } from './fixtures.ts';

/** The endpoint section of a rendered trunk as key → values. */
function endpointOf(text: string): Map<string, string[]> {
  const sections = text.split(/\n(?=\[)/);
  const endpoint = sections.find((s) => /\ntype = endpoint\n/.test(`\n${s}`)) ?? '';
  const out = new Map<string, string[]>();
  for (const line of endpoint.split('\n')) {
    const m = /^(\w+) = (.*)$/.exec(line);
    if (m) out.set(m[1] as string, [...(out.get(m[1] as string) ?? []), m[2] as string]);
  }
  return out;
}

describe('outbound caller ID and codec order of a trunk', () => {
  it('keeps the account in From and sends the caller ID in P-Asserted-Identity', () => {
    const e = endpointOf(renderTrunk(voipTrunk(1, 'Carrier'), defaultPbxSettings));
    expect(e.get('from_user')).toEqual(['06123451']);
    expect(e.get('send_pai')).toEqual(['yes']);
    expect(e.get('send_rpid')).toBeUndefined();
  });

  it('sends Remote-Party-ID too, or instead, when the provider preset asks for it', () => {
    const both = endpointOf(renderTrunk(voipTrunk(2, 'Both', { callerIdHeader: 'both' }), defaultPbxSettings));
    expect([both.get('send_pai'), both.get('send_rpid')]).toEqual([['yes'], ['yes']]);
    const rpid = endpointOf(renderTrunk(voipTrunk(3, 'Rpid', { callerIdHeader: 'rpid' }), defaultPbxSettings));
    expect([rpid.get('send_pai'), rpid.get('send_rpid')]).toEqual([undefined, ['yes']]);
  });

  it('puts the line number in From for providers whose preset says so', () => {
    const e = endpointOf(renderTrunk(voipTrunk(4, 'Wic', { fromUser: '0721000000' }), defaultPbxSettings));
    expect(e.get('from_user')).toEqual(['0721000000']);
  });

  it('offers exactly the configured codecs, in the configured order', () => {
    const e = endpointOf(renderTrunk(voipTrunk(5, 'Alaw', { codecs: ['alaw', 'ulaw'] }), defaultPbxSettings));
    expect(e.get('allow')).toEqual(['alaw,ulaw']);
    expect(e.get('outgoing_call_offer_pref')).toEqual(['local_merge']);
  });
});
