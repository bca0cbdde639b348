import type { Page } from '@playwright/test';
import { apiAs, expect, seriousViolations, signIn, signInAs, test } from './fixtures.ts';

/*
 * Issue 28 item 5: a read-only account "can see every screen and download reports but whose every write answers
 * 403". The console says so before the server has to: on every screen the write controls are disabled (and told
 * "Read-only account" to a screen reader) or hidden. The walk signs in as such an account on a seeded server and
 * looks, on each screen, for a button or input that would change something and is still enabled.
 */
// A budget for the walk of every screen (the oldmode spec's 300 s ran out at load 12).
test.setTimeout(600_000);
test.use({ actionTimeout: 30_000 });

/** Names of buttons that change something (English); a read-only account must find none of them enabled. */
const WRITE =
  /^(save|add|new|create|delete|remove|apply|import|upload|edit|reboot|sync|synchronise|start|reset|restore|set|change|enable|disable|install|generate|scan|move|copy|rename|duplicate|update|turn on|turn off|reconfigure|confirm|schedule|test|assign|unassign|clear|connect|run|next|skip|finish|mark)\b/i;

/** Screens a read-only account opens; the wizard is finished on this server, so the wizard's steps show as screens. */
const SCREENS = [
  '/users',
  '/extensions',
  '/trunks/physical',
  '/trunks/voip',
  '/routes/inbound',
  '/routes/outbound',
  '/routes/blocking',
  '/devices',
  '/devices/inventory',
  '/devices/models',
  '/configurations/devices',
  '/configurations/groups',
  '/configurations/profiles',
  '/configurations/preferences',
  '/apps',
  '/apps/paramurl',
  '/apps/streaming',
  '/apps/cloudServices',
  '/apps/bulkextensions',
  '/apps/phonebook',
  '/apps/cards',
  '/apps/bulkdevices',
  '/flows/recordings',
  '/flows/announcements',
  '/flows/ivr',
  '/flows/daynight',
  '/flows/queues',
  '/flows/conferences',
  '/flows/parking',
  '/flows/ringgroups',
  '/flows/timegroups',
  '/flows/timeconditions',
  '/flows/cqr',
  '/admin',
  '/admin/languages',
  '/admin/settings',
  '/admin/report',
  '/admin/backup',
  '/admin/accounts',
  '/admin/audit',
  '/calls',
  '/calls/reports',
  '/migration',
  '/final',
];

const MAC = '00-15-65-AA-BB-CC';

/** Users with extensions, a trunk, an inbound route, a CTI group, a phone, a time group; the wizard done. */
async function seed(page: Page) {
  const call = async (method: string, path: string, body?: unknown) => {
    const answer = await apiAs(page, method, path, body);
    expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBeLessThan(300);
  };
  await call('POST', '/api/configuration/mode', { mode: 'legacy' });
  await expect.poll(async () => (await apiAs(page, 'GET', '/api/configuration/userprovider')).body.configured).toBe(1);
  await call('POST', '/api/users', { username: 'alice', fullname: 'Alice Rossi' });
  await call('POST', '/api/mainextensions', { username: 'alice', extension: '201' });
  await call('POST', '/api/trunks', {
    provider: 'vivavox',
    name: 'vivavox',
    username: '0721123456',
    password: 's3cr3t!',
    phone: '0721123456',
    codecs: ['alaw'],
    forceCodec: true,
  });
  await call('POST', '/api/inboundroutes', {
    extension: '0612345101',
    cidnum: '',
    description: 'Main line',
    destination: 'from-did-direct,201,1',
  });
  await call('POST', '/api/cti/groups', { name: 'Support' });
  await call('POST', '/api/provisioning/v1/phones', { mac: MAC, model: 'yealink-T46' });
  await call('POST', '/api/physicalextensions', { mac: MAC, model: 'yealink-T46' });
  await call('POST', '/api/physicalextensions', { mainextension: '201', mac: MAC });
  await call('POST', '/api/timegroups', { name: 'Office', ranges: [{ hours: '08:00-18:00' }] });
  await call('POST', '/api/admin/accounts', { username: 'looker', password: 'looker-pass-1', role: 'readonly' });
  await call('POST', '/api/configuration/wizard', { status: 'false', step: 13 });
}

/** On a fresh server: the administrator adds a read-only account, then the page signs in with it. */
async function signInAsNewReadOnly(page: Page, username: string) {
  await signIn(page);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  const password = `${username}-pass-1`;
  expect((await apiAs(page, 'POST', '/api/admin/accounts', { username, password, role: 'readonly' })).status).toBe(201);
  await signInAs(page, username, password);
}

/** Writes a read-only account may make: they touch only its own account (its password, its second factor). */
const OWN_ACCOUNT = new Set(['Change password', 'Set up two-factor sign-in']);

/** Enabled buttons of the screen whose name says they change something, and enabled switches. */
async function enabledWriteControls(page: Page): Promise<string[]> {
  const found: string[] = [];
  for (const button of await page.locator('main').getByRole('button').all()) {
    if (!(await button.isVisible()) || !(await button.isEnabled())) continue;
    const name = ((await button.getAttribute('aria-label')) ?? (await button.textContent()) ?? '').trim();
    if (WRITE.test(name) && !OWN_ACCOUNT.has(name)) found.push(`button "${name}"`);
  }
  for (const toggle of await page.locator('main').getByRole('switch').all()) {
    if ((await toggle.isVisible()) && (await toggle.isEnabled())) found.push('a switch');
  }
  return found;
}

test('read-only account: every screen shows its write controls disabled or hidden', async ({ page }) => {
  await signIn(page);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await seed(page);

  await signInAs(page, 'looker', 'looker-pass-1');
  const offenders: string[] = [];
  for (const path of SCREENS) {
    await page.goto(path);
    await expect(page.getByTestId('read-only-banner')).toBeVisible({ timeout: 30_000 });
    await expect(page.locator('h1')).toHaveCount(1, { timeout: 30_000 });
    await expect(page.locator('main .mantine-Loader-root, main [data-loading]')).toHaveCount(0, { timeout: 30_000 });
    for (const control of await enabledWriteControls(page)) offenders.push(`${path}: ${control}`);
    // The disabled controls stay readable: axe finds nothing serious on any screen.
    for (const violation of await seriousViolations(page, ['main'])) offenders.push(`${path}: axe ${violation}`);
  }
  expect(offenders).toEqual([]);

  // A disabled control says why to a screen reader; a form's fields are disabled with its button.
  await page.goto('/extensions');
  await expect(page.getByRole('button', { name: 'Add user' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Add user' })).toHaveAccessibleDescription(
    'Read-only account: changes are not allowed',
  );
  await page.goto('/admin/languages');
  await expect(page.getByRole('combobox', { name: 'System language' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Save' })).toBeDisabled();
  // Reading stays open: the audit log is searched and exported.
  await page.goto('/admin/audit');
  await expect(page.getByRole('button', { name: 'Search', exact: true })).toBeEnabled();
  await expect(page.getByRole('button', { name: 'Export CSV' })).toBeEnabled();
});

test('read-only account in Italian: the disabled controls explain themselves in Italian', async ({ page }) => {
  await signInAsNewReadOnly(page, 'guarda');
  await page.evaluate(() => localStorage.setItem('preferredLanguage', 'it'));
  await page.goto('/apps/phonebook');
  const create = page.getByRole('button', { name: 'Nuova sorgente' });
  await expect(create).toBeDisabled();
  await expect(create).toHaveAccessibleDescription('Account in sola lettura: le modifiche non sono consentite');
  expect(await seriousViolations(page, ['main'])).toEqual([]);
  // A credential's control says why in Italian too: a backup holds every secret.
  await page.goto('/admin/backup');
  const download = page.getByRole('button', { name: 'Scarica backup' });
  await expect(download).toBeDisabled({ timeout: 30_000 });
  await expect(download).toHaveAccessibleDescription(
    'Account in sola lettura: password, segreti e backup sono visibili solo agli amministratori',
  );
  expect(await seriousViolations(page, ['main'])).toEqual([]);
});

test('read-only account during the wizard: it may look at the step, not choose a directory or move on', async ({
  page,
}) => {
  await signInAsNewReadOnly(page, 'early');
  await page.goto('/users');
  await expect(page.getByTestId('step-bar')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('read-only-banner')).toBeVisible();
  for (const name of ['Local directory', 'Configure Provider', 'Previous', 'Next']) {
    await expect(page.getByRole('button', { name, exact: true })).toBeDisabled();
  }
  await expect(page.getByRole('button', { name: 'Next', exact: true })).toHaveAccessibleDescription(
    'Read-only account: changes are not allowed',
  );
  expect(await seriousViolations(page, ['body'])).toEqual([]);
});

test('read-only account: credentials are shown only to administrators, and the console says so', async ({ page }) => {
  await signIn(page);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await seed(page);
  await signInAs(page, 'looker', 'looker-pass-1');
  const reason = 'Read-only account: passwords, secrets and backups are shown only to administrators';

  // A user's password: its Show is disabled, with the reason.
  await page.goto('/extensions');
  const show = page.getByRole('button', { name: 'Show password of alice' });
  await expect(show).toBeDisabled({ timeout: 30_000 });
  await expect(show).toHaveAccessibleDescription(reason);

  // A backup holds every secret: no download.
  await page.goto('/admin/backup');
  const download = page.getByRole('button', { name: 'Download backup' });
  await expect(download).toBeDisabled({ timeout: 30_000 });
  await expect(download).toHaveAccessibleDescription(reason);
  expect(await seriousViolations(page, ['main'])).toEqual([]);

  // The final report lists the users without their passwords and PINs, and says why.
  await page.goto('/admin/report');
  await expect(page.getByTestId('report-row')).toHaveCount(1, { timeout: 30_000 });
  await expect(page.getByTestId('report-username')).toContainText('alice');
  await expect(page.getByTestId('report-voicemail')).toHaveCount(0);
  await expect(page.getByTestId('report-password')).toHaveCount(0);
  await expect(page.getByTestId('report-credentials-hidden')).toHaveText(reason);
  expect(await seriousViolations(page, ['main'])).toEqual([]);

  // The server agrees: the credential calls answer 403 with the reason, in the reader's language.
  const refused = await apiAs(page, 'GET', '/api/users/alice/password');
  expect(refused.status).toBe(403);
  expect(refused.body).toMatchObject({ code: 'read_only', detail: expect.stringMatching(/only to administrators/) });
  const phone = await apiAs(page, 'GET', `/api/provisioning/v1/phones/${MAC}`);
  expect(phone.status).toBe(200);
  expect(JSON.stringify(phone.body)).not.toMatch(/[0-9a-f]{32}/);
});
