import { apiAs, expect, signIn, test } from './fixtures.ts';

test('create, edit without changing the password, and delete a VoIP trunk', async ({ page }) => {
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Users', exact: true })).toBeVisible();
  await page.goto('/trunks/voip');
  await expect(page.getByText('No configured providers')).toBeVisible();

  await page.getByRole('button', { name: 'Configure new provider' }).click();
  const dialog = page.getByRole('dialog', { name: 'Configure new provider' });
  // Everything is required.
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Choose a provider')).toBeVisible();
  await expect(dialog.getByText(/Password is required/)).toBeVisible();

  await dialog.getByRole('combobox', { name: 'Provider' }).click();
  await page.getByRole('option', { name: 'VivaVox' }).click();
  await expect(dialog.getByLabel('Trunk name')).toHaveValue('vivavox');
  await dialog.getByLabel('Username').fill('0721123456');
  await dialog.getByRole('textbox', { name: 'Password' }).fill('s3cr3t!');
  await dialog.getByLabel('Phone number').fill('0721123456');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('VoIP trunk created')).toBeVisible();

  const detail = page.getByTestId('trunk-detail');
  await expect(detail).toContainText('VivaVox');
  await expect(detail).toContainText('sip.vivavox.it');
  await expect(detail).toContainText('alaw, ulaw');
  await expect(detail).toContainText('Unknown');

  await detail.getByRole('button', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit vivavox' });
  await edit.getByLabel('Phone number').fill('0721999999');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('VoIP trunk saved')).toBeVisible();
  await expect(detail).toContainText('0721999999');
  // The password is write-only: no answer of the API carries it.
  const trunks = await apiAs(page, 'GET', '/api/trunks');
  expect(trunks.body).toHaveLength(1);
  expect(JSON.stringify(trunks.body)).not.toContain('s3cr3t');

  await detail.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog', { name: 'Delete trunk' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('No configured providers')).toBeVisible();
  expect((await apiAs(page, 'GET', '/api/trunks')).body).toEqual([]);
});
