import type { Page } from '@playwright/test';
import { apiAs, expect, seriousViolations, signInWithLocalUsers, test } from './fixtures.ts';

/*
 * Call flows › Ring groups (/flows/ringgroups) against the real server: a ring group of two users and an outside
 * number is made in the modal, an unknown outside number refused by the form; an inbound route then sends calls to
 * it, "Show the flow" draws it, the destination pickers offer it and deleting it is refused naming the route.
 */

const dialogCheck = async (page: Page) => {
  const dialog = page.getByRole('dialog').last();
  await expect(dialog).toHaveCSS('opacity', '1');
  expect(await seriousViolations(page, ['[role="dialog"]'])).toEqual([]);
};

test('ring group: two users and an outside number, routed to, drawn by Show the flow', async ({ page }) => {
  await signInWithLocalUsers(page, [
    ['alice', 'Alice Rossi', '201'],
    ['bruno', 'Bruno Bianchi', '202'],
  ]);
  await page.goto('/flows/ringgroups');
  await expect(page.getByRole('heading', { name: 'Ring groups', level: 1 })).toBeVisible();
  await expect(page.getByText('No ring groups yet.')).toBeVisible();
  expect(await seriousViolations(page, ['main'])).toEqual([]);

  await page.getByRole('button', { name: 'New ring group' }).click();
  const dialog = page.getByRole('dialog', { name: 'New ring group' });
  // Nothing filled in: the form says what is missing before asking the server.
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('From 2 to 10 digits')).toBeVisible();
  await expect(dialog.getByText('Add at least one member, each once')).toBeVisible();
  await dialogCheck(page);

  await dialog.getByRole('textbox', { name: 'Number' }).fill('600');
  await dialog.getByRole('textbox', { name: 'Name' }).fill('Front desk');
  await dialog.getByRole('combobox', { name: 'Ring strategy' }).click();
  await page.getByRole('option', { name: 'One after another' }).click();
  await dialog.getByRole('textbox', { name: 'Ring time (seconds)' }).fill('15');
  await dialog.getByRole('button', { name: 'Add a user' }).click();
  await dialog.getByRole('combobox', { name: 'Member 1: user' }).click();
  await page.getByRole('option', { name: '202 Bruno Bianchi' }).click();
  await dialog.getByRole('button', { name: 'Add a user' }).click();
  await dialog.getByRole('combobox', { name: 'Member 2: user' }).click();
  await page.getByRole('option', { name: '201 Alice Rossi' }).click();
  // Alice rings first: moved up.
  await dialog.getByRole('button', { name: 'Move member 2 up' }).click();
  await expect(dialog.getByRole('combobox', { name: 'Member 1: user' })).toHaveValue('201 Alice Rossi');
  await dialog.getByRole('button', { name: 'Add an outside number' }).click();
  await dialog.getByRole('textbox', { name: 'Member 3: outside number' }).fill('333 12');
  await dialog.getByRole('checkbox', { name: 'Outside numbers press 1 to accept the call' }).check();
  await dialog.getByRole('combobox', { name: 'When nobody answers, go to' }).click();
  await page.getByRole('option', { name: 'Hang up', exact: true }).click();
  // Every call to the desk recorded, as a queue's may be.
  await dialog.getByRole('combobox', { name: 'Call recording' }).click();
  await page.getByRole('option', { name: 'Always', exact: true }).click();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Digits only, a + at the start at most')).toBeVisible();
  await dialogCheck(page);
  await dialog.getByRole('textbox', { name: 'Member 3: outside number' }).fill('+393331234567');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  const row = page.getByTestId('ringgroup-600');
  await expect(row).toContainText('Front desk');
  await expect(row).toContainText('One after another, 15 s');
  await expect(row).toContainText('201, 202, +393331234567');
  await expect(row).toContainText('Terminate call: Hang up');
  expect(await seriousViolations(page, ['main'])).toEqual([]);

  const groups = (await apiAs(page, 'GET', '/api/ringgroups')).body as {
    destination: string;
    members: unknown[];
    confirm_external: boolean;
    recording: string;
  }[];
  expect(groups[0]?.members).toEqual([
    { type: 'extension', number: '201' },
    { type: 'extension', number: '202' },
    { type: 'external', number: '+393331234567' },
  ]);
  expect(groups[0]?.confirm_external).toBe(true);
  expect(groups[0]?.recording).toBe('always');

  // The pickers of other flows offer it.
  await page.getByRole('button', { name: 'New ring group' }).click();
  const second = page.getByRole('dialog', { name: 'New ring group' });
  await second.getByRole('combobox', { name: 'When nobody answers, go to' }).click();
  await expect(page.getByRole('option', { name: '600 Front desk' })).toBeVisible();
  await second.getByRole('button', { name: 'Cancel' }).click();

  // An inbound route sends calls to it: Show the flow draws the group and where unanswered calls go.
  const route = await apiAs(page, 'POST', '/api/inboundroutes', {
    extension: '0721999600',
    cidnum: '',
    description: 'Front line',
    destination: groups[0]?.destination,
  });
  expect(route.status).toBe(200);
  await page.goto('/routes/inbound');
  await page.getByTestId('inbound-0721999600').getByRole('button', { name: 'Show the flow' }).click();
  const picture = page.getByRole('dialog', { name: 'Where calls to 0721999600 go' });
  const flow = picture.getByTestId('flow-picture');
  await expect(flow).toContainText('Ring group: 600 Front desk');
  await expect(flow).toContainText('Rings One after another, 15 s: 201, 202, +393331234567');
  await expect(flow).toContainText('Nobody answers: Terminate call: Hang up');
  await dialogCheck(page);
  await picture.getByRole('button', { name: 'Close', exact: true }).last().click();

  // …so deleting it is refused, naming the route.
  await page.goto('/flows/ringgroups');
  await page.getByTestId('ringgroup-600').getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText(/Ring group 600 Front desk is used by: inbound route 0721999600/)).toBeVisible();

  // Italian: the same screen in the other language, reached from the Call flows menu.
  expect((await apiAs(page, 'POST', '/api/configuration/wizard', { status: 'false', step: 13 })).status).toBe(200);
  await page.evaluate(() => localStorage.setItem('preferredLanguage', 'it'));
  await page.goto('/flows/ivr');
  const menu = page.getByRole('navigation', { name: 'Menu principale' });
  await menu.getByRole('link', { name: 'Gruppi di chiamata' }).click();
  await expect(page.getByRole('heading', { name: 'Gruppi di chiamata', level: 1 })).toBeVisible();
  await expect(page.getByTestId('ringgroup-600')).toContainText("Uno dopo l'altro, 15 s");
  expect(await seriousViolations(page, ['main'])).toEqual([]);
});
