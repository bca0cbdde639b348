import type { Page } from '@playwright/test';
import { apiAs, expect, seriousViolations, signInWithLocalUsers, test } from './fixtures.ts';

/*
 * Call flows › Time groups and Time conditions against the real server: office hours with a holiday are entered as
 * ranges, a condition sends calls inside them to an IVR whose key 1 leads to a queue and outside to a hang-up, and
 * an inbound number is routed to the condition: route → time condition → IVR → queue, which the inbound routes
 * screen then pictures.
 */

const dialogCheck = async (page: Page) => {
  const dialog = page.getByRole('dialog').last();
  await expect(dialog).toHaveCSS('opacity', '1');
  expect(await seriousViolations(page, ['[role="dialog"]'])).toEqual([]);
};

test('time group and condition: inbound number → time condition → IVR → queue', async ({ page }) => {
  await signInWithLocalUsers(page, [['alice', 'Alice Rossi', '201']]);
  // The queue and the menu in front of it (their screens have tests of their own).
  const queue = await apiAs(page, 'POST', '/api/queues', {
    extension: '500',
    name: 'Support',
    members: ['201'],
    failover_dest: 'app-blackhole,hangup,1',
  });
  expect(queue.status).toBe(200);
  const ivr = await apiAs(page, 'POST', '/api/ivrs', {
    name: 'Welcome menu',
    announcement: null,
    invalid_destination: 'app-blackhole,hangup,1',
    timeout_destination: 'ext-queues,500,1',
    entries: [{ selection: '1', dest: 'ext-queues,500,1' }],
  });
  expect(ivr.status).toBe(200);

  await page.goto('/flows/timegroups');
  await expect(page.getByRole('heading', { name: 'Time groups', level: 1 })).toBeVisible();
  expect(await seriousViolations(page, ['main'])).toEqual([]);
  await page.getByRole('button', { name: 'New time group' }).click();
  let dialog = page.getByRole('dialog', { name: 'New time group' });
  await dialog.getByRole('textbox', { name: 'Name' }).fill('Office hours');
  let range = dialog.getByTestId('range-0');
  await range.getByRole('textbox', { name: 'Hours' }).fill('8-12');
  await range.getByRole('textbox', { name: 'Weekdays' }).fill('mon-fri');
  await dialog.getByRole('button', { name: 'Save' }).click();
  // Hours as GotoIfTime reads them, or the form says how.
  await expect(range.getByText('Use * or a value or range as shown')).toBeVisible();
  await range.getByRole('textbox', { name: 'Hours' }).fill('08:30-12:30');
  await dialog.getByRole('button', { name: 'Add range' }).click();
  range = dialog.getByTestId('range-1');
  await range.getByRole('textbox', { name: 'Days of the month' }).fill('25');
  await range.getByRole('textbox', { name: 'Months' }).fill('dec');
  await dialogCheck(page);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('timegroup-Office hours')).toContainText('08:30-12:30 mon-fri; 25 dec');

  await page.goto('/flows/timeconditions');
  await expect(page.getByRole('heading', { name: 'Time conditions', level: 1 })).toBeVisible();
  expect(await seriousViolations(page, ['main'])).toEqual([]);
  await page.getByRole('button', { name: 'New time condition' }).click();
  dialog = page.getByRole('dialog', { name: 'New time condition' });
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Choose a time group').last()).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Name' }).fill('Open or closed');
  await dialog.getByRole('combobox', { name: 'Time group', exact: true }).click();
  await page.getByRole('option', { name: 'Office hours' }).click();
  await dialog.getByRole('combobox', { name: 'Inside the time group, go to' }).click();
  await page.getByRole('option', { name: 'Welcome menu' }).click();
  await dialog.getByRole('combobox', { name: 'Outside, go to' }).click();
  await page.getByRole('option', { name: 'Hang up', exact: true }).click();
  await dialogCheck(page);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  const row = page.getByTestId('timecondition-Open or closed');
  await expect(row).toContainText('Office hours');
  await expect(row).toContainText('IVR: Welcome menu');
  await expect(row).toContainText('Terminate call: Hang up');
  await expect(row).toContainText(/\*27\d+/);
  // No PBX in this test: the override is unknown, not invented.
  await expect(row.getByRole('combobox', { name: 'Override of Open or closed' })).toHaveValue(
    'Unknown (PBX not connected)',
  );

  // The inbound number goes through the condition to the menu, whose key 1 reaches the queue.
  const conditions = (await apiAs(page, 'GET', '/api/timeconditions')).body as { destination: string }[];
  const route = await apiAs(page, 'POST', '/api/inboundroutes', {
    extension: '0721555000',
    cidnum: '',
    description: 'Main number',
    destination: conditions[0]?.destination,
  });
  expect(route.status).toBe(200);
  await row.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText(/Time condition Open or closed is used by: inbound route 0721555000/)).toBeVisible();
  // The inbound routes screen pictures the whole flow, without a call.
  await page.goto('/routes/inbound');
  await page.getByTestId('inbound-0721555000').getByRole('button', { name: 'Show the flow' }).click();
  const picture = page.getByRole('dialog', { name: 'Where calls to 0721555000 go' });
  const flow = picture.getByTestId('flow-picture');
  await expect(flow).toContainText('Time condition: Open or closed');
  await expect(flow).toContainText('Office hours: 08:30-12:30 mon-fri; 25 dec');
  await expect(flow).toContainText('Inside the hours: IVR: Welcome menu');
  await expect(flow).toContainText('Key 1: Queue: 500 Support');
  await expect(flow).toContainText('Members 201; agents —');
  await expect(flow).toContainText('Nobody answers: Terminate call: Hang up');
  await expect(flow).toContainText('Outside the hours: Terminate call: Hang up');
  await dialogCheck(page);
  await picture.getByRole('button', { name: 'Close' }).last().click();
  await expect(picture).toBeHidden();

  // The group is in use by the condition.
  await page.goto('/flows/timegroups');
  await expect(page.getByTestId('timegroup-Office hours')).toContainText('Open or closed');
});

test('a time group takes 9:00 as 09:00, in English and in Italian', async ({ page }) => {
  await signInWithLocalUsers(page, []);
  await page.goto('/flows/timegroups');
  await page.getByRole('button', { name: 'New time group' }).click();
  let dialog = page.getByRole('dialog', { name: 'New time group' });
  await dialog.getByRole('textbox', { name: 'Name' }).fill('Mornings');
  await dialog.getByTestId('range-0').getByRole('textbox', { name: 'Hours' }).fill('9:00-12:30');
  await dialogCheck(page);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  const row = page.getByTestId('timegroup-Mornings');
  await expect(row).toContainText('09:00-12:30');
  const stored = async () =>
    ((await apiAs(page, 'GET', '/api/timegroups')).body as { name: string; ranges: { hours: string }[] }[]).find(
      (g) => g.name === 'Mornings',
    )?.ranges[0]?.hours;
  expect(await stored()).toBe('09:00-12:30');

  await page.evaluate(() => localStorage.setItem('preferredLanguage', 'it'));
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Gruppi orari', level: 1 })).toBeVisible();
  expect(await seriousViolations(page, ['main'])).toEqual([]);
  await row.getByRole('button', { name: 'Modifica' }).click();
  dialog = page.getByRole('dialog', { name: 'Modifica gruppo orario' });
  const hours = dialog.getByTestId('range-0').getByRole('textbox', { name: 'Ore' });
  await expect(hours).toHaveValue('09:00-12:30');
  await hours.fill('8:30-9:45');
  await dialogCheck(page);
  await dialog.getByRole('button', { name: 'Salva' }).click();
  await expect(dialog).toBeHidden();
  await expect(row).toContainText('08:30-09:45');
  expect(await stored()).toBe('08:30-09:45');
});
