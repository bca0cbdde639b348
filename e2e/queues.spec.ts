import type { Page } from '@playwright/test';
import { apiAs, expect, seriousViolations, signInWithLocalUsers, test } from './fixtures.ts';

/*
 * Call flows › Queues (/flows/queues) against the real server: a queue of users with a failover is created, its
 * agent codes shown; a number already taken is refused naming its holder; an inbound route then sends calls to the
 * queue, so deleting it is refused naming the route.
 */

const dialogCheck = async (page: Page) => {
  const dialog = page.getByRole('dialog').last();
  await expect(dialog).toHaveCSS('opacity', '1');
  expect(await seriousViolations(page, ['[role="dialog"]'])).toEqual([]);
};

test('queue: created with members, agents and a failover, numbered like an extension, routed to', async ({ page }) => {
  await signInWithLocalUsers(page, [
    ['alice', 'Alice Rossi', '201'],
    ['bruno', 'Bruno Bianchi', '202'],
  ]);
  await page.goto('/flows/queues');
  await expect(page.getByRole('heading', { name: 'Queues', level: 1 })).toBeVisible();
  await expect(page.getByText('No queues yet.')).toBeVisible();
  expect(await seriousViolations(page, ['main'])).toEqual([]);

  await page.getByRole('button', { name: 'New queue' }).click();
  const dialog = page.getByRole('dialog', { name: 'New queue' });
  // A number that is not one: the form says so before asking the server.
  await dialog.getByRole('textbox', { name: 'Number' }).fill('5x');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('From 2 to 10 digits')).toBeVisible();
  await expect(dialog.getByText('Choose a destination').first()).toBeVisible();

  // Alice's number is hers: the server refuses it, naming her.
  await dialog.getByRole('textbox', { name: 'Number' }).fill('201');
  await dialog.getByRole('textbox', { name: 'Name' }).fill('Sales');
  await dialog.getByRole('combobox', { name: 'Static members' }).click();
  await page.getByRole('option', { name: '201 Alice Rossi' }).click();
  await dialog.getByRole('combobox', { name: 'Dynamic agents' }).click();
  await page.getByRole('option', { name: '202 Bruno Bianchi' }).click();
  await dialog.getByRole('combobox', { name: 'Ring strategy' }).click();
  await page.getByRole('option', { name: 'Round robin with memory' }).click();
  await dialog.getByRole('combobox', { name: 'Then go to' }).click();
  await page.getByRole('option', { name: 'Hang up', exact: true }).click();
  await dialog.getByRole('checkbox', { name: 'Tell callers their position in the queue' }).check();
  await dialogCheck(page);
  await dialog.getByRole('button', { name: 'Save' }).click();
  const refusal = 'The queue cannot have number 201: number 201 is already in use by user alice';
  await expect(dialog.getByText(refusal)).toBeVisible();
  await page.getByRole('alert').filter({ hasText: refusal }).getByRole('button', { name: 'Close' }).click();

  await dialog.getByRole('textbox', { name: 'Number' }).fill('500');
  await expect(dialog.getByText(refusal)).toBeHidden();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  const row = page.getByTestId('queue-500');
  await expect(row).toContainText('Sales');
  await expect(row).toContainText('Round robin with memory');
  await expect(row).toContainText('1 members, 1 agents');
  await expect(row).toContainText('login *45500, pause *46500');
  await expect(row).toContainText('Terminate call: Hang up');
  expect(await seriousViolations(page, ['main'])).toEqual([]);

  // The queue is a destination of inbound routes now, and its number is no one else's.
  const queues = (await apiAs(page, 'GET', '/api/queues')).body as { destination: string; members: string[] }[];
  expect(queues[0]?.members).toEqual(['201']);
  const route = await apiAs(page, 'POST', '/api/inboundroutes', {
    extension: '0721999500',
    cidnum: '',
    description: 'Sales line',
    destination: queues[0]?.destination,
  });
  expect(route.status).toBe(200);
  expect((await apiAs(page, 'POST', '/api/users', { username: 'carla', fullname: 'Carla' })).status).toBe(201);
  expect((await apiAs(page, 'POST', '/api/mainextensions', { username: 'carla', extension: '500' })).status).toBe(422);
  // …so deleting it is refused, naming the route.
  await row.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText(/Queue 500 Sales is used by: inbound route 0721999500/)).toBeVisible();

  // Italian: the same screen in the other language, reached from the Call flows menu.
  expect((await apiAs(page, 'POST', '/api/configuration/wizard', { status: 'false', step: 13 })).status).toBe(200);
  await page.evaluate(() => localStorage.setItem('preferredLanguage', 'it'));
  await page.goto('/flows/ivr');
  const menu = page.getByRole('navigation', { name: 'Menu principale' });
  await menu.getByRole('link', { name: 'Code' }).click();
  await expect(page.getByRole('heading', { name: 'Code', level: 1 })).toBeVisible();
  await expect(page.getByTestId('queue-500')).toContainText('A turno con memoria');
  expect(await seriousViolations(page, ['main'])).toEqual([]);
});
