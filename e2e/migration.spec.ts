import fs from 'node:fs';
import {
  createLegacyDatabases,
  dropLegacyDatabases,
  legacyNames,
  legacySoundsDir,
  legacyTemplatesDir,
} from '../apps/server/test/support/legacy-pbx.ts';
import { apiAs, expect, seriousViolations, signIn, test } from './fixtures.ts';

/*
 * The migration wizard against a real older system: the fixture's NethVoice 11 databases on the local MariaDB
 * (30 extensions, 3,000 call records), its sounds and CTI templates folders. Start → profiles and users →
 * configuration → call records → report and its PDF → exit to the extensions; then the same screens in Italian.
 */
const prefix = `e2e_mig_${process.pid}_`;
const names = legacyNames(prefix);
test.use({
  serverEnv: {
    MIGRATION_DB_URL: 'mysql://root@127.0.0.1:3306',
    MIGRATION_PBX_DB: names.pbx,
    MIGRATION_CDR_DB: names.cdr,
    MIGRATION_CTI_DB: names.cti,
    MIGRATION_SOUNDS_DIR: legacySoundsDir(prefix),
    MIGRATION_CTI_TEMPLATES_DIR: legacyTemplatesDir(prefix),
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
  // A dry run first: what would be migrated, read from the old system; nothing is written.
  await page.getByRole('button', { name: 'Dry run' }).click();
  const dry = page.getByTestId('dry-run-report');
  await expect(dry.getByRole('heading', { name: 'Dry run: what would be migrated' })).toBeVisible({ timeout: 30_000 });
  await expect(dry.getByRole('row', { name: /^Recordings 2$/ })).toBeVisible();
  await expect(page.getByTestId('dry-run-iax').getByText(/IAX trunk "OldIaxLink" not migrated/)).toBeVisible();
  await expect(page.getByTestId('dry-run-recordings').getByText(/Recording "broken" not migrated/)).toBeVisible();
  expect(await seriousViolations(page, ['main'])).toEqual([]);
  expect((await apiAs(page, 'GET', '/api/migration/migrationstatus')).body).toBe('ready');
  expect((await apiAs(page, 'GET', '/api/trunks')).body).toEqual([]);
  // Start asks first (spec): cancelled, nothing is migrated.
  await page.getByRole('button', { name: 'Start migration' }).click();
  const confirmStart = page.getByRole('dialog', { name: 'Start migration' });
  await expect(confirmStart.getByText(/Start the migration now\?/)).toBeVisible();
  expect(await seriousViolations(page, ['[role="dialog"]'])).toEqual([]);
  await confirmStart.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirmStart).toHaveCount(0);
  await expect(page).toHaveURL(/\/migration$/);
  expect((await apiAs(page, 'GET', '/api/migration/migrationstatus')).body).toBe('ready');
  await page.getByRole('button', { name: 'Start migration' }).click();
  await confirmStart.getByRole('button', { name: 'Start migration' }).click();

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
  // Extension 210 had no CTI user in the old system: it gets one made from its name, and the page says so.
  const user210 = page.getByRole('combobox', { name: 'User of extension 210' });
  await expect(user210).toHaveValue('chiara.rossi');
  await expect(page.getByText('No CTI user in the old system: made from its name').first()).toBeVisible();
  expect(await seriousViolations(page, ['main'])).toEqual([]);
  await page.getByRole('button', { name: 'Migrate users' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Done' }).last()).toBeVisible({ timeout: 30_000 });
  // Every old extension is accounted for: 210 migrated under its new name, said as an info, and the count.
  const usersLines = page.getByTestId('users-lines');
  await expect(
    usersLines.getByText(
      'Extension 210 (Chiara Rossi) had no CTI user name in the old system: it was given the user name chiara.rossi (made from its name)',
    ),
  ).toBeVisible();
  await expect(usersLines.getByText('30 of the 30 old extensions migrated with their user')).toBeVisible();
  expect(await seriousViolations(page, ['main'])).toEqual([]);
  await page.getByRole('button', { name: 'Next' }).click();

  // Configuration: every section runs, one after the other.
  await expect(page).toHaveURL(/\/migration\/config$/);
  await page.getByRole('button', { name: 'Migrate configuration' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByTestId('section-postmig').getByText('Done')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('section-vtrunks').getByText('Trunk "Eutelia" migrated')).toBeVisible();
  await expect(page.getByTestId('section-iax').getByText(/IAX trunk "OldIaxLink" not migrated/)).toBeVisible();
  // Ring groups became ring groups, said per group; the recordings came with their audio; the CTI data followed.
  await expect(
    page.getByTestId('section-groups').getByText(/^Ring group 600 - Sales migrated \(ringall/),
  ).toBeVisible();
  await expect(page.getByTestId('section-recordings').getByText('Recording "welcome" migrated')).toBeVisible();
  await expect(page.getByTestId('section-cqr').getByText('CQR "Customer level" migrated')).toBeVisible();
  await expect(page.getByTestId('section-postmig').getByText('Customer-card template crm migrated')).toBeVisible();
  // Conference rooms came first in the groups step; 600 names no old room, so the announcement sending there hangs up.
  await expect(page.getByTestId('section-groups').getByText('Conference 700 Weekly meeting migrated')).toBeVisible();
  await expect(
    page
      .getByTestId('section-announcements')
      .getByText('Destination changed to hang up: conference 600 (no such room in the old system)'),
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
  await expect(
    page
      .getByTestId('report-announcements')
      .getByText('Destination changed to hang up: conference 600 (no such room in the old system)'),
  ).toBeVisible();
  // The PBX was applied once, after the last section, and the validator's verdict is part of the report.
  await expect(
    page.getByTestId('report-pbxcheck').getByText('the PBX validator found it valid', { exact: false }),
  ).toBeVisible();
  expect(await seriousViolations(page, ['main'])).toEqual([]);
  // The info lines too (spec: errors, warnings and infos), on screen and in the PDF.
  await expect(
    page.getByTestId('report-vtrunks').getByRole('row', { name: 'Trunk "Eutelia" migrated Information' }),
  ).toBeVisible();
  await expect(
    page.getByTestId('report-users').getByText(/Extension 210 \(Chiara Rossi\) had no CTI user name/),
  ).toBeVisible();
  await expect(
    page.getByTestId('report-users').getByText('30 of the 30 old extensions migrated with their user'),
  ).toBeVisible();
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Save PDF report' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('migration_report.pdf');
  // jsPDF writes its text uncompressed: the lines can be read in the file.
  const pdf = fs.readFileSync((await download.path()) as string, 'latin1');
  expect(pdf).toContain('Trunk "Eutelia" migrated');
  expect(pdf).toContain('30 of the 30 old extensions migrated with their user');
  expect(pdf).toContain('conference 600 \\(no such room in the old system\\)');
  await page.getByRole('button', { name: 'Exit' }).click();
  await expect(page).toHaveURL(/\/extensions$/);
  expect((await apiAs(page, 'GET', '/api/migration/ismigration')).body).toBe(false);
});

test.describe('in Italian', () => {
  test.use({ locale: 'it-IT' });

  test('migration screens in Italian pass axe: landing, users, configuration, call records, report', async ({
    page,
  }) => {
    await signIn(page);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    expect((await apiAs(page, 'POST', '/api/configuration/mode', { mode: 'legacy' })).status).toBe(200);
    await expect
      .poll(async () => (await apiAs(page, 'GET', '/api/configuration/userprovider')).body.configured)
      .toBe(1);

    await page.goto('/');
    await expect(page).toHaveURL(/\/migration$/);
    await expect(page.getByRole('heading', { name: 'Migrazione dal vecchio sistema', level: 1 })).toBeVisible();
    expect(await seriousViolations(page, ['main'])).toEqual([]);
    await page.getByRole('button', { name: 'Prova senza modifiche' }).click();
    await expect(page.getByRole('heading', { name: 'Prova senza modifiche: cosa verrebbe migrato' })).toBeVisible({
      timeout: 30_000,
    });
    await expect(page.getByTestId('dry-run-counts').getByText('Rotte in entrata')).toBeVisible();
    expect(await seriousViolations(page, ['main'])).toEqual([]);
    await page.getByRole('button', { name: 'Avvia migrazione' }).click();
    const confirmStart = page.getByRole('dialog', { name: 'Avvia migrazione' });
    await expect(confirmStart.getByText(/Avviare ora la migrazione\?/)).toBeVisible();
    expect(await seriousViolations(page, ['[role="dialog"]'])).toEqual([]);
    await confirmStart.getByRole('button', { name: 'Avvia migrazione' }).click();

    await expect(page).toHaveURL(/\/migration\/users$/);
    await expect(page.getByRole('combobox', { name: "Utente dell'interno 202" })).toHaveValue('luca.rossi');
    expect(await seriousViolations(page, ['main'])).toEqual([]);
    await page.getByRole('button', { name: 'Migra utenti' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    expect(await seriousViolations(page, ['[role="dialog"]'])).toEqual([]);
    await page.getByRole('dialog').getByRole('button', { name: 'Continua' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Completato' }).last()).toBeVisible({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Avanti' }).click();

    await expect(page).toHaveURL(/\/migration\/config$/);
    expect(await seriousViolations(page, ['main'])).toEqual([]);
    await page.getByRole('button', { name: 'Migra configurazione' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Continua' }).click();
    await expect(page.getByTestId('section-postmig').getByText('Completato')).toBeVisible({ timeout: 30_000 });
    // Every section with its lists shown: errors, warnings and information, labelled in Italian.
    await expect(page.getByTestId('section-groups').getByText('Gruppi di chiamata', { exact: true })).toBeVisible();
    // The steps' own lines are in Italian too.
    await expect(page.getByTestId('section-vtrunks').getByText('Fascio "Eutelia" migrato')).toBeVisible();
    await expect(
      page.getByTestId('section-iax').getByText(/Fascio IAX "OldIaxLink" non migrato: Centralino non supporta IAX/),
    ).toBeVisible();
    expect(await seriousViolations(page, ['main'])).toEqual([]);
    await page.getByRole('button', { name: 'Avanti' }).click();

    await expect(page).toHaveURL(/\/migration\/cdr$/);
    await expect(page.getByTestId('cdr-count')).toHaveText('3000 chiamate da migrare');
    expect(await seriousViolations(page, ['main'])).toEqual([]);
    await page.getByRole('button', { name: 'Migra registro chiamate' }).click();
    await expect(page.getByText('3000 chiamate migrate')).toBeVisible({ timeout: 60_000 });
    expect(await seriousViolations(page, ['main'])).toEqual([]);
    await page.getByRole('button', { name: 'Vai al resoconto' }).click();

    await expect(page).toHaveURL(/\/migration\/report$/);
    await expect(page.getByRole('heading', { name: 'Resoconto della migrazione' })).toBeVisible();
    await expect(page.getByTestId('report-pbxcheck').getByText('Verifica della configurazione del PBX')).toBeVisible();
    // The report's lines in Italian, the same rows the English walk saw.
    await expect(
      page
        .getByTestId('report-announcements')
        .getByText('Destinazione cambiata in riaggancio: conferenza 600 (stanza inesistente nel vecchio sistema)')
        .first(),
    ).toBeVisible();
    await expect(page.getByTestId('report-profiles').getByText('Profilo "Base" già migrato').first()).toBeVisible();
    await expect(page.getByText('Destination changed to hang up')).toHaveCount(0);
    expect(await seriousViolations(page, ['main'])).toEqual([]);
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Salva resoconto PDF' }).click();
    expect((await downloading).suggestedFilename()).toBe('migration_report.pdf');
  });
});
