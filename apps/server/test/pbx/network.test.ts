import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { validMask } from '../../src/pbx/network-routes.ts';
import { DB_KINDS, expectError, login, useTestApp } from '../helpers.ts';
import { freePort } from '../support/slapd.ts';

describe('netmasks', () => {
  it('accepts prefix lengths and contiguous dotted masks only', () => {
    for (const ok of ['0', '8', '24', '32', '255.255.255.0', '255.255.0.0', '0.0.0.0', '255.255.255.255']) {
      expect(validMask(ok), ok).toBe(true);
    }
    for (const bad of ['33', '-1', '255.0.255.0', '255.255.255.1', '256.0.0.0', 'x', '']) {
      expect(validMask(bad), bad).toBe(false);
    }
  });
});

describe.each(DB_KINDS)('network / NAT settings (%s)', (kind) => {
  const t = useTestApp(kind);
  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: t.headers });
  const post = (url: string, payload?: unknown) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: t.headers,
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });

  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** The transports file once the apply the last POST asked for is done. */
  async function transports(): Promise<string> {
    for (let i = 0; i < 200; i++) {
      const status = (await get('/api/pbx/apply')).json() as { state: string; directory: string };
      if (status.state === 'idle') return fs.readFileSync(path.join(status.directory, 'pjsip.transports.conf'), 'utf8');
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error('the apply never settled');
  }

  it('lists the host IPv4 networks', async () => {
    const res = await get('/api/configuration/networks');
    expect(res.statusCode).toBe(200);
    for (const n of res.json() as Record<string, string>[]) {
      expect(Object.keys(n).sort()).toEqual(['gateway', 'ip', 'netmask', 'network']);
      expect(n.ip).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    }
  });

  it('stores the public address and writes it into the SIP transports', async () => {
    expect((await get('/api/configuration/externalip')).json()).toBe('');
    const res = await post('/api/configuration/externalip/93.41.12.7');
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('');
    expect((await get('/api/configuration/externalip')).json()).toBe('93.41.12.7');
    expect(await transports()).toContain(
      'external_media_address = 93.41.12.7\nexternal_signaling_address = 93.41.12.7\n',
    );
    expect((await post('/api/configuration/externalip/PBX.Example.com')).statusCode).toBe(200);
    expect((await get('/api/configuration/externalip')).json()).toBe('pbx.example.com');
    for (const bad of ['300.1.1.1', '1.2.3', 'bad_host!', '-x.example.com']) {
      const body = expectError(
        await post(`/api/configuration/externalip/${encodeURIComponent(bad)}`),
        400,
        'validation',
      );
      expect(body.fields).toHaveProperty('ip');
    }
    expect((await get('/api/configuration/externalip')).json()).toBe('pbx.example.com');
  });

  it('stores the local networks (prefix or dotted mask) and writes them as local_net', async () => {
    expect((await get('/api/configuration/localnetworks')).json()).toBe(false);
    const list = [
      { net: '192.168.1.0', mask: '24' },
      { net: '10.0.0.0', mask: '255.0.0.0' },
      { net: '192.168.1.0', mask: '24' },
    ];
    expect((await post('/api/configuration/localnetworks', list)).statusCode).toBe(200);
    expect((await get('/api/configuration/localnetworks')).json()).toEqual(list.slice(0, 2));
    const text = await transports();
    expect(text).toContain('local_net = 192.168.1.0/24\nlocal_net = 10.0.0.0/255.0.0.0\n');

    const bad = expectError(
      await post('/api/configuration/localnetworks', [{ net: '192.168.1.0', mask: '255.0.255.0' }]),
      400,
      'validation',
    );
    expect(Object.keys(bad.fields ?? {}).join()).toMatch(/mask/);
    expectError(await post('/api/configuration/localnetworks', [{ net: '192.168.1', mask: '24' }]), 400, 'validation');
    expectError(await post('/api/configuration/localnetworks', { net: '192.168.1.0', mask: '24' }), 400, 'validation');
    expect((await get('/api/configuration/localnetworks')).json()).toEqual(list.slice(0, 2));

    // An empty list clears them.
    expect((await post('/api/configuration/localnetworks', [])).statusCode).toBe(200);
    expect((await get('/api/configuration/localnetworks')).json()).toEqual([]);
    expect(await transports()).not.toContain('local_net');
  });

  it('records whether SIP is reachable from outside', async () => {
    expect((await get('/api/configuration/allowexternalsips')).json()).toBe('enabled');
    expect((await post('/api/configuration/allowexternalsips/disabled')).statusCode).toBe(200);
    expect((await get('/api/configuration/allowexternalsips')).json()).toBe('disabled');
    expectError(await post('/api/configuration/allowexternalsips/maybe'), 404, 'not_found');
    expect((await get('/api/configuration/allowexternalsips')).json()).toBe('disabled');
  });

  it('suggests the public address an outside service sees, and fails clearly when it cannot', async () => {
    const fetch = vi.spyOn(globalThis, 'fetch').mockResolvedValueOnce(new Response('146.190.28.17\n'));
    const res = await get('/api/configuration/suggestedip');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toBe('146.190.28.17');
    expect(String(fetch.mock.calls[0]?.[0])).toBe('http://ifconfig.io/ip');
    fetch.mockResolvedValueOnce(new Response('<html>not an address</html>'));
    const notAnAddress = expectError(await get('/api/configuration/suggestedip'), 502, 'public_ip_lookup_failed');
    expect(notAnAddress.detail).toBe(
      'The outside service ifconfig.io answered, but not with an IPv4 address. Type the public address yourself.',
    );
  });

  it('answers 502 with a message in English and Italian when the outside service cannot be reached', async () => {
    // The real fetch, sent to local addresses: a port nobody listens on, and a server that answers 503.
    const realFetch = globalThis.fetch;
    const refused = await freePort();
    const failing = http.createServer((_req, res) => res.writeHead(503).end('down'));
    await new Promise<void>((resolve) => failing.listen(0, '127.0.0.1', resolve));
    const failingPort = (failing.address() as AddressInfo).port;
    try {
      for (const target of [`http://127.0.0.1:${refused}/ip`, `http://127.0.0.1:${failingPort}/ip`]) {
        vi.spyOn(globalThis, 'fetch').mockImplementation((_url, init) => realFetch(target, init));
        const en = expectError(await get('/api/configuration/suggestedip'), 502, 'public_ip_lookup_failed');
        expect(en.title).toBe('Public address not found');
        expect(en.detail).toBe(
          'The outside service ifconfig.io could not be reached from this server, or did not answer. Type the public address yourself.',
        );
        const it = expectError(
          await t.app.inject({
            method: 'GET',
            url: '/api/configuration/suggestedip',
            headers: { ...t.headers, 'accept-language': 'it' },
          }),
          502,
          'public_ip_lookup_failed',
        );
        expect(it.title).toBe('Indirizzo pubblico non trovato');
        expect(it.detail).toBe(
          "Il servizio esterno ifconfig.io non è raggiungibile da questo server, o non ha risposto. Inserisci tu l'indirizzo pubblico.",
        );
        vi.restoreAllMocks();
      }
    } finally {
      await new Promise((resolve) => failing.close(resolve));
    }
  });

  it('refuses a read-only account with 403 read_only before any outbound request', async () => {
    const created = await post('/api/admin/accounts', {
      username: 'netreader',
      password: 'reader-pass-1',
      role: 'readonly',
    });
    expect(created.statusCode, created.body).toBe(201);
    const reader = await login(t.app, 'netreader', 'reader-pass-1');
    const fetch = vi.spyOn(globalThis, 'fetch').mockResolvedValue(new Response('146.190.28.17'));
    const res = await t.app.inject({ method: 'GET', url: '/api/configuration/suggestedip', headers: reader });
    expectError(res, 403, 'read_only');
    expect(fetch).not.toHaveBeenCalled();
    // The stored public address stays readable.
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/configuration/externalip', headers: reader })).statusCode,
    ).toBe(200);
  });

  it('needs a signed-in administrator', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/configuration/externalip' });
    expectError(res, 401, 'unauthorized');
  });
});
