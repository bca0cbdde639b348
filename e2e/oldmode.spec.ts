import type { Page } from '@playwright/test';
import { apiAs, expect as baseExpect, seriousViolations, signIn, test } from './fixtures.ts';

// One long walk through many screens: each wait gets room for a busy machine.
const expect = baseExpect.configure({ timeout: 30_000 });

const YEALINK = '80-5E-C0-12-34-56';

/** The screen has drawn its one top-level heading and finished loading, in the language asked for. */
async function settled(page: Page, lang: 'en' | 'it') {
  await expect(page.locator('html')).toHaveAttribute('lang', lang);
  await expect(page.locator('h1')).toHaveCount(1);
  await expect(page.locator('main .mantine-Loader-root, main [data-loading]')).toHaveCount(0);
}

async function next(page: Page, heading: string, step: number, percent: number) {
  const bar = page.getByTestId('step-bar');
  await bar.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('heading', { level: 1, name: heading, exact: true })).toBeVisible();
  await expect(bar).toContainText(`Step ${step} of 11`);
  await expect(bar).toContainText(`${percent}% complete`);
}

test('old provisioning mode: switched on in the server settings, the wizard walks its 11 steps', async ({
  page,
  server,
}) => {
  // Eleven screens and a restart: longer than one screen's test. A budget, not a speed check: 34 s on a quiet machine,
  // over 300 s in a fresh-clone run at load 12 (its browser took 3 minutes to draw the first screen).
  test.setTimeout(600_000);
  await signIn(page);
  const bar = page.getByTestId('step-bar');
  await expect(bar).toContainText('Step 0 of 13');

  // The administrator sets PROVISIONING_ENGINE=freepbx and restarts the console (README, settings).
  await server.restart({ PROVISIONING_ENGINE: 'freepbx' });
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Choose how to manage your PBX users' })).toBeVisible();
  await expect(bar).toContainText('Step 0 of 11');

  // 0 Users: the local directory.
  await page.getByRole('button', { name: 'Local directory' }).click();
  await expect(page.getByText('The local directory is ready.')).toBeVisible();
  await page.getByRole('button', { name: 'Next' }).first().click();

  // 1 Extensions: a user with a number.
  await expect(page).toHaveURL(/\/extensions$/);
  await expect(bar).toContainText('Step 1 of 11');
  await expect(bar).toContainText('9% complete');
  await page.getByRole('button', { name: 'Add user' }).first().click();
  const addUser = page.getByRole('dialog', { name: 'Add user' });
  await addUser.getByLabel('Username').fill('alice');
  await addUser.getByLabel('Full name').fill('Alice Rossi');
  await addUser.getByRole('button', { name: 'Add user' }).click();
  await expect(page.getByText(/User alice created/)).toBeVisible();
  const alice = page.getByTestId('user-alice');
  await alice.getByLabel('Extension of Alice Rossi').fill('201');
  await alice.getByRole('button', { name: 'Add' }).click();
  await expect(alice.getByTestId('main-extension')).toHaveText('201');

  // 2 Physical lines, 3 VoIP providers (one provider, for the outbound routes), 4 Inbound routes.
  await next(page, 'Physical lines', 2, 18);
  await next(page, 'VoIP providers', 3, 27);
  const trunk = await apiAs(page, 'POST', '/api/trunks', {
    provider: 'vivavox',
    name: 'alpha',
    username: 'u',
    password: 'p',
    phone: '0721000000',
    codecs: ['alaw'],
    forceCodec: true,
  });
  expect(trunk.status, JSON.stringify(trunk.body)).toBe(200);
  await next(page, 'Inbound routes', 4, 36);

  // 5 Outbound routes: saved before going on.
  await next(page, 'Outbound routes', 5, 45);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(bar.getByRole('button', { name: 'Next' })).toBeEnabled();

  // 6 Groups, 7 Profiles.
  await next(page, 'Groups', 6, 55);
  await next(page, 'Profiles', 7, 64);

  // 8 Device configuration: the old mode's own screen.
  await next(page, 'Device configuration', 8, 73);
  await expect(page).toHaveURL(/\/configurations\/devices$/);
  await expect(page.getByTestId('config-phones-empty')).toContainText('No phones yet');
  expect(await seriousViolations(page, ['[data-testid="config-devices"]'])).toEqual([]);

  // The scan checks its input, then finds nothing when the network is the server alone.
  const scan = page.getByTestId('scan-network');
  await scan.getByRole('button', { name: 'Scan', exact: true }).click();
  await expect(scan.getByText('Choose a network', { exact: true }).last()).toBeVisible();
  await scan.getByRole('combobox', { name: 'Network' }).click();
  await page.getByRole('option').first().click();
  await scan.getByRole('textbox', { name: 'Netmask' }).fill('255.255.255.255');
  await scan.getByRole('button', { name: 'Scan', exact: true }).click();
  await expect(scan.getByText('No phone to add from this network')).toBeVisible();

  // A phone the scan cannot see is added by its MAC and model.
  await page.getByRole('button', { name: 'Add phone' }).click();
  const addPhone = page.getByRole('dialog', { name: 'Add a phone' });
  expect(await seriousViolations(page, ['[role="dialog"]'])).toEqual([]);
  await addPhone.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(addPhone.getByText('Enter a valid MAC address')).toBeVisible();
  await addPhone.getByLabel('MAC address').fill('02:12:34:56:78:9A');
  await addPhone.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(addPhone.getByText('This MAC is not of a phone vendor the PBX can configure')).toBeVisible();
  await addPhone.getByLabel('MAC address').fill('80:5e:c0:12:34:56');
  await expect(addPhone.getByText('Vendor: Yealink/Dreamwave')).toBeVisible();
  await addPhone.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(addPhone.getByText('Choose a model', { exact: true }).last()).toBeVisible();
  expect(await seriousViolations(page, ['[role="dialog"]'])).toEqual([]);
  // Nothing was stored by the refused attempts.
  expect((await apiAs(page, 'GET', '/api/devices/phones/list')).body).toEqual([]);
  await addPhone.getByRole('combobox', { name: 'Model' }).click();
  await page.getByRole('option', { name: 'Yealink T46G/S/U' }).click();
  await addPhone.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(page.getByText(`Phone ${YEALINK} added`)).toBeVisible();
  await expect(addPhone).toHaveCount(0);

  const row = page.getByTestId(`config-phone-${YEALINK}`);
  await expect(row).toContainText('Yealink/Dreamwave');
  await expect(row).toContainText('Not linked');
  const model = row.getByRole('combobox', { name: `Model of ${YEALINK}` });
  await expect(model).toHaveValue('Yealink T46G/S/U');
  // The model select of a phone saves at once.
  await model.click();
  await page.getByRole('option', { name: 'Yealink T54S/W' }).click();
  await expect(page.getByText(`Model of ${YEALINK} saved`)).toBeVisible();
  expect((await apiAs(page, 'GET', '/api/devices/phones/list')).body).toEqual([
    { mac: '80:5E:C0:12:34:56', manufacturer: 'Yealink/Dreamwave', model: 'yealink-T54', lines: [] },
  ]);
  expect(await seriousViolations(page, ['[data-testid="config-devices"]'])).toEqual([]);

  // 9 User configuration: the phone is linked to alice, named as the inventory names it.
  await next(page, 'User configuration', 9, 82);
  await expect(page).toHaveURL(/\/configurations\/preferencesFreepbx$/);
  await page.getByRole('button', { name: /Alice Rossi/ }).click();
  const config = page.getByTestId('config-alice');
  await config.getByRole('combobox', { name: 'Link a device' }).click();
  await page.getByRole('option', { name: `${YEALINK} · Yealink/Dreamwave · Yealink T54S/W` }).click();
  await config.getByRole('button', { name: 'Link' }).click();
  await expect(page.getByText('Device linked to user successfully')).toBeVisible();
  await expect(config.getByTestId('device-201')).toContainText('Yealink T54S/W');
  await expect(config.getByTestId('device-201')).toContainText(YEALINK);
  const list = (await apiAs(page, 'GET', '/api/devices/phones/list')).body;
  expect(list[0].lines[0]).toMatchObject({ extension: '201', mainextension: '201', username: 'alice' });

  // 10 Languages, 11 Settings, then finalise.
  await next(page, 'Languages', 10, 91);
  await next(page, 'Settings', 11, 100);
  await bar.getByRole('button', { name: 'Finalise' }).click();
  await expect(page).toHaveURL(/\/final$/);
  expect((await apiAs(page, 'GET', '/api/configuration/wizard')).body).toEqual([{ step: 11, status: 'false' }]);

  // The new mode's screens are not part of this mode; the device screen stays reachable.
  await page.goto('/devices/inventory');
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/configurations/devices');
  await expect(page.getByRole('heading', { name: 'Device configuration' })).toBeVisible();
  await expect(page.getByTestId(`config-phone-${YEALINK}`)).toContainText('Alice Rossi (201)');

  // The old mode's two screens pass axe (serious and critical fail) in English and Italian, whole pages.
  for (const lang of ['en', 'it'] as const) {
    await page.evaluate((chosen) => localStorage.setItem('preferredLanguage', chosen), lang);
    await page.goto('/configurations/devices');
    await settled(page, lang);
    await expect(page.getByTestId(`config-phone-${YEALINK}`)).toContainText('Alice Rossi (201)');
    expect(await seriousViolations(page, ['body']), `/configurations/devices ${lang}`).toEqual([]);

    await page.goto('/configurations/preferencesFreepbx');
    await settled(page, lang);
    expect(await seriousViolations(page, ['body']), `/configurations/preferencesFreepbx ${lang}`).toEqual([]);
    await page.getByRole('button', { name: /Alice Rossi/ }).click();
    await expect(page.getByTestId('config-alice').getByTestId('device-201')).toContainText(YEALINK);
    expect(await seriousViolations(page, ['body']), `/configurations/preferencesFreepbx alice ${lang}`).toEqual([]);
  }
});
