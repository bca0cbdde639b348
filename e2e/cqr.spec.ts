import type { Page } from '@playwright/test';
import { apiAs, expect, seriousViolations, signInWithLocalUsers, test } from './fixtures.ts';

/*
 * Call flows › Caller query routing against the real server: a lookup on the built-in phonebook source sends
 * companies to an extension and everyone else to a hang-up; an inbound number routed to it pictures both ways, and
 * deleting it while the route uses it is refused, naming the route.
 */

const dialogCheck = async (page: Page) => {
  const dialog = page.getByRole('dialog').last();
  await expect(dialog).toHaveCSS('opacity', '1');
  expect(await seriousViolations(page, ['[role="dialog"]'])).toEqual([]);
};

test('caller query routing: create, route an inbound number to it, see the flow, refused delete', async ({ page }) => {
  await signInWithLocalUsers(page, [['alice', 'Alice Rossi', '201']]);

  await page.goto('/flows/cqr');
  await expect(page.getByRole('heading', { name: 'Caller query routing', level: 1 })).toBeVisible();
  expect(await seriousViolations(page, ['main'])).toEqual([]);
  await page.getByRole('button', { name: 'New caller query routing' }).click();
  const dialog = page.getByRole('dialog', { name: 'New caller query routing' });
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Choose a source').last()).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Name' }).fill('Customers');
  await dialog.getByRole('combobox', { name: 'Source', exact: true }).click();
  await page.getByRole('option', { name: 'phonebook' }).click();
  await dialog
    .getByRole('textbox', { name: 'Query' })
    .fill("SELECT type FROM phonebook WHERE workphone LIKE '%$NUMBER'");
  await dialog.getByRole('button', { name: 'Add a value' }).click();
  await dialog.getByRole('textbox', { name: 'Value 1' }).fill('company');
  await dialog.getByRole('combobox', { name: 'Value 1 goes to' }).click();
  await page.getByRole('option', { name: /201 Alice Rossi/ }).click();
  await dialog.getByRole('combobox', { name: 'Otherwise, go to' }).click();
  await page.getByRole('option', { name: 'Hang up', exact: true }).click();
  await dialogCheck(page);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  const row = page.getByTestId('cqr-Customers');
  await expect(row).toContainText('phonebook');
  await expect(row).toContainText('Terminate call: Hang up');

  const cqrs = (await apiAs(page, 'GET', '/api/cqr')).body as { destination: string }[];
  const route = await apiAs(page, 'POST', '/api/inboundroutes', {
    extension: '0721555000',
    cidnum: '',
    description: 'Main number',
    destination: cqrs[0]?.destination,
  });
  expect(route.status).toBe(200);
  await row.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText(/Caller query routing Customers is used by: inbound route 0721555000/)).toBeVisible();

  await page.goto('/routes/inbound');
  await page.getByTestId('inbound-0721555000').getByRole('button', { name: 'Show the flow' }).click();
  const picture = page.getByRole('dialog', { name: 'Where calls to 0721555000 go' });
  const flow = picture.getByTestId('flow-picture');
  await expect(flow).toContainText('Caller query routing: Customers');
  await expect(flow).toContainText("The caller's number is looked up (at most 3 s)");
  await expect(flow).toContainText('Value company: Extension: 201 Alice Rossi');
  await expect(flow).toContainText('No match, error or timeout: Terminate call: Hang up');
  await dialogCheck(page);
});
