import { expect, signIn, test } from './fixtures.ts';
test('timing', async ({ page, server }) => {
  console.log('cold', Math.round(server.coldStartMs));
  let t = performance.now();
  await page.goto('/login');
  await page.getByLabel('User').waitFor();
  console.log('login page', Math.round(performance.now() - t));
  t = performance.now();
  await signIn(page);
  console.log('signIn', Math.round(performance.now() - t));
  t = performance.now();
  await expect(page.getByRole('heading', { name: 'Users', exact: true })).toBeVisible();
  console.log('users heading', Math.round(performance.now() - t));
  t = performance.now();
  await page.goto('/devices/models');
  await expect(page.getByRole('heading', { name: 'Phone models' })).toBeVisible();
  console.log('models page', Math.round(performance.now() - t));
});
