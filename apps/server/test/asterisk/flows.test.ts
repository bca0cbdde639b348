// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${NAME} is how the Asterisk dialplan reads variables.

import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, type AsteriskLab, skipReason, startAsteriskLab } from '../support/asterisk.ts';

/**
 * Call flows (issue 26) in a real Asterisk: the announcement and IVR contexts the console renders load (every
 * line of them, not only the file), and their recordings are where the dialplan plays them from, readable by
 * Asterisk's group.
 */

type Status = {
  state: string;
  last: { ok: boolean; error: string | null; startedAt: number; changed: string[] } | null;
};

const soxMissing = !/Reads: yes/.test(spawnSync('sox', ['--help-format', 'mp3'], { encoding: 'utf8' }).stdout ?? '');
const reason = skipReason || (soxMissing ? 'sox is missing: run node scripts/ensure-audio-tools.mjs' : '');

describe.skipIf(reason !== '')('call flows in a real Asterisk', { timeout: 120_000 }, () => {
  let lab: AsteriskLab;
  let sounds = '';
  let menuId = 0;

  beforeAll(async () => {
    lab = await startAsteriskLab({
      env: (root) => {
        sounds = path.join(root, 'sounds');
        return { ASTERISK_SOUNDS_DIR: sounds };
      },
    });
  }, 180_000);

  afterAll(async () => {
    await lab?.close();
  }, 60_000);

  const api = async <T = unknown>(method: string, url: string, body?: unknown) => {
    const res = await lab.api<T>(method, url, body);
    expect(res.status, `${method} ${url}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
    return res.body;
  };

  it('loads the announcement and IVR contexts and finds their recordings', async () => {
    // A recording made here with sox, uploaded as the console does.
    const tone = path.join(lab.dirs.root, 'tone.ogg');
    execFileSync('sox', ['-n', '-r', '48000', '-c', '2', tone, 'synth', '1', 'sine', '440']);
    const login = await api<{ user: string; secretkey: string }>('POST', '/api/login', {
      username: 'admin',
      password: ADMIN_PASSWORD,
    });
    const form = new FormData();
    form.append('displayname', 'Menu');
    form.append('file', new Blob([fs.readFileSync(tone)]), 'tone.ogg');
    const upload = await fetch(`${lab.consoleUrl}/api/recordings`, {
      method: 'POST',
      headers: { User: login.user, Secretkey: login.secretkey },
      body: form,
    });
    expect(upload.status, await upload.clone().text()).toBe(200);
    const recording = ((await upload.json()) as { id: number }).id;

    const announcement = (
      await api<{ id: number }>('POST', '/api/announcements', {
        description: 'Closed (holidays)',
        recording_id: recording,
        allow_skip: true,
        repeat_msg: '*',
        post_dest: 'app-blackhole,hangup,1',
      })
    ).id;
    const ivr = (
      await api<{ id: number }>('POST', '/api/ivrs', {
        name: 'Main menu',
        announcement: recording,
        directdial: true,
        invalid_destination: 'app-blackhole,hangup,1',
        timeout_destination: `app-announcement-${announcement},s,1`,
        entries: [
          { selection: '1', dest: `app-announcement-${announcement},s,1` },
          { selection: '#', dest: 'app-blackhole,busy,1' },
        ],
      })
    ).id;
    menuId = ivr;
    // Each write asks for an apply (several may be folded into one): the last one starts after the last write.
    const since = Date.now();
    await api('POST', '/api/inboundroutes', {
      extension: '0721000111',
      cidnum: '',
      description: 'Switchboard',
      destination: `ivr-${ivr},s,1`,
    });

    const status = await lab.until(
      'the apply',
      async () => {
        const s = (await lab.api<Status>('GET', '/api/pbx/apply')).body;
        return s.state === 'idle' && s.last && s.last.startedAt >= since ? s : undefined;
      },
      90_000,
    );
    expect(status.last?.ok, status.last?.error ?? '').toBe(true);

    const sound = path.join(sounds, `recording-${recording}`);
    const menu = await lab.rx(`dialplan show ivr-${ivr}`);
    expect(menu).toContain(`Background(${sound})`);
    expect(menu).toMatch(/'1' =>\s+1\. Set\(IVR_SELECTION=1\)/);
    expect(menu).toContain(`Goto(app-announcement-${announcement},s,1)`);
    expect(menu).toMatch(/'#' =>/);
    expect(menu).toMatch(/'i' =>/);
    expect(menu).toMatch(/'t' =>/);
    expect(menu).toContain("Include =>        'ext-local'");
    const closed = await lab.rx(`dialplan show app-announcement-${announcement}`);
    expect(closed).toContain(`Background(${sound})`);
    expect(closed).toMatch(/'\*' =>\s+1\. Goto\(s,play\)/);
    expect(await lab.rx('dialplan show 0721000111@ext-did-0002')).toContain(`Goto(ivr-${ivr},s,1)`);

    // The converted file, readable by Asterisk's group (Asterisk keeps no other group after dropping root).
    const stat = fs.statSync(`${sound}.wav`);
    expect(stat.gid).toBe(Number(execFileSync('getent', ['group', 'asterisk']).toString().split(':')[2]));
    expect(stat.mode & 0o040).toBe(0o040);
    expect(await lab.rx(`core show file formats`)).toMatch(/wav\s/);

    // Nothing in the flow file was skipped by Asterisk.
    const problems = lab
      .messages()
      .split('\n')
      .filter((l) => /\b(WARNING|ERROR)\[/.test(l) && /extensions\.flows\.|ivr-|app-announcement-/.test(l));
    expect(problems).toEqual([]);
  });

  it('day/night: the switch routes by the mode in AstDB, which the console reads and sets without a reload', async () => {
    const since = Date.now();
    await api('POST', '/api/daynight', {
      ext: 1,
      name: 'Office',
      day_dest: `ivr-${menuId},s,1`,
      night_dest: 'app-blackhole,hangup,1',
    });
    const status = await lab.until(
      'the apply',
      async () => {
        const s = (await lab.api<Status>('GET', '/api/pbx/apply')).body;
        return s.state === 'idle' && s.last && s.last.startedAt >= since ? s : undefined;
      },
      90_000,
    );
    expect(status.last?.ok, status.last?.error ?? '').toBe(true);
    const route = await lab.rx('dialplan show 1@app-daynight');
    expect(route).toContain('GotoIf($["${DB(DAYNIGHT/C1)}" = "NIGHT"]?night)');
    expect(route).toContain(`Goto(ivr-${menuId},s,1)`);
    // Phones reach the toggle through their context's includes.
    expect(await lab.rx('dialplan show *281@from-internal')).toContain('Set(DB(DAYNIGHT/C1)=NIGHT)');

    type Switch = { ext: number; state: string };
    const state = async () => (await api<Switch[]>('GET', '/api/daynight')).find((d) => d.ext === 1)?.state;
    expect(await state()).toBe('day');
    await api('POST', '/api/daynight/1/state', { state: 'night' });
    expect(await lab.rx('database get DAYNIGHT C1')).toContain('NIGHT');
    expect(await state()).toBe('night');
    await api('POST', '/api/daynight/1/state', { state: 'day' });
    expect(await lab.rx('database get DAYNIGHT C1')).toContain('DAY');
    expect(await state()).toBe('day');
  });
});
