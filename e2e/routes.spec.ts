import { apiAs, expect, seriousViolations, signIn, test } from './fixtures.ts';

async function makeTrunk(page: Parameters<typeof apiAs>[0], name: string) {
  const res = await apiAs(page, 'POST', '/api/trunks', {
    provider: 'vivavox',
    name,
    username: 'u',
    password: 'p',
    phone: '0721000000',
    codecs: ['alaw'],
    forceCodec: true,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

async function stableBox(
  page: Parameters<typeof apiAs>[0],
  target: ReturnType<Parameters<typeof apiAs>[0]['locator']>,
) {
  let last = await target.boundingBox();
  for (;;) {
    await page.waitForTimeout(100);
    const now = await target.boundingBox();
    if (now && last && now.x === last.x && now.y === last.y && now.height === last.height) return now;
    last = now;
  }
}

const order = async (page: Parameters<typeof apiAs>[0], route: string) => {
  const routes = (await apiAs(page, 'GET', '/api/outboundroutes')).body as {
    name: string;
    trunks: { name: string }[];
  }[];
  return routes.find((r) => r.name === route)?.trunks.map((x) => x.name);
};

test('outbound routes: Italian defaults, reorder by drag and by keyboard, save, reload', async ({ page }) => {
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Users', exact: true })).toBeVisible();
  await page.goto('/routes/outbound');
  await expect(page.getByText('There are no trunks yet')).toBeVisible();
  for (const name of ['alpha', 'beta', 'gamma']) await makeTrunk(page, name);
  await page.reload();

  await page.getByRole('combobox', { name: 'Dial patterns of' }).click();
  await page.getByRole('option', { name: 'Italiano' }).click();
  const national = page.getByTestId('route-national_it');
  await expect(national).toBeVisible();
  await expect(page.getByTestId('route-toll_it')).toBeVisible();
  await national.getByRole('button', { name: /national_it/ }).click();
  await expect(national.getByText('3 trunks')).toBeVisible();

  // Drag gamma to the top. The boxes are read once the panel has stopped opening (a box read mid-animation
  // drops the pointer beside the list), and a drag that a busy machine lost is tried again: the order only
  // changes when the drop lands, so a retry cannot move anything twice.
  const gamma = national.getByRole('button', { name: 'Move gamma', exact: true });
  const alpha = national.getByTestId('route-trunk-alpha');
  const first = national.getByTestId(/^route-trunk-/).first();
  await expect(async () => {
    if ((await first.getAttribute('data-testid')) !== 'route-trunk-gamma') {
      const from = await stableBox(page, gamma);
      const to = await stableBox(page, alpha);
      await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
      await page.mouse.down();
      await page.mouse.move(from.x + from.width / 2, from.y - 10, { steps: 5 });
      await page.mouse.move(to.x + 20, to.y + 2, { steps: 10 });
      await page.mouse.up();
    }
    await expect(first).toHaveAttribute('data-testid', 'route-trunk-gamma', { timeout: 2000 });
  }).toPass({ timeout: 60_000 });

  // Keyboard: pick alpha up with Space, move it down one place, drop it. Each key waits for dnd-kit to
  // show it took the previous one (picked up, then moved), or a busy machine drops the move.
  // A screen reader hears the trunk named, with its place, in the interface language.
  const handle = national.getByRole('button', { name: 'Move alpha', exact: true });
  // dnd-kit's live region; one per list, and only the one in use says something.
  const announced = page.locator('[id^="DndLiveRegion"]').filter({ hasText: /\S/ });
  await expect(handle).toHaveAccessibleDescription(/To pick up a trunk, press Space or Enter/);
  await handle.focus();
  await page.keyboard.press('Space');
  await expect(handle).toHaveAttribute('aria-pressed', 'true');
  await expect(announced).toHaveText('alpha picked up, position 2 of 3.');
  await page.keyboard.press('ArrowDown');
  await expect(national.getByTestId('route-trunk-alpha')).toHaveAttribute('style', /translate/);
  await expect(announced).toHaveText('alpha moved to position 3 of 3.');
  // The drop target is computed on the next animation frames after the move.
  await page.waitForTimeout(400);
  await page.keyboard.press('Space');
  await expect(handle).not.toHaveAttribute('aria-pressed', 'true');
  await expect(announced).toHaveText('alpha dropped at position 3 of 3.');
  expect(await seriousViolations(page, ['main'])).toEqual([]);
  await expect(national.getByTestId(/^route-trunk-/)).toHaveText([/gamma/, /beta/, /alpha/]);

  // Remove beta from this route.
  await national.getByRole('button', { name: 'Remove beta' }).click();
  await expect(national.getByText('2 trunks')).toBeVisible();

  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Outbound routes configuration saved with success')).toBeVisible();
  expect(await order(page, 'national_it')).toEqual(['gamma', 'alpha']);
  expect(await order(page, 'toll_it')).toEqual(['alpha', 'beta', 'gamma']);

  await page.reload();
  const after = page.getByTestId('route-national_it');
  await after.getByRole('button', { name: /national_it/ }).click();
  await expect(after.getByTestId(/^route-trunk-/)).toHaveText([/gamma/, /alpha/]);

  // In Italian too; Escape puts the trunk back.
  await page.evaluate(() => localStorage.setItem('preferredLanguage', 'it'));
  await page.reload();
  const it = page.getByTestId('route-national_it');
  await it.getByRole('button', { name: /national_it/ }).click();
  const sposta = it.getByRole('button', { name: 'Sposta gamma', exact: true });
  await expect(sposta).toHaveAccessibleDescription(/Per prendere un fascio premi Spazio o Invio/);
  await sposta.focus();
  await page.keyboard.press('Space');
  await expect(sposta).toHaveAttribute('aria-pressed', 'true');
  await expect(announced).toHaveText('gamma preso, posizione 1 di 2.');
  await page.keyboard.press('Escape');
  await expect(announced).toHaveText('Spostamento annullato: gamma torna alla posizione 1 di 2.');
  expect(await seriousViolations(page, ['main'])).toEqual([]);
  await page.evaluate(() => localStorage.setItem('preferredLanguage', 'en'));
  await page.reload();
  await after.getByRole('button', { name: /national_it/ }).click();

  // Advanced: the route's dial patterns, with a bad one refused.
  await after.getByRole('button', { name: 'Advanced' }).click();
  const editor = page.getByRole('dialog', { name: 'Outbound route' });
  await expect(editor.getByLabel('Match pattern 1')).toHaveValue('0ZXXX.');
  await editor.getByLabel('Match pattern 1').fill('0ZX?');
  await editor.getByRole('button', { name: 'Save route' }).click();
  await expect(editor.getByText("'?' is not allowed in a dial pattern")).toBeVisible();
  await editor.getByRole('button', { name: 'Cancel' }).click();
});

test('the wizard waits for saved outbound routes', async ({ page }) => {
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Users', exact: true })).toBeVisible();
  await makeTrunk(page, 'alpha');
  expect((await apiAs(page, 'POST', '/api/configuration/wizard', { status: 'true', step: 5 })).status).toBe(200);
  await page.goto('/');
  await expect(page).toHaveURL(/\/routes\/outbound$/);
  await expect(page.getByText('Remember to save before pushing forward')).toBeVisible();
  const bar = page.getByTestId('step-bar');
  await expect(bar.getByRole('button', { name: 'Next' })).toBeDisabled();
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(bar.getByRole('button', { name: 'Next' })).toBeEnabled();
});

test('inbound routes: create, edit and delete', async ({ page }) => {
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Users', exact: true })).toBeVisible();
  expect((await apiAs(page, 'POST', '/api/configuration/mode', { mode: 'legacy' })).status).toBe(200);
  await expect.poll(async () => (await apiAs(page, 'GET', '/api/configuration/userprovider')).body.configured).toBe(1);
  await apiAs(page, 'POST', '/api/users', { username: 'mario', fullname: 'Mario Rossi' });
  await apiAs(page, 'POST', '/api/mainextensions', { username: 'mario', extension: '201' });

  await page.goto('/routes/inbound');
  await expect(page.getByText('No inbound routes found')).toBeVisible();
  await page.getByRole('button', { name: 'Create new route' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create new route' });
  await dialog.getByLabel('DID (called number)').fill('07214O5516');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('A number, or _ followed by a dial pattern')).toBeVisible();
  await expect(dialog.getByText('Choose a destination')).toBeVisible();
  await dialog.getByLabel('DID (called number)').fill('0721405516');
  await dialog.getByLabel('Description').fill('Main number');
  await dialog.getByRole('combobox', { name: 'Destination' }).click();
  await page.getByRole('option', { name: '201 Mario Rossi' }).first().click();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Inbound route saved')).toBeVisible();
  const card = page.getByTestId('inbound-0721405516');
  await expect(card).toContainText('Main number');
  await expect(card).toContainText('Extension: 201 Mario Rossi');
  await expect(page.getByTestId('inbound-count')).toHaveText('1 route');

  await card.getByRole('button', { name: 'Modify' }).click();
  const edit = page.getByRole('dialog', { name: 'Modify inbound route' });
  await edit.getByLabel('Description').fill('Reception');
  await edit.getByRole('combobox', { name: 'Destination' }).click();
  await page.getByRole('option', { name: 'Hang up' }).click();
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(card).toContainText('Reception');
  await expect(card).toContainText('Terminate call: Hang up');

  // The same DID and caller again is refused with a clear message.
  await page.getByRole('button', { name: 'Create new route' }).click();
  const again = page.getByRole('dialog', { name: 'Create new route' });
  await again.getByLabel('DID (called number)').fill('0721405516');
  await again.getByRole('combobox', { name: 'Destination' }).click();
  await page.getByRole('option', { name: 'Busy' }).click();
  await again.getByRole('button', { name: 'Save' }).click();
  await expect(again.getByText('A route for 0721405516 already exists.')).toBeVisible();
  await again.getByRole('button', { name: 'Cancel' }).click();
  await expect(again).toHaveCount(0);

  await card.getByRole('button', { name: 'Delete' }).click();
  // Clicked only once the confirmation has finished opening (a click during its entrance was lost in CI).
  const confirm = page.getByRole('dialog', { name: 'Delete route' });
  await expect(confirm).toHaveCSS('opacity', '1');
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('No inbound routes found')).toBeVisible();
});
