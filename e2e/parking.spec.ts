import type { Page } from '@playwright/test';
import { apiAs, expect, seriousViolations, signInWithLocalUsers, test } from './fixtures.ts';

/*
 * Call flows › Parking (/flows/parking) against the real server: a lot is created in the modal with the usual
 * numbers (70, slots 71–78, 45 s) after the form refuses slots over the lot number and the server refuses slots over a
 * user's extension; an inbound route sends calls to it and Show the flow draws it. The parked-calls card (the same one the
 * dashboard shows) says the PBX is not connected: no Asterisk here.
 */

const dialogCheck = async (page: Page) => {
  const dialog = page.getByRole('dialog').last();
  await expect(dialog).toHaveCSS('opacity', '1');
  expect(await seriousViolations(page, ['[role="dialog"]'])).toEqual([]);
};

test('parking lot: created in the modal, routed to, drawn by Show the flow', async ({ page }) => {
  await signInWithLocalUsers(page, [['alice', 'Alice Rossi', '201']]);
  await page.goto('/flows/parking');
  await expect(page.getByRole('heading', { name: 'Parking', level: 1 })).toBeVisible();
  await expect(page.getByText('No parking lots yet.')).toBeVisible();
  await expect(page.getByTestId('parked-calls').getByRole('alert')).toBeVisible();
  expect(await seriousViolations(page, ['main'])).toEqual([]);

  await page.getByRole('button', { name: 'New parking lot' }).click();
  const dialog = page.getByRole('dialog', { name: 'New parking lot' });
  await expect(dialog.getByRole('textbox', { name: 'Lot number' })).toHaveValue('70');
  await expect(dialog.getByRole('textbox', { name: 'First slot' })).toHaveValue('71');
  await dialog.getByRole('textbox', { name: 'Name' }).fill('Reception');
  // The lot number inside its own slots: the form refuses it.
  await dialog.getByRole('textbox', { name: 'First slot' }).fill('70');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('The lot number may not be one of its slots')).toBeVisible();
  // Slots 199–206 would take Alice's 201: the server refuses it, naming her.
  await dialog.getByRole('textbox', { name: 'First slot' }).fill('199');
  await dialogCheck(page);
  await dialog.getByRole('button', { name: 'Save' }).click();
  const refusal = 'The parking lot cannot use number 201: number 201 is already in use by user alice';
  await expect(dialog.getByText(refusal)).toBeVisible();
  await page.getByRole('alert').filter({ hasText: refusal }).getByRole('button', { name: 'Close' }).click();
  await dialog.getByRole('textbox', { name: 'First slot' }).fill('71');
  // Nobody picks up: to a destination instead of back to the parker.
  await dialog.getByRole('checkbox', { name: 'Back to the phone that parked it' }).uncheck();
  await dialog.getByTestId('parking-timeout-dest').click();
  await page.getByRole('option', { name: '201 Alice Rossi' }).click();
  await dialogCheck(page);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  const row = page.getByTestId('parking-70');
  await expect(row).toContainText('Reception');
  await expect(row).toContainText('71–78');
  await expect(row).toContainText('201 Alice Rossi');
  expect(await seriousViolations(page, ['main'])).toEqual([]);

  // An inbound route parks its callers; Show the flow draws the lot and where a call nobody picked up goes.
  const lots = (await apiAs(page, 'GET', '/api/parking')).body as { destination: string }[];
  expect(lots[0]?.destination).toBe('app-parking,70,1');
  const route = await apiAs(page, 'POST', '/api/inboundroutes', {
    extension: '0721999700',
    cidnum: '',
    description: 'Park line',
    destination: lots[0]?.destination,
  });
  expect(route.status).toBe(200);
  await page.goto('/routes/inbound');
  await page.getByTestId('inbound-0721999700').getByRole('button', { name: 'Show the flow' }).click();
  const picture = page.getByRole('dialog', { name: 'Where calls to 0721999700 go' });
  await expect(picture.getByTestId('flow-picture')).toContainText('Parking lot: 70 Reception');
  await expect(picture.getByTestId('flow-picture')).toContainText('Parked in slots 71–78 for up to 45 s');
  await dialogCheck(page);
  await picture.getByRole('button', { name: 'Close', exact: true }).last().click();

  // In Italian.
  await page.evaluate(() => localStorage.setItem('preferredLanguage', 'it'));
  await page.goto('/flows/parking');
  await expect(page.getByRole('heading', { name: 'Parcheggio', level: 1 })).toBeVisible();
  await expect(page.getByTestId('parking-70')).toContainText('71–78');
  expect(await seriousViolations(page, ['main'])).toEqual([]);
});
