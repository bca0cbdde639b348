import type { Page } from '@playwright/test';
import { apiAs, expect, seriousViolations, signInWithLocalUsers, test } from './fixtures.ts';

/*
 * Routes › Blocking (/routes/blocking) against the real server: a number with letters is refused in the modal, a
 * number and anonymous callers are blocked, the class prefixes are edited in their one place; in the bulk
 * extensions editor a user's outbound calls are limited to national numbers. Axe on the page and every dialog.
 */

const dialogCheck = async (page: Page) => {
  const dialog = page.getByRole('dialog').last();
  await expect(dialog).toHaveCSS('opacity', '1');
  expect(await seriousViolations(page, ['[role="dialog"]'])).toEqual([]);
};

test('blocking: callers blocked in the modal, class prefixes edited, a user limited to national calls', async ({
  page,
}) => {
  await signInWithLocalUsers(page, [['alice', 'Alice Rossi', '201']]);
  await page.goto('/routes/blocking');
  await expect(page.getByRole('heading', { name: 'Blocking and call permissions', level: 1 })).toBeVisible();
  await expect(page.getByText('No caller is blocked.')).toBeVisible();
  expect(await seriousViolations(page, ['main'])).toEqual([]);

  await page.getByRole('button', { name: 'Block a caller' }).click();
  const dialog = page.getByRole('dialog', { name: 'Block a caller' });
  await dialog.getByRole('textbox', { name: 'Number' }).fill('02abc');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Digits only, with an optional leading +, up to 32')).toBeVisible();
  await dialogCheck(page);
  await dialog.getByRole('textbox', { name: 'Number' }).fill('0298765432');
  await dialog.getByRole('textbox', { name: 'Description' }).fill('Telemarketing');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  const row = page.getByTestId('blocked-0298765432');
  await expect(row).toContainText('Busy tone');
  await expect(row).toContainText('Every inbound route');

  await page.getByRole('button', { name: 'Block a caller' }).click();
  const anon = page.getByRole('dialog', { name: 'Block a caller' });
  await anon.getByRole('combobox', { name: 'Match' }).click();
  await page.getByRole('option', { name: 'Anonymous or withheld' }).click();
  await anon.getByRole('combobox', { name: 'What the caller hears' }).click();
  await page.getByRole('option', { name: '"Number not in service" message' }).click();
  await dialogCheck(page);
  await anon.getByRole('button', { name: 'Save' }).click();
  await expect(anon).toBeHidden();
  await expect(page.getByTestId('blocked-anonymous')).toContainText('"Number not in service" message');
  const list = (await apiAs(page, 'GET', '/api/blocklist')).body as { match: string }[];
  expect(list.map((e) => e.match)).toEqual(['anonymous', 'number']);

  // The class prefixes: a local area code added.
  await page.getByTestId('class-local').fill('06');
  await page.getByRole('button', { name: 'Save the classes' }).click();
  await expect(page.getByText('Classes saved')).toBeVisible();
  expect(((await apiAs(page, 'GET', '/api/callclasses')).body as { local: string[] }).local).toEqual(['06']);
  expect(await seriousViolations(page, ['main'])).toEqual([]);

  // The user's permission lives with the other per-user PBX options, in the bulk extensions editor.
  await page.goto('/apps/bulkextensions');
  await page.getByRole('checkbox', { name: /201 Alice Rossi/ }).check();
  await page.getByRole('button', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog', { name: /^Edit 1 user/ });
  await edit.getByRole('button', { name: 'Unlock Outbound calls to change it' }).click();
  await edit.getByRole('radio', { name: 'Only these classes' }).check();
  await edit.getByRole('checkbox', { name: 'National', exact: true }).check();
  await dialogCheck(page);
  await edit.getByRole('button', { name: /^Apply to/ }).click();
  await expect(edit).toBeHidden();
  expect(((await apiAs(page, 'GET', '/api/bulk/201')).body as { callpermission: string }).callpermission).toBe(
    'national',
  );

  // In Italian.
  await page.evaluate(() => localStorage.setItem('preferredLanguage', 'it'));
  await page.goto('/routes/blocking');
  await expect(page.getByRole('heading', { name: 'Blocco e permessi di chiamata', level: 1 })).toBeVisible();
  await expect(page.getByTestId('blocked-0298765432')).toContainText('Tono di occupato');
  expect(await seriousViolations(page, ['main'])).toEqual([]);
});
