import { afterEach, describe, expect, it } from 'vitest';
import { AmiClient } from '../../src/pbx/ami/client.ts';
import { field } from '../../src/pbx/ami/framing.ts';
import { amiPeer } from '../support/ami-peer.ts';

const waitFor = async (what: string, check: () => boolean, ms = 5000) => {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error(`${what}: not reached`);
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('AMI client against a loopback AMI peer', () => {
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

  it('logs in after the banner, collects event lists, and reads command output', async () => {
    const { p, client } = await setup();
    const events: string[] = [];
    client.on('event', (e) => events.push(field(e, 'event') ?? ''));
    client.start();
    await waitFor('connected', () => client.state === 'connected');
    const login = p.actions[0] ?? {};
    expect(field(login, 'action')).toBe('Login');
    expect(field(login, 'username')).toBe('centralino');
    const list = await client.action('PJSIPShowEndpoints');
    expect(list.events.map((e) => field(e, 'objectname'))).toEqual(['201', '202']);
    expect(await client.command('database show DND')).toEqual(['/DND/201 : YES', '1 results found.']);
    await waitFor('FullyBooted', () => events.includes('FullyBooted'));
    // Action ids are unique per action.
    const ids = p.actions.map((a) => field(a, 'actionid'));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('treats refused credentials as fatal instead of retrying in a loop', async () => {
    const { p, client } = await setup('wrong-secret');
    client.start();
    await waitFor('failed', () => client.state === 'failed');
    await new Promise((r) => setTimeout(r, 200));
    expect(p.actions.filter((a) => field(a, 'action') === 'Login')).toHaveLength(1);
    await expect(client.action('Ping')).rejects.toThrow('AMI not connected');
  });

  it('rejects pending actions on disconnect, reconnects with backoff and logs in again', async () => {
    const { p, client } = await setup();
    let ready = 0;
    client.on('ready', () => ready++);
    client.start();
    await waitFor('ready once', () => ready === 1);
    p.dropAll();
    await waitFor('connecting', () => client.state === 'connecting');
    await expect(client.action('Ping')).rejects.toThrow('AMI not connected');
    await waitFor('ready twice', () => ready === 2);
    expect(p.logins()).toBe(2);
    expect((await client.action('PJSIPShowEndpoints')).events).toHaveLength(2);
  });

  it('refuses values with line breaks, which would inject headers', async () => {
    const { client } = await setup();
    client.start();
    await waitFor('connected', () => client.state === 'connected');
    await expect(client.action('DBPut', { Family: 'DND', Key: '201\r\nAction: Command', Val: 'YES' })).rejects.toThrow(
      'line break',
    );
  });

  /**
   * Issue 38: only wrong credentials are a configuration fault (and even those are asked again, slowly);
   * Asterisk refusing everything while it shuts down or restarts, its Shutdown event and a dropped
   * connection are retried with backoff.
   */
  describe('which refusals are retried', () => {
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
});
