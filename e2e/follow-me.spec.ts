import type { Page } from '@playwright/test';
import { apiAs, expect, seriousViolations, signInWithLocalUsers, test } from './fixtures.ts';

/*
 * A user's follow-me (issue 42), from the user's row of the extensions screen against the real server: switched on
 * with nothing to ring is refused by the form, an outside number with letters too; a colleague and a mobile that
 * presses 1 are saved, and come back when the modal opens again; the modal in Italian.
 */

const dialogCheck = async (page: Page) => {
  const dialog = page.getByRole('dialog').last();
  await expect(dialog).toHaveCSS('opacity', '1');
  expect(await seriousViolations(page, ['[role="dialog"]'])).toEqual([]);
};

test('follow-me: a colleague then the mobile, edited from the user’s row', async ({ page }) => {
  await signInWithLocalUsers(page, [
    ['alice', 'Alice Rossi', '201'],
    ['bruno', 'Bruno Bianchi', '202'],
  ]);
  await page.goto('/extensions');
  await page.getByRole('button', { name: 'Follow-me of Alice Rossi' }).click();
  const dialog = page.getByRole('dialog', { name: 'Follow-me of alice' });
  await expect(dialog.getByRole('switch', { name: 'Follow-me is on' })).not.toBeChecked();
  await dialogCheck(page);

  // On with nothing to ring: the form says so before asking the server.
  await dialog.getByRole('switch', { name: 'Follow-me is on' }).check();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Add at least one number, each once, to switch follow-me on')).toBeVisible();

  await dialog.getByRole('textbox', { name: "The user's own phones first (seconds)" }).fill('10');
  await dialog.getByRole('button', { name: 'Add a colleague' }).click();
  await dialog.getByRole('combobox', { name: 'Number 1: colleague' }).click();
  // Alice herself is not offered: her phones ring first anyway.
  await expect(page.getByRole('option', { name: '201 Alice Rossi' })).toHaveCount(0);
  await page.getByRole('option', { name: '202 Bruno Bianchi' }).click();
  await dialog.getByRole('textbox', { name: 'Number 1: seconds' }).fill('15');
  await dialog.getByRole('button', { name: 'Add an outside number' }).click();
  await dialog.getByRole('textbox', { name: 'Number 2: outside number' }).fill('333abc');
  await dialog.getByRole('checkbox', { name: 'Outside numbers press 1 to accept the call' }).check();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Digits only, a + at the start at most')).toBeVisible();
  await dialogCheck(page);
  await dialog.getByRole('textbox', { name: 'Number 2: outside number' }).fill('3331234567');
  await dialog.getByRole('textbox', { name: 'Number 2: seconds' }).fill('25');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();

  expect((await apiAs(page, 'GET', '/api/users/alice/followme')).body).toEqual({
    enabled: true,
    pre_ring: 10,
    strategy: 'hunt',
    confirm_external: true,
    legs: [
      { type: 'extension', number: '202', ring_time: 15 },
      { type: 'external', number: '3331234567', ring_time: 25 },
    ],
  });
  // Opened again: what was saved.
  await page.getByRole('button', { name: 'Follow-me of Alice Rossi' }).click();
  await expect(dialog.getByRole('combobox', { name: 'Number 1: colleague' })).toHaveValue('202 Bruno Bianchi');
  await expect(dialog.getByRole('textbox', { name: 'Number 2: outside number' })).toHaveValue('3331234567');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // In Italian.
  await page.evaluate(() => localStorage.setItem('preferredLanguage', 'it'));
  await page.goto('/extensions');
  await page.getByRole('button', { name: 'Seguimi di Alice Rossi' }).click();
  const italian = page.getByRole('dialog', { name: 'Seguimi di alice' });
  await expect(italian.getByRole('switch', { name: 'Seguimi attivo' })).toBeChecked();
  await dialogCheck(page);
});
