import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, seriousViolations, signInWithLocalUsers, test } from './fixtures.ts';

// A CSV export served over HTTP on loopback, as a supplier's web site would offer it.
let csv = 'Nome;Telefono;Azienda\nLucia Neri;0721 100;Neri snc\nSenza Numero;;X\n';
const web = http.createServer((req, res) => {
  if (req.url === '/contacts.csv') res.writeHead(200, { 'content-type': 'text/csv' }).end(csv);
  else res.writeHead(404).end();
});
await new Promise<void>((r) => web.listen(0, '127.0.0.1', r));
const url = `http://127.0.0.1:${(web.address() as AddressInfo).port}/contacts.csv`;
test.afterAll(() => web.close());
test.setTimeout(90_000);

test('a CSV source through the 3-step modal, synced with its result on the card', async ({ page }) => {
  await signInWithLocalUsers(page, []);
  await page.goto('/apps/phonebook');
  await expect(page.getByRole('heading', { name: 'Phonebook', level: 1 })).toBeVisible();
  await expect(page.getByText('No phonebook source yet.')).toBeVisible();
  expect(await seriousViolations(page, ['main'])).toEqual([]);

  await page.getByRole('button', { name: 'New source' }).click();
  const dialog = page.getByRole('dialog', { name: 'New phonebook source' });
  await dialog.getByText('CSV', { exact: true }).click();
  await dialog.getByRole('textbox', { name: 'URL of the CSV file' }).fill(`${url}.missing`);
  await expect(dialog.getByRole('button', { name: 'Next' })).toBeDisabled();
  await dialog.getByRole('button', { name: 'Check connection' }).click();
  await expect(dialog.getByText('The source cannot be read')).toBeVisible();
  await expect(dialog).toContainText('HTTP 404');
  await expect(dialog.getByRole('button', { name: 'Next' })).toBeDisabled();
  await dialog.getByRole('textbox', { name: 'URL of the CSV file' }).fill(url);
  await dialog.getByRole('button', { name: 'Check connection' }).click();
  await expect(dialog.getByText('Connection verified')).toBeVisible();
  expect(await seriousViolations(page, ['[role="dialog"]'])).toEqual([]);
  await dialog.getByRole('button', { name: 'Next' }).click();

  await expect(dialog.getByText('Map a column to the name.')).toBeVisible();
  await dialog.getByRole('combobox', { name: 'Column Nome' }).click();
  await page.getByRole('option', { name: 'Name', exact: true }).click();
  await dialog.getByRole('combobox', { name: 'Column Telefono' }).click();
  await page.getByRole('option', { name: 'Work phone', exact: true }).click();
  const preview = dialog.getByRole('table', { name: 'Preview of the first rows' });
  await expect(preview).toContainText('Lucia Neri');
  await expect(preview).toContainText('0721 100');
  expect(await seriousViolations(page, ['[role="dialog"]'])).toEqual([]);
  await dialog.getByRole('button', { name: 'Next' }).click();

  await dialog.getByRole('textbox', { name: 'Name of the source' }).fill('Suppliers');
  await dialog.getByRole('switch', { name: 'Synchronization status' }).click({ force: true });
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Source saved with success')).toBeVisible();
  const card = page.getByTestId('phonebook-source-custom_1');
  await expect(card.getByRole('heading', { name: 'Suppliers' })).toBeVisible();
  await expect(card.getByTestId('sync-status')).toHaveText('Never synchronised');
  await expect(card).toContainText('Every day');

  await card.getByRole('button', { name: 'Sync' }).click();
  await expect(card.getByLabel('Synchronised')).toBeVisible();
  await expect(card.getByTestId('sync-status')).toContainText('1 contact, 1 rows without a name or number skipped');
  // The supplier's site goes down: the card says so and the contacts stay.
  csv = '';
  web.removeAllListeners('request');
  web.on('request', (_req, res) => res.writeHead(503).end());
  await card.getByRole('button', { name: 'Sync' }).click();
  await expect(card.getByLabel('Synchronisation failed')).toBeVisible();
  await expect(card.getByTestId('sync-status')).toContainText('HTTP 503. The previous contacts are kept.');
  expect(await seriousViolations(page, ['main'])).toEqual([]);

  // Disabled, a source cannot be synced; deleting asks first.
  await card.getByRole('switch', { name: 'Synchronization status' }).click({ force: true });
  await expect(card.getByRole('button', { name: 'Sync' })).toBeDisabled();
  await card.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog', { name: 'Delete the source' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('No phonebook source yet.')).toBeVisible();
});

test('in Italian', async ({ page }) => {
  await signInWithLocalUsers(page, []);
  await page.evaluate(() => localStorage.setItem('preferredLanguage', 'it'));
  await page.goto('/apps/phonebook');
  await expect(page.getByRole('heading', { name: 'Rubrica', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Nuova sorgente' }).click();
  const dialog = page.getByRole('dialog', { name: 'Nuova sorgente della rubrica' });
  await expect(dialog.getByRole('button', { name: 'Verifica connessione' })).toBeDisabled();
  expect(await seriousViolations(page, ['main', '[role="dialog"]'])).toEqual([]);
});
