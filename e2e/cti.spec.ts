import { apiAs, expect, seriousViolations, signIn, test } from './fixtures.ts';

test.beforeEach(async ({ page }) => {
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Users', exact: true })).toBeVisible();
});

test('a new group gets its permission in the profiles; enabling it clears the warning', async ({ page }) => {
  await page.goto('/configurations/groups');
  await expect(page.getByText('No groups found')).toBeVisible();
  await page.getByRole('button', { name: 'Create new group' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create new group' });
  await dialog.getByLabel('Name').fill('Sales team');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Only letters and numbers allowed')).toBeVisible();
  await dialog.getByLabel('Name').fill('Support');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Group saved with success')).toBeVisible();
  await expect(page.getByTestId('group-Support')).toBeVisible();

  // The same name again (in any case) is refused and said so, in English and Italian; nothing is saved.
  await page.getByRole('button', { name: 'Create new group' }).click();
  await dialog.getByLabel('Name').fill('support');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('A group named support already exists')).toBeVisible();
  await expect(page.getByText('Group saved with success')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  // The API refuses it too, for clients that do not check first.
  expect((await apiAs(page, 'POST', '/api/cti/groups', { name: 'Support' })).status).toBe(409);
  expect((await apiAs(page, 'GET', '/api/cti/groups')).body).toHaveLength(1);

  await page.goto('/configurations/profiles');
  await expect(page.getByText('Some groups have not been enabled')).toBeVisible();
  await page.getByRole('button', { name: 'Base' }).click();
  const base = page.getByTestId('profile-Base');
  const presence = base.getByTestId('macro-presence_panel');
  const group = presence.getByRole('switch', { name: 'Group Support' });
  await expect(group).not.toBeChecked();
  await group.click({ force: true });
  await expect(presence.getByLabel('Saved')).toBeVisible();
  await expect(group).toBeChecked();
  await expect(page.getByText('Some groups have not been enabled')).toHaveCount(0);
  const stored = (await apiAs(page, 'GET', '/api/cti/profiles/1')).body;
  const grp = stored.macro_permissions.presence_panel.permissions.find(
    (p: { name: string }) => p.name === 'grp_support',
  );
  expect(grp.value).toBe(true);

  // With "All groups" on, single group switches are hidden.
  await presence.getByRole('switch', { name: 'All groups' }).click({ force: true });
  await expect(presence.getByRole('switch', { name: 'Group Support' })).toHaveCount(0);
});

test('NethVoice CTI switches its dependent areas; a profile can be duplicated', async ({ page }) => {
  // Outbound routes, for the route switches a duplicate copies.
  const defaults = (await apiAs(page, 'GET', '/api/outboundroutes/defaults')).body;
  expect((await apiAs(page, 'POST', '/api/outboundroutes', { it: defaults.it })).status).toBe(200);
  await page.goto('/configurations/profiles');
  await page.getByRole('button', { name: 'Base' }).click();
  const base = page.getByTestId('profile-Base');
  const cti = base.getByTestId('macro-nethvoice_cti').getByRole('switch', { name: 'NethVoice CTI' });
  await expect(cti).toBeChecked();
  await expect(base.getByTestId('macro-phonebook').getByRole('switch', { name: 'Phonebook' })).toBeChecked();
  await cti.click({ force: true });
  for (const macro of ['phonebook', 'cdr', 'presence_panel', 'customer_card', 'queue_agent']) {
    await expect(base.getByTestId(`macro-${macro}`).getByRole('switch').first()).not.toBeChecked();
  }
  // Settings is not one of the dependent areas.
  await expect(base.getByTestId('macro-settings').getByRole('switch').first()).toBeChecked();
  await expect(base.getByTestId('macro-nethvoice_cti').getByLabel('Saved')).toBeVisible();
  const stored = (await apiAs(page, 'GET', '/api/cti/profiles/1')).body;
  expect(stored.macro_permissions.phonebook.value).toBe(false);
  expect(stored.macro_permissions.settings.value).toBe(true);

  // Recording turns on with a privacy warning.
  await base.getByTestId('macro-settings').getByRole('switch', { name: 'Recording' }).click({ force: true });
  await expect(page.getByText(/Recording or listening to calls may require/)).toBeVisible();

  // The source profile denies two of its routes.
  await page.getByRole('button', { name: 'Advanced' }).click();
  // Opened all the way first (the panel's inline height goes once its transition ends): a forced click on a
  // switch still clipped by the opening panel lands elsewhere.
  await expect(
    page.locator('[role="region"]').filter({ has: page.getByTestId('profile-Advanced') }),
  ).not.toHaveAttribute('style', /height/);
  const advancedRoutes = page.getByTestId('profile-Advanced').getByTestId('profile-routes');
  for (const name of ['cellphone_it', 'toll_it']) {
    await advancedRoutes.getByRole('switch', { name, exact: true }).click({ force: true });
    await expect(advancedRoutes.getByRole('switch', { name, exact: true })).not.toBeChecked();
  }
  await expect
    .poll(async () =>
      (
        (await apiAs(page, 'GET', '/api/cti/profiles/3')).body.outbound_routes_permissions as {
          name: string;
          permission: boolean;
        }[]
      )
        .filter((r) => !r.permission)
        .map((r) => r.name),
    )
    .toEqual(['cellphone_it', 'toll_it']);

  await page.getByRole('button', { name: 'Create new profile' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create new profile' });
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Name is required')).toBeVisible();
  await dialog.getByLabel('Name').fill('Reception');
  await dialog.getByRole('combobox', { name: 'Duplicate from' }).click();
  await page.getByRole('option', { name: 'Advanced' }).click();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Profiles configuration saved with success')).toBeVisible();
  await page.getByRole('button', { name: 'Reception' }).click();
  const reception = page.getByTestId('profile-Reception');
  await expect(reception.getByTestId('macro-remote_sites').getByRole('switch').first()).toBeChecked();
  // The copy shows the source's route switches, on and off alike.
  const receptionRoutes = reception.getByTestId('profile-routes');
  for (const [name, on] of [
    ['national_it', true],
    ['cellphone_it', false],
    ['international_it', true],
    ['toll_it', false],
  ] as const) {
    const route = receptionRoutes.getByRole('switch', { name, exact: true });
    if (on) await expect(route, name).toBeChecked();
    else await expect(route, name).not.toBeChecked();
  }
  await expect(receptionRoutes.getByRole('switch')).toHaveCount(4);
  const profiles = (await apiAs(page, 'GET', '/api/cti/profiles')).body as {
    name: string;
    macro_permissions: unknown;
    outbound_routes_permissions: unknown;
  }[];
  const advanced = profiles.find((p) => p.name === 'Advanced');
  const copy = profiles.find((p) => p.name === 'Reception');
  expect(copy?.macro_permissions).toEqual(advanced?.macro_permissions);
  expect(copy?.outbound_routes_permissions).toEqual(advanced?.outbound_routes_permissions);
});

test('a failed save puts the switch back and says so', async ({ page }) => {
  await page.goto('/configurations/profiles');
  await page.getByRole('button', { name: 'Standard' }).click();
  const standard = page.getByTestId('profile-Standard');
  const dnd = standard.getByTestId('macro-settings').getByRole('switch', { name: 'DND' });
  await expect(dnd).toBeChecked();
  // The profile disappears behind the console's back: the next save cannot succeed.
  expect((await apiAs(page, 'DELETE', '/api/cti/profiles/2')).status).toBe(200);
  await dnd.click({ force: true });
  await expect(standard.getByText('Configuration not saved. Try again')).toBeVisible();
  await expect(dnd).toBeChecked();
});

test('a profile in use cannot be deleted', async ({ page }) => {
  expect((await apiAs(page, 'POST', '/api/configuration/mode', { mode: 'legacy' })).status).toBe(200);
  await expect.poll(async () => (await apiAs(page, 'GET', '/api/configuration/userprovider')).body.configured).toBe(1);
  const user = await apiAs(page, 'POST', '/api/users', { username: 'ugo', fullname: 'Ugo Verdi' });
  expect((await apiAs(page, 'POST', `/api/cti/profiles/users/${user.body.id}`, { profile_id: 3 })).status).toBe(200);
  await page.goto('/configurations/profiles');
  await page.getByRole('button', { name: 'Advanced' }).click();
  await page.getByTestId('profile-Advanced').getByRole('button', { name: 'Delete profile' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(
    page.getByText('Profile Advanced is assigned to 1 users: assign them another profile first.'),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Advanced' })).toBeVisible();
});

test('each outbound route has a switch per profile; a denied route stays denied after a reload', async ({ page }) => {
  const defaults = (await apiAs(page, 'GET', '/api/outboundroutes/defaults')).body;
  expect((await apiAs(page, 'POST', '/api/outboundroutes', { it: defaults.it })).status).toBe(200);
  await page.goto('/configurations/profiles');
  await page.getByRole('button', { name: 'Base' }).click();
  const routes = page.getByTestId('profile-Base').getByTestId('profile-routes');
  const names = ['national_it', 'cellphone_it', 'international_it', 'toll_it'];
  for (const name of names) await expect(routes.getByRole('switch', { name, exact: true })).toBeChecked();
  await expect(routes.getByText('No outbound routes yet')).toHaveCount(0);
  expect(await seriousViolations(page, ['[data-testid="profile-Base"]'])).toEqual([]);

  await routes.getByRole('switch', { name: 'cellphone_it' }).click({ force: true });
  await expect(routes.getByLabel('Saved')).toBeVisible();
  const stored = (await apiAs(page, 'GET', '/api/cti/profiles/1')).body as {
    outbound_routes_permissions: { name: string; permission: boolean }[];
  };
  expect(stored.outbound_routes_permissions.map((r) => [r.name, r.permission])).toEqual([
    ['national_it', true],
    ['cellphone_it', false],
    ['international_it', true],
    ['toll_it', true],
  ]);

  await page.reload();
  await page.getByRole('button', { name: 'Base' }).click();
  await page.getByRole('button', { name: 'Standard' }).click();
  const reloaded = page.getByTestId('profile-Base').getByTestId('profile-routes');
  await expect(reloaded.getByRole('switch', { name: 'cellphone_it' })).not.toBeChecked();
  await expect(reloaded.getByRole('switch', { name: 'national_it', exact: true })).toBeChecked();
  // Other profiles keep every route.
  const standard = page.getByTestId('profile-Standard').getByTestId('profile-routes');
  await expect(standard.getByRole('switch', { name: 'cellphone_it' })).toBeChecked();

  // In Italian too the panel reads well to assistive technology.
  await page.evaluate(() => localStorage.setItem('preferredLanguage', 'it'));
  await page.reload();
  await page.getByRole('button', { name: 'Base' }).click();
  await expect(page.getByTestId('profile-Base').getByText('Rotte in uscita', { exact: true })).toBeVisible();
  expect(await seriousViolations(page, ['[data-testid="profile-Base"]'])).toEqual([]);
});

test('the phonebook access levels fit their card and save', async ({ page }) => {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/configurations/profiles');
    await page.getByRole('button', { name: 'Advanced' }).click();
    const card = page.getByTestId('profile-Advanced').getByTestId('macro-phonebook');
    const levels = card.getByRole('radiogroup', { name: 'Phonebook access' });
    const widest = levels.getByRole('radio', { name: 'Manage public and shared contacts' });
    await expect(widest).toBeChecked();
    // Every option lies inside the card: none is cut off at its edge.
    const cardBox = await card.boundingBox();
    for (const option of await levels.locator('label').all()) {
      const box = await option.boundingBox();
      expect(box && cardBox && box.x + box.width <= cardBox.x + cardBox.width, `${width}px`).toBe(true);
    }
  }
  const card = page.getByTestId('profile-Advanced').getByTestId('macro-phonebook');
  await card.getByRole('radio', { name: 'Manage private contacts' }).click();
  await expect(card.getByLabel('Saved')).toBeVisible();
  const stored = (await apiAs(page, 'GET', '/api/cti/profiles/3')).body;
  const on = stored.macro_permissions.phonebook.permissions
    .filter((p: { value: boolean }) => p.value)
    .map((p: { name: string }) => p.name)
    .sort();
  expect(on).toEqual(['phonebook_level_0', 'phonebook_level_1']);
  expect(await seriousViolations(page, ['[data-testid="macro-phonebook"]'])).toEqual([]);
});

test('a group name that exists is said so in Italian too', async ({ page }) => {
  expect((await apiAs(page, 'POST', '/api/cti/groups', { name: 'Vendite' })).status).toBe(200);
  await page.evaluate(() => localStorage.setItem('preferredLanguage', 'it'));
  await page.goto('/configurations/groups');
  await expect(page.getByTestId('group-Vendite')).toBeVisible();
  await page.getByRole('button', { name: 'Crea nuovo gruppo' }).click();
  const dialog = page.getByRole('dialog', { name: 'Crea nuovo gruppo' });
  await dialog.getByLabel('Nome').fill('VENDITE');
  await dialog.getByRole('button', { name: 'Salva' }).click();
  await expect(dialog.getByText('Esiste già un gruppo di nome VENDITE')).toBeVisible();
  await expect(page.getByText('Gruppo salvato con successo')).toHaveCount(0);
  await page.evaluate(() => localStorage.setItem('preferredLanguage', 'en'));
});
