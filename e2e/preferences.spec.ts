import { amiPeer } from '../apps/server/test/support/ami-peer.ts';
import { apiAs, expect, signIn, test } from './fixtures.ts';

test('configure one user end to end: profile, voicemail, web phone, a linked phone with encryption', async ({
  page,
}) => {
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Users', exact: true })).toBeVisible();
  expect((await apiAs(page, 'POST', '/api/configuration/mode', { mode: 'legacy' })).status).toBe(200);
  await expect.poll(async () => (await apiAs(page, 'GET', '/api/configuration/userprovider')).body.configured).toBe(1);
  const user = (await apiAs(page, 'POST', '/api/users', { username: 'alice', fullname: 'Alice Rossi' })).body;
  await apiAs(page, 'POST', '/api/users', { username: 'bob', fullname: 'Bob Bianchi' });
  expect((await apiAs(page, 'POST', '/api/mainextensions', { username: 'alice', extension: '201' })).status).toBe(201);
  expect(
    (await apiAs(page, 'POST', '/api/physicalextensions', { mac: '80:5E:C0:12:34:56', model: 'yealink-T46' })).status,
  ).toBe(200);

  await page.goto('/configurations/preferences');
  // Users without an extension have nothing to configure.
  await page.getByRole('combobox', { name: 'Filter' }).click();
  await page.getByRole('option', { name: 'All users' }).click();
  await page.getByRole('button', { name: /Bob Bianchi/ }).click();
  await expect(page.getByText('No main extension')).toBeVisible();
  await page.getByRole('button', { name: /Alice Rossi/ }).click();
  const config = page.getByTestId('config-alice');

  await config.getByRole('combobox', { name: 'CTI profile' }).click();
  await page.getByRole('option', { name: 'Standard' }).click();
  await expect(page.getByText('Profile saved')).toBeVisible();
  expect((await apiAs(page, 'GET', `/api/cti/profiles/users/${user.id}`)).body).toEqual({ id: 2 });

  await config.getByRole('switch', { name: 'Voicemail' }).click({ force: true });
  await expect(config.getByLabel('Saved').first()).toBeVisible();
  expect((await apiAs(page, 'GET', '/api/voicemails/201')).body.pwd).toMatch(/^\d{4}$/);

  await config.getByRole('switch', { name: 'Web Phone' }).click({ force: true });
  await expect(config.getByTestId('device-201')).toContainText('Web phone');

  await config.getByRole('combobox', { name: 'Link a device' }).click();
  // The picker names phones as the inventory does: dash MAC, vendor, model display name.
  await page.getByRole('option', { name: '80-5E-C0-12-34-56 · Yealink/Dreamwave · Yealink T46G/S/U' }).click();
  await config.getByRole('button', { name: 'Link' }).click();
  await expect(page.getByText('Device linked to user successfully')).toBeVisible();
  const phone = config.getByTestId('device-91201');
  await expect(phone).toContainText('Yealink T46G/S/U');
  await expect(phone).toContainText('80-5E-C0-12-34-56');
  await expect(phone.getByRole('button', { name: 'Reconfigure' })).toBeDisabled();

  await phone.getByRole('switch', { name: 'UNENCRYPTED' }).click({ force: true });
  await expect(phone.getByRole('switch', { name: 'ENCRYPTED' })).toBeChecked();
  expect((await apiAs(page, 'GET', '/api/extensions/91201/srtp')).body).toBe(true);

  await phone.getByRole('button', { name: 'Configuration of 91201' }).click();
  const info = page.getByRole('dialog', { name: 'Device 91201' });
  await expect(info).toContainText('5061');
  await expect(info).toContainText('TLS + SRTP');
  await info.getByRole('button').first().click();

  await phone.getByRole('button', { name: 'Unlink 91201' }).click();
  await page.getByRole('dialog', { name: 'Unlink device' }).getByRole('button', { name: 'Unlink' }).click();
  await expect(config.getByTestId('device-91201')).toHaveCount(0);
  const inventory = (await apiAs(page, 'GET', '/api/physicalextensions')).body;
  expect(inventory).toEqual([
    { mac: '80:5E:C0:12:34:56', vendor: 'Yealink/Dreamwave', model: 'yealink-T46', extension: null, user_id: null },
  ]);
});

// The far side of AMI: a loopback peer speaking the protocol, where phone 201 has registered.
const peer = amiPeer({
  secret: 'e2e-ami-secret',
  endpoints: [{ name: '201', state: 'Not in use' }],
  contacts: [{ aor: '201', via: '192.0.2.44:5062', userAgent: 'Yealink SIP-T54W 96.86.0.100' }],
  command: (command) =>
    command.startsWith('pjsip send notify') ? ["Sending NOTIFY of type 'generic-reload' to '201'"] : [],
});
const port = await peer.listen();
// Not closed in a file-level afterAll: with fullyParallel every test is a group of its own, and that hook ran after
// the first test of this file a worker took, leaving the next one's server to dial a closed port. The peer ends with
// the worker.

test.describe('with the PBX connected', () => {
  test.use({
    serverEnv: {
      AMI_HOST: '127.0.0.1',
      AMI_PORT: String(port),
      AMI_USERNAME: 'centralino',
      AMI_SECRET: 'e2e-ami-secret',
    },
  });

  test('a registered phone shows as registered, can be reconfigured, and shows its provisioning URLs', async ({
    page,
  }) => {
    await signIn(page);
    await expect(page.getByRole('heading', { name: 'Users', exact: true })).toBeVisible();
    expect((await apiAs(page, 'POST', '/api/configuration/mode', { mode: 'legacy' })).status).toBe(200);
    await expect
      .poll(async () => (await apiAs(page, 'GET', '/api/configuration/userprovider')).body.configured)
      .toBe(1);
    await apiAs(page, 'POST', '/api/users', { username: 'alice', fullname: 'Alice Rossi' });
    await apiAs(page, 'POST', '/api/mainextensions', { username: 'alice', extension: '201' });
    const mac = '80-5E-C0-12-34-57';
    expect((await apiAs(page, 'POST', '/api/provisioning/v1/phones', { mac, model: 'yealink-T46' })).status).toBe(201);
    await apiAs(page, 'POST', '/api/physicalextensions', { mac, model: 'yealink-T46' });
    expect((await apiAs(page, 'POST', '/api/physicalextensions', { mainextension: '201', mac })).body).toEqual({
      extension: '201',
    });

    // The console connects to the PBX in the background after it starts; the page shows what it knows.
    await expect
      .poll(async () => (await apiAs(page, 'GET', '/api/astproxy/extensions')).status, { timeout: 90_000 })
      .toBe(200);
    await page.goto('/configurations/preferences');
    await page.getByRole('button', { name: /Alice Rossi/ }).click();
    const phone = page.getByTestId('config-alice').getByTestId('device-201');
    await expect(phone).toContainText('Registered');
    // Reconfigure: the phone's configuration is prepared (POST /api/devices/phones/provision), then the phone
    // is told to fetch it.
    const provisioned = () =>
      page.waitForResponse(
        (res) => res.url().endsWith('/api/devices/phones/provision') && res.request().method() === 'POST',
      );
    let provision = provisioned();
    await phone.getByRole('button', { name: 'Reconfigure 201' }).click();
    expect((await provision).status()).toBe(200);
    const answer = (await (await provision).json()) as { mac: string; model: string };
    expect(answer.model).toBe('yealink-T46');
    expect(answer.mac.replace(/[:-]/g, '').toUpperCase()).toBe(mac.replace(/-/g, ''));
    await expect(phone.getByLabel('Reconfigured')).toBeVisible();
    const notify = 'pjsip send notify generic-reload endpoint 201';
    expect(peer.commands()).toContain(notify);

    // The engine's copy of the phone drifts from the inventory (another model): Reconfigure devices puts the
    // inventory's model back in the engine before the phone fetches its configuration.
    expect((await apiAs(page, 'PATCH', `/api/provisioning/v1/phones/${mac}`, { model: 'yealink-T54' })).status).toBe(
      200,
    );
    const notifiesBefore = peer.commands().filter((c) => c === notify).length;
    provision = provisioned();
    await page.getByTestId('config-alice').getByRole('button', { name: 'Reconfigure devices' }).click();
    expect((await provision).status()).toBe(200);
    await expect(page.getByText('1 device reconfigured')).toBeVisible();
    expect((await apiAs(page, 'GET', `/api/provisioning/v1/phones/${mac}`)).body.model).toBe('yealink-T46');
    expect(peer.commands().filter((c) => c === notify).length).toBe(notifiesBefore + 1);

    await phone.getByRole('button', { name: 'Configuration of 201' }).click();
    const info = page.getByRole('dialog', { name: 'Device 201' });
    await expect(info).toContainText('Provisioning URL');
    await expect(info).toContainText(/https?:\/\/\S+\/provisioning\/[0-9a-f]{32}/);
  });
});
