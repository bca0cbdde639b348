import type { Page } from '@playwright/test';
import { apiAs, expect, seriousViolations, signIn, test } from './fixtures.ts';

/** Signed in with the wizard done, so the console opens on the dashboard. */
async function openDashboard(page: Page) {
  await signIn(page);
  expect((await apiAs(page, 'POST', '/api/configuration/wizard', { status: 'false', step: 13 })).status).toBe(200);
  await page.goto('/');
}

/**
 * The phone system on the dashboard (issue 40): who runs Asterisk, its state and why it is not running, in the
 * reader's language, with its log. A console set to run its own Asterisk with no Asterisk to run (ASTERISK_BIN names
 * nothing) shows the failure and still works; one that only writes files says so.
 */

test.describe('a managed PBX with no Asterisk to run', () => {
  test.use({ serverEnv: { ASTERISK_MODE: 'managed', ASTERISK_BIN: '/nonexistent/asterisk' } });

  test('the dashboard says it is not running and why, in English and Italian, and opens its log', async ({ page }) => {
    await openDashboard(page);
    const card = page.getByRole('region', { name: 'Phone system' });
    await expect(card.getByTestId('pbx-system-state')).toHaveText('Failed');
    await expect(card).toContainText('Centralino runs Asterisk on this server.');
    await expect(card.getByTestId('pbx-system-problem')).toContainText(
      '/nonexistent/asterisk (ASTERISK_BIN) is not an executable file',
    );
    await expect(card).toContainText('Phones: SIP 5060 (UDP, TCP), TLS 5061, web phones 8089; media 10000–20000');
    expect(await seriousViolations(page, ['main'])).toEqual([]);

    await card.getByRole('button', { name: 'Show log' }).click();
    const dialog = page.getByRole('dialog', { name: 'Phone system log' });
    await expect(dialog.getByText('No warnings or errors since Asterisk started.')).toBeVisible();
    await dialog.getByLabel('Search the log').fill('transport');
    await expect(dialog.getByText('0 warnings and errors since Asterisk started (showing 0)')).toBeVisible();
    expect(await seriousViolations(page, ['[role="dialog"]'])).toEqual([]);
    await page.keyboard.press('Escape');

    await page.evaluate(() => localStorage.setItem('preferredLanguage', 'it'));
    await page.goto('/');
    const scheda = page.getByRole('region', { name: 'Centralino telefonico' });
    await expect(scheda.getByTestId('pbx-system-state')).toHaveText('Non funzionante');
    await expect(scheda.getByTestId('pbx-system-problem')).toContainText(
      '/nonexistent/asterisk (ASTERISK_BIN) non è un file eseguibile',
    );
    expect(await seriousViolations(page, ['main'])).toEqual([]);
    await scheda.getByRole('button', { name: 'Mostra il log' }).click();
    await expect(page.getByRole('dialog', { name: 'Log del centralino telefonico' })).toBeVisible();
    expect(await seriousViolations(page, ['[role="dialog"]'])).toEqual([]);
  });
});

test('a console that only writes the files says so, with no log to show', async ({ page }) => {
  await openDashboard(page);
  const card = page.getByRole('region', { name: 'Phone system' });
  await expect(card.getByTestId('pbx-system-state')).toHaveText('Stopped');
  await expect(card).toContainText('Centralino only writes the configuration files (ASTERISK_MODE=off)');
  await expect(card.getByRole('button', { name: 'Show log' })).toHaveCount(0);
  expect(await seriousViolations(page, ['main'])).toEqual([]);
});
