import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AsteriskLab, deviceSecrets, seedLocalUsers, skipReason, startAsteriskLab } from '../support/asterisk.ts';

/**
 * What an apply reports must be what the running Asterisk does: a transport it did not create is a
 * warning, and an apply that needs a restart waits for it and records the outcome.
 */

type Status = {
  state: string;
  engine: string;
  last: {
    ok: boolean;
    error: string | null;
    warnings: string[];
    restartRequired: boolean;
    changed: string[];
    startedAt: number;
  } | null;
};

describe.skipIf(skipReason !== '')('applying to a real Asterisk', { timeout: 120_000 }, () => {
  let lab: AsteriskLab;
  let cert = '';
  let key = '';

  /** Waits until nothing waits to be applied and the last apply is the one `wanted` recognises. */
  const applied = (wanted: (last: NonNullable<Status['last']>) => boolean = () => true) =>
    lab.until(
      'the apply',
      async () => {
        const s = (await lab.api<Status>('GET', '/api/pbx/apply')).body;
        return s.state === 'idle' && s.last && wanted(s.last) ? s : undefined;
      },
      90_000,
    );
  const uptime = async () => Number(/System uptime:\s+(\d+)/.exec(await lab.rx('core show uptime seconds'))?.[1]);

  beforeAll(async () => {
    lab = await startAsteriskLab({
      // A certificate Asterisk cannot read: only root may (as when the key was copied without its group).
      env: (root) => {
        cert = path.join(root, 'unreadable.crt');
        key = path.join(root, 'unreadable.key');
        execFileSync(
          'openssl',
          [
            'req',
            '-x509',
            '-newkey',
            'rsa:2048',
            '-nodes',
            '-days',
            '2',
            '-subj',
            '/CN=pbx.test',
            '-keyout',
            key,
            '-out',
            cert,
          ],
          { stdio: 'ignore' },
        );
        fs.chmodSync(cert, 0o600);
        fs.chmodSync(key, 0o600);
        return { ASTERISK_TLS_CERT: cert, ASTERISK_TLS_KEY: key };
      },
    });
  }, 180_000);

  afterAll(async () => {
    await lab?.close();
  }, 60_000);

  it('reports the TLS transport and the WSS listener Asterisk did not create', async () => {
    expect(await lab.rx('pjsip show transports')).not.toContain('transport-tls');
    // The console connected after Asterisk booted; the FullyBooted event asks for an apply that checks.
    const status = await applied();
    expect(status.engine).toBe('connected');
    expect(status.last?.ok).toBe(true);
    expect(status.last?.warnings).toEqual([
      expect.stringMatching(/^Asterisk did not create the SIP transport transport-tls: check that its certificate/),
      expect.stringMatching(/^Asterisk's HTTPS listener for web phones \(WSS, port 8089\) is not running/),
    ]);
  });

  it('waits for the restart a transport change needs, and records what Asterisk then runs', async () => {
    // The certificate is made readable by Asterisk's group; it takes effect only with a restart.
    execFileSync('chgrp', ['asterisk', cert, key]);
    fs.chmodSync(cert, 0o640);
    fs.chmodSync(key, 0o640);
    const before = await uptime();
    const since = Date.now();
    const res = await lab.api('POST', '/api/configuration/localnetworks', [
      { net: '192.168.5.0', mask: '255.255.255.0' },
    ]);
    expect(res.status).toBe(200);
    const status = await applied((last) => last.startedAt >= since && last.changed.length > 0);
    expect(status.last?.changed).toContain('pjsip.transports.conf');
    expect(status.last?.restartRequired).toBe(true);
    expect(status.last?.ok, status.last?.error ?? '').toBe(true);
    expect(status.last?.warnings).toEqual([]);
    expect(status.engine).toBe('connected');
    // Asterisk really restarted, with the new transport settings and the certificate.
    expect(await uptime()).toBeLessThan(before + (Date.now() - since) / 1000);
    expect(await lab.rx('pjsip show transport transport-udp')).toMatch(/local_net\s+:\s+192\.168\.5\.0\//);
    expect(await lab.rx('pjsip show transports')).toContain('transport-tls');
    const problems = lab
      .messages()
      .split('\n')
      .filter((l) => /\b(WARNING|ERROR)\[/.test(l) && !/unreadable\.(crt|key)|tls|TLS|SSL|ssl|certificate/i.test(l));
    expect(problems).toEqual([]);
  });

  it('lets a restart wait for the call in progress, keeps live state working meanwhile, and records the restart once it happened', async () => {
    const api = async (method: string, url: string, body?: unknown) => {
      const res = await lab.api(method, url, body);
      expect(res.status, `${method} ${url}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
      return res.body;
    };
    await seedLocalUsers(lab, [
      ['alice', '201'],
      ['bob', '202'],
    ]);
    const secrets = await deviceSecrets(lab, ['201', '202']);
    await applied((last) => last.changed.length === 0 || last.changed.includes('pjsip.users.2xx.conf'));
    await lab.until('201 in Asterisk', async () => /Endpoint:\s+201\b/.test(await lab.rx('pjsip show endpoints')));
    lab.sipp({
      scenario: 'register.xml',
      ooc: 'phone-ring.xml',
      keep: true,
      args: ['-s', '201', '-au', '201', '-ap', secrets['201'] as string, '-m', '1'],
      remote: '127.0.0.1:5060',
    });
    await lab.until('201 to register', async () => /Avail/.test(await lab.rx('pjsip show contacts like 201')));
    // Bob calls Alice, whose phone rings on: a call is up.
    const caller = lab.sipp({
      scenario: 'call.xml',
      args: ['-s', '201', '-au', '202', '-ap', secrets['202'] as string, '-key', 'from_user', '202', '-m', '1'],
      remote: '127.0.0.1:5060',
    });
    await lab.until('the call', async () => /^[1-9]\d* active call/m.test(await lab.rx('core show channels count')));

    const since = Date.now();
    await api('POST', '/api/configuration/localnetworks', [{ net: '10.99.0.0', mask: '255.255.0.0' }]);
    const waiting = await applied((last) => last.startedAt >= since && last.changed.includes('pjsip.transports.conf'));
    expect(waiting.last?.ok).toBe(true);
    expect(waiting.last?.warnings).toEqual([
      "Asterisk restarts once no call is up: changes to transports, modules or the web phones' listener wait for it",
    ]);
    // The console's own AMI session is not held up by the waiting restart.
    const live = await lab.api<{ status: string }>('GET', '/api/astproxy/extension/201');
    expect(live.status).toBe(200);
    expect(await lab.rx('pjsip show transport transport-udp')).not.toContain('10.99.0.0');

    // The call ends: Asterisk restarts at once, and the next apply finds the restart done.
    const hungUp = Date.now();
    await lab.rx('channel request hangup all');
    expect(await caller.done).toBe(0);
    const after = await applied((last) => last.startedAt >= hungUp && last.warnings.length === 0);
    expect(after.engine).toBe('connected');
    expect(await lab.rx('pjsip show transport transport-udp')).toMatch(/local_net\s+:\s+10\.99\.0\.0\//);
    expect(await uptime()).toBeLessThanOrEqual(Math.ceil((Date.now() - hungUp) / 1000));
  });

  it("reports a trunk whose provider's host does not resolve: Asterisk drops how it recognises its calls", async () => {
    const since = Date.now();
    // No DNS name of this lab is sip.vivavox.it: it does not resolve.
    const res = await lab.api('POST', '/api/trunks', {
      provider: 'vivavox',
      name: 'unresolved',
      username: '0721000009',
      password: 'provider-9-secret',
      phone: '0721000009',
      codecs: ['alaw'],
      forceCodec: true,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const status = await applied((last) => last.startedAt >= since && last.changed.includes('pjsip.trunks.conf'));
    expect(status.last?.ok, status.last?.error ?? '').toBe(true);
    expect(status.last?.warnings).toEqual([
      'Asterisk did not load how it recognises calls from trunk unresolved: check that its host sip.vivavox.it resolves (see its log); incoming calls from this provider are refused meanwhile',
    ]);
    expect(await lab.rx('pjsip show identifies')).not.toContain('unresolved/');
  });
});
