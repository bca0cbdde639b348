import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { callAs, expectError, useTestApp } from '../helpers.ts';

/** A loopback port nothing listens on: the console's AMI client is configured but cannot reach Asterisk. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const port = await closedPort();

describe('actions that need Asterisk now, while it does not answer', () => {
  const t = useTestApp('sqlite', {
    env: { AMI_HOST: '127.0.0.1', AMI_PORT: String(port), AMI_USERNAME: 'centralino', AMI_SECRET: 'not-listening' },
  });
  const call = callAs(t);

  it('say that Asterisk is not answering and that the console reconnects by itself (day/night, time conditions, reboot)', async () => {
    const office = { ext: 0, name: 'Office', day_dest: 'app-blackhole,busy,1', night_dest: 'app-blackhole,hangup,1' };
    expect((await call('POST', '/api/daynight', office)).statusCode).toBe(204);
    const group = await call('POST', '/api/timegroups', {
      name: 'Hours',
      ranges: [{ hours: '09:00-18:00', weekdays: 'mon-fri' }],
    });
    expect(group.statusCode, group.body).toBe(200);
    const tc = await call('POST', '/api/timeconditions', {
      name: 'Office hours',
      time_group_id: group.json().id,
      true_dest: 'app-blackhole,busy,1',
      false_dest: 'app-blackhole,hangup,1',
    });
    expect(tc.statusCode, tc.body).toBeLessThan(300);
    const answers = [
      await call('POST', '/api/daynight/0/state', { state: 'night' }),
      await call('POST', `/api/timeconditions/${tc.json().id}/override`, { override: 'inside' }),
    ];
    for (const res of answers) {
      const body = expectError(res, 503, 'pbx_not_connected');
      expect(body.detail).toMatch(/not answering on its manager interface/);
    }
    // A phone's reboot answers per phone, with the same reason.
    expect((await call('POST', '/api/configuration/mode', { mode: 'legacy' })).statusCode).toBe(200);
    for (let i = 0; i < 200 && (await call('GET', '/api/configuration/userprovider')).json().configured !== 1; i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    expect((await call('POST', '/api/users', { username: 'carol', fullname: 'Carol Verdi' })).statusCode).toBe(201);
    expect((await call('POST', '/api/mainextensions', { username: 'carol', extension: '203' })).statusCode).toBe(201);
    await call('POST', '/api/physicalextensions', { mainextension: '203', mac: '80-5E-C0-00-00-03' });
    const reboot = (await call('POST', '/api/phones/reboot', { '80-5E-C0-00-00-03': {} })).json();
    expect(reboot['80-5E-C0-00-00-03']).toMatchObject({ code: 503, error: 'pbx_not_connected' });
    expect(reboot['80-5E-C0-00-00-03'].detail).toMatch(/not answering on its manager interface/);
    const italian = expectError(
      await call('POST', '/api/daynight/0/state', { state: 'night' }, { 'Accept-Language': 'it' }),
      503,
      'pbx_not_connected',
    );
    expect(italian.detail).toMatch(/non risponde ora sulla sua interfaccia di gestione/);
  });

  it("says in the reader's language that Asterisk has not taken the applied files", async () => {
    const shop = { ext: 1, name: 'Shop', day_dest: 'app-blackhole,busy,1', night_dest: 'app-blackhole,hangup,1' };
    expect((await call('POST', '/api/daynight', shop)).statusCode).toBe(204);
    expect((await call('POST', '/api/pbx/apply')).statusCode).toBe(202);
    // Done when the apply that saw the change has finished (the files are written either way).
    let english = (await call('GET', '/api/pbx/apply')).json();
    for (let i = 0; i < 500 && (english.state !== 'idle' || !english.last); i++) {
      await new Promise((r) => setTimeout(r, 20));
      english = (await call('GET', '/api/pbx/apply')).json();
    }
    expect(english.last.ok).toBe(true);
    expect(english.last.warnings).toEqual([expect.stringMatching(/^Asterisk was not connected over AMI \(/)]);
    const italian = (await call('GET', '/api/pbx/apply', undefined, { 'Accept-Language': 'it-IT,it;q=0.9' })).json();
    expect(italian.last.warnings).toEqual([
      expect.stringMatching(/^Asterisk non era collegato via AMI \(.*\): i file sono scritti e Asterisk li adotta/),
    ]);
  });
});
