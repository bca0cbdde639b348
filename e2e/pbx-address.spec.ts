import type { Page } from '@playwright/test';
import { apiAs, expect, seriousViolations, signIn, test } from './fixtures.ts';

/** Serious and critical WCAG A/AA violations in the address check's parts of the default settings dialog. */
async function addressViolations(page: Page): Promise<string[]> {
  // The parts this feature adds (the rest of the dialog and the theme's buttons are checked elsewhere).
  const address = await page.evaluate(
    () =>
      document.querySelector('input[placeholder]')?.closest('.mantine-InputWrapper-root')?.querySelector('input')?.id,
  );
  return seriousViolations(page, [
    '[data-testid="connectivity-ok"]',
    '[data-testid="unreachable-warning"]',
    '[data-testid="https-unavailable-warning"]',
    '.mantine-Modal-header',
    ...(address ? [`#${address}`] : []),
  ]);
}

test('the PBX address check tries the URL phones get and names it; an unreachable address is not saved', async ({
  page,
}) => {
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Users', exact: true })).toBeVisible();
  await page.goto('/devices');
  const port = new URL(page.url()).port;
  // The address phones are given while the field is empty: this machine's own, never a loopback one.
  const own = (await apiAs(page, 'GET', '/api/phonebook/ldap')).body.ldaps.server as string;
  expect(own).not.toMatch(/^127\./);

  await page.getByRole('button', { name: 'Edit the default settings' }).click();
  const dialog = page.getByRole('dialog', { name: 'Default settings' });
  const save = dialog.getByRole('button', { name: 'Save' });
  // Fresh install, no HTTPS listener: encryption off, and the empty address (this server's own) is checked
  // on the console's own HTTP port.
  await expect(dialog.getByRole('combobox', { name: 'Encryption' })).toHaveValue('Disabled');
  const address = dialog.getByRole('textbox', { name: 'PBX address' });
  await expect(address).toHaveAttribute('placeholder', own);
  const ok = dialog.getByTestId('connectivity-ok');
  await expect(ok).toContainText(`Phones will fetch their files from http://${own}:${port}/provisioning/`);
  await expect(save).toBeEnabled();

  // Nothing listens on port 9: the warning names the URL tried and why it failed.
  await address.fill(`${own}:9`);
  const warning = dialog.getByTestId('unreachable-warning');
  await expect(warning).toContainText('The PBX address is not reachable!');
  await expect(warning).toContainText(
    `URL tried: http://${own}:9/provisioning/check/ping (nothing listens on that port)`,
  );
  await expect(warning).not.toContainText('localhost');
  await expect(save).toBeDisabled();
  // Only the URLs may break inside a word; the sentence around them breaks between words.
  const tried = dialog.getByTestId('unreachable-url');
  expect(await tried.evaluate((el) => getComputedStyle(el).wordBreak)).toBe('normal');
  const urls = tried.locator('code');
  await expect(urls).toHaveText([`http://${own}:9/provisioning/check/ping`, `http://${own}:9/provisioning/`]);
  expect(await urls.first().evaluate((el) => getComputedStyle(el).overflowWrap)).toBe('anywhere');
  expect(await addressViolations(page)).toEqual([]);

  // The server refuses it too, naming the URL.
  const refused = await apiAs(page, 'PATCH', '/api/provisioning/defaults', { hostname: `${own}:9` });
  expect(refused.status).toBe(400);
  expect(refused.body.detail).toContain(`http://${own}:9/provisioning/check/ping`);

  // The server's own address without a port: the console's port is tried, and it answers.
  await address.fill(own);
  await expect(warning).toHaveCount(0);
  await expect(ok).toContainText(`Phones will fetch their files from http://${own}:${port}/provisioning/`);
  expect(await addressViolations(page)).toEqual([]);
  await save.click();
  await expect(page.getByText('Default settings saved')).toBeVisible();
  await expect(dialog).toHaveCount(0);
  expect((await apiAs(page, 'GET', '/api/provisioning/v1/defaults')).body).toMatchObject({
    hostname: own,
    provisioning_url_scheme: 'http',
  });
});

test('a loopback PBX address is refused although the console answers there: phones can never reach it', async ({
  page,
}) => {
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Users', exact: true })).toBeVisible();
  await page.goto('/devices');
  const own = (await apiAs(page, 'GET', '/api/phonebook/ldap')).body.ldaps.server as string;
  await page.getByRole('button', { name: 'Edit the default settings' }).click();
  const dialog = page.getByRole('dialog', { name: 'Default settings' });
  const save = dialog.getByRole('button', { name: 'Save' });
  const address = dialog.getByRole('textbox', { name: 'PBX address' });
  await expect(dialog.getByTestId('connectivity-ok')).toBeVisible();

  for (const loopback of ['127.0.0.1', 'localhost']) {
    await address.fill(loopback);
    const warning = dialog.getByTestId('unreachable-warning');
    await expect(warning).toContainText('The PBX address is not reachable!');
    await expect(dialog.getByTestId('unreachable-advice')).toHaveText(
      `${loopback === 'localhost' ? 'localhost' : '127.0.0.1'} is a loopback address: it leads back to the machine ` +
        'that uses it, so each phone would look for the PBX on itself. Use the address phones reach the PBX at, ' +
        `such as this server’s address, ${own}.`,
    );
    await expect(dialog.getByTestId('unreachable-url')).toContainText('(a loopback address)');
    await expect(dialog.getByTestId('connectivity-ok')).toHaveCount(0);
    await expect(save).toBeDisabled();
    expect(await addressViolations(page)).toEqual([]);
  }
  const refused = await apiAs(page, 'PATCH', '/api/provisioning/defaults', { hostname: '127.0.0.1' });
  expect(refused.status).toBe(400);
  expect(refused.body.detail).toContain('loopback address, which no phone can reach');
  expect((await apiAs(page, 'GET', '/api/provisioning/v1/defaults')).body.hostname).toBeUndefined();
});
