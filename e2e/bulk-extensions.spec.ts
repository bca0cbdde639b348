import type { Page } from '@playwright/test';
import { amiPeer } from '../apps/server/test/support/ami-peer.ts';
import { apiAs, expect, seriousViolations, signInWithLocalUsers, test } from './fixtures.ts';

// The PBX over AMI: a loopback peer keeping an AstDB, where bob's phone turned call waiting on with *70.
const astdb = new Map<string, string>();
const peer = amiPeer({ secret: 'e2e-bulk-secret', astdb });
const port = await peer.listen();
// Not closed in a file-level afterAll: with fullyParallel every test is a group of its own, and that hook ran after
// the first test of this file a worker took, leaving the next one's server to dial a closed port. The peer ends with
// the worker.

test.use({
  serverEnv: {
    AMI_HOST: '127.0.0.1',
    AMI_PORT: String(port),
    AMI_USERNAME: 'centralino',
    AMI_SECRET: 'e2e-bulk-secret',
  },
});

async function seed(page: Page) {
  await signInWithLocalUsers(page, [
    ['alice', 'Alice Rossi', '201'],
    ['bob', 'Room 202', '202'],
    ['carol', 'Room 203', '203'],
    ['dave', 'Dave Verdi'],
  ]);
  await apiAs(page, 'POST', '/api/voicemails', { extension: '201', state: 'yes' });
  const sales = (await apiAs(page, 'POST', '/api/cti/groups', { name: 'Sales' })).body.id as number;
  const users = (await apiAs(page, 'GET', '/api/users/false?search=room')).body as { id: number }[];
  for (const u of users) await apiAs(page, 'POST', `/api/cti/groups/users/${u.id}`, { groups: [sales] });
  expect((await apiAs(page, 'POST', '/api/configuration/wizard', { status: 'false', step: 13 })).status).toBe(200);
  astdb.clear();
  astdb.set('CW/202', 'ENABLED');
}

const selectedCount = (page: Page) => page.getByRole('status').filter({ hasText: /selected/ });

test('select a group, edit locked fields with a preview, and the PBX settings follow', async ({ page }) => {
  await seed(page);
  await page.goto('/apps/bulkextensions');
  await expect(page.getByRole('heading', { name: 'Bulk extensions', level: 1 })).toBeVisible();
  // Users without a main extension get an input instead of a checkbox.
  await expect(page.getByRole('textbox', { name: 'Extension of Dave Verdi' })).toBeVisible();
  expect(await seriousViolations(page, ['main'])).toEqual([]);
  await expect(page.getByRole('button', { name: 'Edit' })).toBeDisabled();

  await page.getByRole('combobox', { name: 'Group' }).click();
  await page.getByRole('option', { name: 'Sales' }).click();
  await page.getByRole('button', { name: 'Select the group' }).click();
  await expect(selectedCount(page)).toHaveText('2 users selected');
  await expect(page.getByRole('checkbox', { name: /202 Room 202/ })).toBeChecked();
  await expect(page.getByRole('checkbox', { name: /201 Alice Rossi/ })).not.toBeChecked();

  await page.getByRole('button', { name: 'Edit' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit 2 users' });
  // Every field starts locked; the shared name shows as its template.
  await expect(dialog.getByRole('textbox', { name: 'Display name' })).toHaveValue('Room ???');
  await expect(dialog.getByRole('textbox', { name: 'Display name' })).toBeDisabled();
  await expect(dialog.getByRole('textbox', { name: 'Ring time (seconds)' })).toBeDisabled();
  await expect(dialog.getByRole('button', { name: /^Apply to 2 users$/ })).toBeDisabled();
  await expect(dialog).toContainText('Unlock a field to change it.');
  expect(await seriousViolations(page, ['[role="dialog"]'])).toEqual([]);

  await dialog.getByRole('button', { name: 'Unlock Ring time (seconds) to change it' }).click();
  const ring = dialog.getByRole('textbox', { name: 'Ring time (seconds)' });
  await ring.fill('130');
  await expect(dialog.getByText('A number from 0 to 120')).toBeVisible();
  await expect(dialog.getByRole('button', { name: /^Apply to 2 users$/ })).toBeDisabled();
  await ring.fill('30');
  await dialog.getByRole('button', { name: 'Unlock Call waiting to change it' }).click();
  await dialog.getByRole('switch', { name: 'Call waiting' }).click({ force: true });
  await dialog.getByRole('button', { name: 'Unlock When busy to change it' }).click();
  await dialog.getByRole('combobox', { name: 'When busy', exact: true }).click();
  await page.getByRole('option', { name: 'Voicemail', exact: true }).click();
  await dialog.getByRole('combobox', { name: 'When busy: destination' }).click();
  await page.getByRole('option', { name: '<201> Alice Rossi (busy)' }).click();

  const preview = dialog.getByTestId('bulk-preview');
  await expect(preview).toHaveText('Of 2 selected users, 2 change. No phone gets a new configuration.');
  await expect(dialog.getByText('Ring time (seconds): 2 users')).toBeVisible();
  await expect(dialog.getByText('When busy: 2 users')).toBeVisible();
  expect(await seriousViolations(page, ['[role="dialog"]'])).toEqual([]);
  await dialog.getByRole('button', { name: 'Apply to 2 users' }).click();
  await expect(page.getByText('Changes applied to 2 users')).toBeVisible();
  await expect(dialog).toBeHidden();

  const stored = (await apiAs(page, 'GET', '/api/bulk/202,203')).body;
  expect(stored).toMatchObject({
    ringtime: '30',
    callwaiting: false,
    busydest: 'ext-local,vmb201,1',
    displayname: 'Room ???',
    noanswerdest: '',
  });
  // What bob's phone said with *70 no longer overrides the call waiting just configured.
  expect(astdb.has('CW/202')).toBe(false);
  // Alice was not selected: untouched.
  expect((await apiAs(page, 'GET', '/api/bulk/201')).body).toMatchObject({ ringtime: '0', callwaiting: true });

  // The user's own screen shows what was set in bulk.
  await page.goto('/configurations/preferences');
  await page.getByRole('button', { name: /Room 202/ }).click();
  const summary = page.getByTestId('call-settings-202');
  await expect(summary).toContainText('Ring time (seconds):30');
  await expect(summary).toContainText('Call waiting:Off');
  await expect(summary).toContainText('When busy:<201> Alice Rossi (busy)');
});

test('mixed values, unlocking to defaults, refusals with their reason, and every way to select', async ({ page }) => {
  await seed(page);
  // Bob rings longer; carol has a call group and no call waiting: three mixed fields, changing different users.
  await apiAs(page, 'POST', '/api/bulk/202', { ringtime: 45 });
  await apiAs(page, 'POST', '/api/bulk/203', { callgroup: '1', callwaiting: false });
  await page.goto('/apps/bulkextensions');
  await page.getByRole('button', { name: 'Select all' }).click();
  await expect(selectedCount(page)).toHaveText('3 users selected');
  await page.getByRole('button', { name: 'Select none' }).click();
  await expect(selectedCount(page)).toHaveText('0 users selected');

  // By interval (minimum 0), then by the search results (offered from 2 characters with a match).
  await page.getByRole('textbox', { name: 'From extension' }).fill('202');
  await page.getByRole('textbox', { name: 'To extension' }).fill('203');
  await page.getByRole('button', { name: 'Select the interval' }).click();
  await expect(selectedCount(page)).toHaveText('2 users selected');
  await page.getByRole('button', { name: 'Select none' }).click();
  const search = page.getByRole('textbox', { name: 'Search' });
  await search.fill('r');
  await expect(page.getByRole('button', { name: /^Select the .* results? for/ })).toHaveCount(0);
  await search.fill('alice');
  await page.getByRole('button', { name: 'Select the 1 result for “alice”' }).click();
  await expect(selectedCount(page)).toHaveText('1 user selected');
  await search.fill('zzz');
  await expect(page.getByText('No results')).toBeVisible();
  await expect(page.getByRole('button', { name: /^Select the .* results? for/ })).toHaveCount(0);
  await search.fill('');

  // Adding a main extension: a number in use is refused in words.
  const daveExt = page.getByRole('textbox', { name: 'Extension of Dave Verdi' });
  await daveExt.fill('201');
  await page.getByRole('button', { name: 'Add Dave Verdi' }).click();
  await expect(page.getByText('Extension already in use')).toBeVisible();
  await daveExt.fill('204');
  await page.getByRole('button', { name: 'Add Dave Verdi' }).click();
  await expect(page.getByRole('checkbox', { name: /204 Dave Verdi/ })).toBeVisible();

  await page.getByRole('button', { name: 'Select all' }).click();
  await expect(selectedCount(page)).toHaveText('4 users selected');
  await page.getByRole('button', { name: 'Edit' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit 4 users' });
  const ring = dialog.getByRole('textbox', { name: 'Ring time (seconds)' });
  await expect(ring).toHaveAttribute('placeholder', 'Mixed values');
  await expect(ring).toHaveValue('');
  await expect(dialog.getByRole('textbox', { name: 'Call group' })).toHaveAttribute('placeholder', 'Mixed values');
  // Unlocking a mixed field starts from the default: call waiting on, ring time 0, no call group.
  const callWaiting = dialog.getByRole('switch', { name: 'Call waiting' });
  await expect(callWaiting).toBeDisabled();
  await dialog.getByRole('button', { name: 'Unlock Call waiting to change it' }).click();
  await expect(callWaiting).toBeEnabled();
  await expect(callWaiting).toBeChecked();
  await dialog.getByRole('button', { name: 'Unlock Ring time (seconds) to change it' }).click();
  await expect(ring).toHaveValue('0');
  await dialog.getByRole('button', { name: 'Unlock Call group to change it' }).click();
  await expect(dialog.getByRole('textbox', { name: 'Call group' })).toHaveValue('');
  // Each field changes one user (the ring time bob, call waiting and call group carol): two users change.
  await expect(dialog.getByText('Ring time (seconds): 1 user')).toBeVisible();
  await expect(dialog.getByText('Call group: 1 user')).toBeVisible();
  await expect(dialog.getByTestId('bulk-preview')).toContainText('Of 4 selected users, 2 change.');
  await dialog.getByRole('button', { name: 'Lock Call group (leave it unchanged)' }).click();
  await dialog.getByRole('button', { name: 'Lock Call waiting (leave it unchanged)' }).click();
  // Nobody has a profile: shown as such while locked; unlocked, the default profile is offered.
  await expect(dialog.getByRole('combobox', { name: 'Profile' })).toHaveValue('No profile');
  await dialog.getByRole('button', { name: 'Unlock Profile to change it' }).click();
  await expect(dialog.getByRole('combobox', { name: 'Profile' })).toHaveValue('Standard');
  await dialog.getByRole('button', { name: 'Lock Profile (leave it unchanged)' }).click();
  await dialog.getByRole('button', { name: 'Lock Ring time (seconds) (leave it unchanged)' }).click();
  await expect(ring).toHaveAttribute('placeholder', 'Mixed values');

  // Sending users' unanswered calls to one of them: refused for that user, with the reason at the field.
  await dialog.getByRole('button', { name: 'Unlock When not answered to change it' }).click();
  await dialog.getByRole('combobox', { name: 'When not answered', exact: true }).click();
  await page.getByRole('option', { name: 'Extensions' }).click();
  await dialog.getByRole('combobox', { name: 'When not answered: destination' }).click();
  await page.getByRole('option', { name: '203 Room 203' }).click();
  await expect(dialog.getByText('carol (203) cannot send its own calls back to itself').first()).toBeVisible();
  await dialog.getByRole('button', { name: 'Apply to 4 users' }).click();
  await expect(dialog.getByRole('alert')).toContainText('Nothing was changed');
  expect((await apiAs(page, 'GET', '/api/bulk/203')).body.noanswerdest).toBe('');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
});

test('a value set in bulk shows when the same users are edited again; only their phones are counted', async ({
  page,
}) => {
  await seed(page);
  // Bob has a web phone (an account on his main extension); carol has no phone at all.
  expect((await apiAs(page, 'POST', '/api/webrtc', { extension: '202' })).status).toBeLessThan(300);
  await page.goto('/apps/bulkextensions');
  await page.getByRole('textbox', { name: 'From extension' }).fill('202');
  await page.getByRole('textbox', { name: 'To extension' }).fill('203');
  await page.getByRole('button', { name: 'Select the interval' }).click();
  await expect(selectedCount(page)).toHaveText('2 users selected');

  await page.getByRole('button', { name: 'Edit' }).click();
  let dialog = page.getByRole('dialog', { name: 'Edit 2 users' });
  await dialog.getByRole('button', { name: 'Unlock Ring time (seconds) to change it' }).click();
  await dialog.getByRole('textbox', { name: 'Ring time (seconds)' }).fill('25');
  await expect(dialog.getByTestId('bulk-preview')).toHaveText(
    'Of 2 selected users, 2 change. 1 phone gets a new configuration.',
  );
  expect(await seriousViolations(page, ['[role="dialog"]'])).toEqual([]);
  await dialog.getByRole('button', { name: 'Apply to 2 users' }).click();
  await expect(page.getByText('Changes applied to 2 users')).toBeVisible();
  await expect(dialog).toBeHidden();

  // Opened again on the same users: the locked field shows the 25 they now share, not what they had.
  await page.getByRole('button', { name: 'Edit' }).click();
  dialog = page.getByRole('dialog', { name: 'Edit 2 users' });
  const ring = dialog.getByRole('textbox', { name: 'Ring time (seconds)' });
  await expect(ring).toBeDisabled();
  await expect(ring).toHaveValue('25');
  // Where calls go when busy is in the dialplan, not on any phone: no phone is said to get a new configuration.
  await dialog.getByRole('button', { name: 'Unlock When busy to change it' }).click();
  await dialog.getByRole('combobox', { name: 'When busy', exact: true }).click();
  await page.getByRole('option', { name: 'Terminate call' }).click();
  await dialog.getByRole('combobox', { name: 'When busy: destination' }).click();
  await page.getByRole('option', { name: 'Hangup' }).click();
  await expect(dialog.getByTestId('bulk-preview')).toHaveText(
    'Of 2 selected users, 2 change. No phone gets a new configuration.',
  );
  expect(await seriousViolations(page, ['[role="dialog"]'])).toEqual([]);
});

test('in Italian', async ({ page }) => {
  await seed(page);
  await page.evaluate(() => localStorage.setItem('preferredLanguage', 'it'));
  await page.goto('/apps/bulkextensions');
  await expect(page.getByRole('heading', { name: 'Interni massivi', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Seleziona tutti', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: /selezionati/ })).toHaveText('3 utenti selezionati');
  expect(await seriousViolations(page, ['main'])).toEqual([]);
  await page.getByRole('button', { name: 'Modifica' }).click();
  const dialog = page.getByRole('dialog', { name: 'Modifica 3 utenti' });
  await dialog.getByRole('button', { name: 'Sblocca Tempo di squillo (secondi) per cambiarlo' }).click();
  await dialog.getByRole('textbox', { name: 'Tempo di squillo (secondi)' }).fill('20');
  await expect(dialog.getByText('Tempo di squillo (secondi): 3 utenti')).toBeVisible();
  expect(await seriousViolations(page, ['[role="dialog"]'])).toEqual([]);
});

test('says so when the users or the groups cannot be read', async ({ page }) => {
  await seed(page);
  const failure = { status: 500, json: { title: 'Internal error', detail: 'database down', code: 'internal' } };
  await page.route('**/api/cti/groups', (route) => route.fulfill(failure));
  await page.route('**/api/users/**', (route) => route.fulfill(failure));
  await page.goto('/apps/bulkextensions');
  // A notification with the spec's words for each read, and the list says it too, without the server's words.
  await expect(page.getByRole('alert').filter({ hasText: 'Error retrieving users' })).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: 'Error retrieving groups' })).toBeVisible();
  await expect(page.getByRole('main').getByText('Error retrieving users')).toBeVisible();
  await expect(page.getByRole('main').getByText('Error retrieving groups')).toBeVisible();
  expect(await seriousViolations(page, ['main'])).toEqual([]);

  await page.evaluate(() => localStorage.setItem('preferredLanguage', 'it'));
  await page.reload();
  await expect(page.getByRole('main').getByText('Errore nel recupero degli utenti')).toBeVisible();
  await expect(page.getByRole('main').getByText('Errore nel recupero dei gruppi')).toBeVisible();
  expect(await seriousViolations(page, ['main'])).toEqual([]);
});
