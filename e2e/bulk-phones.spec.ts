import type { Page } from '@playwright/test';
import { amiPeer } from '../apps/server/test/support/ami-peer.ts';
import { apiAs, expect, seriousViolations, signIn, signInWithLocalUsers, test } from './fixtures.ts';

// The far side of AMI: alice's phone (201) is registered and answers the NOTIFY; bob's (202) is not reached.
const peer = amiPeer({
  secret: 'e2e-bulk-secret',
  endpoints: [
    { name: '201', state: 'Not in use' },
    { name: '202', state: 'Unavailable' },
  ],
  contacts: [{ aor: '201', via: '192.0.2.44:5062', userAgent: 'Yealink SIP-T46S 66.86.0.15' }],
  command: (command) => {
    if (command === 'pjsip send notify generic-reload endpoint 201') {
      return ["Sending NOTIFY of type 'generic-reload' to '201'"];
    }
    if (command.startsWith('pjsip send notify')) return ['Unable to send notify, no contacts for endpoint 202'];
    return ['0 results found.'];
  },
});
const port = await peer.listen();
// Not closed in a file-level afterAll: with fullyParallel every test is a group of its own, and that hook ran after
// the first test of this file a worker took, leaving the next one's server to dial a closed port. The peer ends with
// the worker.

const ALICE_PHONE = '80-5E-C0-00-00-01';
const BOB_PHONE = '80-5E-C0-00-00-02';
const FANVIL = '0C-38-3E-00-00-03';
const SPARE = '80-5E-C0-00-00-04';

async function seed(page: Page) {
  await signInWithLocalUsers(page, [
    ['alice', 'Alice Rossi', '201'],
    ['bob', 'Bob Bianchi', '202'],
  ]);
  const alice = (await apiAs(page, 'GET', '/api/users/false?search=alice')).body[0];
  for (const [mac, model] of [
    [ALICE_PHONE, 'yealink-T46'],
    [BOB_PHONE, 'yealink-T46'],
    [FANVIL, 'fanvil-X3'],
    [SPARE, undefined],
  ] as const) {
    const vendor = mac === FANVIL ? 'Fanvil' : 'Yealink/Dreamwave';
    expect(
      (await apiAs(page, 'POST', '/api/provisioning/v1/phones', { mac, model, display_name: vendor })).status,
    ).toBe(201);
    expect((await apiAs(page, 'POST', '/api/physicalextensions', { mac, model: model ?? null })).status).toBe(200);
  }
  await apiAs(page, 'POST', '/api/physicalextensions', { mainextension: '201', mac: ALICE_PHONE });
  await apiAs(page, 'POST', '/api/physicalextensions', { mainextension: '202', mac: BOB_PHONE });
  const sales = (await apiAs(page, 'POST', '/api/cti/groups', { name: 'Sales' })).body;
  expect((await apiAs(page, 'POST', `/api/cti/groups/users/${alice.id}`, { groups: [sales.id] })).status).toBe(200);
  // The console connects to the PBX in the background.
  await expect
    .poll(async () => (await apiAs(page, 'GET', '/api/bulk/phones')).body.registered, { timeout: 60_000 })
    .toBe(1);
}

const row = (page: Page, mac: string) => page.getByTestId(`bulk-phone-${mac}`);
const tick = (page: Page, mac: string) => page.getByRole('checkbox', { name: `Select ${mac}` });

test.describe('with the PBX connected', () => {
  test.use({
    serverEnv: {
      AMI_HOST: '127.0.0.1',
      AMI_PORT: String(port),
      AMI_USERNAME: 'centralino',
      AMI_SECRET: 'e2e-bulk-secret',
    },
  });

  test('filter by group and model, set a model for one vendor, reconfigure with a delayed reboot', async ({ page }) => {
    await seed(page);
    await page.goto('/apps/bulkdevices');
    await expect(page.getByRole('heading', { name: 'Bulk phones' })).toBeVisible();
    await expect(page.getByRole('row')).toHaveCount(5);
    await expect(row(page, ALICE_PHONE)).toContainText('Alice Rossi');
    await expect(row(page, ALICE_PHONE)).toContainText('201');
    await expect(row(page, ALICE_PHONE)).toContainText('Registered');
    await expect(row(page, BOB_PHONE)).toContainText('Not registered');
    await expect(row(page, FANVIL)).toContainText('Fanvil X3S/SP/G');
    expect(await seriousViolations(page, ['[data-testid="bulk-phones"]'])).toEqual([]);

    // By group: only the phone of Sales' member.
    await page.getByRole('combobox', { name: 'Group' }).click();
    await page.getByRole('option', { name: 'Sales' }).click();
    await expect(page.getByRole('row')).toHaveCount(2);
    await expect(row(page, ALICE_PHONE)).toBeVisible();
    await page.reload();
    // By model.
    await page.getByRole('combobox', { name: 'Model' }).click();
    await page.getByRole('option', { name: 'Yealink T46G/S/U' }).click();
    await expect(page.getByRole('row')).toHaveCount(3);
    await expect(row(page, ALICE_PHONE)).toBeVisible();
    await expect(row(page, BOB_PHONE)).toBeVisible();
    await page.reload();
    await expect(page.getByRole('row')).toHaveCount(5);

    // Set model: refused while two vendors are selected, then for the one Yealink phone.
    // Each greyed-out action says why, in words shown under the buttons and read with each one.
    const setModel = page.getByRole('button', { name: 'Set model' });
    const reconfigure = page.getByRole('button', { name: 'Reconfigure' });
    const selectFirst = 'Select phones first: tick them in the list, or use Select all.';
    await expect(setModel).toBeDisabled();
    await expect(setModel).toHaveAccessibleDescription(selectFirst);
    await expect(reconfigure).toHaveAccessibleDescription(selectFirst);
    await tick(page, FANVIL).check();
    await tick(page, SPARE).check();
    await expect(page.getByText('Selected phones: 2')).toBeVisible();
    await expect(setModel).toBeDisabled();
    await expect(page.getByTestId('bulk-hint')).toContainText('one known vendor');
    await expect(setModel).toHaveAccessibleDescription(/only on phones of one known vendor/);
    // Two phones of other vendors, neither registered: Reconfigure is greyed out too, and says why.
    await expect(reconfigure).toBeDisabled();
    await expect(reconfigure).toHaveAccessibleDescription('To reconfigure, select at least one registered phone.');
    await expect(page.getByTestId('bulk-hint')).toContainText('To reconfigure, select at least one registered phone.');
    expect(await seriousViolations(page, ['[data-testid="bulk-phones"]'])).toEqual([]);
    await tick(page, FANVIL).uncheck();
    await expect(setModel).toBeEnabled();
    await setModel.click();
    const modelDialog = page.getByRole('dialog', { name: 'Set model' });
    const choice = modelDialog.getByRole('combobox', { name: 'Model' });
    await expect(choice).toHaveValue('');
    await expect(choice.getByRole('option')).toContainText(['Choose a model', 'Yealink T46G/S/U']);
    await expect(choice.getByRole('option', { name: /Fanvil/ })).toHaveCount(0);
    await expect(modelDialog.getByRole('button', { name: 'Save' })).toBeDisabled();
    expect(await seriousViolations(page, ['[role="dialog"]'])).toEqual([]);
    await choice.selectOption({ label: 'Yealink T48G/S/U' });
    await modelDialog.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Model set on 1 phone', { exact: true })).toBeVisible();
    await expect(modelDialog).toBeHidden();
    await expect(row(page, SPARE)).toContainText('Yealink T48G/S/U');
    expect((await apiAs(page, 'GET', `/api/provisioning/v1/phones/${SPARE}`)).body.model).toBe('yealink-T48');

    // Reconfigure every phone, with a delayed reboot.
    await page.getByRole('button', { name: 'Select none' }).click();
    await expect(reconfigure).toBeDisabled();
    await page.getByRole('button', { name: 'Select all (4)' }).click();
    await expect(page.getByText('Selected phones: 4')).toBeVisible();
    await reconfigure.click();
    const dialog = page.getByRole('dialog', { name: 'Reconfigure phones' });
    await dialog.getByRole('checkbox', { name: 'Delayed reboot' }).check();
    const time = dialog.getByLabel('Reboot time');
    const proposed = await time.inputValue();
    // Now, rounded up to the next 5 minutes.
    const [hh = 0, mm = 0] = proposed.split(':').map(Number);
    expect(mm % 5).toBe(0);
    const now = new Date();
    const ahead = (hh * 60 + mm - (now.getHours() * 60 + now.getMinutes()) + 1440) % 1440;
    expect(ahead).toBeGreaterThan(0);
    expect(ahead).toBeLessThanOrEqual(6);
    expect(await seriousViolations(page, ['[role="dialog"]'])).toEqual([]);
    await time.fill('23:55');
    const before = peer.commands().length;
    await dialog.getByRole('button', { name: 'Reconfigure' }).click();
    const notDone = dialog.getByTestId('not-reconfigured');
    await expect(notDone).toBeVisible();
    await expect(dialog).toContainText('1 of 4 phones reconfigured');
    await expect(notDone.getByRole('listitem')).toHaveCount(3);
    await expect(notDone).toContainText(`${FANVIL} · no user`);
    await expect(notDone).toContainText(`${SPARE} · no user`);
    await expect(notDone).toContainText(`${BOB_PHONE} · bob (202) · not reached`);
    await expect(dialog).toContainText('Delayed reboot set for 2 phones at 23:55');
    expect(peer.commands().slice(before)).toEqual(
      expect.arrayContaining([
        'pjsip send notify generic-reload endpoint 201',
        'pjsip send notify generic-reload endpoint 202',
      ]),
    );
    expect((await apiAs(page, 'GET', '/api/phones/reboot')).body).toEqual({
      [ALICE_PHONE]: { hours: '23', minutes: '55' },
      [BOB_PHONE]: { hours: '23', minutes: '55' },
    });
    expect(await seriousViolations(page, ['[role="dialog"]'])).toEqual([]);
    await dialog.getByRole('button', { name: 'Close' }).last().click();
    await expect(dialog).toBeHidden();

    // A selection that works in full: the success message, then the dialog closes by itself.
    await page.getByRole('button', { name: 'Select none' }).click();
    await tick(page, ALICE_PHONE).check();
    await expect(reconfigure).not.toHaveAttribute('aria-describedby');
    await reconfigure.click();
    await expect(dialog).toContainText('The selected phone is asked to download its configuration again.');
    await dialog.getByRole('button', { name: 'Reconfigure' }).click();
    await expect(dialog.getByText('Reconfiguration command was sent successfully')).toBeVisible();
    await expect(dialog).toBeHidden({ timeout: 6000 });

    // Italian: the page and both dialogs.
    await page.evaluate(() => localStorage.setItem('preferredLanguage', 'it'));
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Telefoni in blocco' })).toBeVisible();
    await expect(row(page, BOB_PHONE)).toContainText('Non registrato');
    await expect(page.getByRole('button', { name: 'Riconfigura' })).toHaveAccessibleDescription(
      "Prima seleziona i telefoni: spuntali nell'elenco, o usa Seleziona tutti.",
    );
    expect(await seriousViolations(page, ['[data-testid="bulk-phones"]'])).toEqual([]);
    await page.getByRole('checkbox', { name: `Seleziona ${ALICE_PHONE}` }).check();
    await page.getByRole('button', { name: 'Imposta modello' }).click();
    await expect(page.getByRole('dialog', { name: 'Imposta modello' })).toContainText('Scegli un modello');
    await expect(page.getByRole('dialog', { name: 'Imposta modello' })).toContainText(
      'Il modello viene impostato sul telefono selezionato di Yealink/Dreamwave.',
    );
    expect(await seriousViolations(page, ['[role="dialog"]'])).toEqual([]);
    await page.getByRole('dialog').getByRole('button', { name: 'Annulla' }).click();
    await page.getByRole('button', { name: 'Riconfigura' }).click();
    const it = page.getByRole('dialog', { name: 'Riconfigura telefoni' });
    await it.getByRole('checkbox', { name: 'Riavvio programmato' }).check();
    await expect(it.getByLabel('Ora del riavvio')).toBeVisible();
    expect(await seriousViolations(page, ['[role="dialog"]'])).toEqual([]);
  });
});

test('goes to the inventory when there are no phones', async ({ page }) => {
  await signIn(page);
  await page.goto('/bulkdevices');
  await expect(page).toHaveURL(/\/devices\/inventory$/);
});

test.describe('in the older provisioning mode', () => {
  test.use({ serverEnv: { PROVISIONING_ENGINE: 'freepbx' } });

  test('goes to the home page', async ({ page }) => {
    await signIn(page);
    await page.goto('/apps/bulkdevices');
    // Sent to the home page, which itself goes on to the wizard's current step (/users here): the check is that
    // the screen is left, not which of the two the URL shows at the moment it is read.
    await expect(page).not.toHaveURL(/bulkdevices/);
    await expect(page.getByRole('heading', { name: 'Bulk phones' })).toHaveCount(0);
  });
});
