import { apiAs, expect, seriousViolations, signIn, test } from './fixtures.ts';

/*
 * The Apps area landing (/apps) and parameterised URLs (/apps/paramurl): create, the four placeholders, the
 * http(s) rule, the copy popover (800 ms), one URL per profile (others' profiles disabled, the URL's own
 * selectable while modifying it, 'No profile available' when all are taken), modify and delete.
 */

const CRM = 'https://crm.example/call?n=$CALLER_NUMBER&name=$CALLER_NAME';

const dialogCheck = async (page: import('@playwright/test').Page) => {
  const dialog = page.getByRole('dialog').last();
  await expect(dialog).toHaveCSS('opacity', '1');
  expect(await seriousViolations(page, ['[role="dialog"]'])).toEqual([]);
};

test('the Apps landing leads to every app, and parameterised URLs work end to end', async ({ page, context }) => {
  await signIn(page);
  await page.goto('/apps');
  await expect(page.getByRole('heading', { name: 'Apps', level: 1 })).toBeVisible();
  const main = page.getByRole('main');
  for (const name of [
    'Customer cards',
    'Phonebook',
    'Streaming sources',
    'Parameterised URLs',
    'Cloud speech',
    'Bulk extensions',
  ]) {
    await expect(main.getByRole('link', { name: new RegExp(`^${name}`) })).toBeVisible();
  }
  expect(await seriousViolations(page, ['main'])).toEqual([]);
  await main.getByRole('link', { name: /^Parameterised URLs/ }).click();
  await expect(page).toHaveURL(/\/apps\/paramurl$/);
  await expect(page.getByRole('heading', { name: 'Parameterised URLs', level: 1 })).toBeVisible();
  await expect(page.getByText('No URL found')).toBeVisible();
  expect(await seriousViolations(page, ['main'])).toEqual([]);

  // A new URL: the four placeholders are listed; only http(s) is accepted; at least one profile.
  await page.getByRole('button', { name: 'New URL' }).click();
  const modal = page.getByRole('dialog', { name: 'New URL' });
  await expect(modal.getByTestId('paramurl-placeholders').getByRole('listitem')).toHaveCount(4);
  for (const p of ['$CALLER_NUMBER', '$CALLER_NAME', '$CALLED', '$UNIQUEID']) {
    await expect(modal.getByText(p, { exact: true })).toBeVisible();
  }
  const save = modal.getByRole('button', { name: 'Save' });
  await expect(save).toBeDisabled();
  const url = modal.getByRole('textbox', { name: 'URL' });
  await url.fill('ftp://crm.example/file');
  await url.blur();
  await expect(modal.getByText('Only http:// and https:// URLs are accepted')).toBeVisible();
  await url.fill(CRM);
  await expect(save).toBeDisabled();
  await modal.locator('.mantine-MultiSelect-input').click();
  await page.getByRole('option', { name: 'Base' }).click();
  await page.getByRole('option', { name: 'Standard' }).click();
  await page.keyboard.press('Escape');
  await modal.getByRole('switch', { name: 'Calls only through queues' }).check({ force: true });
  await dialogCheck(page);
  await expect(save).toBeEnabled();
  await save.click();
  await expect(page.getByText('URL saved with success')).toBeVisible();
  await expect(modal).toBeHidden();
  const first = page.getByRole('article', { name: CRM });
  await expect(first.getByTestId('paramurl-url')).toHaveText(CRM);
  await expect(first).toContainText('Calls only through queues: Yes');
  await expect(first).toContainText('Base');
  await expect(first).toContainText('Standard');

  // Copy: the URL is on the clipboard and 'Copied' shows for 800 ms.
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await first.getByRole('button', { name: 'Copy the URL' }).click();
  const copied = page.getByRole('status').filter({ hasText: 'Copied' });
  await expect(copied).toBeVisible();
  const shownAt = Date.now();
  await expect(copied).toBeHidden({ timeout: 3_000 });
  const shownFor = Date.now() - shownAt;
  expect(shownFor).toBeLessThan(2_000);
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(CRM);

  // A second URL: the first one's profiles are disabled, Advanced is free.
  await page.getByRole('button', { name: 'New URL' }).click();
  const second = page.getByRole('dialog', { name: 'New URL' });
  await second
    .getByRole('textbox', { name: 'URL' })
    .fill('http://tickets.example/new?from=$CALLER_NUMBER&id=$UNIQUEID');
  await second.locator('.mantine-MultiSelect-input').click();
  await expect(page.getByRole('option', { name: 'Base' })).toHaveAttribute('aria-disabled', 'true');
  await expect(page.getByRole('option', { name: 'Standard' })).toHaveAttribute('aria-disabled', 'true');
  await page.getByRole('option', { name: 'Advanced' }).click();
  await page.keyboard.press('Escape');
  await second.getByRole('button', { name: 'Save' }).click();
  await expect(second).toBeHidden();
  await expect(page.getByTestId('paramurl')).toHaveCount(2);

  // Every profile taken: a new URL says so.
  await page.getByRole('button', { name: 'New URL' }).click();
  const third = page.getByRole('dialog', { name: 'New URL' });
  await expect(third.getByText('No profile available')).toBeVisible();
  await expect(third.getByText('To have one, free it from an existing URL')).toBeVisible();
  await dialogCheck(page);
  await third.getByRole('button', { name: 'Cancel' }).click();

  // Modifying the first: its own profiles stay selectable, the other URL's are not; the server agrees.
  await first.getByRole('button', { name: 'Modify' }).click();
  const modify = page.getByRole('dialog', { name: 'Modify URL' });
  await expect(modify.getByRole('textbox', { name: 'URL' })).toHaveValue(CRM);
  await modify.locator('.mantine-MultiSelect-input').click();
  await expect(page.getByRole('option', { name: 'Advanced' })).toHaveAttribute('aria-disabled', 'true');
  await expect(page.getByRole('option', { name: 'Base' })).not.toHaveAttribute('aria-disabled', 'true');
  await page.getByRole('option', { name: 'Base' }).click(); // deselects Base
  await page.keyboard.press('Escape');
  await modify.getByRole('textbox', { name: 'URL' }).fill(`${CRM}&dest=$CALLED`);
  await modify.getByRole('button', { name: 'Save' }).click();
  await expect(modify).toBeHidden();
  const changed = page.getByRole('article', { name: `${CRM}&dest=$CALLED` });
  await expect(changed).toBeVisible();
  await expect(changed).not.toContainText('Base');
  const listed = (await apiAs(page, 'GET', '/api/cti/paramurls')).body as { url: string; profiles: string }[];
  expect(listed.find((u) => u.url === `${CRM}&dest=$CALLED`)?.profiles).toBe('2');
  expect(listed.some((u) => u.url === CRM)).toBe(false);

  // Delete asks first.
  await changed.getByRole('button', { name: 'Delete' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete the URL' });
  await expect(confirm).toBeVisible();
  await dialogCheck(page);
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('URL deleted')).toBeVisible();
  await expect(page.getByTestId('paramurl')).toHaveCount(1);
});
