import { createLegacyDatabases, dropLegacyDatabases, legacyNames } from '../apps/server/test/support/legacy-pbx.ts';
import { apiAs, expect, seriousViolations, signIn, test } from './fixtures.ts';

/*
 * The migration wizard against a real older system: the fixture's NethVoice 11 databases on the local MariaDB
 * (30 extensions, 3,000 call records). Start → profiles and users → configuration → call records → report and
 * its PDF → exit to the extensions.
 */
const prefix = `e2e_mig_${process.pid}_`;
const names = legacyNames(prefix);
test.setTimeout(180_000);
test.use({
  serverEnv: {
    MIGRATION_DB_URL: 'mysql://root@127.0.0.1:3306',
    MIGRATION_PBX_DB: names.pbx,
    MIGRATION_CDR_DB: names.cdr,
    MIGRATION_CTI_DB: names.cti,
  },
});
test.beforeAll(async () => {
  await createLegacyDatabases({ prefix, users: 30, cdr: 3000 });
});
test.afterAll(() => dropLegacyDatabases(prefix));

test('migration wizard: users, configuration, call records, report', async ({ page }) => {
  await signIn(page);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  // A local directory: the users are created in it.
  expect((await apiAs(page, 'POST', '/api/configuration/mode', { mode: 'legacy' })).status).toBe(200);
  await expect.poll(async () => (await apiAs(page, 'GET', '/api/configuration/userprovider')).body.configured).toBe(1);

  // After sign-in, a migration that has not started opens its landing page.
  await page.goto('/');
  await expect(page).toHaveURL(/\/migration$/);
  await expect(page.getByRole('heading', { name: 'Migration from the older system', level: 1 })).toBeVisible();
  expect(await seriousViolations(page, ['main'])).toEqual([]);
  await page.getByRole('button', { name: 'Start migration' }).click();

  // Profiles migrate by themselves; then the old extensions, each with the user it goes to.
  await expect(page).toHaveURL(/\/migration\/users$/);
  await expect(page.getByText('Profile "Base" already migrated')).toBeVisible();
  const user202 = page.getByRole('combobox', { name: 'User of extension 202' });
  await expect(user202).toHaveValue('luca.rossi');
  await user202.fill('mario.rossi');
  // Both extensions given the same user are flagged.
  await expect(page.getByText('Username already used')).toHaveCount(2);
  await expect(page.getByRole('button', { name: 'Migrate users' })).toBeDisabled();
  await page.getByRole('button', { name: 'Reset extension 202 to its old user' }).click();
  await expect(user202).toHaveValue('luca.rossi');
  expect(await seriousViolations(page, ['main'])).toEqual([]);
  await page.getByRole('button', { name: 'Migrate users' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Done' }).last()).toBeVisible({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Next' }).click();

  // Configuration: every section runs, one after the other.
  await expect(page).toHaveURL(/\/migration\/config$/);
  await page.getByRole('button', { name: 'Migrate configuration' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByTestId('section-postmig').getByText('Done')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('section-vtrunks').getByText('Trunk "Eutelia" migrated')).toBeVisible();
  await expect(page.getByTestId('section-iax').getByText(/IAX trunk "OldIaxLink" not migrated/)).toBeVisible();
  await expect(
    page.getByTestId('section-iroutes').getByText('ext-meetme,600,1 destination not migrated'),
  ).toBeVisible();
  expect(await seriousViolations(page, ['main'])).toEqual([]);
  await page.getByRole('button', { name: 'Next' }).click();

  // Call records: the count, the warning, the copy in the background.
  await expect(page).toHaveURL(/\/migration\/cdr$/);
  await expect(page.getByTestId('cdr-count')).toHaveText('3000 call records to migrate');
  await expect(page.getByText('takes a few minutes')).toBeVisible();
  expect(await seriousViolations(page, ['main'])).toEqual([]);
  await page.getByRole('button', { name: 'Migrate call records' }).click();
  await expect(page.getByText('3000 call records migrated')).toBeVisible({ timeout: 60_000 });
  await page.getByRole('button', { name: 'Go to report' }).click();

  // Report: by area, with message and type; the PDF; exit ends the migration.
  await expect(page).toHaveURL(/\/migration\/report$/);
  await expect(page.getByTestId('report-iroutes').getByText('ext-meetme,600,1 destination not migrated')).toBeVisible();
  expect(await seriousViolations(page, ['main'])).toEqual([]);
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Save PDF report' }).click();
  expect((await downloading).suggestedFilename()).toBe('migration_report.pdf');
  await page.getByRole('button', { name: 'Exit' }).click();
  await expect(page).toHaveURL(/\/extensions$/);
  expect((await apiAs(page, 'GET', '/api/migration/ismigration')).body).toBe(false);
});
