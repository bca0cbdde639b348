import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { MusicClass } from '@centralino/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPbxModel } from '../src/pbx/load.ts';
import { renderConfiguration } from '../src/pbx/render/index.ts';
import { formatIssue, validateConfiguration } from '../src/pbx/validate.ts';
import { callAs, DB_KINDS, expectError, useTestApp } from './helpers.ts';

/** Audio made with sox (scripts/ensure-audio-tools.mjs installs it); without it the suite says why. */
const skipReason =
  spawnSync('sox', ['--version'], { encoding: 'utf8' }).status === 0
    ? ''
    : 'sox is missing: run node scripts/ensure-audio-tools.mjs';
if (skipReason) console.warn(`music.test.ts skipped (${skipReason})`);

let tone = Buffer.alloc(0);
let tmp = '';
beforeAll(() => {
  if (skipReason) return;
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'centralino-music-'));
  const file = path.join(tmp, 'tone.wav');
  execFileSync('sox', ['-n', '-r', '44100', '-c', '2', file, 'synth', '1', 'sine', '440']);
  tone = fs.readFileSync(file);
});
afterAll(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

function multipart(file: { name: string; bytes: Buffer }) {
  const boundary = '----centralino-music-boundary';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    file.bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** Music on hold (issue 42 item 6): classes of uploaded audio, chosen by queues, routes, trunks and rooms. */
describe.skipIf(skipReason !== '').each(DB_KINDS)('music on hold API (%s)', (kind) => {
  const t = useTestApp(kind);
  const call = callAs(t);
  const classes = async () => (await call('GET', '/api/music')).json() as MusicClass[];
  const upload = (classId: number, name: string, bytes: Buffer, lang = 'en') => {
    const body = multipart({ name, bytes });
    return t.app.inject({
      method: 'POST',
      url: `/api/music/${classId}/files`,
      payload: body.payload,
      headers: { ...t.headers, ...body.headers, 'accept-language': lang },
    });
  };
  const dir = () => path.join(t.config.pbx.soundsDir, 'moh', 'sales');
  const ids = { sales: 0, file: 0, queue: 0 };

  it('lists the distribution default first, creates a class and converts an upload into its folder', async () => {
    expect(await classes()).toEqual([
      { id: 0, name: 'default', builtin: true, play_order: 'alpha', files: [], used_by: [] },
    ]);
    const res = await call('POST', '/api/music', { name: 'sales', play_order: 'random' });
    expect(res.statusCode, res.body).toBe(200);
    ids.sales = (res.json() as { id: number }).id;
    const up = await upload(ids.sales, 'Summer Theme (final).wav', tone);
    expect(up.statusCode, up.body).toBe(200);
    ids.file = (up.json() as { id: number }).id;
    const [, sales] = await classes();
    expect(sales).toMatchObject({ id: ids.sales, name: 'sales', builtin: false, play_order: 'random', used_by: [] });
    expect(sales?.files).toEqual([
      { id: ids.file, name: 'Summer-Theme-final', duration_ms: expect.any(Number), size: expect.any(Number) },
    ]);
    expect(sales?.files[0]?.duration_ms).toBeGreaterThan(900);
    const wav = await call('GET', `/api/music/${ids.sales}/files/${ids.file}/audio`);
    expect(wav.statusCode).toBe(200);
    expect(wav.headers['content-type']).toBe('audio/wav');
    expect(wav.rawPayload.readUInt32LE(24)).toBe(8000);
    expect(fs.readFileSync(path.join(dir(), 'Summer-Theme-final.wav'))).toEqual(wav.rawPayload);
  });

  it('refuses a file that is not audio, and one named like a file already there, writing nothing', async () => {
    for (const [lang, text] of [
      ['en', /WAV, MP3 or OGG/],
      ['it', /Carica un file audio/],
    ] as const) {
      const body = expectError(
        await upload(ids.sales, 'notes.wav', Buffer.from('just text'), lang),
        400,
        'audio_invalid',
      );
      expect(body.detail).toMatch(text);
    }
    for (const [lang, text] of [
      ['en', 'The class already has a file named Summer-Theme-final.'],
      ['it', 'La classe ha già un file di nome Summer-Theme-final.'],
    ] as const) {
      const body = expectError(await upload(ids.sales, 'Summer Theme (final).mp3', tone, lang), 409, 'flow_exists');
      expect(body.detail).toBe(text);
    }
    expect((await classes())[1]?.files).toHaveLength(1);
    expect(fs.readdirSync(dir())).toEqual(['Summer-Theme-final.wav']);
    expectError(await upload(999_999, 'x.wav', tone), 404, 'not_found');
  });

  it('refuses a name taken, a reserved or malformed name and a rename, in the caller language', async () => {
    for (const [lang, text] of [
      ['en', 'The name sales is already used.'],
      ['it', 'Il nome sales è già usato.'],
    ] as const) {
      const body = expectError(
        await call('POST', '/api/music', { name: 'sales' }, { 'accept-language': lang }),
        409,
        'flow_exists',
      );
      expect(body.detail).toBe(text);
    }
    for (const name of ['default', 'ringing', 'Sales Team', 'x;y', '']) {
      expectError(await call('POST', '/api/music', { name }), 400, 'validation');
    }
    const it = expectError(
      await call('POST', '/api/music', { name: 'default' }, { 'accept-language': 'it' }),
      400,
      'validation',
    );
    expect(JSON.stringify(it.fields)).toContain('Questo nome è riservato');
    expectError(
      await call('PUT', `/api/music/${ids.sales}`, { name: 'other', play_order: 'alpha' }),
      400,
      'validation',
    );
    expect((await call('PUT', `/api/music/${ids.sales}`, { name: 'sales', play_order: 'alpha' })).statusCode).toBe(204);
    expect((await classes()).map((c) => c.name)).toEqual(['default', 'sales']);
  });

  it('is chosen by a queue, an inbound route, a trunk and a room; an unknown class is refused', async () => {
    expect((await call('POST', '/api/configuration/mode', { mode: 'legacy' })).statusCode).toBe(200);
    const queue = {
      extension: '500',
      name: 'Support',
      failover_dest: 'app-blackhole,hangup,1',
      music: 'sales',
    };
    for (const [lang, text] of [
      ['en', 'The music on hold class nope does not exist.'],
      ['it', 'La classe di musica di attesa nope non esiste.'],
    ] as const) {
      const body = expectError(
        await call('POST', '/api/queues', { ...queue, music: 'nope' }, { 'accept-language': lang }),
        400,
        'music_class_unknown',
      );
      expect(body.detail).toBe(text);
    }
    expect((await call('GET', '/api/queues')).json()).toEqual([]);
    let res = await call('POST', '/api/queues', queue);
    expect(res.statusCode, res.body).toBe(200);
    ids.queue = (res.json() as { id: number }).id;
    res = await call('POST', '/api/queues', { ...queue, extension: '501', name: 'Ringing', music: 'ringing' });
    expect(res.statusCode, res.body).toBe(200);

    const route = { extension: '0612345600', cidnum: '', description: 'Main', destination: 'ext-queues,500,1' };
    expectError(await call('POST', '/api/inboundroutes', { ...route, music: 'nope' }), 400, 'music_class_unknown');
    res = await call('POST', '/api/inboundroutes', { ...route, music: 'sales' });
    expect(res.statusCode, res.body).toBe(200);
    const routes = (await call('GET', '/api/inboundroutes')).json() as { routes: { music: string | null }[] };
    expect(routes.routes.map((r) => r.music)).toEqual(['sales']);

    const trunk = {
      provider: 'vivavox',
      name: 'vivavox',
      username: '0721123456',
      password: 's3cr3t!',
      phone: '0721123456',
      codecs: ['alaw'],
      forceCodec: true,
    };
    expectError(await call('POST', '/api/trunks', { ...trunk, music: 'nope' }), 400, 'music_class_unknown');
    res = await call('POST', '/api/trunks', { ...trunk, music: 'sales' });
    expect(res.statusCode, res.body).toBe(200);
    expect(((await call('GET', '/api/trunks')).json() as { music: string }[]).map((x) => x.music)).toEqual(['sales']);

    const room = { extension: '600', name: 'Meeting', music_class: 'nope' };
    expectError(await call('POST', '/api/conferences', room), 400, 'music_class_unknown');
    expect((await call('GET', '/api/conferences')).json()).toEqual([]);
    res = await call('POST', '/api/conferences', { ...room, music_class: 'sales' });
    expect(res.statusCode, res.body).toBe(200);

    expect((await classes())[1]?.used_by).toEqual([
      'queue 500 Support',
      'inbound route 0612345600 (Main)',
      'trunk vivavox',
      'conference room 600 Meeting',
    ]);
  });

  it('refuses to delete a class in use, naming who plays it, and deletes nothing', async () => {
    for (const [lang, text] of [
      ['en', /^Music class sales is used by: queue 500 Support, inbound route .*, trunk vivavox, conference room 600/],
      ['it', /^La classe musicale sales è usato da: coda 500 Support, rotta in entrata .*, fascio vivavox, stanza/],
    ] as const) {
      const body = expectError(
        await call('DELETE', `/api/music/${ids.sales}`, undefined, { 'accept-language': lang }),
        409,
        'flow_in_use',
      );
      expect(body.detail).toMatch(text);
    }
    expect((await classes())[1]?.files).toHaveLength(1);
    expect(fs.existsSync(path.join(dir(), 'Summer-Theme-final.wav'))).toBe(true);
  });

  it('renders the class into a configuration the validator accepts', async () => {
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
    expect(files.get('musiconhold.conf')).toContain(
      `; 1 file: Summer-Theme-final\n[sales]\nmode = files\ndirectory = ${dir()}\nsort = alpha\n`,
    );
    expect(files.get('queues.conf')).toContain('musicclass = sales\n');
    expect(files.get('confbridge.conf')).toContain('music_on_hold_class = sales\n');
    expect(files.get('pjsip.trunks.conf')).toContain('moh_suggest = sales\n');
    expect(files.get('extensions.conf')).toContain('Set(CHANNEL(musicclass)=sales)');
    expect(validateConfiguration(files).map(formatIssue)).toEqual([]);
  });

  it('deletes a file, then the class once nothing plays it', async () => {
    expect((await call('DELETE', `/api/music/${ids.sales}/files/${ids.file}`)).statusCode).toBe(204);
    expect(fs.readdirSync(dir())).toEqual([]);
    // The route first: it sends its calls to the queue.
    expect((await call('POST', '/api/inboundroutes/delete', { extension: '0612345600', cid: '' })).statusCode).toBe(
      200,
    );
    expect((await call('DELETE', `/api/queues/${ids.queue}`)).statusCode).toBe(204);
    const trunks = (await call('GET', '/api/trunks')).json() as { trunkid: number }[];
    for (const x of trunks) await call('DELETE', `/api/trunks/${x.trunkid}`);
    const rooms = (await call('GET', '/api/conferences')).json() as { id: number }[];
    for (const r of rooms) await call('DELETE', `/api/conferences/${r.id}`);
    const res = await call('DELETE', `/api/music/${ids.sales}`);
    expect(res.statusCode, res.body).toBe(204);
    expect(fs.existsSync(dir())).toBe(false);
    expect((await classes()).map((c) => c.name)).toEqual(['default']);
  });
});
