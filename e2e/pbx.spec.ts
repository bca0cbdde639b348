import fs from 'node:fs';
import path from 'node:path';
import { apiAs, expect, signIn, test } from './fixtures.ts';

test('a user with an extension reaches the Asterisk files, and the header says applied', async ({ page }) => {
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Users', exact: true })).toBeVisible();
  expect((await apiAs(page, 'POST', '/api/configuration/mode', { mode: 'legacy' })).status).toBe(200);
  await expect.poll(async () => (await apiAs(page, 'GET', '/api/configuration/userprovider')).body.configured).toBe(1);
  expect((await apiAs(page, 'POST', '/api/users', { username: 'zeno', fullname: 'Zeno Cosini' })).status).toBe(201);
  expect((await apiAs(page, 'POST', '/api/mainextensions', { username: 'zeno', extension: '345' })).status).toBe(201);
  // The request did not wait: the apply follows in the background.
  const file = async () => {
    const status = (await apiAs(page, 'GET', '/api/pbx/apply')).body as { directory: string; state: string };
    const name = path.join(status.directory, 'pjsip.users.3xx.conf');
    return status.state === 'idle' && fs.existsSync(name) ? fs.readFileSync(name, 'utf8') : '';
  };
  await expect.poll(file, { timeout: 60_000 }).toContain('callerid = "Zeno Cosini" <345>');
  await expect(page.getByTestId('pbx-apply')).toHaveText('Applied');
});
