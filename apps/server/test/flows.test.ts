import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Announcement, Ivr, Recording } from '@centralino/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endlessFlows } from '../src/features/flows/service.ts';
import { loadPbxModel } from '../src/pbx/load.ts';
import { renderConfiguration } from '../src/pbx/render/index.ts';
import { formatIssue, validateConfiguration } from '../src/pbx/validate.ts';
import { callAs, DB_KINDS, expectError, useTestApp } from './helpers.ts';

/** Audio made on this machine with sox (scripts/ensure-audio-tools.mjs installs it); without it the suite says why. */
const soxReads = /Reads: yes/.test(`${spawnSync('sox', ['--help-format', 'mp3'], { encoding: 'utf8' }).stdout ?? ''}`);
const skipReason = soxReads ? '' : 'sox with MP3 support is missing: run node scripts/ensure-audio-tools.mjs';
if (skipReason) console.warn(`flows.test.ts: audio tests skipped (${skipReason})`);

const audio: Record<'wav' | 'mp3' | 'ogg', Buffer> = {
  wav: Buffer.alloc(0),
  mp3: Buffer.alloc(0),
  ogg: Buffer.alloc(0),
};
let tmp = '';
beforeAll(() => {
  if (skipReason) return;
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'centralino-flows-audio-'));
  for (const kind of ['wav', 'mp3', 'ogg'] as const) {
    const file = path.join(tmp, `tone.${kind}`);
    // CD-quality stereo, as a recording made elsewhere would be: the server brings it to 8 kHz mono.
    execFileSync('sox', ['-n', '-r', '44100', '-c', '2', file, 'synth', '1.5', 'sine', '440']);
    audio[kind] = fs.readFileSync(file);
  }
});
afterAll(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

/** A multipart body with the fields first, then the file. */
function multipart(fields: Record<string, string>, file: { name: string; bytes: Buffer; type: string }) {
  const boundary = '----centralino-test-boundary';
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
    ),
    file.bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe('flows without an end', () => {
  const node = (name: string, exits: string[], directDial = false) => [name, { name, exits, directDial }] as const;
  it('finds announcements and IVRs that can only lead into each other', () => {
    expect(endlessFlows(new Map([node('a', ['b']), node('b', ['a'])]))).toEqual(['a', 'b']);
    expect(endlessFlows(new Map([node('a', ['b']), node('b', ['a', 'app-blackhole,hangup,1'])]))).toEqual([]);
    expect(endlessFlows(new Map([node('ivr', ['ivr', 'ivr'])]))).toEqual(['ivr']);
    // Callers of an IVR with direct dial can always leave it for an extension.
    expect(endlessFlows(new Map([node('ivr', ['ivr'], true)]))).toEqual([]);
  });
});

describe.skipIf(skipReason !== '').each(DB_KINDS)('call flows API (%s)', (kind) => {
  const t = useTestApp(kind);
  const call = callAs(t);
  const upload = (name: string, bytes: Buffer, fields: Record<string, string> = {}, lang = 'en') => {
    const body = multipart(fields, { name, bytes, type: 'application/octet-stream' });
    return t.app.inject({
      method: 'POST',
      url: '/api/recordings',
      payload: body.payload,
      headers: { ...t.headers, ...body.headers, 'accept-language': lang },
    });
  };
  const recordings = async () => (await call('GET', '/api/recordings')).json() as Recording[];
  const ids: Record<string, number> = {};

  it('converts WAV, MP3 and OGG uploads to 8 kHz mono 16-bit WAV, written for Asterisk', async () => {
    for (const kind of ['wav', 'mp3', 'ogg'] as const) {
      const res = await upload(`tone.${kind}`, audio[kind], { displayname: `Tone ${kind}`, description: 'A tone' });
      expect(res.statusCode, res.body).toBe(200);
      ids[kind] = (res.json() as { id: number }).id;
    }
    const list = await recordings();
    expect(list.map((r) => r.displayname)).toEqual(['Tone mp3', 'Tone ogg', 'Tone wav']);
    for (const r of list) {
      expect(r.duration_ms).toBeGreaterThan(1300);
      expect(r.duration_ms).toBeLessThan(1700);
      expect(r.used_by).toEqual([]);
      const wav = await call('GET', `/api/recordings/${r.id}/audio`);
      expect(wav.statusCode).toBe(200);
      expect(wav.headers['content-type']).toBe('audio/wav');
      const bytes = wav.rawPayload;
      expect(bytes.toString('latin1', 0, 4)).toBe('RIFF');
      expect(bytes.readUInt16LE(22)).toBe(1); // mono
      expect(bytes.readUInt32LE(24)).toBe(8000); // 8 kHz
      expect(bytes.readUInt16LE(34)).toBe(16); // 16-bit
      expect(bytes.length).toBe(r.size);
      // The file Asterisk plays, under the console's sounds directory.
      expect(r.filename).toBe(path.join(t.config.pbx.soundsDir, `recording-${r.id}`));
      expect(fs.readFileSync(`${r.filename}.wav`)).toEqual(bytes);
    }
  });

  it('refuses what is not audio, in the caller language, and creates nothing', async () => {
    const before = (await recordings()).length;
    let body = expectError(await upload('notes.wav', Buffer.from('hello, I am text')), 400, 'audio_invalid');
    expect(body.detail).toMatch(/WAV, MP3 or OGG/);
    body = expectError(await upload('x.mp3', Buffer.from('hello'), {}, 'it'), 400, 'audio_invalid');
    expect(body.detail).toMatch(/Carica un file audio/);
    // A WAV header with nothing sound after it.
    const broken = Buffer.concat([audio.wav.subarray(0, 12), Buffer.from('garbage garbage garbage')]);
    expectError(await upload('broken.wav', broken), 400, 'audio_invalid');
    expect((await recordings()).length).toBe(before);
  });

  it('refuses an upload over the size limit', async () => {
    const big = Buffer.concat([audio.wav.subarray(0, 44), Buffer.alloc(21 * 1024 * 1024)]);
    const res = await upload('big.wav', big);
    expect([413, 400]).toContain(res.statusCode);
    expect((await recordings()).some((r) => r.displayname === 'big')).toBe(false);
  });

  it('renames a recording; a name already used is refused', async () => {
    expect((await call('PATCH', `/api/recordings/${ids.wav}`, { displayname: 'Welcome' })).statusCode).toBe(204);
    expect((await recordings()).find((r) => r.id === ids.wav)?.displayname).toBe('Welcome');
    expectError(await call('PATCH', `/api/recordings/${ids.mp3}`, { displayname: 'Welcome' }), 409, 'flow_exists');
    expectError(await call('PATCH', `/api/recordings/${ids.mp3}`, { displayname: '' }), 400, 'validation');
  });

  it('creates announcements and IVRs that every destination picker then lists', async () => {
    let res = await call('POST', '/api/announcements', {
      description: 'Closed',
      recording_id: ids.mp3,
      post_dest: 'app-blackhole,hangup,1',
    });
    expect(res.statusCode, res.body).toBe(200);
    ids.closed = (res.json() as { id: number }).id;
    res = await call('POST', '/api/ivrs', {
      name: 'Main menu',
      announcement: ids.wav,
      directdial: true,
      invalid_destination: 'app-blackhole,hangup,1',
      timeout_destination: `app-announcement-${ids.closed},s,1`,
      entries: [
        { selection: '1', dest: `app-announcement-${ids.closed},s,1` },
        { selection: '#', dest: 'app-blackhole,busy,1' },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    ids.menu = (res.json() as { id: number }).id;
    res = await call('POST', '/api/announcements', {
      description: 'Welcome message',
      recording_id: ids.ogg,
      allow_skip: true,
      post_dest: `ivr-${ids.menu},s,1`,
    });
    expect(res.statusCode, res.body).toBe(200);
    ids.welcome = (res.json() as { id: number }).id;

    const destinations = (await call('GET', '/api/destinations')).json() as Record<
      string,
      Record<string, { destination: string; description: string }>
    >;
    expect(Object.values(destinations.Announcements ?? {}).map((d) => d.destination)).toEqual([
      `app-announcement-${ids.closed},s,1`,
      `app-announcement-${ids.welcome},s,1`,
    ]);
    expect(Object.values(destinations.IVR ?? {})).toEqual([
      expect.objectContaining({ destination: `ivr-${ids.menu},s,1`, description: 'Main menu' }),
    ]);
    // An inbound route may now send calls to the welcome message.
    res = await call('POST', '/api/inboundroutes', {
      extension: '0612345678',
      cidnum: '',
      description: 'Main number',
      destination: `app-announcement-${ids.welcome},s,1`,
    });
    expect(res.statusCode, res.body).toBe(200);

    const ivrs = (await call('GET', '/api/ivrs')).json() as Ivr[];
    expect(ivrs[0]).toMatchObject({
      name: 'Main menu',
      directdial: true,
      timeout_time: 10,
      invalid_loops: 3,
      entries: [
        { selection: '#', dest: 'app-blackhole,busy,1' },
        { selection: '1', dest: `app-announcement-${ids.closed},s,1` },
      ],
    });
    const announcements = (await call('GET', '/api/announcements')).json() as Announcement[];
    expect(announcements.map((a) => a.description)).toEqual(['Closed', 'Welcome message']);
  });

  it('refuses a destination that does not exist, naming it, and changes nothing', async () => {
    const body = expectError(
      await call('POST', '/api/announcements', { description: 'Lost', recording_id: null, post_dest: 'ivr-999,s,1' }),
      400,
      'validation',
    );
    expect(body.detail).toContain('ivr-999,s,1');
    expect(body.fields?.post_dest).toContain('ivr-999,s,1');
    const it = expectError(
      await call(
        'PUT',
        `/api/ivrs/${ids.menu}`,
        {
          name: 'Main menu',
          announcement: ids.wav,
          invalid_destination: 'app-blackhole,hangup,1',
          timeout_destination: 'app-blackhole,hangup,1',
          entries: [{ selection: '2', dest: 'from-did-direct,999,1' }],
        },
        { 'accept-language': 'it' },
      ),
      400,
      'validation',
    );
    expect(it.detail).toContain('non esiste');
    expect(it.fields?.['entries.0.dest']).toContain('from-did-direct,999,1');
    expect(((await call('GET', '/api/ivrs')).json() as Ivr[])[0]?.entries).toHaveLength(2);
    expect(((await call('GET', '/api/announcements')).json() as Announcement[]).map((a) => a.description)).toEqual([
      'Closed',
      'Welcome message',
    ]);
    expectError(
      await call('POST', '/api/announcements', {
        description: 'X',
        recording_id: 9999,
        post_dest: 'app-blackhole,hangup,1',
      }),
      400,
      'validation',
    );
  });

  it('refuses flows that would keep callers for ever', async () => {
    // Closed → Welcome message → Main menu (direct dial: callers can leave) is fine…
    const closed = {
      description: 'Closed',
      recording_id: ids.mp3,
      post_dest: `app-announcement-${ids.welcome},s,1`,
    };
    expect((await call('PUT', `/api/announcements/${ids.closed}`, closed)).statusCode).toBe(204);
    // …but an announcement that loops back to itself through another one is not.
    let res = await call('POST', '/api/announcements', {
      description: 'Loop A',
      recording_id: null,
      post_dest: 'app-blackhole,hangup,1',
    });
    const a = (res.json() as { id: number }).id;
    res = await call('POST', '/api/announcements', {
      description: 'Loop B',
      recording_id: null,
      post_dest: `app-announcement-${a},s,1`,
    });
    const b = (res.json() as { id: number }).id;
    const body = expectError(
      await call('PUT', `/api/announcements/${a}`, {
        description: 'Loop A',
        recording_id: null,
        post_dest: `app-announcement-${b},s,1`,
      }),
      400,
      'flow_loop',
    );
    expect(body.detail).toContain('Loop A');
    expect(body.detail).toContain('Loop B');
    expect(
      ((await call('GET', '/api/announcements')).json() as Announcement[]).find((x) => x.id === a)?.post_dest,
    ).toBe('app-blackhole,hangup,1');
    // An IVR whose every way out leads back to itself, without direct dial.
    const self = expectError(
      await call('PUT', `/api/ivrs/${ids.menu}`, {
        name: 'Main menu',
        announcement: null,
        directdial: false,
        invalid_destination: `ivr-${ids.menu},s,1`,
        timeout_destination: `ivr-${ids.menu},s,1`,
        entries: [],
      }),
      400,
      'flow_loop',
    );
    expect(self.detail).toContain('Main menu');
    for (const id of [b, a]) expect((await call('DELETE', `/api/announcements/${id}`)).statusCode).toBe(204);
  });

  it('refuses to delete what is in use, naming its users', async () => {
    let body = expectError(await call('DELETE', `/api/recordings/${ids.ogg}`), 409, 'flow_in_use');
    expect(body.detail).toContain('Welcome message');
    body = expectError(
      await call('DELETE', `/api/recordings/${ids.wav}`, undefined, { 'accept-language': 'it' }),
      409,
      'flow_in_use',
    );
    expect(body.detail).toContain('IVR Main menu');
    body = expectError(await call('DELETE', `/api/announcements/${ids.welcome}`), 409, 'flow_in_use');
    expect(body.detail).toContain('inbound route 0612345678');
    body = expectError(await call('DELETE', `/api/ivrs/${ids.menu}`), 409, 'flow_in_use');
    expect(body.detail).toContain('announcement Welcome message');
    expect((await recordings()).find((r) => r.id === ids.ogg)?.used_by).toEqual(['announcement Welcome message']);
  });

  it('renders what was configured into a configuration the validator accepts', async () => {
    const model = await loadPbxModel(t.database.db, {
      soundsDir: t.config.pbx.soundsDir,
      tls: { certFile: '/k/c.pem', keyFile: '/k/k.pem', caFile: null },
      ami: { port: 5038, bindAddress: '127.0.0.1', users: [] },
      system: {
        runUser: null,
        runGroup: null,
        directories: { config: '/c', modules: '/m', varlib: '/v', data: '/d', spool: '/s', run: '/r', log: '/l' },
      },
      version: 'test',
    });
    const files = renderConfiguration(model);
    expect(validateConfiguration(files).map(formatIssue)).toEqual([]);
    // The flow files: extensions.flows.conf and the blocks of IVRs and time conditions it includes.
    const flows = [...files]
      .filter(([name]) => name.startsWith('extensions.flows'))
      .map(([, text]) => text)
      .join('');
    expect(flows).toContain(`[ivr-${ids.menu}] ; Main menu`);
    expect(flows).toContain(`Background(${path.join(t.config.pbx.soundsDir, `recording-${ids.wav}`)})`);
    expect(flows).toContain(`[app-announcement-${ids.welcome}] ; Welcome message`);
    expect(files.get('extensions.conf')).toContain(`Goto(app-announcement-${ids.welcome},s,1)`);
  });

  it('deletes what nobody uses any more, with its sound file', async () => {
    expect((await call('POST', '/api/inboundroutes/delete', { extension: '0612345678', cid: '' })).statusCode).toBe(
      200,
    );
    // Closed → Welcome message → Main menu → Closed: each one is in use until the circle is cut.
    expectError(await call('DELETE', `/api/announcements/${ids.welcome}`), 409, 'flow_in_use');
    const cut = { description: 'Closed', recording_id: ids.mp3, post_dest: 'app-blackhole,hangup,1' };
    expect((await call('PUT', `/api/announcements/${ids.closed}`, cut)).statusCode).toBe(204);
    expect((await call('DELETE', `/api/announcements/${ids.welcome}`)).statusCode).toBe(204);
    expect((await call('DELETE', `/api/ivrs/${ids.menu}`)).statusCode).toBe(204);
    expect((await call('DELETE', `/api/announcements/${ids.closed}`)).statusCode).toBe(204);
    const file = `${path.join(t.config.pbx.soundsDir, `recording-${ids.wav}`)}.wav`;
    expect(fs.existsSync(file)).toBe(true);
    expect((await call('DELETE', `/api/recordings/${ids.wav}`)).statusCode).toBe(204);
    expect(fs.existsSync(file)).toBe(false);
    expectError(await call('GET', `/api/recordings/${ids.wav}/audio`), 404, 'not_found');
  });

  it('day/night switches: a destination with two ways on, the mode read from and set in Asterisk', async () => {
    let res = await call('POST', '/api/announcements', {
      description: 'Night message',
      recording_id: ids.mp3,
      post_dest: 'app-blackhole,hangup,1',
    });
    const night = (res.json() as { id: number }).id;
    const office = {
      ext: 0,
      name: 'Office',
      day_dest: 'app-blackhole,busy,1',
      night_dest: `app-announcement-${night},s,1`,
    };
    res = await call('POST', '/api/daynight', office);
    expect(res.statusCode, res.body).toBe(204);
    expectError(await call('POST', '/api/daynight', { ...office, name: 'Other' }), 409, 'flow_exists');
    expectError(await call('POST', '/api/daynight', { ...office, ext: 10, name: 'Ten' }), 400, 'validation');
    const list = (await call('GET', '/api/daynight')).json() as { state: string; feature_code: string }[];
    // No AMI connection here: the mode is unknown, and setting it says why it cannot.
    expect(list).toEqual([
      expect.objectContaining({
        name: 'Office',
        feature_code: '*280',
        state: 'unknown',
        destination: 'app-daynight,0,1',
      }),
    ]);
    expectError(await call('POST', '/api/daynight/0/state', { state: 'night' }), 503, 'pbx_not_connected');
    expectError(await call('POST', '/api/daynight/5/state', { state: 'night' }), 404, 'not_found');
    const destinations = (await call('GET', '/api/destinations')).json() as Record<string, Record<string, unknown>>;
    expect(Object.values(destinations['Day/Night'] ?? {})).toEqual([
      expect.objectContaining({ destination: 'app-daynight,0,1', description: 'Office' }),
    ]);
    // At night the message would send callers back to the switch, which sends them to the message…
    const loop = expectError(
      await call('PUT', `/api/announcements/${night}`, {
        description: 'Night message',
        recording_id: ids.mp3,
        post_dest: 'app-daynight,0,1',
      }),
      400,
      'flow_loop',
    );
    expect(loop.detail).toContain('day/night Office');
    const used = expectError(await call('DELETE', `/api/announcements/${night}`), 409, 'flow_in_use');
    expect(used.detail).toContain('day/night switch Office');
    expect((await call('PUT', '/api/daynight/0', { ...office, name: 'Main office' })).statusCode).toBe(204);
    expect((await call('DELETE', '/api/daynight/0')).statusCode).toBe(204);
    expect((await call('DELETE', `/api/announcements/${night}`)).statusCode).toBe(204);
  });

  it('needs a signed-in administrator', async () => {
    for (const url of [
      '/api/recordings',
      `/api/recordings/${ids.mp3}/audio`,
      '/api/announcements',
      '/api/ivrs',
      '/api/daynight',
    ]) {
      expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    }
  });
});
