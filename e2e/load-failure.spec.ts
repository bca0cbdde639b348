import { expect, seriousViolations, signIn, test } from './fixtures.ts';

/**
 * A screen's code is fetched when the screen is first opened. A fetch that fails (the connection dropped for a
 * moment, the console upgraded under an open tab) once showed the router's developer page ("Unexpected Application
 * Error!", "Hey developer"), and the installer was stuck on it.
 */

test('a screen whose code fails to load once reloads by itself and shows', async ({ page }) => {
  await signIn(page);
  let refused = 0;
  await page.route(/\/assets\/InventoryPage-[^/]+\.js$/, (route) => {
    if (refused++ === 0) return route.abort('connectionreset');
    return route.continue();
  });
  await page.goto('/devices/inventory');
  await expect(page.getByRole('heading', { name: 'Phone inventory' })).toBeVisible();
  expect(refused).toBeGreaterThanOrEqual(2);
  await expect(page.getByText('Unexpected Application Error')).toHaveCount(0);
});

test('a screen whose code cannot be loaded says so in the reader’s language and offers a reload', async ({ page }) => {
  await signIn(page);
  let down = true;
  await page.route(/\/assets\/InventoryPage-[^/]+\.js$/, (route) =>
    down ? route.abort('connectionreset') : route.continue(),
  );
  await page.evaluate(() => localStorage.setItem('preferredLanguage', 'it'));
  await page.goto('/devices/inventory');
  const alert = page.getByRole('alert').filter({ hasText: 'Non è stato possibile caricare questa schermata' });
  await expect(alert).toBeVisible();
  await expect(alert).toContainText('Ricarica la pagina per riprovare');
  await expect(page.getByText('Hey developer')).toHaveCount(0);
  expect(await seriousViolations(page, ['body'])).toEqual([]);
  // The console answers again: the button brings the screen.
  down = false;
  await alert.getByRole('button', { name: 'Ricarica la pagina' }).click();
  await expect(page.getByRole('heading', { name: 'Inventario telefoni' })).toBeVisible();
});
