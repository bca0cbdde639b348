import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findInstallation } from '../../src/pbx/managed/installation.ts';
import { readPbxLog } from '../../src/pbx/managed/log.ts';
import * as messages from '../../src/pbx/managed/messages.ts';
import { firstTakenPort } from '../../src/pbx/managed/ports.ts';
import { DB_KINDS, useTestApp } from '../helpers.ts';

/** Managed mode's pieces that need no Asterisk: finding one, reading its log, seeing a taken port. */
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'cz-managed-'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** A cache build as scripts/ensure-asterisk.mjs leaves it, with a stand-in binary answering -V. */
function fakeBuild(cache: string, name: string, options: { binary?: boolean } = {}): string {
  const prefix = path.join(cache, name);
  fs.mkdirSync(path.join(prefix, 'lib/asterisk/modules'), { recursive: true });
  fs.writeFileSync(path.join(prefix, 'lib/asterisk/modules/res_pjsip.so'), '');
  fs.writeFileSync(path.join(prefix, '.centralino-built'), 'now\n');
  if (options.binary !== false) {
    fs.mkdirSync(path.join(prefix, 'sbin'), { recursive: true });
    fs.writeFileSync(path.join(prefix, 'sbin/asterisk'), '#!/bin/sh\necho "Asterisk 22.10.1"\n', { mode: 0o755 });
  }
  return prefix;
}

describe('finding the Asterisk a managed PBX runs', () => {
  const noPath = path.join(scratch, 'empty-path');
  fs.mkdirSync(noPath);
  const find = (cacheDir: string, bin?: string) => findInstallation({ bin, cacheDir, searchPath: noPath });

  it('says an explicit ASTERISK_BIN that is not there', () => {
    expect(find(scratch, '/nonexistent/asterisk')).toMatchObject({
      code: 'binary_missing',
      values: { path: '/nonexistent/asterisk' },
    });
  });

  it('says nothing is built yet, and a build that failed says why', () => {
    const cache = path.join(scratch, 'cache-empty');
    fs.mkdirSync(cache);
    // Only when no asterisk is installed on this machine's system folders (a packaged one would be found first).
    if (fs.existsSync('/usr/sbin/asterisk') || fs.existsSync('/usr/local/sbin/asterisk')) return;
    expect(find(cache)).toMatchObject({ code: 'not_built' });
    fs.writeFileSync(path.join(cache, 'asterisk-0123456789abcdef.failed'), 'make failed\n');
    expect(find(cache)).toMatchObject({ code: 'build_failed', values: { reason: 'make failed' } });
  });

  it('finds the cache build, with its version and modules; a build without its binary is broken', () => {
    if (fs.existsSync('/usr/sbin/asterisk') || fs.existsSync('/usr/local/sbin/asterisk')) return;
    const cache = path.join(scratch, 'cache-good');
    const prefix = fakeBuild(cache, 'asterisk-00000000000000aa');
    expect(find(cache)).toMatchObject({
      binary: path.join(prefix, 'sbin/asterisk'),
      version: 'Asterisk 22.10.1',
      modulesDir: path.join(prefix, 'lib/asterisk/modules'),
      source: 'build cache',
    });
    const broken = path.join(scratch, 'cache-broken');
    fakeBuild(broken, 'asterisk-00000000000000bb', { binary: false });
    expect(find(broken)).toMatchObject({ code: 'binary_broken' });
    // A binary that does not run is broken too.
    const bad = path.join(scratch, 'bad-asterisk');
    fs.writeFileSync(bad, '#!/bin/sh\nexit 3\n', { mode: 0o755 });
    expect(find(broken, bad)).toMatchObject({ code: 'binary_broken', values: { path: bad } });
  });
});

describe("a managed Asterisk's log", () => {
  it('answers the warnings and errors since its start, newest last, filtered by a search', () => {
    const file = path.join(scratch, 'messages');
    const before = '[2026-12-02 10:00:00.000] ERROR[1] old.c: from the previous run\n';
    fs.writeFileSync(file, before);
    fs.appendFileSync(
      file,
      [
        '[2026-12-02 10:01:00.000] NOTICE[2] loader.c: 120 modules will be loaded.',
        '[2026-12-02 10:01:01.000] WARNING[3] res_pjsip.c: Transport transport-tls could not bind',
        '[2026-12-02 10:01:02.000] ERROR[4][C-00000001] chan_pjsip.c: Call to 999 failed',
        '',
      ].join('\n'),
    );
    const all = readPbxLog(file, before.length, { limit: 10 });
    expect(all.total).toBe(2);
    expect(all.lines).toEqual([
      {
        time: '2026-12-02 10:01:01.000',
        level: 'WARNING',
        text: 'res_pjsip.c: Transport transport-tls could not bind',
      },
      { time: '2026-12-02 10:01:02.000', level: 'ERROR', text: 'chan_pjsip.c: Call to 999 failed' },
    ]);
    expect(readPbxLog(file, before.length, { search: 'TLS', limit: 10 }).lines).toHaveLength(1);
    expect(readPbxLog(file, before.length, { limit: 1 }).lines[0]?.level).toBe('ERROR');
    expect(readPbxLog(path.join(scratch, 'none'), 0, { limit: 10 })).toEqual({ lines: [], total: 0 });
  });
});

describe('ports another program holds', () => {
  it('names the first one taken', async () => {
    const net = await import('node:net');
    const server = net.createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as { port: number }).port;
    try {
      const taken = await firstTakenPort([
        { port, protocol: 'udp', host: '127.0.0.1', setting: 'SIP_PORT' },
        { port, protocol: 'tcp', host: '127.0.0.1', setting: 'SIP_PORT' },
      ]);
      expect(taken).toMatchObject({ port, protocol: 'tcp', setting: 'SIP_PORT' });
    } finally {
      server.close();
    }
  });
});

describe.each(DB_KINDS)("the phone system's problem in the reader's language (%s)", (kind) => {
  // As main.ts finds it with ASTERISK_BIN naming nothing, on a machine without Debian's prompts and music.
  const t = useTestApp(kind, {
    env: { ASTERISK_MODE: 'managed', TFTP_PORT: '0' },
    managedPbx: {
      installation: findInstallation({ bin: '/nonexistent/asterisk', cacheDir: scratch, searchPath: '' }),
      warnings: [messages.noVoicePrompts(['en', 'it']), messages.noMusicOnHold()],
    },
  });
  const system = async (language: string) => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/pbx/system',
      headers: { ...t.headers, 'accept-language': language },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { state: string; problem: { code: string; detail: string } | null; warnings: string[] };
  };

  it('says why Asterisk is not running and what is missing beside it in Italian when asked in Italian', async () => {
    const italian = await system('it-IT,it;q=0.9,en;q=0.8');
    expect(italian.state).toBe('failed');
    expect(italian.problem).toMatchObject({
      code: 'binary_missing',
      detail:
        '/nonexistent/asterisk (ASTERISK_BIN) non è un file eseguibile: imposta ASTERISK_BIN sul programma Asterisk, o toglilo.',
    });
    expect(italian.warnings).toEqual([
      'Mancano i messaggi vocali in inglese e italiano: segreteria, IVR e code restano in silenzio. ' +
        'Installa asterisk-core-sounds-en asterisk-core-sounds-it (lo fa npm install eseguito come root).',
      'Manca la musica di attesa: chi è in attesa sente solo silenzio. Installa asterisk-moh-opsound-gsm ' +
        '(lo fa npm install eseguito come root).',
    ]);
    const english = await system('en-GB');
    expect(english.problem?.detail).toBe(
      '/nonexistent/asterisk (ASTERISK_BIN) is not an executable file: set ASTERISK_BIN to the Asterisk binary, or unset it.',
    );
    expect(english.warnings[1]).toBe(
      'No music on hold: callers on hold hear silence. Install asterisk-moh-opsound-gsm (npm install as root does).',
    );
  });
});

describe('every text of a managed PBX has its Italian', () => {
  it('differs from the English, with the same names and numbers in it', () => {
    const samples: Record<keyof typeof messages, messages.Words> = {
      binaryMissing: messages.binaryMissing('/opt/asterisk'),
      binaryDoesNotRun: messages.binaryDoesNotRun('/opt/asterisk'),
      modulesMissing: messages.modulesMissing('/opt/asterisk'),
      buildIncomplete: messages.buildIncomplete('/cache/asterisk-0123456789abcdef'),
      buildFailed: messages.buildFailed('make failed'),
      notBuilt: messages.notBuilt(),
      configMissing: messages.configMissing(),
      portTaken: messages.portTaken(5060, 'UDP', 'SIP_PORT'),
      crashing: messages.crashing({ signal: 'SIGSEGV' }, 3, 'Segmentation fault', 2),
      noVoicePrompts: messages.noVoicePrompts(['it']),
      noMusicOnHold: messages.noMusicOnHold(),
    };
    // Paths, settings, ports and counts: what the reader types or looks for, the same in both languages.
    const tokens = (text: string) => text.match(/[\w/-]*[\d/_][\w./-]*\w/g) ?? [];
    for (const [name, text] of Object.entries(samples)) {
      expect(text('it'), name).not.toBe(text('en'));
      expect(tokens(text('it')).sort(), name).toEqual(tokens(text('en')).sort());
    }
    expect(messages.crashing({ exitCode: 1 }, 3, '', 8)('it')).toBe(
      "Asterisk è uscito con il codice 1, 3 volte di seguito poco dopo l'avvio: guarda il suo log. Nuovo tentativo tra 8 s.",
    );
  });
});
