import { expect, signIn, signInWithForm, test } from './fixtures.ts';

test('login page requires both fields and toggles the password visibility', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/login$/);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('This field is required')).toHaveCount(2);

  const password = page.getByRole('textbox', { name: 'Password', exact: true });
  await password.fill('hunter22');
  await expect(password).toHaveAttribute('type', 'password');
  await page.getByRole('button', { name: 'Show or hide the password' }).click();
  await expect(password).toHaveAttribute('type', 'text');
});

test('a wrong password shows Cannot login and keeps the user out', async ({ page }) => {
  await signIn(page, 'not-the-password');
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('Cannot login');
  await expect(alert).toContainText('Incorrect username or password');
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => localStorage.getItem('secretkey'))).toBeNull();
  // Only the failure is reported: the password stays as typed, not flagged as missing.
  await expect(page.getByRole('textbox', { name: 'Password', exact: true })).toHaveValue('not-the-password');
  await expect(page.getByText('This field is required')).toHaveCount(0);
});

test('opening the console signed out asks the server nothing that needs a key', async ({ page }) => {
  const refused: string[] = [];
  const consoleErrors: string[] = [];
  page.on('response', (response) => {
    if (response.status() === 401) refused.push(response.url());
  });
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  await page.goto('/');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(refused).toEqual([]);
  expect(consoleErrors).toEqual([]);
});

test('signing out keeps the interface language and the local preferences', async ({ page }) => {
  await signInWithForm(page);
  await expect(page.getByRole('heading', { name: 'Users', exact: true })).toBeVisible();
  await page.evaluate(() => localStorage.setItem('hideInventoryHelp', 'true'));
  await page.getByRole('button', { name: 'Interface language' }).click();
  await page.getByRole('menuitem', { name: 'Italiano' }).click();
  await expect(page.getByRole('heading', { name: 'Utenti', exact: true })).toBeVisible();

  await page.getByRole('button', { name: 'Account' }).click();
  await page.getByRole('menuitem', { name: 'Esci' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('button', { name: 'Accedi' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('button', { name: 'Accedi' })).toBeVisible();
  expect(
    await page.evaluate(() => [
      localStorage.getItem('secretkey'),
      localStorage.getItem('preferredLanguage'),
      localStorage.getItem('hideInventoryHelp'),
    ]),
  ).toEqual([null, 'it', 'true']);
});

test('signing in survives a reload; logout forgets the key', async ({ page, server }) => {
  await signInWithForm(page);
  await expect(page.getByRole('heading', { name: 'Users', exact: true })).toBeVisible();
  const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('secretkey') ?? '{}'));
  expect(stored.user).toBe('admin');

  await page.reload();
  await expect(page.getByRole('heading', { name: 'Users', exact: true })).toBeVisible();
  await expect(page).not.toHaveURL(/\/login$/);

  // A key check that never reached the server (network down, a request cut short) keeps the key: the next load
  // is signed in again without typing the password.
  await page.route('**/api/login', (route) => route.abort('internetdisconnected'));
  await page.reload();
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('secretkey'))).not.toBeNull();
  await page.unroute('**/api/login');
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Users', exact: true })).toBeVisible();

  await page.getByRole('button', { name: 'Account' }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => localStorage.getItem('secretkey'))).toBeNull();

  // The server revoked the key too: it no longer opens the API.
  await expect
    .poll(async () => {
      const res = await fetch(`${server.url}/api/login`, { headers: { User: 'admin', Secretkey: stored.secretkey } });
      return res.status;
    })
    .toBe(401);

  await page.reload();
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
});

test.describe('dark browsers', () => {
  test.use({ colorScheme: 'dark' });
  test('the login page follows the dark theme of the browser', async ({ page }) => {
    await page.goto('/login');
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  });
});

test('the login page follows the light theme of the browser', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/login');
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'light');
});

test.describe('Italian browsers', () => {
  test.use({ locale: 'it-IT' });
  test('the login page speaks Italian and the choice can be changed and is remembered', async ({ page }) => {
    await page.goto('/login');
    await expect(page.getByRole('button', { name: 'Accedi' })).toBeVisible();
    await expect(page.getByLabel('Utente')).toBeVisible();

    await page.getByRole('button', { name: "Lingua dell'interfaccia" }).click();
    await page.getByRole('menuitem', { name: 'English' }).click();
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
    await page.reload();
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('preferredLanguage'))).toBe('en');
  });

  test('a wrong password is explained in Italian', async ({ page }) => {
    await page.goto('/login');
    await page.getByLabel('Utente').fill('admin');
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill('sbagliata');
    await page.getByRole('button', { name: 'Accedi' }).click();
    await expect(page.getByRole('alert')).toContainText('Impossibile accedere');
    await expect(page.getByRole('alert')).toContainText('Nome utente o password errati');
  });
});
