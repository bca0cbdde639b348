import mysql from 'mysql2/promise';
import { apiAs, expect, seriousViolations, signIn, test } from './fixtures.ts';

/*
 * Customer cards (/apps/cards) against the real server and a real MariaDB on this machine (root, no
 * password): a throwaway database with a few contacts is the source a card reads.
 */
const MARIADB = { host: '127.0.0.1', port: 3306, user: 'root', password: '' };
const DB = `cz_e2e_cards_${process.pid}`;

test.beforeAll(async () => {
  const db = await mysql.createConnection(MARIADB);
  await db.query(`DROP DATABASE IF EXISTS ${DB}`);
  await db.query(`CREATE DATABASE ${DB}`);
  await db.query(`CREATE TABLE ${DB}.contacts (name varchar(40), lastname varchar(40), phone varchar(20))`);
  await db.query(
    `INSERT INTO ${DB}.contacts VALUES ('Lucia', 'Neri', '+390721100'), ('Mario', 'Rossi', '0721200'), ('<script>x</script>', 'Evil', '+390721100')`,
  );
  await db.end();
});
test.afterAll(async () => {
  const db = await mysql.createConnection(MARIADB);
  await db.query(`DROP DATABASE IF EXISTS ${DB}`);
  await db.end();
});

const dialogCheck = async (page: import('@playwright/test').Page) => {
  const dialog = page.getByRole('dialog').last();
  await expect(dialog).toHaveCSS('opacity', '1');
  expect(await seriousViolations(page, ['[role="dialog"]'])).toEqual([]);
};

test('sources, the wizard order source → template → card, the preview and the dependency modals', async ({ page }) => {
  await signIn(page);
  // The wizard order runs while the administrator has no template and no card of their own.
  const existing = await apiAs(page, 'GET', '/api/cti/customer_card');
  expect(existing.status).toBe(200);
  for (const card of existing.body as { id: number }[]) {
    expect((await apiAs(page, 'DELETE', `/api/cti/customer_card/${card.id}`)).status).toBe(200);
  }

  await page.goto('/apps/cards');
  await expect(page.getByRole('heading', { name: 'Customer cards', level: 1 })).toBeVisible();
  for (const name of ['Sources', 'Templates', 'Cards']) {
    await expect(page.getByRole('heading', { name, level: 2 })).toBeVisible();
  }
  // The built-in sources: checked on load, never modified or deleted.
  for (const name of ['phonebook', 'asteriskcdrdb']) {
    const card = page.getByTestId(`source-${name}`);
    await expect(card.getByTestId('source-check')).toHaveText('Connected');
    await expect(card).toContainText('Centralino database');
    await expect(card.getByRole('button')).toHaveCount(0);
  }
  expect(await seriousViolations(page, ['main'])).toEqual([]);

  // A new source: default ports follow the type; Save only after a successful check.
  await page.getByRole('button', { name: 'New source' }).click();
  const source = page.getByRole('dialog', { name: 'New source' });
  const port = source.getByRole('textbox', { name: 'Port' });
  await expect(port).toHaveValue('3306');
  await source.getByRole('combobox', { name: 'Database type' }).click();
  await page.getByRole('option', { name: 'PostgreSQL' }).click();
  await expect(port).toHaveValue('5432');
  await source.getByRole('combobox', { name: 'Database type' }).click();
  await page.getByRole('option', { name: 'SQL Server 2012/2014' }).click();
  await expect(port).toHaveValue('1433');
  await source.getByRole('combobox', { name: 'Database type' }).click();
  await page.getByRole('option', { name: 'MySQL' }).click();
  await expect(port).toHaveValue('3306');
  await expect(source.getByRole('button', { name: 'Check' })).toBeDisabled();
  await source.getByRole('textbox', { name: 'Database address' }).fill('127.0.0.1');
  await source.getByRole('textbox', { name: 'User' }).fill('root');
  await source.getByRole('textbox', { name: 'Database name' }).fill(`${DB}_missing`);
  await expect(source.getByRole('button', { name: 'Save' })).toBeDisabled();
  await source.getByRole('button', { name: 'Check' }).click();
  await expect(source.getByRole('alert')).toContainText('Connection failed');
  await expect(source.getByRole('button', { name: 'Save' })).toBeDisabled();
  await dialogCheck(page);
  await source.getByRole('textbox', { name: 'Database name' }).fill(DB);
  await source.getByRole('button', { name: 'Check' }).click();
  await expect(source.getByText('Connection verified')).toBeVisible();
  await dialogCheck(page);
  await source.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Source saved with success')).toBeVisible();
  const mine = page.getByTestId(`source-${DB}`);
  await expect(mine).toContainText('MySQL');
  await expect(mine).toContainText('127.0.0.1:3306');
  await expect(mine.getByTestId('source-check')).toHaveText('Connected');

  // The wizard goes on: a template, with a live preview of sample rows and its colour.
  const template = page.getByRole('dialog', { name: 'New template' });
  await expect(template).toBeVisible();
  const frame = template.frameLocator('[data-testid="card-frame"]');
  await expect(frame.locator('body')).toContainText('John Doe');
  await template.getByRole('textbox', { name: 'Name' }).fill('Contacts');
  await template.getByRole('combobox', { name: 'Colour' }).click();
  await page.getByRole('option', { name: 'Green' }).click();
  const html = template.getByRole('textbox', { name: /^Template/ });
  await expect(html).toHaveValue(/^<!-- color: green -->/);
  // A template error comes back with its line.
  await html.fill('<!-- color: green -->\n<ul>\n{% for row in results %}\n<li>{{ row.name }}\n</ul>');
  await expect(template.getByTestId('preview-error')).toContainText(/line/i);
  await html.fill(
    '<!-- color: green -->\n<ul>\n{% for row in results %}<li class="contact">{{ row.name }} <b>{{ row.lastname }}</b></li>{% endfor %}\n</ul>',
  );
  await expect(frame.locator('li.contact')).toHaveText('John Doe');
  await dialogCheck(page);
  await template.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Template saved')).toBeVisible();
  const myTemplate = page.getByTestId('template-contacts_custom');
  await expect(myTemplate).toContainText('Custom');
  await expect(myTemplate).toContainText('Green');

  // …then a card, starting with the source and template just made.
  const card = page.getByRole('dialog', { name: 'New card' });
  await expect(card).toBeVisible();
  await expect(card.getByRole('combobox', { name: 'Source' })).toHaveValue(DB);
  await expect(card.getByRole('combobox', { name: 'Template' })).toHaveValue('contacts (custom)');
  await card.getByRole('textbox', { name: 'Name', exact: true }).fill('CRM');
  // The field's box takes the click (the input inside it is as wide as its text).
  await card.locator('.mantine-MultiSelect-input').click();
  await page.getByRole('option').first().click();
  await expect(card.getByRole('button', { name: 'Save' })).toBeDisabled();
  await card.getByRole('textbox', { name: 'Query' }).fill('SELECT name, lastname FROM contacts WHERE phone = $NUMBER');
  await expect(card.getByRole('button', { name: 'Save' })).toBeEnabled();
  await card.getByRole('textbox', { name: 'Test caller number' }).fill('0039 0721 100');
  await card.getByRole('button', { name: 'Preview' }).click();
  const rows = card.getByRole('table', { name: 'Rows returned by the query' });
  await expect(rows).toContainText('Lucia');
  await expect(rows).toContainText('Neri');
  await expect(rows).not.toContainText('Rossi');
  await expect(card.getByText('2 rows returned')).toBeVisible();
  const rendered = card.frameLocator('[data-testid="card-frame"]');
  await expect(rendered.locator('li.contact').first()).toHaveText('Lucia Neri');
  // The value that looked like a script is text in the card, and the frame may run nothing.
  await expect(rendered.locator('li.contact').nth(1)).toContainText('<script>x</script>');
  await expect(card.getByTestId('card-frame')).toHaveAttribute('sandbox', '');
  await dialogCheck(page);
  // A query error is readable.
  await card.getByRole('textbox', { name: 'Query' }).fill('SELECT nope FROM contacts');
  await card.getByRole('button', { name: 'Preview' }).click();
  await expect(card.getByTestId('preview-error')).toContainText(/nope/);
  await card.getByRole('textbox', { name: 'Query' }).fill('SELECT name, lastname FROM contacts WHERE phone = $NUMBER');
  await card.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Card saved')).toBeVisible();
  const crm = page.getByTestId('card-CRM');
  await expect(crm).toContainText(DB);
  await expect(crm).toContainText('contacts (custom)');

  // Modifying the card: it opens as saved, and a changed query is what is stored and previewed.
  await crm.getByRole('button', { name: 'Modify' }).click();
  const modify = page.getByRole('dialog', { name: 'Modify card CRM' });
  const query = modify.getByRole('textbox', { name: 'Query' });
  await expect(query).toHaveValue('SELECT name, lastname FROM contacts WHERE phone = $NUMBER');
  await expect(modify.getByRole('combobox', { name: 'Source' })).toHaveValue(DB);
  await query.fill("SELECT name, lastname FROM contacts WHERE lastname = 'Rossi'");
  await modify.getByRole('button', { name: 'Preview' }).click();
  await expect(modify.getByRole('table', { name: 'Rows returned by the query' })).toContainText('Mario');
  await dialogCheck(page);
  await modify.getByRole('button', { name: 'Save' }).click();
  await expect(modify).toHaveCount(0);
  await expect
    .poll(async () => {
      const cards = (await apiAs(page, 'GET', '/api/cti/customer_card')).body as { name: string; query: string }[];
      const stored = cards.find((c) => c.name === 'CRM')?.query ?? '';
      return Buffer.from(stored, 'base64').toString('utf8');
    })
    .toBe("SELECT name, lastname FROM contacts WHERE lastname = 'Rossi'");

  // Modifying the source: the password is never shown, and Save again waits for a successful check.
  await mine.getByRole('button', { name: 'Modify' }).click();
  const editSource = page.getByRole('dialog', { name: 'Modify source' });
  await expect(editSource.getByRole('textbox', { name: 'Database name' })).toHaveValue(DB);
  await expect(editSource.getByRole('textbox', { name: 'Password', exact: true })).toHaveValue('');
  await expect(editSource.getByRole('button', { name: 'Save' })).toBeDisabled();
  await editSource.getByRole('textbox', { name: 'Port' }).fill('3399');
  await editSource.getByRole('button', { name: 'Check' }).click();
  await expect(editSource.getByRole('alert')).toContainText('Connection failed');
  await expect(editSource.getByRole('button', { name: 'Save' })).toBeDisabled();
  await editSource.getByRole('textbox', { name: 'Port' }).fill('3306');
  await editSource.getByRole('button', { name: 'Check' }).click();
  await expect(editSource.getByText('Connection verified')).toBeVisible();
  await editSource.getByRole('button', { name: 'Save' }).click();
  await expect(editSource).toHaveCount(0);
  await expect(mine.getByTestId('source-check')).toHaveText('Connected');

  // The source and the template are used: their dependency modals list the card and offer no Delete.
  await mine.getByRole('button', { name: 'Delete' }).click();
  const dependency = page.getByRole('dialog', { name: `Delete the source ${DB}` });
  await expect(dependency.getByRole('list', { name: 'Cards that use it' })).toHaveText('CRM');
  await expect(dependency.getByRole('button', { name: 'Delete' })).toHaveCount(0);
  await dialogCheck(page);
  await dependency.getByRole('button', { name: 'Cancel' }).click();
  await myTemplate.getByRole('button', { name: 'Delete' }).click();
  const tplDependency = page.getByRole('dialog', { name: 'Delete the template contacts' });
  await expect(tplDependency.getByRole('list', { name: 'Cards that use it' })).toHaveText('CRM');
  await expect(tplDependency.getByRole('button', { name: 'Delete' })).toHaveCount(0);
  await dialogCheck(page);
  await tplDependency.getByRole('button', { name: 'Cancel' }).click();

  // Deleting the card asks first; then the source can go.
  await crm.getByRole('button', { name: 'Delete' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete the card' });
  await dialogCheck(page);
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Card deleted')).toBeVisible();
  await expect(crm).toHaveCount(0);
  await mine.getByRole('button', { name: 'Delete' }).click();
  await expect(dependency.getByText('No card uses it: it can be deleted.')).toBeVisible();
  await dependency.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Source deleted')).toBeVisible();
  await expect(mine).toHaveCount(0);
  expect(await seriousViolations(page, ['main'])).toEqual([]);
});

test('in Italian: the sections, the duplicate-template modal and its rules', async ({ page }) => {
  await signIn(page);
  // A source whose database has gone since it was saved: its check on load fails and says why.
  const gone = `${DB}_gone`;
  const db = await mysql.createConnection(MARIADB);
  await db.query(`CREATE DATABASE IF NOT EXISTS ${gone}`);
  const created = await apiAs(page, 'POST', '/api/cti/dbconn', {
    type: 'mysql',
    host: MARIADB.host,
    port: MARIADB.port,
    user: MARIADB.user,
    pass: MARIADB.password,
    name: gone,
  });
  await db.query(`DROP DATABASE ${gone}`);
  await db.end();
  expect(created.status).toBe(200);
  await page.evaluate(() => localStorage.setItem('preferredLanguage', 'it'));
  await page.goto('/apps/cards');
  const goneCard = page.getByTestId(`source-${gone}`);
  await expect(goneCard.getByTestId('source-check')).toHaveText('Connessione non riuscita', { timeout: 30_000 });
  // The server answered but refused: host and port named, with what to check (a missing database among them); never
  // the driver's own words.
  await expect(goneCard.getByTestId('source-check-reason')).toContainText(
    `Il server di database su ${MARIADB.host}:${MARIADB.port} ha rifiutato l'accesso`,
  );
  await expect(goneCard.getByTestId('source-check-reason')).toContainText('nome del database');
  await expect(page.getByRole('heading', { name: 'Schede cliente', level: 1 })).toBeVisible();
  for (const name of ['Sorgenti', 'Modelli', 'Schede']) {
    await expect(page.getByRole('heading', { name, level: 2 })).toBeVisible();
  }
  await expect(page.getByTestId('source-phonebook')).toContainText('Database di Centralino');
  await expect(page.getByTestId('source-phonebook').getByTestId('source-check')).toHaveText('Connessa');
  expect(await seriousViolations(page, ['main'])).toEqual([]);

  await page.getByRole('button', { name: 'Nuova sorgente' }).click();
  const source = page.getByRole('dialog', { name: 'Nuova sorgente' });
  await expect(source.getByRole('textbox', { name: 'Indirizzo del database' })).toBeVisible();
  await expect(source.getByRole('button', { name: 'Salva' })).toBeDisabled();
  await dialogCheck(page);
  await page.keyboard.press('Escape');

  const identity = page.getByTestId('template-identity');
  await identity.getByRole('button', { name: 'Duplica' }).click();
  const duplicate = page.getByRole('dialog', { name: 'Duplica il modello identity' });
  const save = duplicate.getByRole('button', { name: 'Duplica' });
  await expect(save).toBeDisabled();
  await duplicate.getByRole('textbox', { name: 'Nome della copia' }).fill('Identity');
  await expect(duplicate.getByText("Scegli un nome diverso dall'originale")).toBeVisible();
  await expect(save).toBeDisabled();
  await dialogCheck(page);
  // A name another template has: not saved, said so, and the modal keeps what was typed.
  await duplicate.getByRole('textbox', { name: 'Nome della copia' }).fill('Table');
  await save.click();
  await expect(page.getByText('Modello non salvato')).toBeVisible();
  await expect(duplicate.getByRole('textbox', { name: 'Nome della copia' })).toHaveValue('Table');
  await duplicate.getByRole('textbox', { name: 'Nome della copia' }).fill('Identità cliente');
  await save.click();
  await expect(page.getByText('Modello salvato')).toBeVisible();
  const copy = page.getByTestId('template-identitcliente_custom');
  await expect(copy).toContainText('Personalizzato');
  await expect(copy).toContainText('Rosso');

  // Its colour changed: the first-line comment and the bg- classes of its markup follow.
  await copy.getByRole('button', { name: 'Modifica' }).click();
  const edit = page.getByRole('dialog', { name: 'Modifica il modello identitcliente' });
  await edit.getByRole('combobox', { name: 'Colore' }).click();
  await page.getByRole('option', { name: 'Blu' }).click();
  await expect(edit.getByRole('textbox', { name: /^Modello/ })).toHaveValue(/^<!-- color: blue -->/);
  await expect(edit.getByTestId('card-frame')).toBeVisible();
  await dialogCheck(page);
  await edit.getByRole('button', { name: 'Salva' }).click();
  await expect(page.getByText('Modello salvato')).toBeVisible();
  await expect(copy).toContainText('Blu');

  await page.getByRole('button', { name: 'Nuova scheda' }).click();
  const card = page.getByRole('dialog', { name: 'Nuova scheda' });
  await expect(card.getByRole('textbox', { name: 'Numero chiamante di prova' })).toBeVisible();
  await expect(card.getByRole('button', { name: 'Salva' })).toBeDisabled();
  await dialogCheck(page);
  await page.keyboard.press('Escape');

  // A template of the older system (EJS) is converted to Liquid in the editor; what cannot be is refused with its line.
  await page.getByRole('button', { name: 'Nuovo modello' }).click();
  const create = page.getByRole('dialog', { name: 'Nuovo modello' });
  const text = create.getByRole('textbox', { name: /^Modello/ });
  await text.fill('<% results.forEach(function (row) { %>\n<p><%= row.name %></p>\n<% }); %>');
  await create.getByRole('button', { name: 'Converti da EJS' }).click();
  await expect(text).toHaveValue(/\{% for row in results %\}/);
  await expect(text).toHaveValue(/\{\{ ?row\.name ?\}\}/);
  await text.fill("<p>ok</p>\n<% require('fs').readFileSync('/etc/passwd') %>");
  await create.getByRole('button', { name: 'Converti da EJS' }).click();
  await expect(create.getByTestId('convert-error')).toContainText('Riga 2');
  await dialogCheck(page);
});
