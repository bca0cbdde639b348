import { apiAs, expect, seriousViolations, signIn, test } from './fixtures.ts';
import { ADMIN_PASSWORD } from './server.ts';

// Each test gets a server of its own (the server fixture is test-scoped), so a changed password
// does not leak into other tests.

const NEW_PASSWORD = 'Changed-admin-pass-9';

async function openSettings(page: import('@playwright/test').Page) {
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Users', exact: true })).toBeVisible();
  // Outside the wizard the page has its own title and the navigation leads to it.
  expect((await apiAs(page, 'POST', '/api/configuration/wizard', { status: 'false', step: 13 })).status).toBe(200);
  await page.goto('/');
  await page.getByRole('navigation').getByRole('link', { name: 'Settings' }).click();
  await expect(page).toHaveURL(/\/admin\/settings$/);
  await expect(page.getByRole('heading', { name: 'Administrator password' })).toBeVisible();
}

const currentPassword = (page: import('@playwright/test').Page) =>
  page.getByRole('textbox', { name: 'Current password', exact: true });
const newPassword = (page: import('@playwright/test').Page) =>
  page.getByRole('textbox', { name: 'New password', exact: true });
const confirmPassword = (page: import('@playwright/test').Page) =>
  page.getByRole('textbox', { name: 'Confirm password', exact: true });

async function logout(page: import('@playwright/test').Page) {
  await page.getByRole('button', { name: 'Account' }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login$/);
}

test('a confirmation that does not match is flagged, nothing is sent and the old password still works', async ({
  page,
}) => {
  await openSettings(page);
  await expect(page.getByRole('alert').filter({ hasText: 'Other sessions will be signed out' })).toBeVisible();

  const sent: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/users/admin/password')) sent.push(request.method());
  });

  // Every field is required.
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('This field is required')).toHaveCount(3);
  await currentPassword(page).fill(ADMIN_PASSWORD);

  await newPassword(page).fill(NEW_PASSWORD);
  await confirmPassword(page).fill(`${NEW_PASSWORD}x`);
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('The passwords do not match')).toBeVisible();
  await expect(confirmPassword(page)).toHaveAccessibleDescription('The passwords do not match');
  await expect(newPassword(page)).toHaveAccessibleDescription('');

  // Too short for the server's rule: refused in the form too.
  await newPassword(page).fill('short');
  await confirmPassword(page).fill('short');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('Use at least 8 characters')).toBeVisible();
  expect(sent).toEqual([]);

  await logout(page);
  await signIn(page, NEW_PASSWORD);
  await expect(page.getByRole('alert')).toContainText('Incorrect username or password');
  await signIn(page, ADMIN_PASSWORD);
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
});

test('changing the password keeps this browser signed in, signs out the others, and the new one logs in', async ({
  page,
  browser,
  server,
}) => {
  // A second browser signed in before the change.
  const other = await browser.newContext({ baseURL: server.url });
  const otherPage = await other.newPage();
  await signIn(otherPage);
  await expect(otherPage.getByRole('heading', { name: 'Users', exact: true })).toBeVisible();

  await openSettings(page);
  // The form, with its errors showing, has no serious accessibility finding.
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('This field is required')).toHaveCount(3);
  expect(await seriousViolations(page, ['main'])).toEqual([]);

  // A wrong current password is refused at its field, and nothing changes.
  await currentPassword(page).fill('not-the-password');
  await newPassword(page).fill(NEW_PASSWORD);
  await confirmPassword(page).fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(currentPassword(page)).toHaveAccessibleDescription('The current password is not right');
  await expect(page.getByText('Password error')).toBeVisible();

  await currentPassword(page).fill(ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('Password changed')).toBeVisible();
  await expect(newPassword(page)).toHaveValue('');
  await expect(currentPassword(page)).toHaveValue('');
  expect(await seriousViolations(page, ['main', '.mantine-Notification-root'])).toEqual([]);

  // This browser is still signed in, after a reload too.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Administrator password' })).toBeVisible();

  // The other browser is sent back to the login page at its next call.
  await otherPage.reload();
  await expect(otherPage).toHaveURL(/\/login$/);
  await other.close();

  await logout(page);
  await signIn(page, ADMIN_PASSWORD);
  await expect(page.getByRole('alert')).toContainText('Incorrect username or password');
  await signIn(page, NEW_PASSWORD);
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
});

test('the settings page is the last wizard step and Finalise leads to the final page', async ({ page }) => {
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Users', exact: true })).toBeVisible();
  expect((await apiAs(page, 'POST', '/api/configuration/wizard', { status: 'true', step: 13 })).status).toBe(200);
  await page.goto('/');
  await expect(page).toHaveURL(/\/admin\/settings$/);
  await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();
  const bar = page.getByTestId('step-bar');
  await expect(bar).toContainText('100% complete');

  // A mismatch in the wizard is refused the same way.
  await newPassword(page).fill(NEW_PASSWORD);
  await confirmPassword(page).fill('something-else');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('The passwords do not match')).toBeVisible();

  // Changing the password is optional: Finalise is allowed.
  await bar.getByRole('button', { name: 'Finalise' }).click();
  await expect(page).toHaveURL(/\/final$/);
  await expect(page.getByRole('heading', { name: 'Wizard completed' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Go to Home' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Print final report' })).toBeVisible();
});
