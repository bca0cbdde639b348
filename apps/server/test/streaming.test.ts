import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { STREAMING_PERMISSION_BASE } from '@centralino/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isRefusedAddress, sniffImage } from '../src/features/streaming/snapshot.ts';
import { callAs, DB_KINDS, expectError, useTestApp } from './helpers.ts';

/** A real 2×2 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEUlEQVR4nGP4z8DA8B+MgBgAHfAD/dPQfSYAAAAASUVORK5CYII=',
  'base64',
);

/** A camera on loopback: a snapshot, an HTML page, a lying content type, a huge image, a redirect, silence. */
let camera: http.Server;
let port = 0;
beforeAll(async () => {
  camera = http.createServer((req, res) => {
    if (req.url === '/snap.png') res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    else if (req.url === '/private.png') {
      const ok = req.headers.authorization === `Basic ${Buffer.from('cam:s3cret').toString('base64')}`;
      if (ok) res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
      else res.writeHead(401, { 'www-authenticate': 'Basic realm="cam"' }).end();
    } else if (req.url === '/page.html') res.writeHead(200, { 'content-type': 'text/html' }).end('<!DOCTYPE html><p>x');
    else if (req.url === '/lying.jpg') res.writeHead(200, { 'content-type': 'image/jpeg' }).end('<!DOCTYPE html>');
    else if (req.url === '/huge.jpg') {
      res.writeHead(200, { 'content-type': 'image/jpeg' });
      const block = Buffer.alloc(1024 * 1024, 0xff);
      for (let i = 0; i < 7; i++) res.write(block);
      res.end();
    } else if (req.url === '/moved') res.writeHead(302, { location: 'http://169.254.169.254/' }).end();
    else if (req.url === '/silent') {
      // never answers
    } else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => camera.listen(0, '127.0.0.1', resolve));
  port = (camera.address() as AddressInfo).port;
});
afterAll(async () => {
  camera.closeAllConnections();
  await new Promise((resolve) => camera.close(resolve));
});

describe('snapshot address rules', () => {
  it('refuses loopback, unspecified, link-local, metadata and multicast addresses, not the LAN', () => {
    for (const a of [
      '127.0.0.1',
      '127.9.9.9',
      '0.0.0.0',
      '::1',
      '::',
      '169.254.169.254',
      'fe80::1',
      '::ffff:127.0.0.1',
      'fd00:ec2::254',
      '224.0.0.1',
    ]) {
      expect(isRefusedAddress(a), a).toBe(true);
    }
    for (const a of ['192.168.1.50', '10.0.0.7', '172.16.4.4', '93.184.216.34', '2001:db8::5']) {
      expect(isRefusedAddress(a), a).toBe(false);
    }
  });
  it('knows images by their first bytes', () => {
    expect(sniffImage(PNG)).toBe('image/png');
    expect(sniffImage(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(sniffImage(Buffer.from('GIF89a...'))).toBe('image/gif');
    expect(sniffImage(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeUndefined();
  });
});

describe.each(DB_KINDS)('streaming sources (%s)', (kind) => {
  const t = useTestApp(kind, { env: { STREAMING_ALLOWED_HOSTS: '127.0.0.1' } });
  const call = callAs(t);
  const list = async () => {
    const res = await call('GET', '/api/cti/streaming');
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as {
      id: number;
      descr: string;
      url: string;
      exten: string;
      open: string;
      permission: string;
      profiles: number[];
    }[];
  };
  const check = (url: string, lang = 'en') =>
    call('POST', '/api/cti/sources/test', { url }, { 'accept-language': lang });

  it("Check fetches a snapshot from an allowed loopback host and answers the contract's bare base64 string", async () => {
    const res = await check(`http://127.0.0.1:${port}/snap.png`);
    expect(res.statusCode, res.body).toBe(200);
    // api-admin §7.5: a JSON string, base64 with a CRLF every 76 characters (what the original console shows).
    const plain = PNG.toString('base64');
    expect(res.json()).toBe(`${plain.slice(0, 76)}\r\n${plain.slice(76)}`);
    expect(Buffer.from(res.json() as string, 'base64')).toEqual(PNG);
  });

  it('Check refuses what is not an image, too large, redirects, silence, and says why in the caller language', async () => {
    expect(
      expectError(await check(`http://127.0.0.1:${port}/page.html`), 502, 'streaming_fetch_failed').detail,
    ).toMatch(/text\/html/);
    expectError(await check(`http://127.0.0.1:${port}/lying.jpg`), 502, 'streaming_fetch_failed');
    expect(expectError(await check(`http://127.0.0.1:${port}/huge.jpg`), 502, 'streaming_fetch_failed').detail).toMatch(
      /5 MB/,
    );
    expectError(await check(`http://127.0.0.1:${port}/moved`), 502, 'streaming_fetch_failed');
    expectError(await check(`http://127.0.0.1:${port}/missing`), 502, 'streaming_fetch_failed');
    const started = Date.now();
    const silent = expectError(await check(`http://127.0.0.1:${port}/silent`, 'it'), 502, 'streaming_fetch_failed');
    expect(silent.detail).toMatch(/entro 5 secondi/);
    expect(Date.now() - started).toBeLessThan(8_000);
  }, 20_000);

  it('Check refuses the server itself and link-local/metadata addresses the setting does not name', async () => {
    for (const url of [
      `http://127.0.0.2:${port}/snap.png`,
      `http://[::1]:${port}/snap.png`,
      `http://[::ffff:127.0.0.2]:${port}/snap.png`,
      'http://169.254.169.254/latest/meta-data/',
      'http://0.0.0.0/',
    ]) {
      expectError(await check(url), 422, 'streaming_host_refused');
    }
    expectError(await check('file:///etc/passwd'), 400, 'validation');
    expectError(await check('gopher://127.0.0.1/'), 400, 'validation');
  });

  it('creates, lists, renames (keeping its permission and profiles) and deletes a source', async () => {
    expect(await list()).toEqual([]);
    const url = `http://127.0.0.1:${port}/snap.png`;
    const res = await call('POST', '/api/cti/streaming', { descr: 'Front door', url, open: '*9', profiles: ['1', 3] });
    expect(res.statusCode, res.body).toBe(200);
    const [source] = await list();
    expect(source).toMatchObject({
      descr: 'Front door',
      url,
      exten: '',
      open: '*9',
      permission: 'vs_front_door',
      profiles: [1, 3],
    });
    // The CTI profiles see it as a permission of the streaming macro.
    const profile = (await call('GET', '/api/cti/profiles/1')).json() as {
      macro_permissions: Record<string, { permissions?: { id: number; name: string; value: boolean }[] }>;
    };
    expect(profile.macro_permissions.streaming?.permissions).toContainEqual(
      expect.objectContaining({
        id: STREAMING_PERMISSION_BASE + (source?.id ?? 0),
        name: 'vs_front_door',
        value: true,
      }),
    );

    expectError(
      await call('POST', '/api/cti/streaming', { descr: 'front-door', url, profiles: [1] }),
      409,
      'streaming_exists',
    );
    const bad = expectError(
      await call(
        'POST',
        '/api/cti/streaming',
        { descr: 'Gate', url, open: '9*9', profiles: [] },
        { 'accept-language': 'it' },
      ),
      400,
      'validation',
    );
    expect(bad.fields).toHaveProperty('open');
    expect(bad.fields?.profiles).toBe('Scegli almeno un profilo');
    expectError(
      await call('POST', '/api/cti/streaming', { descr: 'Gate', url, exten: '4321', profiles: [1] }),
      422,
      'validation',
    );
    expect(await list()).toHaveLength(1);

    const put = await call('PUT', '/api/cti/streaming/ignored', {
      currentDescr: 'Front door',
      descr: 'Front gate',
      url,
      open: '#1',
      profiles: [2],
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(await list()).toEqual([
      expect.objectContaining({ descr: 'Front gate', open: '#1', permission: 'vs_front_door', profiles: [2] }),
    ]);
    expect((await call('DELETE', `/api/cti/streaming/${encodeURIComponent('Front gate')}`)).statusCode).toBe(200);
    expect(await list()).toEqual([]);
    const rows = await t.database.db
      .selectFrom('cti_profile_permissions')
      .select('permission')
      .where('permission', '=', 'vs_front_door')
      .execute();
    expect(rows).toEqual([]);
    expectError(await call('DELETE', '/api/cti/streaming/Nothing'), 404, 'not_found');
  });

  it('never lists the password of a camera URL, and uses the stored one for the Check and on save', async () => {
    const secretUrl = `http://cam:s3cret@127.0.0.1:${port}/private.png`;
    const listedUrl = `http://cam@127.0.0.1:${port}/private.png`;
    expect((await check(secretUrl)).statusCode).toBe(200);
    const res = await call('POST', '/api/cti/streaming', { descr: 'Garage', url: secretUrl, profiles: [1] });
    expect(res.statusCode, res.body).toBe(200);
    const listed = await call('GET', '/api/cti/streaming');
    expect(listed.body).not.toContain('s3cret');
    expect(listed.json()).toEqual([expect.objectContaining({ descr: 'Garage', url: listedUrl, has_password: true })]);
    // The listed URL checks with the stored password when the source is named; not otherwise.
    expect((await call('POST', '/api/cti/sources/test', { url: listedUrl, descr: 'Garage' })).statusCode).toBe(200);
    expectError(await check(listedUrl), 502, 'streaming_fetch_failed');
    // Saving the listed URL keeps the password; another user name or host does not get it.
    const put = await call('PUT', '/api/cti/streaming/Garage', { descr: 'Garage', url: listedUrl, profiles: [1] });
    expect(put.statusCode, put.body).toBe(200);
    const row = await t.database.db
      .selectFrom('streaming_sources')
      .select('url')
      .where('descr', '=', 'Garage')
      .executeTakeFirst();
    expect(row?.url).toBe(secretUrl);
    expectError(
      await call('POST', '/api/cti/sources/test', {
        url: `http://other@127.0.0.1:${port}/private.png`,
        descr: 'Garage',
      }),
      502,
      'streaming_fetch_failed',
    );
    expect((await call('DELETE', '/api/cti/streaming/Garage')).statusCode).toBe(200);
  });
});
