import type { AddressInfo } from 'node:net';
import { buildShippedModels } from '@centralino/contract';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { MissThrottle } from '../../src/provisioning/miss-throttle.ts';
import { matchFileRule } from '../../src/provisioning/templates.ts';
import { DB_KINDS, useTestApp } from '../helpers.ts';
import { expectProblem } from './support.ts';

const V1 = '/api/provisioning/v1';
const NETWORKS = 'provisioning_tokenless_networks';

/** The MAC prefix of a catalogue model's maker (Gigaset P phones carry Snom's). */
function ouiOf(model: string, template: string): string {
  if (template === 'gigaset-Maxwell.tmpl') return '7c2f80';
  const vendor = model.split('-')[0] as string;
  const ouis: Record<string, string> = {
    yealink: '001565',
    snom: '000413',
    gigaset: '000413',
    fanvil: '0c383e',
    nethesis: 'e0e656',
    sangoma: '005058',
    akuvox: '0c1105',
  };
  const oui = ouis[vendor];
  if (!oui) throw new Error(`no MAC prefix for ${model}`);
  return oui;
}

/** The file a phone of this MAC asks for (as the phone-file rules name it). */
function fileOf(short: string): string {
  const mac = short.toUpperCase().match(/../g)?.join('-');
  const file = [`${short}.cfg`, `${short}.xml`, `cfg${short}.xml`].find((name) => matchFileRule(name)?.mac === mac);
  if (!file) throw new Error(`no file rule for ${short}`);
  return file;
}

/** One catalogue model for every phone template (every vendor and family), plus a Grandstream without a model. */
const seen = new Map<string, string>();
for (const model of buildShippedModels()) {
  const template = model.variables.tmpl_phone as string;
  if (!seen.has(template)) seen.set(template, model.name);
}
const PHONES = [...seen].map(([template, model], i) => {
  const short = `${ouiOf(model, template)}00${String(i + 10).padStart(4, '0')}`;
  return { model: model as string | null, template, short };
});
PHONES.push({ model: null, template: 'grandstream.tmpl', short: '000b82000099' });

const ADMINPW = 'WebAdmin-Secret-77';
const USERPW = 'WebUser-Secret-55';
const LDAPPW = 'Ldap-Secret-33';

describe.each(DB_KINDS)('token-less phone files (%s)', (kind) => {
  // nginx or another proxy on this host may tell the client's address (as the README's front web server).
  const t = useTestApp(kind, { env: { TFTP_PORT: '0', TRUST_PROXY: '127.0.0.1' } });
  let origin = '';
  const api = async (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown) => {
    const res = await t.app.inject({
      method,
      url,
      headers: t.headers,
      ...(payload ? { payload: payload as object } : {}),
    });
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
    return res.body ? res.json() : undefined;
  };
  /** A signed-out client at `address`. */
  const phoneGet = (url: string, address: string) =>
    t.app.inject({ method: 'GET', url, remoteAddress: address, headers: { 'user-agent': 'Phone/1.0' } });
  type Phone = {
    model: string | null;
    short: string;
    mac: string;
    file: string;
    tok1: string;
    tok2: string;
    secret: string;
  };
  const phones: Phone[] = [];
  /** The Pending phone whose first-access token was rotated, and the token it had before. */
  let rotated: Phone;
  let oldTok1 = '';

  const expectNothingOpens = (res: LightMyRequestResponse, phone: Phone, what: string) => {
    for (const secret of [phone.tok1, phone.tok2, oldTok1, phone.secret, ADMINPW, USERPW, LDAPPW]) {
      expect(res.body, `${what}: ${secret}`).not.toContain(secret);
    }
  };

  it('has a Pending phone of every template in the catalogue, and one whose first-access token was rotated', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    await api('PATCH', `${V1}/defaults`, {
      hostname: 'pbx.example.com',
      adminpw: ADMINPW,
      userpw: USERPW,
      ldap_password: LDAPPW,
      ldap_base: 'dc=phonebook,dc=nh',
    });
    for (const [i, p] of PHONES.entries()) {
      const mac = p.short.toUpperCase().match(/../g)?.join('-') as string;
      const created = await api('POST', `${V1}/phones`, { mac, model: p.model });
      const secret = `Sip-Secret-${i}-${p.short}`;
      await t.app.provisioning.setPhoneAccounts(mac, [{ extension: `2${i}`, secret, displayName: `Phone ${i}` }]);
      phones.push({ ...p, mac, file: fileOf(p.short), tok1: created.tok1, tok2: created.tok2, secret });
    }
    // The first one completes provisioning (tok2 retires tok1), then is sent back to Pending with a new tok1.
    rotated = phones[0] as Phone;
    oldTok1 = rotated.tok1;
    expect((await phoneGet(`/provisioning/${rotated.tok2}/${rotated.file}`, '192.0.2.200')).statusCode).toBe(200);
    expect((await api('GET', `${V1}/phones/${rotated.mac}`)).tok1).toBeNull();
    await api('POST', `${V1}/phones/${rotated.mac}/tok1`);
    rotated.tok1 = (await api('GET', `${V1}/phones/${rotated.mac}`)).tok1;
    expect(rotated.tok1).not.toBe(oldTok1);
    // Each of them opens its credentials with its first-access token.
    for (const phone of phones) {
      const res = await phoneGet(`/provisioning/${phone.tok1}/${phone.file}`, '192.0.2.201');
      expect(res.statusCode, phone.file).toBe(200);
      expect(res.body, phone.file).toContain(phone.secret);
    }
  });

  it('gives a signed-out client no token nor secret of any vendor’s phone, by default from anywhere', async () => {
    for (const phone of phones) {
      for (const address of ['198.51.100.20', '10.1.2.3', '127.0.0.1', '::1']) {
        const res = await phoneGet(`/provisioning/${phone.file}`, address);
        expect(res.statusCode, `${phone.file} from ${address}`).toBe(404);
        expectNothingOpens(res, phone, `${phone.file} from ${address}`);
      }
      // Over a socket, twice: the second is never answered from memory by the handler in front of Fastify.
      for (let i = 0; i < 2; i++) {
        const res = await fetch(`${origin}/provisioning/${phone.file}`, { headers: { 'user-agent': 'Phone/1.0' } });
        expect(res.status, phone.file).toBe(404);
        const body = await res.text();
        for (const secret of [phone.tok1, phone.tok2, phone.secret, ADMINPW]) expect(body).not.toContain(secret);
      }
    }
  });

  it('answers known and unknown MACs alike on the token-less route', async () => {
    for (const phone of phones) {
      const unknown = fileOf(`${phone.short.slice(0, 6)}ffff01`);
      const [known, missing] = [
        await phoneGet(`/provisioning/${phone.file}`, '198.51.100.21'),
        await phoneGet(`/provisioning/${unknown}`, '198.51.100.21'),
      ];
      expect(known.statusCode, phone.file).toBe(missing.statusCode);
      expect(known.body, phone.file).toBe(missing.body);
      expect(known.headers['content-type'], phone.file).toBe(missing.headers['content-type']);
    }
  });

  it('throttles misses per client address, never a right token', async () => {
    const [phone, other] = phones as [Phone, Phone];
    const from = '203.0.113.9';
    const unknownToken = 'f'.repeat(32);
    for (let i = 0; i < 60; i++) {
      // Unknown tokens, and token-less requests for a MAC nobody has.
      const url =
        i % 3 === 0
          ? `/provisioning/${fileOf(`${phone.short.slice(0, 6)}ff${String(i).padStart(4, '0')}`)}`
          : `/provisioning/${unknownToken}${i}/${phone.file}`;
      expect((await phoneGet(url, from)).statusCode, url).toBe(404);
    }
    for (const url of [
      `/provisioning/${unknownToken}/${phone.file}`,
      `/provisioning/${phone.file}`,
      `/provisioning/${unknownToken}/firmware/fw.bin`,
      `/provisioning/${unknownToken}/wallpapers/x.png`,
    ]) {
      const res = await phoneGet(url, from);
      expect(res.statusCode, url).toBe(429);
      expect(res.json(), url).toMatchObject({ code: 'rate_limited' });
      const wait = Number(res.headers['retry-after']);
      expect(wait, url).toBeGreaterThanOrEqual(1);
      expect(wait, url).toBeLessThanOrEqual(60);
    }
    // The phones behind that address keep working: a right token is answered, found or not.
    const steady = await phoneGet(`/provisioning/${other.tok2}/${other.file}`, from);
    expect(steady.statusCode).toBe(200);
    expect(steady.body).toContain(other.secret);
    const first = await phoneGet(`/provisioning/${phone.tok1}/${phone.file}`, from);
    expect(first.statusCode).toBe(200);
    expect((await phoneGet(`/provisioning/${other.tok2}/y000000000028.cfg`, from)).statusCode).toBe(404);
    expect((await phoneGet(`/provisioning/${other.tok2}/firmware/missing.bin`, from)).statusCode).toBe(404);
    // That steady-state fetch completed provisioning: back to Pending, as the other phones.
    await api('POST', `${V1}/phones/${other.mac}/tok1`);
    other.tok1 = (await api('GET', `${V1}/phones/${other.mac}`)).tok1;
    // Another address has its own count.
    expect((await phoneGet(`/provisioning/${unknownToken}/${phone.file}`, '203.0.113.10')).statusCode).toBe(404);

    // Behind the trusted proxy, the client it names is counted; an IPv6 client counts per /64.
    for (let i = 0; i < 60; i++) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/provisioning/${unknownToken}/${phone.file}`,
        headers: { 'x-forwarded-for': `2001:db8:5:6::${(i + 1).toString(16)}` },
      });
      expect(res.statusCode).toBe(404);
    }
    const sameNet = await t.app.inject({
      method: 'GET',
      url: `/provisioning/${unknownToken}/${phone.file}`,
      headers: { 'x-forwarded-for': '2001:db8:5:6:ffff::1' },
    });
    expect(sameNet.statusCode).toBe(429);
    const otherNet = await t.app.inject({
      method: 'GET',
      url: `/provisioning/${unknownToken}/${phone.file}`,
      headers: { 'x-forwarded-for': '2001:db8:5:7::1' },
    });
    expect(otherNet.statusCode).toBe(404);
  });

  it('refuses a network list the console would refuse, and keeps it to the default settings', async () => {
    for (const value of ['192.168.1.0/33', 'pbx.example.com', '10.0.0.0/8; 10.1.0.0/16', '2001:db8:::/32', '1.2.3']) {
      const res = await t.app.inject({
        method: 'PATCH',
        url: `${V1}/defaults`,
        headers: { ...t.headers, 'accept-language': 'it' },
        payload: { [NETWORKS]: value },
      });
      const body = expectProblem(res, 400, 'prov_invalid_networks');
      expect(body.fields?.[`variables.${NETWORKS}`], value).toContain('IPv4/IPv6');
      expect(body.detail, value).toContain('non è');
    }
    const tooMany = Array.from({ length: 51 }, (_, i) => `10.0.${i}.0/24`).join(',');
    const res = await t.app.inject({
      method: 'PATCH',
      url: `${V1}/defaults`,
      headers: t.headers,
      payload: { [NETWORKS]: tooMany },
    });
    expectProblem(res, 400, 'prov_invalid_networks');
    const phone = phones[1] as Phone;
    for (const url of [`${V1}/phones/${phone.mac}`, `${V1}/models/${phone.model}`]) {
      const scoped = await t.app.inject({
        method: 'PATCH',
        url,
        headers: t.headers,
        payload: { variables: { [NETWORKS]: '0.0.0.0/0' } },
      });
      expectProblem(scoped, 403, 'prov_read_only_attribute');
    }
    expect((await api('GET', `${V1}/defaults`))[NETWORKS]).toBeUndefined();
  });

  it('hands the first-access URL, and no credential, to a client in the allowed networks', async () => {
    await api('PATCH', `${V1}/defaults`, { [NETWORKS]: '192.0.2.0/24, 2001:db8:aa::/48' });
    expect((await api('GET', `${V1}/defaults`))[NETWORKS]).toBe('192.0.2.0/24, 2001:db8:aa::/48');
    for (const phone of phones) {
      for (const address of ['192.0.2.10', '::ffff:192.0.2.11', '2001:db8:aa:1::5']) {
        const res = await phoneGet(`/provisioning/${phone.file}`, address);
        expect(res.statusCode, `${phone.file} from ${address}`).toBe(200);
        expect(res.body, phone.file).toContain(`provisioning/${phone.tok1}`);
        for (const secret of [phone.tok2, oldTok1, phone.secret, ADMINPW, USERPW, LDAPPW]) {
          expect(res.body, `${phone.file}: ${secret}`).not.toContain(secret);
        }
      }
      // The phone then follows that URL to its first-access file: bootstrap works there.
      const first = await phoneGet(`/provisioning/${phone.tok1}/${phone.file}`, '192.0.2.10');
      expect(first.statusCode, phone.file).toBe(200);
      expect(first.body, phone.file).toContain(phone.secret);
      // Outside those networks: as before, as for an unknown MAC.
      for (const address of ['192.0.3.1', '2001:db8:ab::1', '127.0.0.1']) {
        const res = await phoneGet(`/provisioning/${phone.file}`, address);
        expect(res.statusCode, `${phone.file} from ${address}`).toBe(404);
        expectNothingOpens(res, phone, `${phone.file} from ${address}`);
      }
    }
  });

  it('decides by the client the trusted proxy names, also once the answer was given before', async () => {
    const phone = phones[2] as Phone;
    const via = (client: string) =>
      fetch(`${origin}/provisioning/${phone.file}`, {
        headers: { 'user-agent': 'Phone/1.0', 'x-forwarded-for': client },
      });
    for (let i = 0; i < 2; i++) {
      const res = await via('192.0.2.77');
      expect(res.status).toBe(200);
      expect(await res.text()).toContain(`provisioning/${phone.tok1}`);
    }
    const outside = await via('198.51.100.77');
    expect(outside.status).toBe(404);
    expect(await outside.text()).not.toContain(phone.tok1);
  });
});

describe('miss throttle', () => {
  it('starts a new allowance once the window has passed', () => {
    let now = 1_000_000;
    const throttle = new MissThrottle(2, 60_000, () => now);
    expect(throttle.miss('192.0.2.1')).toBeUndefined();
    expect(throttle.miss('192.0.2.1')).toBeUndefined();
    now += 15_000;
    expect(throttle.miss('192.0.2.1')).toBe(45);
    expect(throttle.miss('::ffff:192.0.2.1')).toBe(45);
    now += 45_000;
    expect(throttle.miss('192.0.2.1')).toBeUndefined();
  });
});
