import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findInstallation } from '../../src/pbx/managed/installation.ts';
import { readPbxLog } from '../../src/pbx/managed/log.ts';
import { firstTakenPort } from '../../src/pbx/managed/ports.ts';

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
