// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${NAME} is how the Asterisk dialplan reads variables.

import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Recording } from '@centralino/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { voicemailSttTokenPath } from '../src/features/cloud-speech/token.ts';
import { PHONE_RECORDING_PATH, phoneRecordingDir } from '../src/pbx/phone-recording.ts';
import { callAs, DB_KINDS, expectError, useTestApp } from './helpers.ts';

/**
 * Recording from a phone (*77, issue 26): the dialplan records into the spool folder and posts the file's name to
 * the console over loopback with the token, as Asterisk's CURL() does; the recording then is in the list at once.
 */
const skipReason = spawnSync('sox', ['--version']).status === 0 ? '' : 'sox is missing';

describe.skipIf(skipReason !== '').each(DB_KINDS)('recording from a phone (%s)', (kind) => {
  const t = useTestApp(kind);
  const call = callAs(t);
  let token = '';
  let spool = '';
  let extensions = '';

  beforeAll(async () => {
    let status = { state: '', directory: '' };
    for (let i = 0; i < 400; i++) {
      status = (await call('GET', '/api/pbx/apply')).json();
      if (status.state === 'idle') break;
      await new Promise((r) => setTimeout(r, 25));
    }
    extensions = fs.readFileSync(path.join(status.directory, 'extensions.conf'), 'utf8');
    token = fs.readFileSync(voicemailSttTokenPath(t.config.pbx.configDir), 'utf8').trim();
    spool = phoneRecordingDir(t.config.pbx.soundsDir);
  });

  /** What Asterisk's Record() leaves: 8 kHz mono 16-bit WAV of `seconds`. */
  const record = (name: string, seconds: number) => {
    execFileSync('sox', [
      '-n',
      '-r',
      '8000',
      '-c',
      '1',
      '-b',
      '16',
      path.join(spool, `${name}.wav`),
      'synth',
      String(seconds),
      'sine',
      '300',
    ]);
  };
  const post = (form: Record<string, string>, auth = `Bearer ${token}`, remoteAddress = '127.0.0.1') =>
    t.app.inject({
      method: 'POST',
      url: PHONE_RECORDING_PATH,
      headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(form).toString(),
      remoteAddress,
    });
  const list = async () => (await call('GET', '/api/recordings')).json() as Recording[];

  it('renders *77 and *77<id> into every phone context, calling the console on this port with the token file', () => {
    expect(extensions).toContain('exten => *77,1,Gosub(sub-record-sound,s,1(new))');
    expect(extensions).toContain('exten => _*77X.,1,Gosub(sub-record-sound,s,1(${EXTEN:3}))');
    expect(extensions).toContain(`Record(${spool}/\${REC_NAME}.wav,0,300,q)`);
    // Read where Asterisk does not write the token in its log (issue 38, render/cqr.ts bearerFromFile).
    expect(extensions).toContain(`%{FILE(${voicemailSttTokenPath(t.config.pbx.configDir)},0,43)}`);
    expect(extensions).toContain(`\${CURL(http://127.0.0.1:${t.config.port}${PHONE_RECORDING_PATH},file=`);
    expect(extensions).toMatch(/\[from-internal\][^[]*include => app-record-sound/);
    // Asterisk's group may write there; the console reads and removes what it wrote.
    expect(fs.statSync(spool).mode & 0o2770).toBe(0o2770);
  });

  it('keeps a new recording made at a phone, converted like an upload, usable at once; the spool file is gone', async () => {
    record('phone-1700000000.1', 2);
    const res = await post({ file: 'phone-1700000000.1', recording: 'new', caller: '201' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    const id = Number(res.body);
    expect(res.body).toMatch(/^[0-9]+$/);
    expect(fs.existsSync(path.join(spool, 'phone-1700000000.1.wav'))).toBe(false);
    const made = (await list()).find((r) => r.id === id);
    expect(made?.displayname).toMatch(/^Recorded at 201 \d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(made?.duration_ms).toBe(2000);
    expect(fs.existsSync(`${made?.filename}.wav`)).toBe(true);
    const announcement = await call('POST', '/api/announcements', {
      description: 'Recorded greeting',
      recording_id: id,
      post_dest: 'app-blackhole,hangup,1',
    });
    expect(announcement.statusCode, announcement.body).toBe(200);

    // *77<id>: the same recording, named as before, with the new audio.
    record('phone-1700000001.2', 1);
    const again = await post({ file: 'phone-1700000001.2', recording: String(id), caller: '202' });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.body).toBe(String(id));
    const redone = (await list()).find((r) => r.id === id);
    expect(redone?.displayname).toBe(made?.displayname);
    expect(redone?.duration_ms).toBe(1000);
    expect(fs.statSync(`${made?.filename}.wav`).size).toBe(redone?.size);
  });

  it('refuses a wrong token, a call from elsewhere, a bad file name, a missing file or recording, and not audio', async () => {
    const before = await list();
    record('phone-1700000002.3', 1);
    expectError(await post({ file: 'phone-1700000002.3', recording: 'new' }, `Bearer ${token}x`), 401, 'unauthorized');
    expectError(
      await post({ file: 'phone-1700000002.3', recording: 'new' }, `Bearer ${token}`, '192.0.2.7'),
      403,
      'voicemail_stt_local_only',
    );
    // A sign-in key does not open it either.
    const signedIn = await t.app.inject({
      method: 'POST',
      url: PHONE_RECORDING_PATH,
      headers: { ...t.headers, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'file=phone-1700000002.3&recording=new',
    });
    expect(signedIn.statusCode).toBe(401);
    expect(fs.existsSync(path.join(spool, 'phone-1700000002.3.wav'))).toBe(true);
    expectError(await post({ file: '../keys/voicemail-stt', recording: 'new' }), 400, 'validation');
    expectError(await post({ file: 'phone-1700000009.9', recording: 'new' }), 404, 'not_found');
    expectError(await post({ file: 'phone-1700000002.3', recording: '999999' }), 404, 'not_found');
    expect(fs.existsSync(path.join(spool, 'phone-1700000002.3.wav'))).toBe(false);
    fs.writeFileSync(path.join(spool, 'phone-1700000003.4.wav'), 'not audio at all');
    expectError(await post({ file: 'phone-1700000003.4', recording: 'new' }), 400, 'audio_invalid');
    expect(await list()).toEqual(before);
  });
});
