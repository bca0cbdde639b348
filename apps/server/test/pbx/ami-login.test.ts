import { afterEach, describe, expect, it } from 'vitest';
import { AmiClient } from '../../src/pbx/ami/client.ts';
import { field } from '../../src/pbx/ami/framing.ts';
import { amiPeer } from '../support/ami-peer.ts';

/**
 * Issue 38: only wrong credentials are a configuration fault (and even those are asked again, slowly);
 * Asterisk refusing everything while it shuts down or restarts, its Shutdown event and a dropped
 * connection are retried with backoff.
 */

const waitFor = async (what: string, check: () => boolean, ms = 5000) => {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error(`${what}: not reached`);
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('AMI client: which refusals are retried', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0)) await c();
  });

  async function setup(secret = 'right-secret', authRetryMs = 30_000) {
    const p = amiPeer({ secret: 'right-secret' });
    const port = await p.listen();
    const client = new AmiClient({
      host: '127.0.0.1',
      port,
      username: 'centralino',
      secret,
      reconnectMinMs: 20,
      reconnectMaxMs: 80,
      authRetryMs,
    });
    cleanups.push(async () => {
      await client.stop();
      await p.close();
    });
    return { p, client };
  }
  const logins = (p: ReturnType<typeof amiPeer>) => p.actions.filter((a) => field(a, 'action') === 'Login').length;

  it("keeps logging in while Asterisk answers 'shutting down', and is connected once it is back", async () => {
    const { p, client } = await setup();
    p.shuttingDown(true);
    client.start();
    await waitFor('three refused logins', () => logins(p) >= 3);
    expect(client.state).toBe('connecting');
    expect(client.authFailed).toBe(false);
    expect(client.lastError).toBe('Asterisk is shutting down');
    p.shuttingDown(false);
    await waitFor('connected', () => client.state === 'connected');
    expect(client.lastError).toBeUndefined();
  });

  it("drops a connected link whose actions are refused 'shutting down' and reconnects after the restart", async () => {
    const { p, client } = await setup();
    client.start();
    await waitFor('connected', () => client.state === 'connected');
    const before = p.logins();
    p.shuttingDown(true);
    await expect(client.action('Ping')).rejects.toThrow('Asterisk is shutting down');
    await waitFor('link down', () => client.state === 'connecting');
    await waitFor('a refused login', () => logins(p) > before + 1);
    p.shuttingDown(false);
    await waitFor('connected again', () => client.state === 'connected' && p.logins() > before);
  });

  it('treats a Shutdown event as the link going down and reconnects', async () => {
    const { p, client } = await setup();
    client.start();
    await waitFor('connected', () => client.state === 'connected');
    const states: string[] = [];
    client.on('state', (s) => states.push(s));
    p.event({ Event: 'Shutdown', Privilege: 'system,all', Shutdown: 'Cleanly', Restart: 'True' });
    await waitFor('reconnected', () => states.includes('connecting') && client.state === 'connected');
    expect(p.logins()).toBe(2);
  });

  it('is failed on wrong credentials, asks again slowly, and heals once they are right', async () => {
    const { p, client } = await setup('new-secret', 150);
    client.start();
    await waitFor('failed', () => client.state === 'failed');
    expect(client.authFailed).toBe(true);
    expect(client.lastError).toBe('Authentication failed');
    await waitFor('a second login', () => logins(p) >= 2);
    // Still failed while it asks again: the screens keep saying why.
    expect(client.state).toBe('failed');
    p.setSecret('new-secret');
    await waitFor('connected', () => client.state === 'connected', 3000);
    expect(client.authFailed).toBe(false);
  });
});
