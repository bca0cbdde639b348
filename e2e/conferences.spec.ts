import type { Page } from '@playwright/test';
import { apiAs, expect, seriousViolations, signInWithLocalUsers, test } from './fixtures.ts';

/*
 * Call flows › Conferences (/flows/conferences) against the real server: a room with PINs is created in the modal (the
 * form refuses a PIN that is not digits and an admin PIN equal to the user PIN; the server refuses a number a user
 * has), its PINs are never shown again; an inbound route sends calls to it, Show the flow draws it, and deleting it
 * is refused naming the route. The participants panel says the PBX is not connected (no Asterisk here).
 */

const dialogCheck = async (page: Page) => {
  const dialog = page.getByRole('dialog').last();
  await expect(dialog).toHaveCSS('opacity', '1');
  expect(await seriousViolations(page, ['[role="dialog"]'])).toEqual([]);
};

test('conference: created with PINs in the modal, routed to, drawn by Show the flow', async ({ page }) => {
  await signInWithLocalUsers(page, [['alice', 'Alice Rossi', '201']]);
  await page.goto('/flows/conferences');
  await expect(page.getByRole('heading', { name: 'Conferences', level: 1 })).toBeVisible();
  await expect(page.getByText('No conference rooms yet.')).toBeVisible();
  expect(await seriousViolations(page, ['main'])).toEqual([]);

  await page.getByRole('button', { name: 'New conference' }).click();
  const dialog = page.getByRole('dialog', { name: 'New conference' });
  await dialog.getByRole('textbox', { name: 'Number' }).fill('201');
  await dialog.getByRole('textbox', { name: 'Name' }).fill('Weekly meeting');
  await dialog.getByRole('textbox', { name: 'User PIN' }).fill('12a4');
  await dialog.getByRole('textbox', { name: 'Admin PIN' }).fill('12a4');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Digits only, up to 12').first()).toBeVisible();
  await dialog.getByRole('textbox', { name: 'User PIN' }).fill('1234');
  await dialog.getByRole('textbox', { name: 'Admin PIN' }).fill('1234');
  await expect(dialog.getByText('The admin PIN must differ from the user PIN')).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Admin PIN' }).fill('9999');
  await dialog.getByRole('textbox', { name: 'Most participants' }).fill('10');
  await dialog.getByRole('checkbox', { name: 'Record the conference' }).check();
  await dialogCheck(page);
  // Alice's number is hers: the server refuses it, naming her.
  await dialog.getByRole('button', { name: 'Save' }).click();
  const refusal = 'The conference cannot have number 201: number 201 is already in use by user alice';
  await expect(dialog.getByText(refusal)).toBeVisible();
  await page.getByRole('alert').filter({ hasText: refusal }).getByRole('button', { name: 'Close' }).click();
  await dialog.getByRole('textbox', { name: 'Number' }).fill('600');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  const row = page.getByTestId('conference-600');
  await expect(row).toContainText('Weekly meeting');
  await expect(row).toContainText('User PIN, Admin PIN');
  await expect(row).toContainText('10');
  expect(await seriousViolations(page, ['main'])).toEqual([]);

  // Editing shows no PIN: an empty field keeps it.
  await row.getByRole('button', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit conference' });
  await expect(edit.getByRole('textbox', { name: 'User PIN' })).toHaveValue('');
  await expect(edit.getByText('Set: leave empty to keep it, or type a new one').first()).toBeVisible();
  await dialogCheck(page);
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit).toBeHidden();
  await expect(row).toContainText('User PIN, Admin PIN');

  // The participants panel: live state over AMI, which this server has not.
  await row.getByRole('button', { name: 'Participants' }).click();
  const live = page.getByRole('dialog', { name: 'Who is in 600 Weekly meeting' });
  await expect(live.getByRole('alert')).toBeVisible();
  await dialogCheck(page);
  await live.getByRole('button', { name: 'Close', exact: true }).last().click();

  // An inbound route sends calls to it, chosen among the destinations; Show the flow draws the room.
  const rooms = (await apiAs(page, 'GET', '/api/conferences')).body as { destination: string }[];
  expect(rooms[0]?.destination).toBe('ext-meetme,600,1');
  const route = await apiAs(page, 'POST', '/api/inboundroutes', {
    extension: '0721999600',
    cidnum: '',
    description: 'Meeting line',
    destination: rooms[0]?.destination,
  });
  expect(route.status).toBe(200);
  await page.goto('/routes/inbound');
  await page.getByTestId('inbound-0721999600').getByRole('button', { name: 'Show the flow' }).click();
  const picture = page.getByRole('dialog', { name: 'Where calls to 0721999600 go' });
  await expect(picture.getByTestId('flow-picture')).toContainText('Conference: 600 Weekly meeting');
  await expect(picture.getByTestId('flow-picture')).toContainText('Conference room: PIN asked; up to 10 participants');
  await dialogCheck(page);
  await picture.getByRole('button', { name: 'Close', exact: true }).last().click();

  // …so deleting it is refused, naming the route.
  await page.goto('/flows/conferences');
  await page.getByTestId('conference-600').getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText(/Conference 600 Weekly meeting is used by: inbound route 0721999600/)).toBeVisible();

  // In Italian.
  await page.evaluate(() => localStorage.setItem('preferredLanguage', 'it'));
  await page.goto('/flows/conferences');
  await expect(page.getByRole('heading', { name: 'Conferenze', level: 1 })).toBeVisible();
  await expect(page.getByTestId('conference-600')).toContainText('PIN utente, PIN amministratore');
  expect(await seriousViolations(page, ['main'])).toEqual([]);
});
