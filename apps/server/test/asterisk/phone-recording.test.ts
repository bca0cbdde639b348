// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${NAME} is how the Asterisk dialplan reads variables.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AsteriskLab, skipReason, startAsteriskLab } from '../support/asterisk.ts';

/**
 * Recording from a phone (*77, issue 26) in a real Asterisk: a call into from-internal dials *77, plays a tone for
 * three seconds and presses #; Record() writes the spool file, CURL() hands it to the console over loopback with the
 * token read by FILE(), and the recording is in the console's list, its number said back to the caller.
 */

type Status = { state: string; last: { ok: boolean; error: string | null } | null };
type Recording = { id: number; displayname: string; duration_ms: number };

describe.skipIf(skipReason !== '')('recording from a phone in a real Asterisk', { timeout: 120_000 }, () => {
  let lab: AsteriskLab;

  beforeAll(async () => {
    // The sounds folder where Asterisk's user can reach it, as an installation has it.
    lab = await startAsteriskLab({ env: (root) => ({ ASTERISK_SOUNDS_DIR: path.join(root, 'sounds') }) });
  }, 180_000);

  afterAll(async () => {
    await lab?.close();
  }, 60_000);

  it('*77 records until #, and the console keeps the recording', async () => {
    const status = await lab.until(
      'the first apply',
      async () => {
        const s = (await lab.api<Status>('GET', '/api/pbx/apply')).body;
        return s.state === 'idle' && s.last ? s : undefined;
      },
      90_000,
    );
    expect(status.last?.ok, status.last?.error ?? '').toBe(true);
    expect(await lab.rx('dialplan show *77@from-internal')).toContain('Gosub(sub-record-sound,s,1(new))');
    expect(await lab.rx('module show like func_curl')).toContain('func_curl.so');

    // The "phone": a Local channel's other half plays three seconds of tone, then presses #.
    const tone = path.join(lab.dirs.root, 'sounds', 'test-tone');
    execFileSync('sox', ['-n', '-r', '8000', '-c', '1', '-b', '16', `${tone}.wav`, 'synth', '3', 'sine', '440']);
    fs.chmodSync(`${tone}.wav`, 0o644);
    for (const line of ['s,1,Answer', `s,2,Playback,${tone}`, 's,3,SendDTMF,#', 's,4,Wait,10']) {
      await lab.rx(`dialplan add extension ${line} into test-phone`);
    }
    // `channel originate` and SendDTMF are not among the modules an installation loads.
    await lab.rx('module load res_clioriginate.so');
    await lab.rx('module load app_senddtmf.so');
    await lab.rx('channel originate Local/*77@from-internal extension s@test-phone');

    const made = await lab.until(
      'the recording made at the phone',
      async () => (await lab.api<Recording[]>('GET', '/api/recordings')).body.find((r) => r.duration_ms > 0),
      30_000,
    );
    expect(made.displayname).toMatch(/^Recorded from a phone \d{4}-\d\d-\d\d/);
    // What of the three seconds of tone came after the beep (the first second goes to answering), up to the #.
    expect(made.duration_ms).toBeGreaterThan(1000);
    expect(made.duration_ms).toBeLessThan(3500);
    // The spool file was taken in: removed once the recording is saved (just after it is listed, so waited for).
    await lab.until(
      'the spool file to be removed',
      async () => fs.readdirSync(path.join(lab.dirs.root, 'sounds', 'phone-recorded')).length === 0,
    );
    const problems = lab
      .messages()
      .split('\n')
      .filter((l) => /\b(WARNING|ERROR)\[/.test(l) && /curl|record|func_env|sub-record-sound/i.test(l));
    expect(problems).toEqual([]);
  });
});
