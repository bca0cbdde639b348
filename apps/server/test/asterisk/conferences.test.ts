import fs from 'node:fs';
import path from 'node:path';
import type { ConferenceLiveRoom, ConferenceParticipant } from '@centralino/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_PASSWORD,
  type AsteriskLab,
  deviceSecrets,
  type SippRun,
  seedLocalUsers,
  skipReason,
  startAsteriskLab,
} from '../support/asterisk.ts';

/**
 * Conference rooms (issue 42 item 1) in a real Asterisk: app_confbridge loads the rendered profiles; three SIP phones
 * dial an open room and ConfBridge lists them all, the console lists them over AMI and kicks one, whose leg ends; in
 * a room with PINs a caller sending the user PIN (as DTMF) joins, one sending the admin PIN joins as administrator, and
 * one sending a wrong PIN never joins and is hung up after its tries.
 */

/** The distribution's prompts (asterisk-core-sounds-en): the PIN prompt must play for Read() to wait for digits. */
const SOUNDS = '/usr/share/asterisk/sounds';
const soundsInstalled = fs.existsSync(path.join(SOUNDS, 'en', 'conf-getpin.gsm'));

type Status = {
  state: string;
  last: { ok: boolean; error: string | null; startedAt: number } | null;
};

describe.skipIf(skipReason !== '')('conference rooms in a real Asterisk', { timeout: 180_000 }, () => {
  let lab: AsteriskLab;
  let secrets: Record<string, string> = {};
  const calls: SippRun[] = [];
  const ids = { open: 0, pinned: 0 };

  const api = async <T = unknown>(method: string, url: string, body?: unknown) => {
    const res = await lab.api<T>(method, url, body);
    if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const applied = async (since: number) => {
    const s = await lab.until(
      'the apply',
      async () => {
        const status = (await lab.api<Status>('GET', '/api/pbx/apply')).body;
        return status.state === 'idle' && status.last && status.last.startedAt >= since ? status : undefined;
      },
      90_000,
    );
    expect(s.last?.ok, s.last?.error ?? '').toBe(true);
  };
  /** GET /api/dashboard/events as a browser's dashboard reads it; `next` waits for the next block matching. */
  const eventStream = async () => {
    const login = await api<{ secretkey: string }>('POST', '/api/login', {
      username: 'admin',
      password: ADMIN_PASSWORD,
    });
    const abort = new AbortController();
    const res = await fetch(`${lab.consoleUrl}/api/dashboard/events`, {
      headers: { User: 'admin', Secretkey: login.secretkey },
      signal: abort.signal,
    });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = '';
    await lab.until('the event stream to open', async () => {
      text += decoder.decode((await reader.read()).value, { stream: true });
      return text.includes('event: pbx');
    });
    return {
      /** Resolves at the first event after the ones seen so far that matches (each is consumed once). */
      next: (pattern: RegExp) =>
        lab.until(`${pattern} on the event stream`, async () => {
          const found = pattern.exec(text);
          if (found) {
            text = text.slice(found.index + found[0].length);
            return true;
          }
          text += decoder.decode((await reader.read()).value, { stream: true });
          return false;
        }),
      close: () => abort.abort(),
    };
  };
  /** The channels ConfBridge lists in a room (`confbridge list <room>`: one line per channel). */
  const inRoom = async (room: string) =>
    (await lab.rx(`confbridge list ${room}`))
      .split('\n')
      .map((l) => l.trim().split(/\s+/)[0] ?? '')
      .filter((c) => /^(PJSIP|Local)\//.test(c));
  /** A Local channel dialling the room from a phone's context, then sending `digits` as DTMF, then staying. */
  const dialWithDtmf = async (name: string, room: string, digits: string) => {
    let n = 1;
    for (const step of ['Answer', 'Wait(2)', `SendDTMF(${digits})`, 'Wait(120)', 'Hangup']) {
      await lab.rx(`dialplan add extension s,${n++},${step.replace('(', ',').replace(/\)$/, '')} into test-${name}`);
    }
    await lab.rx(`channel originate Local/${room}@from-internal extension s@test-${name}`);
  };

  beforeAll(async () => {
    lab = await startAsteriskLab({ env: (root) => ({ RECORDINGS_DIR: path.join(root, 'recordings') }) });
    // The lab's Asterisk data folder has no prompts of its own; the managed PBX links the same folder (layout.ts).
    if (soundsInstalled) fs.symlinkSync(SOUNDS, path.join(lab.dirs.root, 'astdata', 'sounds'));
    await seedLocalUsers(lab, [
      ['anna', '201'],
      ['bea', '202'],
      ['carlo', '203'],
    ]);
    const since = Date.now();
    ids.open = (
      await api<{ id: number }>('POST', '/api/conferences', {
        extension: '600',
        name: 'Open room',
        max_members: 5,
        music_when_alone: true,
      })
    ).id;
    ids.pinned = (
      await api<{ id: number }>('POST', '/api/conferences', {
        extension: '610',
        name: 'Board',
        user_pin: '1234',
        admin_pin: '9999',
      })
    ).id;
    await api('POST', '/api/conferences', { extension: '620', name: 'Recorded', record: true });
    await applied(since);
    secrets = await deviceSecrets(lab, ['201', '202', '203']);
    await lab.rx('module load res_clioriginate.so');
    await lab.rx('module load app_senddtmf.so');
  }, 240_000);

  afterAll(async () => {
    for (const c of calls) c.kill();
    await lab?.close();
  }, 60_000);

  it('loads the rooms into app_confbridge and the dialplan', async () => {
    expect(await lab.rx('module show like app_confbridge')).toContain('app_confbridge.so');
    const profile = await lab.rx('confbridge show profile bridge conf-600');
    expect(profile).toMatch(/Max Members:\s+5/);
    expect(await lab.rx('confbridge show profile user conf-610-admin')).toMatch(/Admin:\s+true/);
    expect(await lab.rx('dialplan show 610@from-internal')).toContain('Gosub(sub-conference-pin,s,1(1234,9999))');
    const problems = lab
      .messages()
      .split('\n')
      .filter((l) => /\b(WARNING|ERROR)\[/.test(l) && /confbridge|extensions\.conferences/i.test(l));
    expect(problems).toEqual([]);
  });

  it('puts three phones in the room, lists them over AMI, and a kick ends one leg', async () => {
    for (const account of ['201', '202', '203']) {
      calls.push(
        lab.sipp({
          scenario: 'call-listen.xml',
          args: [
            '-s',
            '600',
            '-au',
            account,
            '-ap',
            secrets[account] as string,
            '-key',
            'from_user',
            account,
            '-key',
            'rtp_port',
            String(29_000 + Number(account)),
            '-m',
            '1',
            '-d',
            '120000',
          ],
          remote: '127.0.0.1:5060',
        }),
      );
    }
    const members = await lab.until('three phones in room 600', async () => {
      const list = await inRoom('600');
      return list.length === 3 ? list : undefined;
    });
    expect(members.map((c) => c.replace(/-[0-9a-f]+$/, '')).sort()).toEqual(['PJSIP/201', 'PJSIP/202', 'PJSIP/203']);
    const listed = await api<ConferenceParticipant[]>('GET', `/api/conferences/${ids.open}/participants`);
    expect(listed.map((p) => p.caller_number).sort()).toEqual(['201', '202', '203']);
    expect(listed.every((p) => !p.admin && !p.muted)).toBe(true);

    // The dashboard's card: the rooms with people in them (610 and 620 are empty, so not listed).
    const now = await api<ConferenceLiveRoom[]>('GET', '/api/conferences/live');
    expect(now.map((r) => [r.extension, r.name, r.participants.length])).toEqual([['600', 'Open room', 3]]);
    // An open dashboard hears of each change in a room from the event stream, and reads the card again.
    const dashboard = await eventStream();

    const bea = listed.find((p) => p.caller_number === '202') as ConferenceParticipant;
    await api('POST', `/api/conferences/${ids.open}/participants/mute`, { channel: bea.channel });
    await dashboard.next(/event: conferences\n/);
    await lab.until('202 muted', async () =>
      (await api<ConferenceParticipant[]>('GET', `/api/conferences/${ids.open}/participants`)).find(
        (p) => p.channel === bea.channel && p.muted,
      ),
    );
    await api('POST', `/api/conferences/${ids.open}/participants/kick`, { channel: bea.channel });
    await lab.until('202 out of the room', async () => {
      const list = await inRoom('600');
      return list.length === 2 && !list.includes(bea.channel);
    });
    await dashboard.next(/event: conferences\n/);
    dashboard.close();
    const left = await api<ConferenceLiveRoom[]>('GET', '/api/conferences/live');
    expect(left[0]?.participants.map((p) => p.caller_number).sort()).toEqual(['201', '203']);
    // Kicked is hung up: the channel is gone from Asterisk, not parked somewhere.
    await lab.until('202 hung up', async () => !(await lab.rx('core show channels concise')).includes(bea.channel));
    const after = await lab.api('POST', `/api/conferences/${ids.open}/participants/kick`, { channel: bea.channel });
    expect(after.status).toBe(404);
  });

  it('records a recorded room into the call recordings, named by the linked id of whoever opened it', async () => {
    const folder = path.join(lab.dirs.root, 'recordings');
    const files = () =>
      fs
        .readdirSync(folder, { recursive: true, encoding: 'utf8' })
        .filter((f) => /^\d{4}-\d\d-\d\d\/\d+\.\d+\.wav$/.test(f));
    const before = new Set(files());
    await dialWithDtmf('recorded', '620', '1');
    const made = await lab.until('the conference recording', async () => {
      const file = files().find((f) => !before.has(f));
      return file && fs.statSync(path.join(folder, file)).size > 44 ? file : undefined;
    });
    expect(made).toMatch(/^\d{4}-\d\d-\d\d\/\d+\.\d+\.wav$/);
    expect(await lab.rx('dialplan show 620@ext-meetme')).toContain('Set(CONFBRIDGE(bridge,template)=conf-620)');
  });

  it.skipIf(!soundsInstalled)(
    'asks for the PIN: the user PIN joins, the admin PIN joins as administrator, a wrong one never joins',
    async () => {
      await dialWithDtmf('user', '610', '1234#');
      const [user] = await lab.until('the user-PIN caller in room 610', async () => {
        const list = await inRoom('610');
        return list.length === 1 ? list : undefined;
      });
      await dialWithDtmf('admin', '610', '9999#');
      await lab.until('the admin-PIN caller in room 610', async () => {
        const list = await api<ConferenceParticipant[]>('GET', `/api/conferences/${ids.pinned}/participants`);
        return list.length === 2 && list.some((p) => p.admin) ? list : undefined;
      });
      const before = new Set((await lab.rx('core show channels concise')).split('\n').map((l) => l.split('!')[0]));
      await dialWithDtmf('wrong', '610', '0000#');
      // The wrong caller's leg into the room: the new Local ;2 channel that appeared.
      const wrong = await lab.until('the wrong-PIN caller to be asked', async () =>
        (await lab.rx('core show channels concise'))
          .split('\n')
          .map((l) => l.split('!')[0] ?? '')
          .find((c) => /^Local\/610@from-internal-.*;2$/.test(c) && !before.has(c)),
      );
      // Three tries, then it is hung up; meanwhile it is never in the room.
      await lab.until(
        'the wrong-PIN caller to be hung up',
        async () => {
          const list = await inRoom('610');
          expect(list).not.toContain(wrong);
          expect(list.length).toBe(2);
          return !(await lab.rx('core show channels concise')).includes(wrong as string);
        },
        90_000,
      );
      expect(await inRoom('610')).toContain(user);
    },
  );
});
