import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AsteriskLab, type SippRun, skipReason, startAsteriskLab, startProvider } from '../support/asterisk.ts';

/**
 * Outbound failover when the first provider goes silent (issue 38): it accepts REGISTER and qualify
 * OPTIONS but never answers an INVITE. Asterisk's INVITE transaction times out (32 s, which it calls
 * cause 18 "no answer"); since no SIP response came from that trunk, the route tries its next trunk.
 */

type Status = { state: string; last: { ok: boolean; error: string | null } | null };

const PROVIDERS = ['sip.vivavox.it', 'sip.wicity.it'];
/** The route's timeout: sub-dial-trunk's Dial rings a trunk at most TRUNK_RING_TIMER seconds. */
const ROUTE_TIMEOUT_S = 300;

describe.skipIf(skipReason !== '')('outbound failover past a silent provider', { timeout: 120_000 }, () => {
  let lab: AsteriskLab;
  let silent: SippRun;
  let answering: SippRun;

  beforeAll(async () => {
    lab = await startAsteriskLab({ providers: PROVIDERS });
    silent = startProvider(lab, PROVIDERS[0] as string, 'provider-silent.xml');
    answering = startProvider(lab, PROVIDERS[1] as string, 'provider-answer.xml');
  }, 180_000);

  afterAll(async () => {
    await lab?.close();
  }, 60_000);

  it('reaches the second provider within the route timeout when the first never answers the INVITE', async () => {
    const trunkIds: number[] = [];
    for (const [provider, name, account] of [
      ['vivavox', 'first', '0721000001'],
      ['wicity', 'second', '0721000002'],
    ] as const) {
      const created = await lab.api<{ trunkid: number }>('POST', '/api/trunks', {
        provider,
        name,
        username: account,
        password: `${name}-secret`,
        phone: account,
        codecs: ['alaw', 'ulaw'],
        forceCodec: true,
      });
      expect(created.status, JSON.stringify(created.body)).toBeLessThan(300);
      trunkIds.push(created.body.trunkid);
    }
    const route = await lab.api('POST', '/api/outboundroutes/route', {
      name: 'national',
      outcid: '0721000001',
      emergency: false,
      patterns: [{ prepend: '', prefix: '', match_pattern: '0ZXXXXX.', match_cid: '' }],
      trunks: trunkIds,
    });
    expect(route.status, JSON.stringify(route.body)).toBeLessThan(300);
    await lab.until(
      'the apply',
      async () => {
        const s = (await lab.api<Status>('GET', '/api/pbx/apply')).body;
        return s.state === 'idle' && s.last?.ok && (await lab.rx('dialplan show outbound-allroutes')).includes('outrt-')
          ? s
          : undefined;
      },
      90_000,
    );
    // Both providers accept the registration: the silent one looks healthy to qualify and REGISTER.
    await lab.until(
      'both trunks to register',
      async () => ((await lab.rx('pjsip show registrations')).match(/Registered/g) ?? []).length >= 2,
    );

    // The caller: a Local channel answered at once (CLI originate gives up on an unanswered channel after
    // 30 s, before the 32 s INVITE timeout), whose other end dials the number through the routes.
    await lab.rx('dialplan add extension s,1,Answer() into test-hold');
    await lab.rx('dialplan add extension s,2,Wait(90) into test-hold');
    await lab.rx('module load res_clioriginate.so');
    const started = Date.now();
    await lab.rx('channel originate Local/s@test-hold extension 0612345678@outbound-allroutes');
    await lab.until(
      'the first (silent) provider to get the INVITE',
      async () => silent.requests().includes('INVITE'),
      10_000,
    );
    await lab
      .until('the second provider to get the INVITE', async () => answering.requests().includes('INVITE'), 60_000)
      .catch((e) => {
        throw new Error(
          `${e}\n${lab
            .messages()
            .split('\n')
            .filter((l) => /sub-dial-trunk|outrt-|Dial|WARNING|ERROR/.test(l))
            .slice(-20)
            .join('\n')}`,
        );
      });
    const elapsed = (Date.now() - started) / 1000;
    console.log(`second provider reached after ${elapsed.toFixed(1)} s`);
    expect(elapsed).toBeLessThan(ROUTE_TIMEOUT_S);
    // The silent provider never sent a thing: it received INVITEs (retransmissions) and no ACK.
    expect(silent.requests()).not.toContain('ACK');
    await lab.rx('channel request hangup all');
  });
});
