import { apiAs, expect, seriousViolations, signIn, test } from './fixtures.ts';

const MAC = '00-15-65-AA-BB-CC';

// Phones are pushed to their vendor's redirect service after being added; here it is a closed local port,
// so every push fails at once and the phones are listed with the URL to enter by hand.
test.use({ serverEnv: { RPS_URL: 'http://127.0.0.1:9' } });

test('add a phone from a pasted list, set its model and delete it', async ({ page }) => {
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Users', exact: true })).toBeVisible();
  await page.goto('/devices/inventory');
  await expect(page.getByRole('heading', { name: 'Phone inventory' })).toBeVisible();
  await expect(page.getByTestId('phones-empty')).toContainText('No phones in the inventory');

  await page.getByRole('button', { name: 'Add phones' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add phones' });
  await expect(dialog.getByRole('button', { name: 'Apply' })).toBeDisabled();
  await dialog.getByLabel('MAC addresses').fill('00:15:65:aa:bb:cc, 12:34:nonsense');
  await dialog.getByRole('button', { name: 'Apply' }).click();
  const pending = dialog.getByTestId('pending-phones');
  await expect(pending).toContainText(MAC);
  await expect(pending).toContainText('Yealink/Dreamwave');
  await expect(pending.getByRole('alert')).toHaveText('Invalid MAC address');

  await dialog.getByRole('button', { name: 'Add 1 phone' }).click();
  await expect(dialog.getByTestId('add-results')).toContainText('1 phone added');
  await expect(dialog.getByTestId('add-results')).toContainText(MAC);
  expect((await apiAs(page, 'GET', '/api/provisioning/v1/phones')).body).toEqual([
    expect.objectContaining({ mac: MAC }),
  ]);
  expect((await apiAs(page, 'GET', '/api/physicalextensions')).body).toEqual([
    // The PBX inventory keeps its own spelling of the MAC.
    expect.objectContaining({ mac: MAC.replaceAll('-', ':'), extension: null, model: null }),
  ]);
  await dialog.getByRole('button', { name: 'Continue' }).click();

  const row = page.getByTestId(`phone-${MAC}`);
  await expect(row).toContainText('Yealink/Dreamwave');
  await expect(page.getByTestId('list-count')).toContainText('1');
  await row.getByRole('combobox', { name: `Model of ${MAC}` }).click();
  await page.getByRole('option', { name: 'Yealink T46G/S/U' }).click();
  await expect(page.getByText(`Model of ${MAC} saved`)).toBeVisible();
  expect((await apiAs(page, 'GET', `/api/provisioning/v1/phones/${MAC}`)).body.model).toBe('yealink-T46');
  expect((await apiAs(page, 'GET', '/api/physicalextensions')).body[0].model).toBe('yealink-T46');
  await page.reload();
  await expect(row.getByRole('combobox', { name: `Model of ${MAC}` })).toHaveValue('Yealink T46G/S/U');

  // A reboot scheduled for the phone goes with it.
  expect((await apiAs(page, 'POST', '/api/phones/reboot', { [MAC]: { hours: '23', minutes: '30' } })).body).toEqual({
    [MAC]: { code: 204 },
  });
  await row.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog', { name: 'Delete phone' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByTestId('phones-empty')).toBeVisible();
  await expect(page.getByText(`Phone ${MAC} deleted`)).toBeVisible();
  await expect(page.getByText('Error canceling delayed reboot')).toHaveCount(0);
  expect((await apiAs(page, 'GET', '/api/phones/reboot')).body).toEqual({});
  expect((await apiAs(page, 'GET', '/api/provisioning/v1/phones')).body).toEqual([]);
  expect((await apiAs(page, 'GET', '/api/physicalextensions')).body).toEqual([]);
});

test('the default settings modal saves the passwords and preferences', async ({ page }) => {
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Users', exact: true })).toBeVisible();
  await page.goto('/devices');
  await expect(page.getByRole('heading', { name: 'Devices' })).toBeVisible();
  const before = (await apiAs(page, 'GET', '/api/provisioning/v1/defaults')).body;
  expect(before.ui_first_config).toBe('1');
  // In the wizard, the devices step goes on once the defaults have been saved.
  const next = page.getByTestId('step-bar').getByRole('button', { name: 'Next' });
  await expect(next).toBeDisabled();

  await page.getByRole('button', { name: 'Edit the default settings' }).click();
  const dialog = page.getByRole('dialog', { name: 'Default settings' });
  // The loading indicator stays a moment (spec: 1500 ms) even though the defaults answer at once.
  await expect(dialog.getByLabel('Loading…')).toBeVisible();
  const userpw = dialog.getByLabel('User password');
  await expect(userpw).toHaveAttribute('type', 'password');
  await expect(userpw).toHaveValue(before.userpw);
  await dialog.getByLabel('Admin password').fill('newadmin1');
  await expect(dialog.getByTestId('adminpw-warning')).toBeVisible();
  // The networks whose phones may fetch their first file without a token: a bad entry is named, and blocks Save.
  const networks = dialog.getByRole('textbox', { name: 'Networks that may provision phones without a token' });
  await networks.fill('192.168.1.0/24, 10.0.0.300');
  await expect(dialog.getByText('“10.0.0.300” is not an IPv4 or IPv6 address or network')).toBeVisible();
  expect(await seriousViolations(page, ['[role="dialog"]'])).toEqual([]);
  await networks.fill('192.168.1.0/24, 2001:db8::/64');
  await dialog.getByRole('button', { name: 'Preferences' }).click();
  await dialog.getByRole('combobox', { name: 'Tone zone' }).click();
  await page.getByRole('option', { name: 'US' }).click();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Default settings saved')).toBeVisible();
  await expect(dialog).toHaveCount(0);
  await expect(next).toBeEnabled();

  const after = (await apiAs(page, 'GET', '/api/provisioning/v1/defaults')).body;
  expect(after).toMatchObject({
    adminpw: 'newadmin1',
    userpw: before.userpw,
    tonezone: 'us',
    ui_first_config: '',
    provisioning_tokenless_networks: '192.168.1.0/24, 2001:db8::/64',
  });
  expect(after.language).toBe(before.language);
});

test('paste three MACs, fix one, add them, and read a phone’s provisioning URL', async ({ page }) => {
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Users', exact: true })).toBeVisible();
  await page.goto('/devices/inventory');
  await expect(page.getByTestId('inventory-help')).toBeVisible();

  await page.getByRole('button', { name: 'Add phones' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add phones' });
  await dialog.getByLabel('MAC addresses').fill('80:5E:C0:11:22:33 nonsense;80-5e-c0-11-22-33');
  await dialog.getByRole('button', { name: 'Apply' }).click();
  const pending = dialog.getByTestId('pending-phones');
  await expect(pending.getByRole('row')).toHaveCount(4);
  await expect(pending.getByRole('alert')).toHaveText(['Invalid MAC address', 'Duplicated MAC address']);
  await expect(dialog.getByRole('button', { name: 'Add 1 phone' })).toBeEnabled();

  // The per-row editor turns the invalid entry into a Snom phone.
  await pending.getByRole('button', { name: 'Edit nonsense' }).click();
  await pending.getByLabel('MAC address in place of nonsense').fill('00:04:13:44:55:66');
  await pending.getByLabel('MAC address in place of nonsense').press('Enter');
  await expect(pending).toContainText('00-04-13-44-55-66');
  await expect(pending).toContainText('Snom');
  await expect(pending.getByRole('alert')).toHaveText(['Duplicated MAC address']);

  // One model for every Yealink phone of the list.
  const toolbar = dialog.getByTestId('apply-to-all');
  await toolbar.getByRole('combobox', { name: 'Vendor' }).click();
  await page.getByRole('option', { name: 'Yealink/Dreamwave' }).click();
  await toolbar.getByRole('combobox', { name: 'Model for all' }).click();
  await page.getByRole('option', { name: 'Yealink T46G/S/U' }).click();
  await toolbar.getByRole('button', { name: 'Apply to all' }).click();
  await expect(pending.getByRole('combobox', { name: 'Model of 80-5E-C0-11-22-33' })).toHaveValue('Yealink T46G/S/U');

  await dialog.getByRole('button', { name: 'Add 2 phones' }).click();
  const results = dialog.getByTestId('add-results');
  await expect(results).toContainText('2 phones added');
  // The redirect service refused both: each is listed with the URL to enter in the phone.
  const pushFailed = dialog.getByTestId('push-failed');
  await expect(pushFailed).toContainText('2 phones could not be added to the provisioning service');
  // Nothing listens at the service's address: each phone says the service was unreachable, not that it refused.
  await expect(pushFailed.getByTestId('push-reason-80-5E-C0-11-22-33')).toHaveText(
    'The vendor’s cloud service could not be reached',
  );
  await expect(pushFailed.getByTestId('push-reason-00-04-13-44-55-66')).toHaveText(
    'The vendor’s cloud service could not be reached',
  );
  await expect(pushFailed).not.toContainText('refused');
  const yealink = (await apiAs(page, 'GET', '/api/provisioning/v1/phones/80-5E-C0-11-22-33')).body;
  expect(yealink.model).toBe('yealink-T46');
  await expect(pushFailed.getByLabel('Provisioning URL of 80-5E-C0-11-22-33', { exact: true })).toHaveText(
    yealink.provisioning_url2,
  );
  await expect(pushFailed.getByRole('button', { name: 'Copy Provisioning URL of 80-5E-C0-11-22-33' })).toBeVisible();
  // The added phones leave the list, and their duplicate with them: nothing is left, so the dialog goes on.
  await expect(pending).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId('list-count')).toContainText('2');

  await page.getByRole('button', { name: 'Info about 80-5E-C0-11-22-33' }).click();
  const info = page.getByRole('dialog', { name: 'Phone 80-5E-C0-11-22-33' });
  await expect(info.getByTestId('phone-info')).toContainText('Yealink/Dreamwave');
  await expect(info.getByTestId('phone-info')).toContainText('Yealink T46G/S/U');
  await expect(info.getByTestId('phone-info')).toContainText('Not linked to a user');
  await expect(info.getByTestId('phone-info')).toContainText('Pending');
  await expect(info.getByLabel('First-access URL', { exact: true })).toHaveText(yealink.provisioning_url1);
  await expect(info.getByLabel('Provisioning URL', { exact: true })).toHaveText(yealink.provisioning_url2);
  await info.getByRole('button', { name: 'Close' }).last().click();

  // The help stays hidden once hidden.
  await page.getByRole('button', { name: 'Hide inventory help' }).click();
  await expect(page.getByTestId('inventory-help')).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId('list-count')).toContainText('2');
  await expect(page.getByTestId('inventory-help')).toHaveCount(0);
  await page.getByRole('button', { name: 'Show inventory help' }).click();
  await expect(page.getByTestId('inventory-help')).toBeVisible();
});

test('default settings cannot be saved while the PBX address is unreachable; saving starts the phonebook', async ({
  page,
}) => {
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Users', exact: true })).toBeVisible();
  await page.goto('/devices');
  const phonebook = (await apiAs(page, 'GET', '/api/phonebook/ldap')).body;
  expect(phonebook.ldaps.enabled).toBe(false);
  // Encryption on (a fresh install without HTTPS listener starts with it off).
  await apiAs(page, 'PATCH', '/api/provisioning/v1/defaults', { provisioning_url_scheme: 'https' });

  await page.getByRole('button', { name: 'Edit the default settings' }).click();
  const dialog = page.getByRole('dialog', { name: 'Default settings' });
  const save = dialog.getByRole('button', { name: 'Save' });
  await expect(save).toBeEnabled();
  const address = dialog.getByRole('textbox', { name: 'PBX address' });
  await expect(address).toHaveAttribute('placeholder', phonebook.ldaps.server);
  // Nothing listens on port 9 of this machine: the real check fails at once.
  await address.fill('127.0.0.1:9');
  await expect(dialog.getByTestId('unreachable-warning')).toContainText('The PBX address is not reachable!');
  await expect(save).toBeDisabled();
  await address.fill('');
  await expect(dialog.getByTestId('unreachable-warning')).toHaveCount(0);
  await expect(save).toBeEnabled();

  // First configuration with encryption: the system LDAPS phonebook, whose service is off until saved.
  await dialog.getByRole('button', { name: 'LDAP phonebook' }).click();
  await expect(dialog.getByRole('combobox', { name: 'Phonebook type' })).toHaveValue('System LDAPS phonebook');
  await expect(dialog.getByTestId('phonebook-disabled')).toBeVisible();
  await expect(dialog.getByLabel('Server address')).toHaveAttribute('placeholder', phonebook.ldaps.server);
  await expect(dialog.getByLabel('Server address')).toBeDisabled();
  await expect(dialog.getByLabel('Port number')).toHaveValue(phonebook.ldaps.port);

  await save.click();
  await expect(dialog.getByTestId('save-status')).toHaveAttribute('aria-label', 'Saved');
  await expect(page.getByText('Default settings saved')).toBeVisible();
  await expect(dialog).toHaveCount(0);
  // Really started: slapd answers on the port phones were given.
  expect((await apiAs(page, 'GET', '/api/phonebook/ldap')).body.ldaps).toMatchObject({
    enabled: true,
    status: 'running',
  });
  expect((await apiAs(page, 'GET', '/api/provisioning/v1/defaults')).body).toMatchObject({
    ui_first_config: '',
    ldap_server: '',
    ldap_port: phonebook.ldaps.port,
    ldap_tls: 'ldaps',
    ldap_user: phonebook.ldaps.user,
  });

  // A custom directory is entered by hand.
  await page.getByRole('button', { name: 'Edit the default settings' }).click();
  await dialog.getByRole('button', { name: 'LDAP phonebook' }).click();
  await expect(dialog.getByRole('combobox', { name: 'Phonebook type' })).toHaveValue('System LDAPS phonebook');
  await expect(dialog.getByTestId('phonebook-disabled')).toHaveCount(0);
  await expect(dialog.getByTestId('phonebook-running')).toContainText(`port ${phonebook.ldaps.port}`);
  expect(await seriousViolations(page, ['[role="dialog"]'])).toEqual([]);
  await dialog.getByRole('combobox', { name: 'Phonebook type' }).click();
  await page.getByRole('option', { name: 'Custom' }).click();
  await dialog.getByLabel('Server address').fill('ldap.example.org');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toHaveCount(0);
  expect((await apiAs(page, 'GET', '/api/provisioning/v1/defaults')).body.ldap_server).toBe('ldap.example.org');
});

test('upload a ringtone through the file modal and remove it', async ({ page }) => {
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Users', exact: true })).toBeVisible();
  await page.goto('/devices');
  await page.getByRole('button', { name: 'Manage files' }).click();
  const dialog = page.getByRole('dialog', { name: 'Ringtones management' });
  await expect(dialog.getByTestId('uploaded-files')).toHaveText('No files uploaded yet');

  await dialog.getByTestId('file-input').setInputFiles({
    name: 'Office-ring(1).mp3',
    mimeType: 'audio/mpeg',
    buffer: Buffer.alloc(3000, 7),
  });
  await expect(page.getByText('File correctly uploaded')).toBeVisible();
  const uploaded = dialog.getByTestId('uploaded-files');
  await expect(uploaded).toContainText('Office-ring(1).mp3');
  await expect(uploaded).toContainText('2.93 KB');
  expect((await apiAs(page, 'GET', '/api/provisioning/v1/ringtones')).body).toEqual([
    expect.objectContaining({ name: 'Office-ring(1).mp3', size: 3000 }),
  ]);

  // A name the phones could not fetch is refused before anything is sent.
  await dialog
    .getByTestId('file-input')
    .setInputFiles({ name: 'my ring!.mp3', mimeType: 'audio/mpeg', buffer: Buffer.alloc(10) });
  await expect(
    page.getByText('my ring!.mp3: only letters, digits and _ - . ( ) are allowed in file names.'),
  ).toBeVisible();
  expect((await apiAs(page, 'GET', '/api/provisioning/v1/ringtones')).body).toHaveLength(1);

  // Other collections have their own list.
  await dialog.getByText('Backgrounds').click();
  const backgrounds = page.getByRole('dialog', { name: 'Background management' });
  await expect(backgrounds.getByTestId('uploaded-files')).toHaveText('No files uploaded yet');
  await backgrounds.getByText('Ringtones').click();

  await dialog.getByRole('button', { name: 'Remove Office-ring(1).mp3' }).click();
  await expect(dialog.getByTestId('uploaded-files')).toHaveText('No files uploaded yet');
  expect((await apiAs(page, 'GET', '/api/provisioning/v1/ringtones')).body).toEqual([]);
  await dialog.getByRole('button', { name: 'Close' }).last().click();
  await expect(dialog).toHaveCount(0);
});

test('schedule a reboot of a phone, see it, cancel it; reboot now says why it cannot', async ({ page }) => {
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Users', exact: true })).toBeVisible();
  const mac = '00-15-65-AA-BB-DD';
  expect((await apiAs(page, 'POST', '/api/provisioning/v1/phones', { mac, model: 'yealink-T46' })).status).toBe(201);
  await apiAs(page, 'POST', '/api/physicalextensions', { mac, model: 'yealink-T46' });
  await page.goto('/devices/inventory');
  const row = page.getByTestId(`phone-${mac}`);

  await row.getByRole('button', { name: `Reboot ${mac}` }).click();
  await page.getByRole('menuitem', { name: 'Schedule a reboot…' }).click();
  const dialog = page.getByRole('dialog', { name: `Scheduled reboot of ${mac}` });
  await dialog.getByLabel('Time').fill('23:30');
  await dialog.getByRole('button', { name: 'Schedule reboot' }).click();
  await expect(page.getByText(`${mac} will reboot at 23:30`)).toBeVisible();
  await expect(row).toContainText('Reboot at 23:30');
  expect((await apiAs(page, 'GET', '/api/phones/reboot')).body).toEqual({ [mac]: { hours: '23', minutes: '30' } });

  await page.reload();
  await row.getByRole('button', { name: `Reboot ${mac}` }).click();
  await page.getByRole('menuitem', { name: 'Cancel scheduled reboot' }).click();
  await expect(page.getByText(`Scheduled reboot of ${mac} cancelled`)).toBeVisible();
  await expect(row).not.toContainText('Reboot at');
  expect((await apiAs(page, 'GET', '/api/phones/reboot')).body).toEqual({});

  // Not linked to a user, the phone has no extension to send the reboot to.
  await row.getByRole('button', { name: `Reboot ${mac}` }).click();
  await page.getByRole('menuitem', { name: 'Reboot now' }).click();
  await expect(page.getByText(`Phone ${mac} not rebooted`)).toBeVisible();
});
