import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Call } from '@centralino/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SPOOL_FIELDS } from '../../src/pbx/call-records.ts';
import {
  type AsteriskLab,
  deviceSecrets,
  type SippRun,
  seedLocalUsers,
  skipReason,
  startAsteriskLab,
} from '../support/asterisk.ts';

/**
 * Call recordings (issue 41) in a real Asterisk: a call to a user whose policy is `always` is recorded whole, in
 * `<recordings>/<day>/<linked id>.wav`, linked from its history row and played back by the console; a call to a user
 * `on demand` is recorded only once `*1` is pressed, from then on. The "caller" is a Local channel that plays a tone
 * (so the file is not silence), the called user a sipp phone that answers.
 */

type Status = { state: string; last: { ok: boolean; error: string | null } | null };

/** sox's length (s) and RMS amplitude of a WAV file. */
function soxStat(file: string): { seconds: number; rms: number } {
  // sox prints its statistics on stderr.
  const text = execFileSync('sh', ['-c', `sox "${file}" -n stat 2>&1`]).toString();
  const seconds = Number(/Length \(seconds\):\s+([\d.]+)/.exec(text)?.[1]);
  const rms = Number(/RMS\s+amplitude:\s+([\d.]+)/.exec(text)?.[1]);
  console.log(`sox stat of ${path.basename(file)}: ${seconds} s, RMS ${rms}`);
  return { seconds, rms };
}

describe.skipIf(skipReason !== '')('call recordings in a real Asterisk', { timeout: 120_000 }, () => {
  let lab: AsteriskLab;
  const phones: SippRun[] = [];
  let recordingsDir = '';

  const api = async <T = unknown>(method: string, url: string, body?: unknown) => {
    const res = await lab.api<T>(method, url, body);
    if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const applied = async () => {
    const s = await lab.until(
      'the apply',
      async () => {
        const status = (await lab.api<Status>('GET', '/api/pbx/apply')).body;
        return status.state === 'idle' && status.last ? status : undefined;
      },
      90_000,
    );
    expect(s.last?.ok, s.last?.error ?? '').toBe(true);
  };
  const listed = async () =>
    new Set((await api<{ rows: Call[] }>('GET', '/api/calls?limit=100')).rows.map((c) => c.id));
  const newCall = (before: Set<number>) =>
    lab.until(
      'the call in the history',
      async () => {
        const rows = (await api<{ rows: Call[] }>('GET', '/api/calls?limit=20')).rows.filter((c) => !before.has(c.id));
        const row = rows.find((c) => c.talk > 0);
        return row?.recorded ? row : undefined;
      },
      30_000,
    );

  /** A caller that plays `steps` once the called phone answers (Playback of tones, SendDTMF), then hangs up. */
  const callWith = async (extension: string, name: string, steps: string[]) => {
    let n = 1;
    for (const step of ['Answer', ...steps, 'Hangup']) {
      await lab.rx(`dialplan add extension s,${n++},${step} into test-${name}`);
    }
    await lab.rx(`channel originate Local/${extension}@from-internal extension s@test-${name}`);
  };

  beforeAll(async () => {
    lab = await startAsteriskLab({ env: (root) => ({ RECORDINGS_DIR: path.join(root, 'recordings') }) });
    recordingsDir = path.join(lab.dirs.root, 'recordings');
    await seedLocalUsers(lab, [
      ['alice', '201', 'Alice Rossi'],
      ['bob', '202', 'Bob Bianchi'],
    ]);
    await api('POST', '/api/bulk/201', { recording: 'always' });
    await api('PUT', '/api/call-recordings/settings', {
      retention_days: 90,
      free_space_warning_mb: 1,
      notice: 'none',
      notice_recording: null,
    });
    await applied();
    const secrets = await deviceSecrets(lab, ['201', '202']);
    for (const account of ['201', '202']) {
      phones.push(
        lab.sipp({
          scenario: 'register.xml',
          ooc: 'phone-answer.xml',
          keep: true,
          args: ['-s', account, '-au', account, '-ap', secrets[account] as string, '-m', '1'],
          remote: '127.0.0.1:5060',
        }),
      );
      await lab.until(`${account} to be registered`, async () =>
        /Avail/.test(await lab.rx(`pjsip show contacts like ${account}`)),
      );
    }
    for (const [name, seconds] of [
      ['tone4', 4],
      ['tone2', 2],
      ['tone3', 3],
    ] as const) {
      const file = path.join(lab.dirs.root, name);
      execFileSync('sox', [
        '-n',
        '-r',
        '8000',
        '-c',
        '1',
        '-b',
        '16',
        `${file}.wav`,
        'synth',
        String(seconds),
        'sine',
        '440',
      ]);
      fs.chmodSync(`${file}.wav`, 0o644);
    }
    await lab.rx('module load res_clioriginate.so');
    await lab.rx('module load app_senddtmf.so');
  }, 240_000);

  afterAll(async () => {
    for (const p of phones) p.kill();
    await lab?.close();
  }, 60_000);

  it('records a call to an `always` user whole: the file lasts the call, is not silence, and its row links it', async () => {
    expect(await lab.rx('dialplan show s@sub-record-start')).toContain('MixMonitor');
    const before = await listed();
    await callWith('201', 'always', [`Playback(${path.join(lab.dirs.root, 'tone4')})`]);
    const row = await newCall(before);
    console.log('history row:', JSON.stringify(row));
    expect(row.recording).toBe('available');
    const detail = await api<{ call: Call }>('GET', `/api/calls/${row.id}`);
    expect(detail.call.recorded).toBe(true);

    const days = fs.readdirSync(recordingsDir).filter((d) => /^\d{4}-\d\d-\d\d$/.test(d));
    const files = days.flatMap((d) =>
      fs.readdirSync(path.join(recordingsDir, d)).map((f) => path.join(recordingsDir, d, f)),
    );
    expect(files).toHaveLength(1);
    const file = files[0] as string;
    expect(path.basename(file)).toMatch(/^\d+\.\d+\.wav$/);
    const { seconds, rms } = soxStat(file);
    expect(Math.abs(seconds - row.talk)).toBeLessThanOrEqual(1);
    expect(rms).toBeGreaterThan(0.01);

    // The dashboard's figures count it.
    const status = await api<{ files: number; bytes: number }>('GET', '/api/call-recordings/status');
    expect(status.files).toBe(1);
    expect(status.bytes).toBe(fs.statSync(file).size);
  });

  it('records an `on demand` call only once *1 is pressed, from then on', async () => {
    const before = await listed();
    const tone = (name: string) => `Playback(${path.join(lab.dirs.root, name)})`;
    await callWith('202', 'ondemand', [tone('tone2'), 'SendDTMF(*1)', tone('tone3')]);
    const row = await newCall(before);
    console.log('history row:', JSON.stringify(row));
    const all = fs
      .readdirSync(recordingsDir)
      .filter((d) => /^\d{4}-\d\d-\d\d$/.test(d))
      .flatMap((d) => fs.readdirSync(path.join(recordingsDir, d)).map((f) => path.join(recordingsDir, d, f)));
    expect(all).toHaveLength(2);
    const newest = all.sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs)[0] as string;
    const { seconds, rms } = soxStat(newest);
    // The three seconds after *1, not the two before.
    expect(seconds).toBeGreaterThan(2);
    expect(seconds).toBeLessThan(row.talk - 1);
    expect(rms).toBeGreaterThan(0.01);
    expect(problems(lab)).toEqual([]);
  });

  it('deletes a recording past the retention when the console starts, and its row says so', async () => {
    // A call of 40 days ago, as Asterisk left it: its spool line names the recording, the file is in its day.
    const old = new Date(Date.now() - 40 * 24 * 3600_000);
    const p = (n: number) => String(n).padStart(2, '0');
    const day = `${old.getFullYear()}-${p(old.getMonth() + 1)}-${p(old.getDate())}`;
    const stamp = `${day} ${p(old.getHours())}:${p(old.getMinutes())}:${p(old.getSeconds())}`;
    const linkedid = `${Math.floor(old.getTime() / 1000)}.9`;
    fs.mkdirSync(path.join(recordingsDir, day), { recursive: true });
    const file = path.join(recordingsDir, day, `${linkedid}.wav`);
    fs.copyFileSync(path.join(lab.dirs.root, 'tone2.wav'), file);
    const fields: Record<string, string> = {
      start: stamp,
      end: stamp,
      clid: '"Bob Bianchi" <202>',
      src: '202',
      dst: '201',
      dcontext: 'from-internal',
      channel: 'PJSIP/202-000000a1',
      dstchannel: 'PJSIP/201-000000a2',
      lastapp: 'Dial',
      lastdata: 'PJSIP/201',
      duration: '3',
      billsec: '2',
      disposition: 'ANSWERED',
      amaflags: 'DOCUMENTATION',
      uniqueid: linkedid,
      linkedid,
      sequence: '1',
      recordingfile: `${day}/${linkedid}.wav`,
    };
    const line = SPOOL_FIELDS.map((f) => `"${(fields[f] ?? '').replaceAll('"', '""')}"`).join(',');
    // Retention of 30 days, then a restart: the console's timer runs its pass at start.
    await api('PUT', '/api/call-recordings/settings', {
      retention_days: 30,
      free_space_warning_mb: 1,
      notice: 'none',
      notice_recording: null,
    });
    const before = await listed();
    fs.appendFileSync(path.join(lab.dirs.etc, 'cdr-spool', 'cdr.csv'), `${line}\n`);
    await lab.until('the old call in the history', async () => {
      const rows = (await api<{ rows: Call[] }>('GET', '/api/calls?limit=50')).rows.filter((c) => !before.has(c.id));
      return rows.find((c) => c.recording === 'available');
    });
    await lab.stopConsole();
    await lab.startConsole();
    const row = await lab.until(
      'the old call, its recording deleted',
      async () => {
        const rows = (await api<{ rows: Call[] }>('GET', '/api/calls?limit=50')).rows.filter((c) => !before.has(c.id));
        return rows.find((c) => c.recording === 'deleted');
      },
      60_000,
    );
    expect(row).toMatchObject({ recorded: false, recording: 'deleted' });
    expect(fs.existsSync(file)).toBe(false);
    // Today's recordings stay.
    expect((await api<{ files: number }>('GET', '/api/call-recordings/status')).files).toBe(2);
  });

  it('records a call to an `always` ring group whole, though the user who answers records on demand', async () => {
    await api('POST', '/api/ringgroups', {
      extension: '650',
      name: 'Support desk',
      members: [{ type: 'extension', number: '202' }],
      failover_dest: 'app-blackhole,hangup,1',
      recording: 'always',
    });
    // Applied when Asterisk has the group (an earlier apply's record may still be the last one).
    await lab.until('ring group 650 in the dialplan', async () =>
      (await lab.rx('dialplan show 650@ext-ringgroups')).includes('sub-record,s,1(always,in)'),
    );
    const files = (await api<{ files: number }>('GET', '/api/call-recordings/status')).files;
    const before = await listed();
    await callWith('650', 'group', [`Playback(${path.join(lab.dirs.root, 'tone3')})`]);
    const row = await newCall(before);
    console.log('history row:', JSON.stringify(row));
    expect(row.recording).toBe('available');
    expect((await api<{ files: number }>('GET', '/api/call-recordings/status')).files).toBe(files + 1);
    expect(problems(lab)).toEqual([]);
  });
});

function problems(lab: AsteriskLab): string[] {
  return lab
    .messages()
    .split('\n')
    .filter((l) => /\b(WARNING|ERROR)\[/.test(l) && /mixmonitor|record|features/i.test(l));
}
