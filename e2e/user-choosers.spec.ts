import type { Page } from '@playwright/test';
import { apiAs, expect, seriousViolations, signInWithLocalUsers, test } from './fixtures.ts';

/*
 * Choosers that give users a gateway port or a phone offer only users with a main extension (issue 39, item 12a),
 * also when the API lists every user whatever the filter, as the original does (contract api-core §8.2: "the
 * console filters client-side"). The page's users list is answered here as the original answers it.
 */
async function seed(page: Page) {
  await signInWithLocalUsers(page, [
    ['alice', 'Alice Rossi', '201'],
    ['dave', 'Dave Verdi'],
  ]);
  expect((await apiAs(page, 'POST', '/api/configuration/wizard', { status: 'false', step: 13 })).status).toBe(200);
  await page.route(/\/api\/users\/false\?/, async (route) => {
    const url = new URL(route.request().url());
    url.searchParams.delete('filter');
    await route.fulfill({ response: await route.fetch({ url: url.toString() }) });
  });
}

async function openFxsChooser(page: Page, labels: { add: string; dialog: string; vendor: string; model: string }) {
  await page.getByRole('button', { name: labels.add }).click();
  const dialog = page.getByRole('dialog', { name: labels.dialog });
  await dialog.getByRole('combobox', { name: labels.vendor }).click();
  await page.getByRole('option', { name: 'Grandstream' }).click();
  await dialog.getByRole('combobox', { name: labels.model }).click();
  await page.getByRole('option', { name: /\| ht802$/ }).click();
  return dialog;
}

test("a gateway's FXS port is offered only users with a main extension, in English and Italian", async ({ page }) => {
  await seed(page);
  await page.goto('/trunks/physical');
  let dialog = await openFxsChooser(page, {
    add: 'Add gateway',
    dialog: 'New Gateway',
    vendor: 'Vendor',
    model: 'Model',
  });
  await dialog.getByRole('combobox', { name: 'FXS 1 linked extension' }).click();
  await expect(page.getByRole('option', { name: 'Alice Rossi (201)' })).toBeVisible();
  await expect(page.getByRole('option', { name: /Dave/ })).toHaveCount(0);
  expect(await seriousViolations(page, ['[role="dialog"]'])).toEqual([]);

  await page.evaluate(() => localStorage.setItem('preferredLanguage', 'it'));
  await page.reload();
  dialog = await openFxsChooser(page, {
    add: 'Aggiungi gateway',
    dialog: 'Nuovo gateway',
    vendor: 'Produttore',
    model: 'Modello',
  });
  await dialog.getByRole('combobox', { name: 'Interno collegato alla FXS 2' }).click();
  await expect(page.getByRole('option', { name: 'Alice Rossi (201)' })).toBeVisible();
  await expect(page.getByRole('option', { name: /Dave/ })).toHaveCount(0);
  expect(await seriousViolations(page, ['[role="dialog"]'])).toEqual([]);
});

test('phones are linked to configured users only: the user configuration lists no user without an extension', async ({
  page,
}) => {
  await seed(page);
  await page.goto('/configurations/preferences');
  const alice = page.getByRole('button', { name: /Alice Rossi/ });
  await expect(alice).toBeVisible();
  await expect(page.getByRole('button', { name: /Dave Verdi/ })).toHaveCount(0);
  await alice.click();
  await expect(page.getByRole('combobox', { name: 'Link a device' })).toBeVisible();
  expect(await seriousViolations(page, ['main'])).toEqual([]);
  // All users still lists everyone, the unconfigured included.
  await page.getByRole('combobox', { name: 'Filter' }).click();
  await page.getByRole('option', { name: 'All users' }).click();
  await expect(page.getByRole('button', { name: /Dave Verdi/ })).toBeVisible();

  await page.evaluate(() => localStorage.setItem('preferredLanguage', 'it'));
  await page.reload();
  await expect(page.getByRole('button', { name: /Alice Rossi/ })).toBeVisible();
  await expect(page.getByRole('button', { name: /Dave Verdi/ })).toHaveCount(0);
  await page.getByRole('button', { name: /Alice Rossi/ }).click();
  await expect(page.getByRole('combobox', { name: 'Collega un dispositivo' })).toBeVisible();
  expect(await seriousViolations(page, ['main'])).toEqual([]);
});
