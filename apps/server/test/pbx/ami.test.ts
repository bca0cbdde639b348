import { afterEach, describe, expect, it } from 'vitest';
import { AmiClient } from '../../src/pbx/ami/client.ts';
import { field } from '../../src/pbx/ami/framing.ts';
import { amiPeer } from '../support/ami-peer.ts';

const waitFor = async (check: () => boolean, ms = 3000) => {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('AMI client against a loopback AMI peer', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0)) await c();
  });

  async function setup(secret = 'right-secret') {
    const p = amiPeer({ secret: 'right-secret' });
    const port = await p.listen();
    const client = new AmiClient({
      host: '127.0.0.1',
      port,
      username: 'centralino',
      secret,
      reconnectMinMs: 20,
      reconnectMaxMs: 80,
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
    await waitFor(() => client.state === 'connected');
    const login = p.actions[0] ?? {};
    expect(field(login, 'action')).toBe('Login');
    expect(field(login, 'username')).toBe('centralino');
    const list = await client.action('PJSIPShowEndpoints');
    expect(list.events.map((e) => field(e, 'objectname'))).toEqual(['201', '202']);
    expect(await client.command('database show DND')).toEqual(['/DND/201 : YES', '1 results found.']);
    await waitFor(() => events.includes('FullyBooted'));
    // Action ids are unique per action.
    const ids = p.actions.map((a) => field(a, 'actionid'));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('treats refused credentials as fatal instead of retrying in a loop', async () => {
    const { p, client } = await setup('wrong-secret');
    client.start();
    await waitFor(() => client.state === 'failed');
    await new Promise((r) => setTimeout(r, 200));
    expect(p.actions.filter((a) => field(a, 'action') === 'Login')).toHaveLength(1);
    await expect(client.action('Ping')).rejects.toThrow('AMI not connected');
  });

  it('rejects pending actions on disconnect, reconnects with backoff and logs in again', async () => {
    const { p, client } = await setup();
    let ready = 0;
    client.on('ready', () => ready++);
    client.start();
    await waitFor(() => ready === 1);
    p.dropAll();
    await waitFor(() => client.state === 'connecting');
    await expect(client.action('Ping')).rejects.toThrow('AMI not connected');
    await waitFor(() => ready === 2);
    expect(p.logins()).toBe(2);
    expect((await client.action('PJSIPShowEndpoints')).events).toHaveLength(2);
  });

  it('refuses values with line breaks, which would inject headers', async () => {
    const { client } = await setup();
    client.start();
    await waitFor(() => client.state === 'connected');
    await expect(client.action('DBPut', { Family: 'DND', Key: '201\r\nAction: Command', Val: 'YES' })).rejects.toThrow(
      'line break',
    );
  });
});
