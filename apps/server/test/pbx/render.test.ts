// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${NAME} is how the Asterisk dialplan reads variables.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseConf } from '../../src/pbx/conf-parser.ts';
import type { PbxDevice, PbxFollowMe, PbxModel, PbxUser } from '../../src/pbx/model.ts';
import { renderUserDialplan } from '../../src/pbx/render/dialplan.ts';
import { ConfigRenderer, renderConfiguration, sameUser } from '../../src/pbx/render/index.ts';
import { renderVoicemail } from '../../src/pbx/render/voicemail.ts';
import { formatIssue, validateConfiguration } from '../../src/pbx/validate.ts';
import { referenceModel, user, voipTrunk } from './fixtures.ts';

const goldenDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'golden');

describe('Asterisk configuration renderer', () => {
  it('renders the reference system exactly as the golden files (UPDATE_GOLDEN=1 rewrites them)', () => {
    const files = renderConfiguration(referenceModel());
    if (process.env.UPDATE_GOLDEN) {
      fs.rmSync(goldenDir, { recursive: true, force: true });
      fs.mkdirSync(goldenDir, { recursive: true });
      for (const [name, text] of files) fs.writeFileSync(path.join(goldenDir, name), text);
    }
    expect([...files.keys()]).toEqual(fs.readdirSync(goldenDir).sort());
    for (const [name, text] of files) {
      expect(text, name).toBe(fs.readFileSync(path.join(goldenDir, name), 'utf8'));
    }
  });

  it('renders a configuration the validator accepts', () => {
    expect(validateConfiguration(renderConfiguration(referenceModel())).map(formatIssue)).toEqual([]);
  });

  it('gives byte-identical output for the same data, whatever the input order', () => {
    const a = referenceModel();
    const b = referenceModel();
    b.users.reverse();
    expect(renderConfiguration(b)).toEqual(renderConfiguration(a));
  });

  it('re-renders only what a change touches, with the same result as a fresh render', () => {
    const renderer = new ConfigRenderer();
    const model = referenceModel();
    const first = renderer.render(model);
    const changed: PbxModel = {
      ...model,
      users: model.users.map((u) => (u.extension === '202' ? { ...u, name: 'Robert' } : u)),
    };
    const second = renderer.render(changed);
    expect(second).toEqual(renderConfiguration(changed));
    const differing = [...second.keys()].filter((name) => second.get(name) !== first.get(name));
    // The name is in the SIP caller ID only: the dialplan of the bucket stays as it was.
    expect(differing).toEqual(['pjsip.users.2xx.conf']);
  });

  it('keeps user-supplied names from breaking lines or starting comments', () => {
    const model = referenceModel();
    model.users.push(user('300', { name: 'Evil\n[global]\ntype=endpoint ; x' }));
    const files = renderConfiguration(model);
    expect(validateConfiguration(files).map(formatIssue)).toEqual([]);
    expect(files.get('pjsip.users.3xx.conf')).toContain('callerid = "Evil [global] type=endpoint x" <300>');
  });

  it('writes no control character into any file, whatever a directory hands over', () => {
    const model = referenceModel();
    model.users.push(user('301', { name: 'Nul\u0000Byte\u0007 \u001bName\u007f' }));
    const files = renderConfiguration(model);
    expect(validateConfiguration(files).map(formatIssue)).toEqual([]);
    expect(files.get('pjsip.users.3xx.conf')).toContain('callerid = "Nul Byte Name" <301>');
    for (const [name, text] of files) {
      // biome-ignore lint/suspicious/noControlCharactersInRegex: looking for control characters
      expect(text.replaceAll('\n', '').replaceAll('\t', ''), name).not.toMatch(/[\u0000-\u001f\u007f]/);
    }
  });

  it('writes SRTP and TLS for encrypted devices and DTLS over WSS for web phones', () => {
    const pjsip = renderConfiguration(referenceModel()).get('pjsip.users.2xx.conf') ?? '';
    expect(pjsip).toContain('[201](device-endpoint-tls)');
    expect(pjsip).toContain('[91201](device-endpoint-webrtc)');
    const root = renderConfiguration(referenceModel()).get('pjsip.conf') ?? '';
    expect(root).toMatch(
      /\[device-endpoint-tls\]\(!,device-endpoint\)\ntransport = transport-tls\nmedia_encryption = sdes/,
    );
    expect(root).toMatch(/\[device-endpoint-webrtc\]\(!,device-endpoint\)\ntransport = transport-wss\ndisallow = all/);
  });

  it('lets a profile reach only the feature codes and routes it allows', () => {
    const dialplan = renderConfiguration(referenceModel()).get('extensions.conf') ?? '';
    const context = (name: string) => dialplan.slice(dialplan.indexOf(`[${name}]`)).split('\n\n')[0] ?? '';
    const base = context('cti-profile-1');
    expect(base).toContain('include => app-dnd-on');
    expect(base).not.toContain('include => app-cf-on');
    expect(base).toContain('include => outrt-1');
    expect(base).not.toContain('include => outrt-2');
    expect(base).toContain('include => outrt-3');
    expect(base.trim().split('\n').at(-2)).toBe('include => bad-number');
    expect(context('cti-profile-3')).toContain('include => outbound-allroutes');
  });

  it('gives a profile denied a route no way to dial a number of that route, through any include', () => {
    /** Extension patterns a phone of the context can dial, following includes all the way down. */
    const dialable = (model: PbxModel, start: string) => {
      const files = renderConfiguration(model);
      const sections = [...files]
        .filter(([name]) => name.startsWith('extensions'))
        .flatMap(([name, text]) => parseConf(name, text).sections);
      const seen = new Set<string>();
      const patterns = new Set<string>();
      const visit = (name: string) => {
        if (seen.has(name)) return;
        seen.add(name);
        for (const entry of sections.filter((s) => s.name === name).flatMap((s) => s.entries)) {
          if (entry.key === 'include') visit(entry.value);
          if (entry.key === 'exten') patterns.add(`${name}:${entry.value.split(',')[0]}`);
        }
      };
      visit(start);
      return { contexts: seen, patterns };
    };
    const model = referenceModel();
    // Base denies cellphone_it (route 2); Advanced has never saved route permissions.
    const base = dialable(model, 'cti-profile-1');
    expect(base.contexts.has('outrt-2')).toBe(false);
    expect(base.contexts.has('outbound-allroutes')).toBe(false);
    expect(base.patterns.has('outrt-1:_0ZXXX.')).toBe(true);
    expect([...base.patterns].filter((p) => p.endsWith(':_3XXXXXX.'))).toEqual([]);
    expect(dialable(model, 'cti-profile-3').patterns.has('outrt-2:_3XXXXXX.')).toBe(true);

    // A route created after the profile was saved is allowed until the profile denies it.
    model.outboundRoutes.push({ ...(model.outboundRoutes[0] as PbxModel['outboundRoutes'][number]), id: 7 });
    expect(dialable(model, 'cti-profile-1').contexts.has('outrt-7')).toBe(true);
    (model.profiles[0] as PbxModel['profiles'][number]).routes[7] = false;
    expect(dialable(model, 'cti-profile-1').contexts.has('outrt-7')).toBe(false);
  });

  it('bounds the ringing by the ring time whenever one is set; 0 rings on unless an unanswered call goes on', () => {
    // The third argument of the main extension's sub-dial-user: the Dial timeout.
    const timeoutOf = (u: PbxUser) => /sub-dial-user,s,1\([^,]*,[^,]*,([^,]*),/.exec(renderUserDialplan(u))?.[1];
    expect(timeoutOf(user('301', { ringTime: 40 }))).toBe('40');
    expect(timeoutOf(user('301', { ringTime: 40, voicemail: { pin: '1' } }))).toBe('40');
    expect(timeoutOf(user('301'))).toBe('');
    expect(timeoutOf(user('301', { voicemail: { pin: '1' } }))).toBe('${RINGTIMER_DEFAULT}');
    const failover = { busy: null, noAnswer: 'app-blackhole,hangup,1', unavailable: null };
    expect(timeoutOf(user('301', { destinations: failover }))).toBe('${RINGTIMER_DEFAULT}');
  });

  it('dials trunks in route order with the prefix stripped and the trunk prefix added', () => {
    const model = referenceModel();
    model.trunks.push(voipTrunk(9, 'Extra', { dialPrefix: '55' }));
    const dialplan = renderConfiguration(model).get('extensions.conf') ?? '';
    expect(dialplan).toContain('exten => _00390ZXXX.,1,Set(ROUTEID=1)');
    expect(dialplan).toContain(
      ' same => n,Set(DIAL_NUMBER=${EXTEN:4})\n same => n,Gosub(sub-call-permission,s,1(${DIAL_NUMBER}))\n same => n,Gosub(sub-dial-trunk,s,1(1,${DIAL_NUMBER}))\n same => n,Gosub(sub-dial-trunk,s,1(3,${DIAL_NUMBER}))',
    );
    expect(dialplan).toContain('OUTPREFIX_9=55\n');
    expect(dialplan).toContain('OUT_3_SUFFIX=@Patton_a1b2c3_fxo_0\n');
  });
});

describe('user comparison of the renderer cache', () => {
  it('tells apart users that differ in any field, devices and destinations included', () => {
    const base = user('201', {
      voicemail: { pin: '1' },
      groups: ['a'],
      devices: [{ number: '91201', type: 'physical', secret: 's', encrypted: false }],
      recording: 'on_demand',
      followMe: {
        preRing: 10,
        strategy: 'hunt',
        confirmExternal: false,
        legs: [{ kind: 'external', number: '3331234567', ringTime: 20 }],
      },
      callPermission: null,
    });
    expect(sameUser(base, structuredClone(base))).toBe(true);
    const changes: Record<string, (u: PbxUser) => void> = {
      username: (u) => {
        u.username = 'x';
      },
      name: (u) => {
        u.name = 'x';
      },
      extension: (u) => {
        u.extension = '202';
      },
      secret: (u) => {
        u.secret = 'x';
      },
      devices: (u) => {
        (u.devices[0] as PbxDevice).encrypted = true;
      },
      outboundcid: (u) => {
        u.outboundcid = '1';
      },
      email: (u) => {
        u.email = 'a@b.c';
      },
      mobile: (u) => {
        u.mobile = '1';
      },
      voicemail: (u) => {
        u.voicemail = { pin: '2' };
      },
      profileId: (u) => {
        u.profileId = 3;
      },
      ringTime: (u) => {
        u.ringTime = 5;
      },
      callWaiting: (u) => {
        u.callWaiting = false;
      },
      callGroup: (u) => {
        u.callGroup = '1';
      },
      pickupGroup: (u) => {
        u.pickupGroup = '1';
      },
      groups: (u) => {
        u.groups = ['b'];
      },
      destinations: (u) => {
        u.destinations.unavailable = 'app-blackhole,busy,1';
      },
      recording: (u) => {
        u.recording = 'always';
      },
      followMe: (u) => {
        u.followMe = undefined;
      },
      callPermission: (u) => {
        u.callPermission = ['mobile'];
      },
    };
    // A new field of PbxUser must be compared too: this list follows the fields of a user.
    expect(Object.keys(changes).sort()).toEqual(Object.keys(base).sort());
    for (const [field, change] of Object.entries(changes)) {
      const other = structuredClone(base);
      change(other);
      expect(sameUser(base, other), field).toBe(false);
    }
    for (const change of [
      (f: PbxFollowMe) => {
        f.preRing = 11;
      },
      (f: PbxFollowMe) => {
        f.strategy = 'ringall';
      },
      (f: PbxFollowMe) => {
        f.confirmExternal = true;
      },
      (f: PbxFollowMe) => {
        (f.legs[0] as PbxFollowMe['legs'][number]).ringTime = 21;
      },
      (f: PbxFollowMe) => {
        f.legs.push({ kind: 'user', number: '202', ringTime: 5 });
      },
    ]) {
      const other = structuredClone(base);
      change(other.followMe as PbxFollowMe);
      expect(sameUser(base, other), 'followMe').toBe(false);
    }
    const noBox = structuredClone(base);
    noBox.voicemail = null;
    expect(sameUser(base, noBox)).toBe(false);
    for (const field of ['number', 'type', 'secret'] as const) {
      const other = structuredClone(base);
      (other.devices[0] as unknown as Record<string, unknown>)[field] = 'webrtc';
      expect(sameUser(base, other), field).toBe(false);
    }
  });
});

describe('voicemail.conf assembled from the hundred-blocks', () => {
  it('lists the mailboxes in extension order, as one sort of all users would', () => {
    const model = referenceModel();
    const numbers = ['99', '7', '100', '1999', '20', '201', '2000', '12345', '3', '950', '10000', '299'];
    model.users = numbers.map((n, i) => user(n, { username: `u${i}`, voicemail: i % 3 === 2 ? null : { pin: n } }));
    expect(renderConfiguration(model).get('voicemail.conf')).toBe(renderVoicemail(model.users));
  });
});
