import { apiAs, expect, signIn, test } from './fixtures.ts';

test('the wizard starts at step 0, moves with the step bar and survives reloads and restarts', async ({
  page,
  server,
}) => {
  await signIn(page);
  const bar = page.getByTestId('step-bar');
  await expect(page.getByRole('heading', { name: 'Users', exact: true })).toBeVisible();
  await expect(bar).toContainText('Step 0 of 13');
  await expect(bar.getByRole('button', { name: 'Previous' })).toBeDisabled();
  // The users step goes on once a directory exists, the extensions step once a user has a number.
  await expect(bar.getByRole('button', { name: 'Next' })).toBeDisabled();
  expect((await apiAs(page, 'POST', '/api/configuration/mode', { mode: 'legacy' })).status).toBe(200);
  await expect.poll(async () => (await apiAs(page, 'GET', '/api/configuration/userprovider')).body.configured).toBe(1);
  expect((await apiAs(page, 'POST', '/api/users', { username: 'ada', fullname: 'Ada Lovelace' })).status).toBe(201);
  expect((await apiAs(page, 'POST', '/api/mainextensions', { username: 'ada', extension: '201' })).status).toBe(201);
  await page.reload();

  await expect(page.getByRole('heading', { name: 'Extensions' })).toBeVisible();
  await expect(bar).toContainText('Step 1 of 13');
  await expect(bar).toContainText('8% complete');

  await bar.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('heading', { name: 'Physical lines' })).toBeVisible();
  await expect(bar).toContainText('15% complete');
  expect((await apiAs(page, 'GET', '/api/configuration/wizard')).body).toEqual([{ step: 2, status: 'true' }]);

  // The lines step shows its sub-steps: 1 Physical (here), 2 VoIP.
  const lines = page.getByRole('navigation', { name: 'Steps of the lines' });
  await expect(lines.getByRole('listitem')).toHaveText(['1Physical', '2VoIP']);
  await expect(lines.getByRole('link', { name: 'Physical' })).toHaveAttribute('aria-current', 'step');

  await page.reload();
  await expect(page.getByRole('heading', { name: 'Physical lines' })).toBeVisible();

  await server.restart();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Physical lines' })).toBeVisible();
  await expect(bar).toContainText('Step 2 of 13');

  await bar.getByRole('button', { name: 'Previous' }).click();
  await expect(page.getByRole('heading', { name: 'Extensions' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Extensions' })).toBeVisible();
});

test('the languages step sets the PBX language; finalise leads to /final and then the admin areas', async ({
  page,
}) => {
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Users', exact: true })).toBeVisible();
  expect((await apiAs(page, 'POST', '/api/configuration/wizard', { status: 'true', step: 12 })).status).toBe(200);
  await page.goto('/');

  await expect(page).toHaveURL(/\/admin\/languages$/);
  const bar = page.getByTestId('step-bar');
  await expect(bar).toContainText('Step 12 of 13');
  await expect(bar).toContainText('92% complete');
  await expect(page.getByTestId('current-language')).toContainText('English');

  await page.getByRole('combobox', { name: 'System language' }).click();
  await page.getByRole('option', { name: 'German' }).click();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Language saved')).toBeVisible();
  await expect(page.getByTestId('current-language')).toContainText('German');
  const languages = await apiAs(page, 'GET', '/api/settings/languages');
  expect(languages.body.de).toEqual({ default: true });
  expect(languages.body.en).toEqual({ default: false });

  await bar.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();
  await expect(bar).toContainText('100% complete');
  await expect(bar.getByRole('button', { name: 'Next' })).toHaveCount(0);
  await bar.getByRole('button', { name: 'Finalise' }).click();

  await expect(page).toHaveURL(/\/final$/);
  await expect(page.getByRole('heading', { name: 'Wizard completed' })).toBeVisible();
  expect((await apiAs(page, 'GET', '/api/configuration/wizard')).body).toEqual([{ step: 13, status: 'false' }]);

  await page.getByRole('button', { name: 'Go to Home' }).click();
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();

  // With the wizard finished the navigation menu leads to the admin areas, where the system language shows.
  await page.getByRole('link', { name: 'Administration' }).click();
  await expect(page.getByRole('heading', { name: 'Administration' })).toBeVisible();
  await expect(page.getByTestId('system-language')).toHaveText('German');
  await expect(page.getByRole('link', { name: /API documentation/ })).toHaveAttribute('href', '/api/docs');
  await page.getByRole('navigation').getByRole('link', { name: 'Languages' }).click();
  await expect(page).toHaveURL(/\/admin\/languages$/);
  await expect(page.getByRole('heading', { name: 'System language' })).toBeVisible();
  await expect(page.getByTestId('step-bar')).toHaveCount(0);

  await page.goto('/no/such/screen');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();

  // Running the wizard again (from the administration page) asks first; cancelling changes nothing.
  await page.goto('/admin');
  await page.getByRole('button', { name: 'Run the setup wizard again' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('heading', { name: 'Administration' })).toBeVisible();
  await page.getByRole('button', { name: 'Run the setup wizard again' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { name: 'Users', exact: true })).toBeVisible();
  await expect(page.getByTestId('step-bar')).toContainText('Step 0 of 13');
  await expect(page.getByRole('navigation')).toHaveCount(0);
});

test('the interface language can be switched at any time', async ({ page }) => {
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Users', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Interface language' }).click();
  await page.getByRole('menuitem', { name: 'Italiano' }).click();
  await expect(page.getByRole('heading', { name: 'Utenti', exact: true })).toBeVisible();
  await expect(page.getByTestId('step-bar')).toContainText('Passo 0 di 13');
  await expect(page.getByRole('button', { name: 'Avanti' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Utenti', exact: true })).toBeVisible();
});

test.describe('old provisioning mode', () => {
  test.use({ serverEnv: { PROVISIONING_ENGINE: 'freepbx' } });
  test('uses the 11-step map', async ({ page }) => {
    await signIn(page);
    const bar = page.getByTestId('step-bar');
    await expect(bar).toContainText('Step 0 of 11');
    expect((await apiAs(page, 'POST', '/api/configuration/wizard', { status: 'true', step: 9 })).status).toBe(200);
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'User configuration' })).toBeVisible();
    await bar.getByRole('button', { name: 'Next' }).click();
    await expect(page).toHaveURL(/\/admin\/languages$/);
    await expect(bar).toContainText('Step 10 of 11');
    await expect(bar).toContainText('91% complete');

    await page.goto('/configurations');
    await expect(page).toHaveURL(/\/configurations\/preferencesFreepbx$/);
  });
});

test('the parent screens show their step bars and /configurations opens the user configuration', async ({ page }) => {
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Users', exact: true })).toBeVisible();

  await page.goto('/trunks');
  await expect(page).toHaveURL(/\/trunks$/);
  await expect(page.getByRole('heading', { name: 'Lines', exact: true })).toBeVisible();
  const lines = page.getByRole('navigation', { name: 'Steps of the lines' });
  await expect(lines.getByRole('listitem')).toHaveText(['1Physical', '2VoIP']);
  await lines.getByRole('link', { name: 'VoIP' }).click();
  await expect(page).toHaveURL(/\/trunks\/voip$/);

  await page.goto('/routes');
  await expect(page.getByRole('heading', { name: 'Routes', exact: true })).toBeVisible();
  const routes = page.getByRole('navigation', { name: 'Steps of the routes' });
  await expect(routes.getByRole('listitem')).toHaveText(['1Inbound', '2Outbound']);
  await routes.getByRole('link', { name: 'Outbound' }).click();
  await expect(page).toHaveURL(/\/routes\/outbound$/);
  await expect(
    page.getByRole('navigation', { name: 'Steps of the routes' }).getByRole('link', { name: 'Outbound' }),
  ).toHaveAttribute('aria-current', 'step');

  await page.goto('/configurations');
  await expect(page).toHaveURL(/\/configurations\/preferences$/);
  await expect(page.getByRole('heading', { name: 'User configuration' })).toBeVisible();

  await page.getByRole('button', { name: 'Interface language' }).click();
  await page.getByRole('menuitem', { name: 'Italiano' }).click();
  await page.goto('/routes');
  await expect(page.getByRole('heading', { name: 'Rotte', exact: true })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Passi delle rotte' }).getByRole('listitem')).toHaveText([
    '1In ingresso',
    '2In uscita',
  ]);
});
