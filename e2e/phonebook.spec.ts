import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { apiAs, expect, seriousViolations, signInWithLocalUsers, test } from './fixtures.ts';

// A CSV export served over HTTP on loopback, as a supplier's web site would offer it.
let csv = 'Nome;Telefono;Azienda\nLucia Neri;0721 100;Neri snc\nSenza Numero;;X\n';
const web = http.createServer((req, res) => {
  if (req.url === '/contacts.csv') res.writeHead(200, { 'content-type': 'text/csv' }).end(csv);
  else res.writeHead(404).end();
});
await new Promise<void>((r) => web.listen(0, '127.0.0.1', r));
const url = `http://127.0.0.1:${(web.address() as AddressInfo).port}/contacts.csv`;
test.afterAll(() => web.close());

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
  // A new source is meant to sync: on unless turned off.
  await expect(dialog.getByRole('switch', { name: 'Synchronization status' })).toBeChecked();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Source saved with success')).toBeVisible();
  const card = page.getByTestId('phonebook-source-custom_1');
  await expect(card.getByRole('heading', { name: 'Suppliers' })).toBeVisible();
  await expect(card.getByTestId('sync-status')).toHaveText('Never synchronised');
  await expect(card).toContainText('Every day');

  await card.getByRole('button', { name: 'Sync' }).click();
  await expect(card.getByLabel('Synchronised')).toBeVisible();
  await expect(card.getByTestId('sync-status')).toContainText('1 contact, 1 rows without a name or number skipped');
  // What the sync brought in is listed with the phonebook the phones see.
  const contacts = page.getByRole('table', { name: 'Contacts in the phonebook' });
  await expect(contacts.getByRole('row', { name: /Lucia Neri/ })).toContainText('Suppliers');
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
  // Said why, where it shows and with the button.
  await expect(card.getByText('Enable the source to sync it')).toBeVisible();
  await expect(card.getByRole('button', { name: 'Sync' })).toHaveAccessibleDescription('Enable the source to sync it');
  expect(await seriousViolations(page, ['main'])).toEqual([]);
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
  await page.keyboard.press('Escape');
  // A disabled source says why it cannot be synced, in Italian too.
  const created = await apiAs(page, 'POST', '/api/phonebook/config', {
    dbtype: 'csv',
    url,
    mapping: { Nome: 'name', Telefono: 'workphone' },
    type: 'Fornitori',
    enabled: false,
  });
  expect(created.status).toBe(200);
  await page.reload();
  const card = page.getByTestId(`phonebook-source-${created.body.id}`);
  await expect(card.getByRole('button', { name: 'Sincronizza' })).toBeDisabled();
  await expect(card.getByRole('button', { name: 'Sincronizza' })).toHaveAccessibleDescription(
    'Abilita la sorgente per sincronizzarla',
  );
  await expect(card.getByText('Abilita la sorgente per sincronizzarla')).toBeVisible();
  expect(await seriousViolations(page, ['main'])).toEqual([]);
});

test('the contacts syncs brought in: searched, and paged as the list scrolls (en, it)', async ({ page }) => {
  const many = http.createServer((_req, res) => {
    const rows = Array.from({ length: 45 }, (_, i) => `Contatto ${String(i + 1).padStart(2, '0')};0721 ${200 + i}`);
    res.writeHead(200, { 'content-type': 'text/csv' }).end(`Nome;Telefono\n${rows.join('\n')}\n`);
  });
  await new Promise<void>((r) => many.listen(0, '127.0.0.1', r));
  try {
    await signInWithLocalUsers(page, []);
    const created = await apiAs(page, 'POST', '/api/phonebook/config', {
      dbtype: 'csv',
      url: `http://127.0.0.1:${(many.address() as AddressInfo).port}/many.csv`,
      mapping: { Nome: 'name', Telefono: 'workphone' },
      type: 'Clients',
      enabled: true,
    });
    expect(created.status).toBe(200);
    expect((await apiAs(page, 'POST', `/api/phonebook/syncnow/${created.body.id}`)).body).toMatchObject({
      contacts: 45,
    });
    await page.goto('/apps/phonebook');
    const list = page.getByRole('table', { name: 'Contacts in the phonebook' });
    const count = page.getByTestId('contacts-count');
    await expect(count).toHaveText('20 of 45 contacts');
    await expect(list.getByRole('row', { name: /Contatto 01/ })).toContainText('Clients');
    expect(await seriousViolations(page, ['main'])).toEqual([]);
    // Scrolling to the end of the list brings the next page.
    const more = page.getByRole('button', { name: 'Show more' });
    await more.scrollIntoViewIfNeeded();
    await expect(count).toHaveText(/^(40|45) of 45 contacts$/);
    await expect(async () => {
      if ((await more.count()) > 0) await more.scrollIntoViewIfNeeded();
      await expect(count).toHaveText('45 of 45 contacts', { timeout: 2000 });
    }).toPass({ timeout: 60_000 });
    await expect(more).toHaveCount(0);
    await expect(list.getByRole('row', { name: /Contatto 45/ })).toBeVisible();

    await page.getByRole('textbox', { name: 'Search contacts' }).fill('0721 207');
    await expect(count).toHaveText('1 of 1 contact');
    await expect(list.getByRole('row')).toHaveCount(2);
    await expect(list).toContainText('Contatto 08');
    await page.getByRole('textbox', { name: 'Search contacts' }).fill('nobody at all');
    await expect(page.getByText('No contact matches the search')).toBeVisible();

    await page.evaluate(() => localStorage.setItem('preferredLanguage', 'it'));
    await page.reload();
    const lista = page.getByRole('table', { name: 'Contatti in rubrica' });
    await expect(page.getByTestId('contacts-count')).toHaveText('20 di 45 contatti');
    await expect(lista.getByRole('row', { name: /Contatto 01/ })).toContainText('Clients');
    await page.getByRole('textbox', { name: 'Cerca contatti' }).fill('contatto 45');
    await expect(page.getByTestId('contacts-count')).toHaveText('1 di 1 contatto');
    expect(await seriousViolations(page, ['main'])).toEqual([]);
  } finally {
    many.close();
  }
});
