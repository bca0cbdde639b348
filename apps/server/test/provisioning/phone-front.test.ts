import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lookupId } from '../../src/config.ts';
import { DB_KINDS, useTestApp } from '../helpers.ts';
import { frontSample, NGINX, type RunningNginx, startNginx } from '../support/nginx.ts';
import { freePort } from '../support/slapd.ts';

const V1 = '/api/provisioning/v1';
const isRoot = process.getuid?.() === 0;
// As root, nginx's workers run as www-data and read the files through PHONE_FILES_GROUP, as on a real install.
const GROUP = isRoot && lookupId('group', 'www-data') !== null ? 'www-data' : undefined;

const YEALINK = '00-15-65-AA-BB-CC';
const FILE = '001565aabbcc.cfg';
const UA = 'Yealink SIP-T46S 66.86.0.15 00:15:65:aa:bb:cc';

// As the service runs (main.ts keeps its data files private with umask 077): the files for nginx must still reach
// its group. Set for this file only: a worker runs one file at a time.
const umask = process.umask(0o077);
afterAll(() => {
  process.umask(umask);
});

describe.skipIf(!fs.existsSync(NGINX)).each(DB_KINDS)('phone files from a front web server (%s)', (kind) => {
  // Somewhere nginx's workers may enter: mkdtemp makes 0700 folders.
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'centralino-front-'));
  fs.chmodSync(parent, 0o711);
  const root = path.join(parent, 'phone-files');
  // nginx logs first steady-state fetches there (the README's place for it).
  const firstUseLog = path.join(root, 'first-use.log');
  const env: Record<string, string> = {
    TFTP_PORT: '0',
    PHONE_FILES_DIR: root,
    PHONE_FILES_FIRST_USE_LOG: firstUseLog,
    ...(GROUP ? { PHONE_FILES_GROUP: GROUP } : {}),
  };
  const t = useTestApp(kind, { env });
  let nginx: RunningNginx | undefined;
  let front = '';
  afterAll(async () => {
    await nginx?.stop();
    fs.rmSync(parent, { recursive: true, force: true });
  });

  const api = async (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) => {
    const res = await t.app.inject({
      method,
      url,
      headers: t.headers,
      ...(payload ? { payload: payload as object } : {}),
    });
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
    return res.body ? res.json() : undefined;
  };
  const phoneFetch = async (urlPath: string) => {
    const res = await fetch(`${front}${urlPath}`, { headers: { 'user-agent': UA } });
    // nginx's own answers carry the sample's policy; Centralino's (through the proxy) carry the console's.
    const fromDisk = res.headers.get('content-security-policy') === "default-src 'none'";
    return { status: res.status, body: await res.text(), fromDisk, type: res.headers.get('content-type') };
  };
  const onDisk = (...parts: string[]) => path.join(root, 'provisioning', ...parts);
  const onFirstDisk = (...parts: string[]) => path.join(root, 'provisioning-first', ...parts);
  /** The background renderer writes files a moment after a change; wait for it, no fixed sleep. */
  const waitFor = async (check: () => boolean, what: string) => {
    for (let i = 0; i < 400 && !check(); i++) await new Promise((r) => setTimeout(r, 25));
    expect(check(), what).toBe(true);
  };
  let phone: { tok1: string; tok2: string };

  it('starts behind nginx with the README sample', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as AddressInfo).port;
    const nginxPort = await freePort();
    front = `http://127.0.0.1:${nginxPort}`;
    nginx = await startNginx({
      servers: frontSample(root, nginxPort, port, firstUseLog),
      probeUrl: `${front}/api/health`,
      user: isRoot ? 'www-data' : undefined,
    });
    // The console itself goes through the proxy.
    const health = await fetch(`${front}/api/health`);
    expect(health.status).toBe(200);
  });

  it('serves a phone its first-access file and its first steady-state fetch from disk; the report retires tok1', async () => {
    await api('PATCH', `${V1}/defaults`, { hostname: 'pbx.example.com', adminpw: 'webadmin99', ui_first_config: '' });
    phone = await api('POST', `${V1}/phones`, { mac: YEALINK, model: 'yealink-T46' });
    await t.app.provisioning.setPhoneAccounts(YEALINK, [
      { extension: '91201', secret: 'Sip-Secret-201', displayName: 'Mario Rossi <201>', srtp: false },
    ]);
    await waitFor(() => fs.existsSync(onDisk(phone.tok1, FILE)), 'the tok1 file is written for nginx');
    // The steady-state file waits in provisioning-first: nginx reports its first fetch, which retires tok1.
    await waitFor(() => fs.existsSync(onFirstDisk(phone.tok2, FILE)), 'the tok2 file is written for its first fetch');
    expect(fs.existsSync(onDisk(phone.tok2, FILE))).toBe(false);

    const first = await phoneFetch(`/provisioning/${phone.tok1}/${FILE}`);
    expect(first).toMatchObject({ status: 200, fromDisk: true, type: 'text/plain; charset=utf-8' });
    expect(first.body).toContain('account.1.password = Sip-Secret-201');
    expect(first.body).toContain(`/provisioning/${phone.tok2}`);

    const steady = await phoneFetch(`/provisioning/${phone.tok2}/${FILE}`);
    expect(steady).toMatchObject({ status: 200, fromDisk: true, type: 'text/plain; charset=utf-8' });
    expect(steady.body).toContain('account.1.password = Sip-Secret-201');
    // The report arrives a moment later: tok1 goes, on disk too, and the file moves to the served tree.
    await waitFor(() => !fs.existsSync(onDisk(phone.tok1)), 'tok1 is retired on the report');
    expect((await phoneFetch(`/provisioning/${phone.tok1}/${FILE}`)).status).toBe(404);
    expect((await api('GET', `${V1}/phones/${YEALINK}`)).tok1).toBeNull();
    // The file moves at the next pause in reports (so that a storm's renames do not compete with nginx).
    await waitFor(() => fs.existsSync(onDisk(phone.tok2, FILE)), 'the file moves to the served tree');
    expect(fs.existsSync(onFirstDisk(phone.tok2))).toBe(false);
    const again = await phoneFetch(`/provisioning/${phone.tok2}/${FILE}`);
    expect(again).toMatchObject({ status: 200, fromDisk: true, body: steady.body });
  });

  it('without a report (a line lost, no file yet) the first steady-state fetch reaches Centralino, which retires tok1 at once', async () => {
    await api('POST', `${V1}/phones/${YEALINK}/tok1`);
    const renewed = (await api('GET', `${V1}/phones/${YEALINK}`)).tok1 as string;
    await waitFor(() => fs.existsSync(onDisk(renewed, FILE)), 'the new tok1 file is written for nginx');
    expect((await phoneFetch(`/provisioning/${renewed}/${FILE}`)).fromDisk).toBe(true);
    // As if nginx had never found the file there.
    await waitFor(() => fs.existsSync(onFirstDisk(phone.tok2, FILE)), 'the tok2 file waits for its first fetch');
    fs.rmSync(onFirstDisk(phone.tok2), { recursive: true });
    const steady = await phoneFetch(`/provisioning/${phone.tok2}/${FILE}`);
    expect(steady).toMatchObject({ status: 200, fromDisk: false });
    expect(fs.existsSync(onDisk(renewed))).toBe(false);
    expect((await phoneFetch(`/provisioning/${renewed}/${FILE}`)).status).toBe(404);
    await waitFor(() => fs.existsSync(onDisk(phone.tok2, FILE)), 'the steady-state file is written for nginx');
    expect((await phoneFetch(`/provisioning/${phone.tok2}/${FILE}`)).fromDisk).toBe(true);
  });

  it('writes the files private to the service and the front server’s group, token folders not listable', () => {
    const dirMode = GROUP ? 0o710 : 0o700;
    const fileMode = GROUP ? 0o640 : 0o600;
    for (const dir of [root, onDisk(), onFirstDisk(), onDisk(phone.tok2)]) {
      expect((fs.statSync(dir).mode & 0o777).toString(8), dir).toBe(dirMode.toString(8));
    }
    const file = fs.statSync(onDisk(phone.tok2, FILE));
    expect((file.mode & 0o777).toString(8)).toBe(fileMode.toString(8));
    if (GROUP) expect(file.gid).toBe(lookupId('group', GROUP));
    // The first-use log lists tokens: the service's alone (nginx's master, root, appends to it).
    expect((fs.statSync(firstUseLog).mode & 0o777).toString(8)).toBe('600');
    expect(fs.readFileSync(firstUseLog, 'utf8')).not.toContain('/provisioning/');
  });

  it('never serves a stale file: a change reaches the very next fetch', async () => {
    await t.app.provisioning.setPhoneAccounts(YEALINK, [
      { extension: '91201', secret: 'Sip-Secret-NEW', displayName: 'Mario Rossi <201>', srtp: false },
    ]);
    const changed = await phoneFetch(`/provisioning/${phone.tok2}/${FILE}`);
    expect(changed.status).toBe(200);
    expect(changed.body).toContain('account.1.password = Sip-Secret-NEW');
    expect(changed.body).not.toContain('Sip-Secret-201');
    await waitFor(() => fs.existsSync(onDisk(phone.tok2, FILE)), 'the new file is written again');
    expect(fs.readFileSync(onDisk(phone.tok2, FILE), 'utf8')).toContain('Sip-Secret-NEW');

    // A change to the defaults (every phone's files) too.
    await api('PATCH', `${V1}/defaults`, { adminpw: 'webadmin42' });
    const defaults = await phoneFetch(`/provisioning/${phone.tok2}/${FILE}`);
    expect(defaults.body).toContain('static.security.user_password = admin:webadmin42');
  });

  it('never puts a token-less file on disk: Centralino answers it, after the client’s address', async () => {
    // Not in the allowed networks (none by default): as for an unknown phone.
    expect(await phoneFetch(`/provisioning/${FILE}`)).toMatchObject({ status: 404, fromDisk: false });
    // nginx tells Centralino the client: allowed, it gets the file with the credentials blanked.
    await api('PATCH', `${V1}/defaults`, { provisioning_tokenless_networks: '127.0.0.1' });
    const first = await phoneFetch(`/provisioning/${FILE}`);
    expect(first).toMatchObject({ status: 200, fromDisk: false });
    expect(first.body).toContain('account.1.password = \n');
    expect(first.body).not.toContain('Sip-Secret-NEW');
    expect(first.body).not.toContain(phone.tok2);
    // Written files (the phone's steady-state one) are on disk again; the token-less one is not.
    await waitFor(() => fs.existsSync(onDisk(phone.tok2, FILE)), 'the steady-state file is written again');
    expect(fs.existsSync(onDisk(FILE))).toBe(false);
    const second = await phoneFetch(`/provisioning/${FILE}`);
    expect(second).toMatchObject({ status: 200, fromDisk: false, body: first.body });
    expect(fs.existsSync(onDisk(FILE))).toBe(false);
    await api('PATCH', `${V1}/defaults`, { provisioning_tokenless_networks: '' });
    expect(await phoneFetch(`/provisioning/${FILE}`)).toMatchObject({ status: 404, fromDisk: false });
  });

  it('leaves unknown tokens and path tricks to Centralino, which refuses them', async () => {
    for (const urlPath of [
      `/provisioning/00000000000000000000000000000000/${FILE}`,
      `/provisioning/${phone.tok2}/../../phone-files/provisioning/${FILE}`,
      `/provisioning/${phone.tok2}/`,
      '/provisioning/',
      `/provisioning/${phone.tok2}.old/${FILE}`,
    ]) {
      const res = await phoneFetch(urlPath);
      expect(res.status, urlPath).toBe(404);
      expect(res.body, urlPath).not.toContain('Sip-Secret');
    }
    // nginx resolves an encoded '..' before looking on disk, where no token-less file is: Centralino refuses it.
    const dotted = await phoneFetch(`/provisioning/${phone.tok2}/..%2f${FILE}`);
    expect(dotted).toMatchObject({ status: 404, fromDisk: false });
    expect(dotted.body).not.toContain('Sip-Secret');
    // The first-use log sits in the served folder's root, out of every path nginx serves from disk.
    expect(fs.readFileSync(firstUseLog, 'utf8')).toContain('/provisioning-first/');
    for (const urlPath of ['/provisioning/..%2ffirst-use.log', `/provisioning/${phone.tok2}/..%2f..%2ffirst-use.log`]) {
      const res = await phoneFetch(urlPath);
      expect(res.body, urlPath).not.toContain('/provisioning-first/');
      expect(res.fromDisk, urlPath).toBe(false);
    }
  });

  it('writes the first file of a phone without a model ahead, unless its maker leaves the template to the user agent', async () => {
    // Grandstream's MAC settles the template: rendered before the phone asks, and on disk.
    const grandstream = await api('POST', `${V1}/phones`, { mac: '00-0B-82-00-00-09' });
    await t.app.provisioning.setPhoneAccounts('00-0B-82-00-00-09', [
      { extension: '91209', secret: 'Gs-Secret-209', displayName: 'Gina <209>', srtp: false },
    ]);
    const gsFile = 'cfg000b82000009.xml';
    await waitFor(() => fs.existsSync(onDisk(grandstream.tok1, gsFile)), 'the Grandstream file is written ahead');
    const gs = await phoneFetch(`/provisioning/${grandstream.tok1}/${gsFile}`);
    expect(gs).toMatchObject({ status: 200, fromDisk: true });
    expect(gs.body).toContain('<item name="account.1.sip.subscriber.password">Gs-Secret-209</item>');

    // A snom MAC may be a Gigaset P-series, told apart by the user agent: never on disk, rendered per request.
    const snom = await api('POST', `${V1}/phones`, { mac: '00-04-13-00-00-09' });
    await t.app.provisioning.setPhoneAccounts('00-04-13-00-00-09', [
      { extension: '91210', secret: 'Snom-Secret-210', displayName: 'Sara <210>', srtp: false },
    ]);
    const asGigaset = await fetch(`${front}/provisioning/${snom.tok2}/000413000009.xml`, {
      headers: { 'user-agent': 'Gigaset N670 IP PRO/83.V2.39.0+build.a546b3d' },
    });
    const asSnom = await fetch(`${front}/provisioning/${snom.tok2}/000413000009.xml`, {
      headers: { 'user-agent': 'snomD785/10.1.54.13' },
    });
    expect(asGigaset.status).toBe(200);
    expect(asSnom.status).toBe(200);
    const [gigasetBody, snomBody] = [await asGigaset.text(), await asSnom.text()];
    expect(gigasetBody).toContain('<user_pass idx="1" perm="RW">Snom-Secret-210</user_pass>');
    expect(snomBody).not.toBe(gigasetBody);
    expect(fs.existsSync(onDisk(snom.tok2))).toBe(false);
  });

  it('forgets a deleted phone at once', async () => {
    await api('DELETE', `${V1}/phones/${YEALINK}`);
    expect((await phoneFetch(`/provisioning/${phone.tok2}/${FILE}`)).status).toBe(404);
    expect((await phoneFetch(`/provisioning/${FILE}`)).status).toBe(404);
    expect(fs.existsSync(onDisk(phone.tok2))).toBe(false);
  });
});
