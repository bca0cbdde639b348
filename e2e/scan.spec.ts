import { expect, signIn, test } from './fixtures.ts';
import { type ScanLab, scanLab } from './scan-lab.ts';

// New phones are offered to the vendor redirect service; nothing listens here, so that fails fast.
test.use({ serverEnv: { RPS_URL: 'http://127.0.0.1:9' } });
// The test network is built by the global setup (global-setup.ts), before any browser runs.
const made = scanLab();
const lab: ScanLab | undefined = 'skipped' in made ? undefined : made;
const skipped = 'skipped' in made ? made.skipped : '';

async function openScan(page: import('@playwright/test').Page) {
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Users', exact: true })).toBeVisible();
  await page.goto('/devices/inventory');
  await expect(page.getByRole('heading', { name: 'Phone inventory' })).toBeVisible();
  await page.getByRole('button', { name: 'Add phones' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add phones' });
  await dialog.getByText('Scan a network').click();
  return dialog;
}

test('scanning a network checks the choice and the netmask, and may find nothing to add', async ({ page }) => {
  const dialog = await openScan(page);
  await dialog.getByRole('button', { name: 'Scan', exact: true }).click();
  await expect(dialog.getByText('Choose a network', { exact: true }).last()).toBeVisible();

  await dialog.getByRole('combobox', { name: 'Network' }).click();
  await page.getByRole('option').first().click();
  // Choosing a network fills in its netmask.
  await expect(dialog.getByRole('textbox', { name: 'Netmask' })).not.toHaveValue('');
  await dialog.getByRole('textbox', { name: 'Netmask' }).fill('255.255.0.255');
  await dialog.getByRole('button', { name: 'Scan', exact: true }).click();
  await expect(dialog.getByText('Enter a valid netmask')).toBeVisible();

  // Only the server's own address: no other host, so no phone.
  await dialog.getByRole('textbox', { name: 'Netmask' }).fill('255.255.255.255');
  await dialog.getByRole('button', { name: 'Scan', exact: true }).click();
  await expect(dialog.getByText('No phone to add from this network')).toBeVisible();
  await expect(dialog.getByTestId('pending-phones')).toHaveCount(0);
});

test('scanning a network with phones fills the pending list; Stop scan ends a scan', async ({ page }) => {
  test.skip(!lab, `no test network: ${skipped}`);
  const net = lab as ScanLab;
  const dialog = await openScan(page);
  await dialog.getByRole('combobox', { name: 'Network' }).click();
  await page.getByRole('option', { name: `${net.hostIp} (${net.prefix24}.0/255.255.252.0)` }).click();
  await dialog.getByRole('textbox', { name: 'Netmask' }).fill('255.255.255.0');
  await dialog.getByRole('button', { name: 'Scan', exact: true }).click();
  await expect(dialog.getByRole('button', { name: 'Stop scan' })).toBeVisible();
  await expect(dialog.getByText('2 phones found: check them in the list below')).toBeVisible({ timeout: 30_000 });
  const pending = dialog.getByTestId('pending-phones');
  await expect(pending).toContainText('80-5E-C0-AA-BB-01');
  await expect(pending).toContainText('Yealink/Dreamwave');
  await expect(pending).toContainText('E0-E6-56-01-00-07');
  await expect(pending).toContainText('Nethesis');
  // The device of an unknown vendor is left out.
  await expect(pending).not.toContainText('02-12-34-56-78-9A');
  await expect(dialog.getByRole('button', { name: 'Add 2 phones' })).toBeEnabled();

  // A whole /22 where almost nobody answers takes a while: stop it.
  await dialog.getByRole('textbox', { name: 'Netmask' }).fill('255.255.252.0');
  await dialog.getByRole('button', { name: 'Scan', exact: true }).click();
  await dialog.getByRole('button', { name: 'Stop scan' }).click();
  await expect(dialog.getByRole('button', { name: 'Scan', exact: true })).toBeVisible();
  await expect(dialog.getByText('Error scanning network')).toHaveCount(0);
  // The list found before stays.
  await expect(pending).toContainText('80-5E-C0-AA-BB-01');
});
