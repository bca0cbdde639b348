import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_PASSWORD,
  type AsteriskLab,
  deviceSecrets,
  seedLocalUsers,
  skipReason,
  startAsteriskLab,
} from '../support/asterisk.ts';

/**
 * Music on hold (issue 42 item 6) in the console's own Asterisk: a caller waiting in a queue whose class is an
 * uploaded file hears that file (a 1 kHz tone, told apart from the distribution's music by its pitch), and a caller in
 * a queue of the default class hears the distribution's music. What the phone receives is decoded and measured with
 * sox, as managed.test.ts does for the prompts.
 */

const here = path.dirname(new URL(import.meta.url).pathname);
const RTP_LISTEN = path.resolve(here, '../support/rtp-listen.mjs');
const asRoot = process.getuid?.() === 0;
const mohInstalled = asRoot || fs.existsSync('/usr/share/asterisk/moh');
const soxMissing = spawnSync('sox', ['--version']).status !== 0;

type Status = { state: string; last: { ok: boolean; error: string | null; startedAt: number } | null };

describe.skipIf(skipReason !== '' || soxMissing)('music on hold in a real Asterisk', { timeout: 120_000 }, () => {
  let lab: AsteriskLab;
  let secrets: Record<string, string> = {};

  beforeAll(async () => {
    lab = await startAsteriskLab({ managed: true });
    await seedLocalUsers(lab, [['bea', '202']]);
    secrets = await deviceSecrets(lab, ['202']);
  }, 180_000);

  afterAll(async () => {
    await lab?.close();
  }, 60_000);

  const api = async <T = unknown>(method: string, url: string, body?: unknown) => {
    const res = await lab.api<T>(method, url, body);
    expect(res.status, `${method} ${url}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
    return res.body;
  };
  const applied = async (since: number) => {
    const s = await lab.until(
      'the apply',
      async () => {
        const x = (await lab.api<Status>('GET', '/api/pbx/apply')).body;
        return x.state === 'idle' && x.last && x.last.startedAt >= since ? x : undefined;
      },
      90_000,
    );
    expect(s.last?.ok, s.last?.error ?? '').toBe(true);
  };

  /** Calls `number` from 202 with its audio sent to a listener: how much it heard, how loud and at what pitch. */
  const listen = async (number: string, ms: number) => {
    const port = 32000 + Math.floor(Math.random() * 500) * 2;
    const file = path.join(lab.dirs.root, `heard-${number}-${port}.ulaw`);
    const listener: ChildProcess = spawn(
      'ip',
      ['netns', 'exec', lab.ns, process.execPath, RTP_LISTEN, String(port), file],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    await new Promise<void>((resolve) => listener.stdout?.once('data', () => resolve()));
    const caller = lab.sipp({
      scenario: 'call-listen.xml',
      args: [
        '-s',
        number,
        '-au',
        '202',
        '-ap',
        secrets['202'] as string,
        '-key',
        'from_user',
        '202',
        '-key',
        'rtp_port',
        String(port),
        '-m',
        '1',
        '-d',
        String(ms),
      ],
      remote: '127.0.0.1:5060',
    });
    await caller.done;
    const exited = new Promise((r) => listener.once('exit', r));
    listener.kill('SIGTERM');
    await exited;
    expect(caller.responses(), caller.trace()).toContain(200);
    const bytes = fs.existsSync(file) ? fs.statSync(file).size : 0;
    const out = bytes
      ? spawnSync('sox', ['-t', 'ul', '-r', '8000', '-c', '1', file, '-n', 'stat'], { encoding: 'utf8' }).stderr
      : '';
    const rms = Number(/RMS\s+amplitude:\s+([\d.]+)/.exec(out)?.[1] ?? 0);
    const pitch = Number(/Rough\s+frequency:\s+(\d+)/.exec(out)?.[1] ?? 0);
    console.log(`calling ${number}: heard ${bytes} bytes of audio, RMS amplitude ${rms}, rough frequency ${pitch} Hz`);
    return { bytes, rms, pitch };
  };

  /** Uploads a file the way the console's page does (multipart), signed in as the administrator. */
  const upload = async (classId: number, name: string, bytes: Buffer) => {
    const login = await fetch(`${lab.consoleUrl}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
    });
    const { secretkey } = (await login.json()) as { secretkey: string };
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)]), name);
    const res = await fetch(`${lab.consoleUrl}/api/music/${classId}/files`, {
      method: 'POST',
      headers: { User: 'admin', Secretkey: secretkey },
      body: form,
    });
    expect(res.status, await res.clone().text()).toBe(200);
  };

  it('plays an uploaded class to a caller waiting in its queue: the tone, not silence, not the default', async () => {
    const wav = path.join(lab.dirs.root, 'tone.wav');
    // CD-quality stereo, as an admin's file would be: the console converts it to 8 kHz mono.
    execFileSync('sox', ['-n', '-r', '44100', '-c', '2', wav, 'synth', '6', 'sine', '1000', 'vol', '0.5']);
    const cls = await api<{ id: number }>('POST', '/api/music', { name: 'tone', play_order: 'alpha' });
    await upload(cls.id, 'Company tone.wav', fs.readFileSync(wav));
    const since = Date.now();
    await api('POST', '/api/queues', {
      extension: '501',
      name: 'Tone queue',
      max_wait: 60,
      failover_dest: 'app-blackhole,hangup,1',
      music: 'tone',
    });
    await applied(since);
    const classes = await lab.rx('moh show classes');
    expect(classes).toMatch(/Class: tone[\s\S]*Mode: files[\s\S]*Directory: .*\/sounds\/moh\/tone/);
    expect(await lab.rx('moh show files')).toMatch(/Class: tone[\s\S]*File: .*\/moh\/tone\/Company-tone/);
    expect(await lab.rx('queue show 501')).toContain('501 has 0 calls');

    const heard = await listen('501', 3000);
    // 3 s of G.711 is 24 kB; the tone is far above silence (0) and at its own pitch.
    expect(heard.bytes).toBeGreaterThan(8000);
    expect(heard.rms).toBeGreaterThan(0.05);
    expect(heard.pitch).toBeGreaterThan(900);
    expect(heard.pitch).toBeLessThan(1100);
  });

  it.skipIf(!mohInstalled)('plays the distribution music to a caller in a queue of the default class', async () => {
    const since = Date.now();
    await api('POST', '/api/queues', {
      extension: '500',
      name: 'Default queue',
      max_wait: 60,
      failover_dest: 'app-blackhole,hangup,1',
    });
    await applied(since);
    expect(await lab.rx('moh show files')).toMatch(/Class: default[\s\S]*File: .*macroform/);
    const heard = await listen('500', 3000);
    expect(heard.bytes).toBeGreaterThan(8000);
    expect(heard.rms).toBeGreaterThan(0.01);
  });

  it('logged no warning or error about music on hold', () => {
    const problems = lab
      .messages()
      .split('\n')
      .filter((l) => /\b(WARNING|ERROR)\[/.test(l) && /musiconhold|moh/i.test(l));
    expect(problems).toEqual([]);
  });
});
