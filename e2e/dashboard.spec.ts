import type { Page } from '@playwright/test';
import { amiPeer, type PeerParticipant } from '../apps/server/test/support/ami-peer.ts';
import { apiAs, expect, seriousViolations, signIn, test } from './fixtures.ts';

// The far side of AMI: a peer that keeps an AstDB and sends events as Asterisk does. Phone 201 is
// registered, 202 is not, bob (203) is in DND, the provider accepted the registration and the gateway
// port is unmonitored.
const astdb = new Map<string, string>();
const conferences = new Map<string, PeerParticipant[]>();
const peerOptions: NonNullable<Parameters<typeof amiPeer>[0]> = {
  secret: 'e2e-dash-secret',
  endpoints: [
    { name: '201', state: 'Not in use' },
    { name: '202', state: 'Unavailable' },
    { name: '203', state: 'Not in use' },
    { name: 'vivavox', state: 'Not in use' },
  ],
  contacts: [{ aor: '201', via: '192.0.2.44:5062', userAgent: 'Yealink SIP-T54W 96.86.0.100' }],
  registrations: [
    { name: 'vivavox', status: 'Registered' },
    { name: 'backup', status: 'Rejected' },
  ],
  astdb,
  conferences,
};
const peer = amiPeer(peerOptions);
const port = await peer.listen();
// Not closed in a file-level afterAll: with fullyParallel every test is a group of its own, and that hook ran after
// the first test of this file a worker took, leaving the next one's server to dial a closed port. The peer ends with
// the worker.

test.use({
  serverEnv: {
    AMI_HOST: '127.0.0.1',
    AMI_PORT: String(port),
    AMI_USERNAME: 'centralino',
    AMI_SECRET: 'e2e-dash-secret',
  },
});

async function seed(page: Page) {
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Users', exact: true })).toBeVisible();
  expect((await apiAs(page, 'POST', '/api/configuration/mode', { mode: 'legacy' })).status).toBe(200);
  await expect.poll(async () => (await apiAs(page, 'GET', '/api/configuration/userprovider')).body.configured).toBe(1);
  for (const [username, fullname, extension] of [
    ['alice', 'Alice Rossi', '201'],
    ['bob', 'Bob Bianchi', '203'],
    ['carol', 'Carol Verdi', '202'],
  ]) {
    await apiAs(page, 'POST', '/api/users', { username, fullname });
    await apiAs(page, 'POST', '/api/mainextensions', { username, extension });
  }
  await apiAs(page, 'POST', '/api/webrtc', { extension: '201' });
  const trunk = await apiAs(page, 'POST', '/api/trunks', {
    provider: 'vivavox',
    name: 'vivavox',
    username: 'u',
    password: 'p',
    phone: '0721000000',
    codecs: ['alaw', 'ulaw'],
    forceCodec: true,
  });
  expect(trunk.status, JSON.stringify(trunk.body)).toBe(200);
  const backup = await apiAs(page, 'POST', '/api/trunks', {
    provider: 'vivavox',
    name: 'backup',
    username: 'u2',
    password: 'p2',
    phone: '0721000009',
    codecs: ['alaw'],
    forceCodec: true,
  });
  expect(backup.status, JSON.stringify(backup.body)).toBe(200);
  expect((await apiAs(page, 'POST', '/api/configuration/wizard', { status: 'false', step: 13 })).status).toBe(200);
  astdb.clear();
  astdb.set('DND/203', 'YES');
  // As Asterisk tells of a DND set by feature code: the console may hold a snapshot read during the seed (the users
  // list reads registrations, and an audited write reads the list it changes), kept current by events.
  peer.event({ Event: 'Newexten', Context: 'sub-set-all', Application: 'Set', AppData: 'DB(DND/203)=YES' });
}

test('the dashboard shows users, presence and trunks live, and the details of an extension', async ({ page }) => {
  await seed(page);
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();

  const alice = page.getByTestId('dashboard-user-alice');
  await expect(alice).toContainText('Alice Rossi');
  await expect(alice.getByTestId('presence')).toHaveText('Online');
  await expect(alice.getByTestId('extension-201')).toContainText('201 · online');
  // A web phone (here on the main number) is drawn as a headset.
  await expect(alice.getByRole('img', { name: 'Web phone or desktop client' })).toHaveCount(1);
  const carol = page.getByTestId('dashboard-user-carol');
  await expect(carol.getByTestId('extension-202')).toContainText('202 · offline');
  const bob = page.getByTestId('dashboard-user-bob');
  await expect(bob.getByTestId('presence')).toHaveText('Do not disturb');

  const trunk = page.getByTestId('dashboard-trunk-vivavox');
  await expect(trunk).toContainText('PJSIP');
  await expect(trunk).toContainText('Codecs: alaw, ulaw');
  await expect(trunk.getByTestId('trunk-registration')).toHaveText('Registered');
  await expect(trunk.getByTestId('trunk-status')).toHaveText('Provider online');
  // Registered in green, a refused registration in red (and said in words, not only in colour).
  const refused = page.getByTestId('dashboard-trunk-backup').getByTestId('trunk-registration');
  await expect(refused).toHaveText('Registration: rejected');
  const rgb = async (badge: typeof refused) =>
    (await badge.evaluate((el) => getComputedStyle(el).color)).match(/\d+/g)?.map(Number) ?? [];
  const [gr = 0, gg = 0] = await rgb(trunk.getByTestId('trunk-registration'));
  const [rr = 0, rg = 0] = await rgb(refused);
  expect(gg).toBeGreaterThan(gr);
  expect(rr).toBeGreaterThan(rg);
  expect(await seriousViolations(page, ['main'])).toEqual([]);

  // Info on an extension no phone has registered on.
  await carol.getByRole('button', { name: 'Info 202' }).click();
  await expect(page.getByRole('dialog', { name: 'Extension 202' })).toContainText(
    'Phone not registered. Register a phone to see the informations',
  );
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();

  // A phone registers and a call rings: the PBX says so, and the open page shows it before the 15 s poll would
  // (the event stream; the bound leaves room for a loaded machine).
  peerOptions.contacts?.push({ aor: '202', via: '192.0.2.45:5060', userAgent: 'Snom D785' });
  peer.event({
    Event: 'ContactStatus',
    URI: 'sip:202@192.0.2.45:5060',
    ContactStatus: 'Created',
    AOR: '202',
    EndpointName: '202',
  });
  peer.event({ Event: 'DeviceStateChange', Device: 'PJSIP/202', State: 'RINGING' });
  await expect(carol.getByTestId('extension-202')).toContainText('202 · ringing', { timeout: 12_000 });

  // DND set from a phone with its feature code: seen at once.
  astdb.set('DND/201', 'YES');
  peer.event({ Event: 'Newexten', Context: 'sub-set-all', Application: 'Set', AppData: 'DB(DND/201)=YES' });
  await expect(alice.getByTestId('presence')).toHaveText('Do not disturb', { timeout: 12_000 });

  // Info on a registered extension.
  await alice.getByRole('button', { name: 'Info 201' }).click();
  const info = page.getByRole('dialog', { name: 'Extension 201' });
  await expect(info.getByRole('row', { name: /User agent/ })).toContainText('Yealink SIP-T54W 96.86.0.100');
  await expect(info.getByRole('row', { name: /IP address/ })).toContainText('192.0.2.44');
  await expect(info.getByRole('row', { name: /Do not disturb/ })).toContainText('Yes');
  expect(await seriousViolations(page, ['[role="dialog"]'])).toEqual([]);
  await info.getByRole('button', { name: 'Close' }).click();
  // Search narrows the users.
  await page.getByRole('region', { name: 'Users' }).getByRole('textbox', { name: 'Search' }).fill('verdi');
  await expect(alice).toHaveCount(0);
  await expect(carol).toBeVisible();

  // Opening the console on / asks for the first users page alongside its start-up calls (app/warmStart.ts),
  // and the list takes that answer instead of asking again.
  const asked: string[] = [];
  page.on('request', (request) => {
    // The old page may still refetch its search (a live event came in) until the reload's own document is asked.
    if (request.isNavigationRequest()) asked.length = 0;
    else if (request.url().includes('/api/dashboard/users')) asked.push(request.url());
  });
  await page.reload();
  await expect(alice.getByTestId('presence')).toHaveText('Do not disturb');
  await page.waitForTimeout(1000);
  expect(asked.map((url) => new URL(url).search)).toEqual(['?offset=0&limit=20']);
});

test('a user in DND is set online from the card, after a confirmation', async ({ page }) => {
  await seed(page);
  await page.goto('/');
  const bob = page.getByTestId('dashboard-user-bob');
  await expect(bob.getByTestId('presence')).toHaveText('Do not disturb');
  // Reset from the card: asks first, then the AstDB keys go and the card says online.
  await bob.getByRole('button', { name: /Reset/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Set the user online?' });
  await expect(dialog).toContainText('Bob Bianchi will be online again');
  expect(await seriousViolations(page, ['[role="dialog"]'])).toEqual([]);
  await dialog.getByRole('button', { name: 'Set online' }).click();
  await expect(page.getByText('Bob Bianchi is online')).toBeVisible();
  await expect(bob.getByTestId('presence')).toHaveText('Online');
  expect(astdb.has('DND/203')).toBe(false);
  await expect(bob.getByRole('button', { name: /Reset/ })).toHaveCount(0);
});

test('who is in a conference room now: the card lists them, and Mute and Kick act on their calls', async ({ page }) => {
  await seed(page);
  const room = await apiAs(page, 'POST', '/api/conferences', { extension: '600', name: 'Sales meeting' });
  expect(room.status, JSON.stringify(room.body)).toBe(200);
  conferences.set('600', [
    { channel: 'PJSIP/201-00000001', number: '201', name: 'Alice Rossi', admin: true },
    { channel: 'PJSIP/202-00000002', number: '202', name: 'Carol Verdi' },
  ]);
  await page.goto('/');
  const card = page.getByTestId('conferences-now');
  await expect(card.getByRole('heading', { name: 'Conferences now' })).toBeVisible();
  await expect(card).toContainText('600 Sales meeting: 2 participants');
  await expect(card).toContainText('201 Alice Rossi (administrator)');
  expect(await seriousViolations(page, ['[data-testid="conferences-now"]'])).toEqual([]);

  await card.getByRole('button', { name: 'Mute 202 Carol Verdi' }).click();
  await expect(card).toContainText('202 Carol Verdi · muted');
  await card.getByRole('button', { name: 'Kick 202 Carol Verdi' }).click();
  await expect(card).toContainText('600 Sales meeting: 1 participant');
  await expect(card).not.toContainText('Carol Verdi');

  // Someone leaves by hanging up: the PBX says so and the open card follows, before the 15 s poll would.
  conferences.set('600', []);
  peer.event({ Event: 'ConfbridgeLeave', Conference: '600', Channel: 'PJSIP/201-00000001' });
  await expect(card).toContainText('Nobody is in a conference room now.', { timeout: 10_000 });
  await expect(card.getByRole('link', { name: '1 room' })).toHaveAttribute('href', '/flows/conferences');
});

test('the PBX connection drops: a banner says since when, lists stay with unknown state, and it clears by itself', async ({
  page,
}) => {
  await seed(page);
  await page.goto('/');
  const alice = page.getByTestId('dashboard-user-alice');
  await expect(alice.getByTestId('extension-201')).toContainText('201 · online');
  await expect(page.getByTestId('pbx-not-connected')).toHaveCount(0);

  peer.refuse(true);
  peer.dropAll();
  const banner = page.getByTestId('pbx-not-connected');
  await expect(banner).toContainText(/The PBX is not connected \(since .+\)/);
  await expect(alice.getByTestId('extension-201')).toContainText('201 · unknown');
  await expect(alice.getByTestId('presence')).toHaveText('Presence unknown');
  await expect(page.getByTestId('dashboard-trunk-vivavox').getByTestId('trunk-registration')).toHaveText(
    'Registration unknown',
  );
  expect(await seriousViolations(page, ['main'])).toEqual([]);

  peer.refuse(false);
  // The console connects again by itself (its retries back off to at most 5 s).
  await expect(banner).toHaveCount(0, { timeout: 60_000 });
  await expect(alice.getByTestId('extension-201')).toContainText('201 · online');
});

test('in Italian', async ({ page }) => {
  await seed(page);
  await page.evaluate(() => localStorage.setItem('preferredLanguage', 'it'));
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Utenti' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Fasci' })).toBeVisible();
  const bob = page.getByTestId('dashboard-user-bob');
  await expect(bob.getByTestId('presence')).toHaveText('Non disturbare');
  await expect(page.getByTestId('dashboard-user-alice').getByTestId('extension-201')).toContainText('201 · online');
  await expect(page.getByTestId('dashboard-trunk-vivavox').getByTestId('trunk-registration')).toHaveText('Registrato');
  await bob.getByRole('button', { name: /Reimposta/ }).click();
  await expect(page.getByRole('dialog', { name: "Rendere disponibile l'utente?" })).toBeVisible();
  expect(await seriousViolations(page, ['main', '[role="dialog"]'])).toEqual([]);
});
