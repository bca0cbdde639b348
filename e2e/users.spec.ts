import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { settingsFor, startSlapd, type TestSlapd } from '../apps/server/test/support/slapd.ts';
import { apiAs, expect, seriousViolations, signIn, signInWithLocalUsers, test } from './fixtures.ts';

test('local directory: install, add a user, give an extension, refuse a duplicate', async ({ page }) => {
  await signIn(page);
  await expect(page).toHaveURL(/\/users$/);
  await expect(page.getByRole('heading', { name: 'Choose how to manage your PBX users' })).toBeVisible();
  const bar = page.getByTestId('step-bar');
  await expect(bar.getByRole('button', { name: 'Next' })).toBeDisabled();

  // Configure Provider carries its documentation before it is chosen.
  await expect(page.getByRole('link', { name: 'How to connect a directory' })).toHaveAttribute(
    'href',
    '/help/directory.en.html',
  );
  await page.getByRole('button', { name: 'Local directory' }).click();
  await expect(page.getByText('The local directory is ready.')).toBeVisible();
  await expect(page.getByTestId('install-percent')).toHaveText('100% complete');
  // The ready line reads at 4.5:1, in both languages.
  expect(await seriousViolations(page, ['main'])).toEqual([]);
  await page.getByRole('button', { name: 'Interface language' }).click();
  await page.getByRole('menuitem', { name: 'Italiano' }).click();
  await expect(page.getByText('La directory locale è pronta.')).toBeVisible();
  expect(await seriousViolations(page, ['main'])).toEqual([]);
  await page.getByRole('button', { name: "Lingua dell'interfaccia" }).click();
  await page.getByRole('menuitem', { name: 'English' }).click();
  await page.getByRole('button', { name: 'Next' }).first().click();

  await expect(page).toHaveURL(/\/extensions$/);
  await expect(bar).toContainText('Step 1 of 13');
  await expect(page.getByText('No users found')).toBeVisible();
  // Next waits for a configured user.
  await expect(bar.getByRole('button', { name: 'Next' })).toBeDisabled();

  for (const [username, fullname] of [
    ['alice', 'Alice Rossi'],
    ['bob', 'Bob Bianchi'],
  ] as const) {
    await page.getByRole('button', { name: 'Add user' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Add user' });
    await dialog.getByLabel('Username').fill(username);
    await dialog.getByLabel('Full name').fill(fullname);
    await dialog.getByRole('button', { name: 'Add user' }).click();
    await expect(page.getByText(new RegExp(`User ${username} created\\. Password: [a-zA-Z0-9]{8}`))).toBeVisible();
  }
  // The notification just shown leaves the controls of a dialog usable (it once covered the close button).
  await page.getByRole('button', { name: 'Add user' }).first().click();
  await page.getByRole('dialog', { name: 'Add user' }).locator('.mantine-Modal-close').click({ timeout: 3000 });
  await expect(page.getByRole('dialog', { name: 'Add user' })).toHaveCount(0);

  // Both fields are required; nothing is sent without them.
  await page.getByRole('button', { name: 'Add user' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Add user' });
  await dialog.getByRole('button', { name: 'Add user' }).click();
  await expect(dialog.getByText('Username is required')).toBeVisible();
  await expect(dialog.getByText('Full name is required')).toBeVisible();
  // A name the server refused stops being flagged once it is changed.
  await dialog.getByLabel('Username').fill('alice');
  await dialog.getByLabel('Full name').fill('Alice Again');
  await dialog.getByRole('button', { name: 'Add user' }).click();
  await expect(dialog.getByText('already exists')).toBeVisible();
  await dialog.getByLabel('Username').fill('alice2');
  await expect(dialog.getByText('already exists')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  const alice = page.getByTestId('user-alice');
  await alice.getByLabel('Extension of Alice Rossi').fill('201');
  await alice.getByRole('button', { name: 'Add' }).click();
  await expect(alice.getByTestId('main-extension')).toHaveText('201');
  await expect(bar.getByRole('button', { name: 'Next' })).toBeEnabled();

  const bob = page.getByTestId('user-bob');
  await bob.getByLabel('Extension of Bob Bianchi').fill('201');
  await bob.getByRole('button', { name: 'Add' }).click();
  await expect(bob.getByText('Extension already in use')).toBeVisible();
  await bob.getByLabel('Extension of Bob Bianchi').fill('202');
  await bob.getByRole('button', { name: 'Add' }).click();
  await expect(bob.getByTestId('main-extension')).toHaveText('202');

  // Renumber alice; the list sorted by number follows.
  await alice.getByRole('button', { name: 'Modify' }).click();
  await alice.getByLabel('Extension of Alice Rossi').fill('203');
  await alice.getByRole('button', { name: 'Save' }).click();
  await expect(alice.getByTestId('main-extension')).toHaveText('203');
  await expect(page.getByTestId(/^user-/).first()).toHaveAttribute('data-testid', 'user-bob');

  // Filter and search run on the server.
  await page.getByRole('textbox', { name: 'Search' }).fill('rossi');
  await expect(page.getByTestId(/^user-/)).toHaveCount(1);
  await expect(page.getByTestId('list-count')).toHaveText('1 of 1');

  await bar.getByRole('button', { name: 'Next' }).click();
  await expect(bar).toContainText('Step 2 of 13');
});

test('extensions list pages 20 at a time and shows the licence meter', async ({ page }) => {
  await signIn(page);
  await expect(page).toHaveURL(/\/users$/);
  expect((await apiAs(page, 'POST', '/api/configuration/mode', { mode: 'legacy' })).status).toBe(200);
  await expect.poll(async () => (await apiAs(page, 'GET', '/api/configuration/userprovider')).body.configured).toBe(1);
  const rows = Array.from({ length: 45 }, (_, i) => `u${String(i).padStart(3, '0')},User ${i},${300 + i}`);
  const started = await apiAs(page, 'POST', '/api/csv/csvimport', {
    file: Buffer.from(rows.join('\n')).toString('base64'),
  });
  expect(started.status).toBe(200);
  await expect.poll(async () => (await apiAs(page, 'GET', '/api/csv/csvimport')).body.result).toBe(100);
  await page.goto('/extensions');
  await expect(page.getByTestId('list-count')).toHaveText('20 of 45');
  await page.getByRole('button', { name: 'Show more' }).scrollIntoViewIfNeeded();
  await expect(page.getByTestId('list-count')).toHaveText(/^(40|45) of 45$/);

  // On a screen taller than two pages, the list fills it by itself: the end of the list is still in view when a
  // page arrives, so the next one is asked for without waiting for a scroll (the observer alone stopped at 40).
  await page.setViewportSize({ width: 1280, height: 9000 });
  await page.reload();
  await expect(page.getByTestId('list-count')).toHaveText('45 of 45');
  await expect(page.getByTestId(/^user-/)).toHaveCount(45);
});

test.describe('with a licence of 2 extensions', () => {
  test.use({ serverEnv: { EXTENSION_LIMIT: '2' } });
  test('the meter counts down and Add is disabled at the limit', async ({ page }) => {
    await signIn(page);
    await expect(page).toHaveURL(/\/users$/);
    expect((await apiAs(page, 'POST', '/api/configuration/mode', { mode: 'legacy' })).status).toBe(200);
    await expect
      .poll(async () => (await apiAs(page, 'GET', '/api/configuration/userprovider')).body.configured)
      .toBe(1);
    for (const u of ['ann', 'ben', 'cid']) {
      expect((await apiAs(page, 'POST', '/api/users', { username: u, fullname: `${u} Test` })).status).toBe(201);
    }
    await page.goto('/extensions');
    const meter = page.getByTestId('licence-meter');
    await expect(meter).toContainText('2 extensions left');
    for (const [u, n] of [
      ['ann', '401'],
      ['ben', '402'],
    ] as const) {
      const row = page.getByTestId(`user-${u}`);
      await row.getByRole('textbox').fill(n);
      await row.getByRole('button', { name: 'Add' }).click();
      await expect(row.getByTestId('main-extension')).toHaveText(n);
    }
    await expect(meter).toContainText('0 extensions left');
    await expect(page.getByText('Licence limit reached')).toBeVisible();
    const cid = page.getByTestId('user-cid');
    await cid.getByRole('textbox').fill('403');
    await expect(cid.getByRole('button', { name: 'Add' })).toBeDisabled();
  });
});

test('CSV import previews, imports the good rows, reports the bad one; export downloads users.csv', async ({
  page,
}) => {
  await signIn(page);
  await expect(page).toHaveURL(/\/users$/);
  expect((await apiAs(page, 'POST', '/api/configuration/mode', { mode: 'legacy' })).status).toBe(200);
  await expect.poll(async () => (await apiAs(page, 'GET', '/api/configuration/userprovider')).body.configured).toBe(1);
  await page.goto('/extensions');

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'centralino-csv-'));
  const notCsv = path.join(dir, 'users.txt');
  fs.writeFileSync(notCsv, 'alice,Alice\n');
  const csv = path.join(dir, 'users.csv');
  fs.writeFileSync(
    csv,
    ['username,fullname,extension', 'carla,Carla Verdi,211', 'dario,Dario Neri,212', 'bad name,Broken,213'].join('\n'),
  );

  await page.getByRole('button', { name: 'Import' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import users from CSV' });
  await dialog.locator('input[type=file]').setInputFiles(notCsv);
  await expect(dialog.getByText('File must be a CSV')).toBeVisible();

  await dialog.locator('input[type=file]').setInputFiles(csv);
  const preview = dialog.getByTestId('csv-preview');
  await expect(preview).toContainText('2 to create');
  await expect(preview).toContainText('1 rejected');
  await expect(preview).toContainText('Username "bad name" is not valid');
  // The chosen file's clear X is named, and the rows scroll from the keyboard (axe runs on the dialog's states).
  await expect(dialog.getByRole('button', { name: 'Remove the chosen file' })).toBeVisible();
  await expect(dialog.getByLabel('Rows of the file')).toHaveAttribute('tabindex', '0');
  expect(await seriousViolations(page, ['[role="dialog"]'])).toEqual([]);
  await dialog.getByRole('button', { name: 'Import 2 users' }).click();
  // Two imported, one refused: a success with refusals, the refused row named with why (not "failed").
  const outcome = dialog.getByTestId('csv-outcome');
  await expect(outcome).toContainText('Import complete, 1 row refused');
  await expect(outcome).toContainText('2 created, 0 changed.');
  await expect(dialog.getByText(/Line 4 \(bad name\):/)).toBeVisible();
  await expect(dialog.getByText('Some users creation failed')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Close' }).last().click();

  await expect(page.getByTestId('user-carla').getByTestId('main-extension')).toHaveText('211');
  await expect(page.getByTestId('user-dario').getByTestId('main-extension')).toHaveText('212');

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('users.csv');
  const text = fs.readFileSync(await file.path(), 'utf8');
  expect(text).toContain('"carla","Carla Verdi","211"');
  expect(text).toContain('"dario","Dario Neri","212"');

  // In Italian, the same file's preview: the clear X and the rows' scroll area are named.
  await page.evaluate(() => localStorage.setItem('preferredLanguage', 'it'));
  await page.reload();
  await page.getByRole('button', { name: 'Importa', exact: true }).click();
  const finestra = page.getByRole('dialog', { name: 'Importa utenti da CSV' });
  await finestra.locator('input[type=file]').setInputFiles(csv);
  await expect(finestra.getByTestId('csv-preview')).toBeVisible();
  await expect(finestra.getByRole('button', { name: 'Togli il file scelto' })).toBeVisible();
  await expect(finestra.getByLabel('Righe del file')).toHaveAttribute('tabindex', '0');
  expect(await seriousViolations(page, ['[role="dialog"]'])).toEqual([]);
  fs.rmSync(dir, { recursive: true, force: true });
});

test("the console's export imports back without warnings; a complete import stays until closed; in Italian", async ({
  page,
}) => {
  // The clock is the page's own, ticking as usual: moved forward below to see what a waiting user would see.
  await page.clock.install();
  await signInWithLocalUsers(page, [
    ['alice', 'Alice Rossi', '201'],
    ['bob', 'Bob Bianchi'],
  ]);
  expect((await apiAs(page, 'POST', '/api/webrtc', { extension: '201' })).status).toBe(200);
  await page.goto('/extensions');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'centralino-csv-'));
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export' }).click();
  const exported = path.join(dir, 'users.csv');
  await (await downloading).saveAs(exported);
  expect(fs.readFileSync(exported, 'utf8')).toContain('"alice","Alice Rossi","201"');

  await page.getByRole('button', { name: 'Import' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import users from CSV' });
  await dialog.locator('input[type=file]').setInputFiles(exported);
  const preview = dialog.getByTestId('csv-preview');
  await expect(preview).toContainText('2 unchanged');
  // The webrtc column the export wrote is applied, not flagged on every line.
  await expect(preview).not.toContainText('webrtc');
  expect(await seriousViolations(page, ['[role="dialog"]'])).toEqual([]);

  const added = path.join(dir, 'added.csv');
  fs.writeFileSync(
    added,
    ['username,fullname,extension,password,mobile,voicemail,webrtc', 'erin,Erin Blu,215,,,,TRUE'].join('\n'),
  );
  await dialog.locator('input[type=file]').setInputFiles(added);
  await expect(preview).toContainText('1 to create');
  await dialog.getByRole('button', { name: 'Import 1 user' }).click();
  const done = dialog.getByText('Import complete: 1 created, 0 changed.');
  await expect(done).toBeVisible({ timeout: 60_000 });
  // The result is still there well after the second in which the original closed it.
  await page.clock.runFor(3_000);
  await expect(done).toBeVisible();
  expect(await seriousViolations(page, ['[role="dialog"]'])).toEqual([]);
  await dialog.getByRole('button', { name: 'Close' }).last().click();
  await expect(dialog).toBeHidden();
  expect(await apiAs(page, 'GET', '/api/webrtc/215')).toMatchObject({ status: 200, body: '215' });

  // In Italian: the same export shows no warning, and a refused row is said with a capital letter.
  await page.evaluate(() => localStorage.setItem('preferredLanguage', 'it'));
  await page.reload();
  await page.getByRole('button', { name: 'Importa' }).click();
  const italian = page.getByRole('dialog', { name: 'Importa utenti da CSV' });
  await italian.locator('input[type=file]').setInputFiles(exported);
  await expect(italian.getByTestId('csv-preview')).toContainText('2 invariati');
  await expect(italian.getByTestId('csv-preview')).not.toContainText('webrtc');
  expect(await seriousViolations(page, ['[role="dialog"]'])).toEqual([]);
  const broken = path.join(dir, 'broken.csv');
  fs.writeFileSync(broken, ['username,fullname,extension', 'gino,Gino Neri,216', 'bad name,Rotto,217'].join('\n'));
  await italian.locator('input[type=file]').setInputFiles(broken);
  await italian.getByRole('button', { name: 'Importa 1 utente' }).click();
  await expect(italian.getByTestId('csv-outcome')).toContainText('Importazione completata, 1 riga rifiutata', {
    timeout: 60_000,
  });
  await expect(italian.getByTestId('csv-outcome')).toContainText('1 creati, 0 modificati.');
  expect(await seriousViolations(page, ['[role="dialog"]'])).toEqual([]);
  fs.rmSync(dir, { recursive: true, force: true });
});

test.describe('external directory', () => {
  let slapd: TestSlapd;
  test.beforeAll(async () => {
    slapd = await startSlapd();
    await slapd.addUsers([
      { uid: 'mrossi', givenName: 'Mario', sn: 'Rossi', mail: 'mario@example.com' },
      { uid: 'lverdi', givenName: 'Laura', sn: 'Verdi' },
      { uid: 'gbianchi', cn: 'Giulia Bianchi', sn: 'Bianchi' },
    ]);
  });
  test.afterAll(async () => {
    await slapd?.stop();
  });

  test('connects an LDAP server, tests it, saves it and lists its users', async ({ page }) => {
    const settings = settingsFor(slapd);
    await signIn(page);
    await page.getByRole('button', { name: 'Configure Provider' }).click();
    const form = page.getByTestId('directory-form');
    await form.getByLabel('Host').fill(settings.host);
    await form.getByLabel('Port').fill(String(settings.port));
    await form.getByLabel('Bind DN').fill(settings.bindDn);
    await form.getByLabel('Base DN').fill(settings.baseDn);

    // Wrong password first: a clear error, nothing saved.
    await form.getByLabel('Bind password').fill('wrong-password');
    await form.getByRole('button', { name: 'Test' }).click();
    await expect(form.getByText('Directory login failed')).toBeVisible();
    await expect(form.getByRole('button', { name: 'Save' })).toBeDisabled();

    await form.getByLabel('Bind password').fill(settings.bindPassword);
    await form.getByLabel('Look up a user (optional)').fill('*)(uid=*');
    await form.getByRole('button', { name: 'Test' }).click();
    await expect(form.getByText('Connected: 3 users found')).toBeVisible();
    // A filter-like name is a plain name: it matches nobody.
    await expect(form.getByTestId('directory-found')).toHaveText('No user named *)(uid=*');
    await form.getByLabel('Look up a user (optional)').fill('mrossi');
    await form.getByRole('button', { name: 'Test' }).click();
    await expect(form.getByTestId('directory-found')).toHaveText('Found mrossi: Mario Rossi');

    await form.getByRole('button', { name: 'Save' }).click();
    await expect(page).toHaveURL(/\/extensions$/);
    await expect(page.getByTestId('user-mrossi')).toContainText('Mario Rossi');
    await expect(page.getByTestId('user-gbianchi')).toContainText('Giulia Bianchi');
    await expect(page.getByTestId(/^user-/)).toHaveCount(3);
    // Users come from the directory: no Add user or Import here.
    await expect(page.getByRole('button', { name: 'Add user' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Import' })).toHaveCount(0);
    expect((await apiAs(page, 'GET', '/api/configuration/userprovider')).body).toEqual({
      configured: 1,
      type: 'ldap',
      local: 0,
      domain: 'example.com',
    });

    const row = page.getByTestId('user-lverdi');
    await row.getByRole('textbox').fill('250');
    await row.getByRole('button', { name: 'Add' }).click();
    await expect(row.getByTestId('main-extension')).toHaveText('250');

    // A user added to the directory appears after a sync.
    await slapd.addUser({ uid: 'nnuovo', givenName: 'Nina', sn: 'Nuovo' });
    await page.getByRole('button', { name: 'Sync now' }).click();
    await expect(page.getByTestId('user-nnuovo')).toContainText('Nina Nuovo', { timeout: 60_000 });
    await expect(page.getByTestId('user-lverdi').getByTestId('main-extension')).toHaveText('250');
  });
});
