import { apiAs, expect, signIn, test } from './fixtures.ts';

const MAC = '00-15-65-AA-BB-CC';

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

  await row.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog', { name: 'Delete phone' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByTestId('phones-empty')).toBeVisible();
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
  const userpw = dialog.getByLabel('User password');
  await expect(userpw).toHaveAttribute('type', 'password');
  await expect(userpw).toHaveValue(before.userpw);
  await dialog.getByLabel('Admin password').fill('newadmin1');
  await expect(dialog.getByTestId('adminpw-warning')).toBeVisible();
  await dialog.getByRole('button', { name: 'Preferences' }).click();
  await dialog.getByRole('combobox', { name: 'Tone zone' }).click();
  await page.getByRole('option', { name: 'US' }).click();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Default settings saved')).toBeVisible();
  await expect(dialog).toHaveCount(0);
  await expect(next).toBeEnabled();

  const after = (await apiAs(page, 'GET', '/api/provisioning/v1/defaults')).body;
  expect(after).toMatchObject({ adminpw: 'newadmin1', userpw: before.userpw, tonezone: 'us', ui_first_config: '' });
  expect(after.language).toBe(before.language);
});
