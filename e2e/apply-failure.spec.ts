import path from 'node:path';
import type { Page } from '@playwright/test';
import Database from 'better-sqlite3';
import { apiAs, expect, seriousViolations, signIn, test } from './fixtures.ts';

/** The parts of the page this feature adds: the header with the apply badge, the banner, Finalise's reason. */
const PARTS = ['header', '[data-testid="pbx-apply-banner"]', '[data-testid="finalise-blocked"]'];

async function appliedState(page: Page): Promise<string> {
  const status = (await apiAs(page, 'GET', '/api/pbx/apply')).body as { state: string; last: { ok: boolean } | null };
  if (status.state !== 'idle' || !status.last) return 'busy';
  return status.last.ok ? 'ok' : 'failed';
}

test('a failed apply is shown on every screen until fixed, and the wizard cannot be finalised meanwhile', async ({
  page,
  server,
}) => {
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Users', exact: true })).toBeVisible();
  expect((await apiAs(page, 'POST', '/api/configuration/mode', { mode: 'legacy' })).status).toBe(200);
  await expect.poll(async () => (await apiAs(page, 'GET', '/api/configuration/userprovider')).body.configured).toBe(1);
  expect((await apiAs(page, 'POST', '/api/users', { username: 'alice', fullname: 'Alice Rossi' })).status).toBe(201);
  expect((await apiAs(page, 'POST', '/api/mainextensions', { username: 'alice', extension: '201' })).status).toBe(201);
  const route = { extension: '0612345101', cidnum: '', description: 'Main line', destination: 'from-did-direct,201,1' };
  expect((await apiAs(page, 'POST', '/api/inboundroutes', route)).status).toBe(200);
  await expect.poll(() => appliedState(page), { timeout: 60_000 }).toBe('ok');
  await expect(page.getByTestId('pbx-apply-banner')).toHaveCount(0);

  // Alice's extension goes behind the API's back (the API refuses to take it while a route calls it) and the
  // inbound route still sends calls to it: the PBX refuses the configuration.
  const db = new Database(path.join(server.dataDir, 'centralino.db'));
  try {
    db.prepare("UPDATE users SET default_extension = NULL, extension_order = 999999999 WHERE username = 'alice'").run();
  } finally {
    db.close();
  }
  expect((await apiAs(page, 'POST', '/api/pbx/apply')).status).toBe(202);
  await expect.poll(() => appliedState(page), { timeout: 60_000 }).toBe('failed');

  // First screen: the wizard's Users step.
  const banner = page.getByRole('alert', { name: 'The PBX configuration was not applied' });
  await expect(banner).toBeVisible();
  await expect(banner).toContainText(
    'Inbound route 0612345101 (Main line): choose another destination for this route or remove the route.',
  );
  await expect(banner).toContainText('extension "201" does not exist');
  await expect(page.getByTestId('pbx-apply')).toHaveText('Apply failed');
  expect(await seriousViolations(page, PARTS)).toEqual([]);

  // Second screen: VoIP providers. The banner is there too, and reachable from the keyboard.
  await page.goto('/trunks/voip');
  await expect(page.getByRole('heading', { name: 'VoIP providers' }).first()).toBeVisible();
  await expect(banner).toBeVisible();
  expect(await seriousViolations(page, PARTS)).toEqual([]);
  // The same in Italian.
  await page.evaluate(() => localStorage.setItem('preferredLanguage', 'it'));
  await page.reload();
  await expect(
    page.getByRole('alert', { name: 'La configurazione del centralino non è stata applicata' }),
  ).toBeVisible();
  expect(await seriousViolations(page, PARTS)).toEqual([]);
  await page.evaluate(() => localStorage.setItem('preferredLanguage', 'en'));
  await page.reload();
  await expect(banner).toBeVisible();
  const link = banner.getByRole('link', { name: 'Open inbound routes' });
  await link.focus();
  await expect(link).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/routes\/inbound$/);
  await expect(page.getByTestId('inbound-0612345101').getByText('Main line')).toBeVisible();
  await expect(banner).toBeVisible();

  // Finalise: refused by the server, disabled with the reason on the last step.
  const refused = await apiAs(page, 'POST', '/api/configuration/wizard', { status: 'false', step: 13 });
  expect(refused.status).toBe(409);
  expect(refused.body.code).toBe('pbx_apply_failed');
  expect((await apiAs(page, 'POST', '/api/configuration/wizard', { status: 'true', step: 13 })).status).toBe(200);
  await page.goto('/');
  await expect(page).toHaveURL(/\/admin\/settings$/);
  const bar = page.getByTestId('step-bar');
  await expect(bar.getByRole('button', { name: 'Finalise' })).toBeDisabled();
  await expect(bar.getByTestId('finalise-blocked')).toContainText('Finalise is not possible while the last apply');
  await expect(banner).toBeVisible();
  expect(await seriousViolations(page, PARTS)).toEqual([]);

  // /final never says 'configured' next to the failure.
  await page.goto('/final');
  await expect(page.getByRole('heading', { name: 'The PBX configuration was not applied', level: 1 })).toBeVisible();
  await expect(page.getByText('Wizard completed')).toHaveCount(0);

  // The route is removed: the next apply succeeds, the banner goes and Finalise works.
  expect((await apiAs(page, 'POST', '/api/inboundroutes/delete', { extension: '0612345101', cid: '' })).status).toBe(
    200,
  );
  await expect.poll(() => appliedState(page), { timeout: 60_000 }).toBe('ok');
  await page.goto('/');
  await expect(page).toHaveURL(/\/admin\/settings$/);
  await expect(banner).toHaveCount(0);
  await expect(bar.getByRole('button', { name: 'Finalise' })).toBeEnabled();
  await bar.getByRole('button', { name: 'Finalise' }).click();
  await expect(page).toHaveURL(/\/final$/);
  await expect(page.getByRole('heading', { name: 'Wizard completed' })).toBeVisible();
});
