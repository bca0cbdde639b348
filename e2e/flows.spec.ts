import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { apiAs, expect, seriousViolations, signIn, test } from './fixtures.ts';

/*
 * Call flows (/flows/recordings, /flows/announcements, /flows/ivr) against the real server: a recording made
 * on this machine with sox is uploaded, listened to and renamed; an announcement plays it and goes to an IVR
 * whose keys lead to the announcement and a hang-up; an inbound route then sends calls to the IVR.
 */
const soxReads = /Reads: yes/.test(spawnSync('sox', ['--help-format', 'mp3'], { encoding: 'utf8' }).stdout ?? '');
test.skip(!soxReads, 'sox with MP3 support is missing: run node scripts/ensure-audio-tools.mjs');

let dir = '';
test.beforeAll(() => {
  if (!soxReads) return;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'centralino-e2e-flows-'));
  execFileSync('sox', ['-n', '-r', '44100', '-c', '2', path.join(dir, 'welcome.mp3'), 'synth', '1', 'sine', '440']);
  fs.writeFileSync(path.join(dir, 'notes.wav'), 'this is not audio');
});
test.afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/**
 * Signs in and waits for the signed-in frame's first screen: leaving the page while it still checks the stored
 * key (GET /api/login) can cost that key, and the next page opens on the sign-in form.
 */
async function signedIn(page: Page) {
  await signIn(page);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
}

const dialogCheck = async (page: Page) => {
  const dialog = page.getByRole('dialog').last();
  await expect(dialog).toHaveCSS('opacity', '1');
  expect(await seriousViolations(page, ['[role="dialog"]'])).toEqual([]);
};

/** Picks an option of a select by its label. */
async function choose(page: Page, scope: ReturnType<Page['getByRole']>, label: string, option: string) {
  await scope.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

test('recordings: upload, refuse what is not audio, listen, rename; delete refused while used', async ({ page }) => {
  await signedIn(page);
  await page.goto('/flows/recordings');
  await expect(page.getByRole('heading', { name: 'Recordings', level: 1 })).toBeVisible();
  await expect(page.getByText('No recordings yet.')).toBeVisible();
  expect(await seriousViolations(page, ['main'])).toEqual([]);

  // Text dressed up as a WAV is refused with the server's explanation.
  await page.getByTestId('recording-file').click();
  await page.locator('input[type="file"]').setInputFiles(path.join(dir, 'notes.wav'));
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(page.getByText('Upload a WAV, MP3 or OGG audio file.')).toBeVisible();
  await expect(page.getByText('No recordings yet.')).toBeVisible();

  await page.locator('input[type="file"]').setInputFiles(path.join(dir, 'welcome.mp3'));
  await page.getByRole('textbox', { name: 'Name' }).fill('Welcome');
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  const row = page.getByTestId('recording-Welcome');
  await expect(row).toContainText('1.0 s');
  // Phones record it again with *77 and its id, as the page says.
  await expect(page.getByText(/Or record one from a phone: dial \*77/)).toBeVisible();
  await expect(row.getByText(/^\*77\d+$/)).toBeVisible();

  // Listening fetches the converted audio with the sign-in headers.
  await row.getByRole('button', { name: 'Listen' }).click();
  const player = row.getByLabel('Recording Welcome');
  await expect(player).toBeVisible();
  await expect.poll(() => player.evaluate((a: HTMLAudioElement) => a.duration)).toBeGreaterThan(0.9);

  await row.getByRole('button', { name: 'Rename' }).click();
  const rename = page.getByRole('dialog', { name: 'Rename recording' });
  await rename.getByRole('textbox', { name: 'Name' }).fill('Welcome message');
  await dialogCheck(page);
  await rename.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('recording-Welcome message')).toBeVisible();
  expect(await seriousViolations(page, ['main'])).toEqual([]);

  // Used by an announcement: deleting it is refused, naming the announcement.
  const recordings = (await apiAs(page, 'GET', '/api/recordings')).body as { id: number }[];
  const created = await apiAs(page, 'POST', '/api/announcements', {
    description: 'Greeting',
    recording_id: recordings[0]?.id,
    post_dest: 'app-blackhole,hangup,1',
  });
  expect(created.status).toBe(200);
  await page.reload();
  const used = page.getByTestId('recording-Welcome message');
  await expect(used).toContainText('announcement Greeting');
  await used.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText(/Recording Welcome message is used by: announcement Greeting/)).toBeVisible();
  await expect(used).toBeVisible();
});

test('announcement → IVR → announcement, routed from an inbound number', async ({ page }) => {
  await signedIn(page);
  // A recording to play (the upload itself is the test above).
  const upload = await page.evaluate(async () => {
    const stored = JSON.parse(localStorage.getItem('secretkey') ?? '{}');
    // A second of silence as a WAV: 8 kHz, mono, 16 bit.
    const samples = 8000;
    const buf = new ArrayBuffer(44 + samples * 2);
    const v = new DataView(buf);
    const text = (o: number, s: string) => {
      for (let i = 0; i < s.length; i++) v.setUint8(o + i, s.charCodeAt(i));
    };
    text(0, 'RIFF');
    v.setUint32(4, 36 + samples * 2, true);
    text(8, 'WAVE');
    text(12, 'fmt ');
    v.setUint32(16, 16, true);
    v.setUint16(20, 1, true);
    v.setUint16(22, 1, true);
    v.setUint32(24, 8000, true);
    v.setUint32(28, 16000, true);
    v.setUint16(32, 2, true);
    v.setUint16(34, 16, true);
    text(36, 'data');
    v.setUint32(40, samples * 2, true);
    const form = new FormData();
    form.append('displayname', 'Menu prompt');
    form.append('file', new Blob([buf], { type: 'audio/wav' }), 'menu.wav');
    const res = await fetch('/api/recordings', {
      method: 'POST',
      headers: { User: stored.user, Secretkey: stored.secretkey },
      body: form,
    });
    return res.status;
  });
  expect(upload).toBe(200);

  await page.goto('/flows/announcements');
  await expect(page.getByRole('heading', { name: 'Announcements', level: 1 })).toBeVisible();
  expect(await seriousViolations(page, ['main'])).toEqual([]);
  await page.getByRole('button', { name: 'New announcement' }).click();
  let dialog = page.getByRole('dialog', { name: 'New announcement' });
  // Save without a destination: the form says what is missing.
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Choose a destination').first()).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Name' }).fill('After hours');
  await choose(page, dialog, 'Recording', 'Menu prompt');
  await choose(page, dialog, 'Then go to', 'Hang up');
  await dialogCheck(page);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('announcement-After hours')).toContainText('Terminate call: Hang up');

  await page.goto('/flows/ivr');
  await expect(page.getByRole('heading', { name: 'IVR menus', level: 1 })).toBeVisible();
  expect(await seriousViolations(page, ['main'])).toEqual([]);
  await page.getByRole('button', { name: 'New IVR' }).click();
  dialog = page.getByRole('dialog', { name: 'New IVR' });
  await dialog.getByRole('textbox', { name: 'Name' }).fill('Main menu');
  await choose(page, dialog, 'Menu recording', 'Menu prompt');
  await dialog.getByRole('checkbox', { name: 'Callers may dial an extension number directly' }).check();
  await dialog.getByRole('button', { name: 'Add option' }).click();
  await choose(page, dialog.getByTestId('ivr-option-0'), 'Goes to', 'After hours');
  await dialog.getByRole('button', { name: 'Add option' }).click();
  await choose(page, dialog.getByTestId('ivr-option-1'), 'Goes to', 'Hang up');
  await choose(page, dialog, 'Without a key, then go to', 'After hours');
  await choose(page, dialog, 'After wrong keys, then go to', 'Hang up');
  await dialogCheck(page);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  const ivr = page.getByTestId('ivr-Main menu');
  // Keys are handed out from 1, as callers are told to "press 1".
  await expect(ivr).toContainText('1 2');
  await expect(ivr).not.toContainText('callers hear silence');
  await expect(ivr).toContainText('Yes');

  // The IVR is a destination of inbound routes now.
  const ivrs = (await apiAs(page, 'GET', '/api/ivrs')).body as { id: number; destination: string }[];
  const route = await apiAs(page, 'POST', '/api/inboundroutes', {
    extension: '0721999000',
    cidnum: '',
    description: 'Switchboard',
    destination: ivrs[0]?.destination,
  });
  expect(route.status).toBe(200);
  // …so deleting it is refused, naming the route.
  await ivr.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText(/IVR Main menu is used by: inbound route 0721999000/)).toBeVisible();

  // Italian, with the wizard finished: the same screen in the other language, and the Call flows menu.
  expect((await apiAs(page, 'POST', '/api/configuration/wizard', { status: 'false', step: 13 })).status).toBe(200);
  await page.evaluate(() => localStorage.setItem('preferredLanguage', 'it'));
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Menu IVR', level: 1 })).toBeVisible();
  const menu = page.getByRole('navigation', { name: 'Menu principale' });
  await expect(menu.getByRole('link', { name: 'Registrazioni' })).toBeVisible();
  await menu.getByRole('link', { name: 'Annunci' }).click();
  await expect(page.getByRole('heading', { name: 'Annunci', level: 1 })).toBeVisible();
  await expect(page.getByTestId('announcement-After hours')).toContainText('Termina chiamata: Riaggancia');
  expect(await seriousViolations(page, ['main'])).toEqual([]);
});

test('an IVR without a recording is flagged everywhere; keys start at 1 and two options swap keys in one choice', async ({
  page,
}) => {
  await signedIn(page);
  await page.goto('/flows/ivr');
  await expect(page.getByRole('heading', { name: 'IVR menus', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'New IVR' }).click();
  const dialog = page.getByRole('dialog', { name: 'New IVR' });
  await dialog.getByRole('textbox', { name: 'Name' }).fill('Reception');
  // No recording chosen: the dialog says what callers will hear.
  await expect(dialog.getByTestId('ivr-no-recording')).toContainText('callers hear silence');
  await dialog.getByRole('button', { name: 'Add option' }).click();
  await dialog.getByRole('button', { name: 'Add option' }).click();
  const first = dialog.getByTestId('ivr-option-0');
  const second = dialog.getByTestId('ivr-option-1');
  await expect(first.getByRole('combobox', { name: 'Key' })).toHaveValue('1');
  await expect(second.getByRole('combobox', { name: 'Key' })).toHaveValue('2');
  await choose(page, first, 'Goes to', 'Hang up');
  await choose(page, second, 'Goes to', 'Busy');
  await choose(page, dialog, 'Without a key, then go to', 'Hang up');
  await choose(page, dialog, 'After wrong keys, then go to', 'Hang up');

  // Key 1 is offered on the second option too, marked as a swap; choosing it swaps the two options' keys.
  await second.getByRole('combobox', { name: 'Key' }).click();
  await expect(page.getByRole('option', { name: '1 (swap)' })).toBeVisible();
  await dialogCheck(page);
  await page.getByRole('option', { name: '1 (swap)' }).click();
  await expect(dialog.getByTestId('ivr-swap-note')).toHaveText(
    'Key 1 was used by another option: that option now has key 2.',
  );
  await expect(dialog.getByTestId('ivr-option-0').getByRole('combobox', { name: 'Key' })).toHaveValue('2');
  await expect(dialog.getByTestId('ivr-option-1').getByRole('combobox', { name: 'Key' })).toHaveValue('1');
  await dialogCheck(page);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();

  // The destinations stayed with their options: 1 is now Busy, 2 hangs up.
  const saved = (await apiAs(page, 'GET', '/api/ivrs')).body as {
    destination: string;
    entries: { selection: string; dest: string }[];
  }[];
  const keys = Object.fromEntries((saved[0]?.entries ?? []).map((e) => [e.selection, e.dest]));
  expect(keys['1']).toMatch(/busy/i);
  expect(keys['2']).toMatch(/hangup/i);
  const row = page.getByTestId('ivr-Reception');
  await expect(row).toContainText('No recording: callers hear silence');
  expect(await seriousViolations(page, ['main'])).toEqual([]);

  // The flow picture of a route to it warns too.
  const route = await apiAs(page, 'POST', '/api/inboundroutes', {
    extension: '0721777000',
    cidnum: '',
    description: 'Front desk',
    destination: saved[0]?.destination,
  });
  expect(route.status).toBe(200);
  await page.goto('/routes/inbound');
  await page.getByTestId('inbound-0721777000').getByRole('button', { name: 'Show the flow' }).click();
  const picture = page.getByRole('dialog', { name: 'Where calls to 0721777000 go' });
  await expect(picture.getByTestId('flow-picture')).toContainText('No menu recording: callers hear silence');
  await dialogCheck(page);

  // In Italian.
  await page.evaluate(() => localStorage.setItem('preferredLanguage', 'it'));
  await page.goto('/flows/ivr');
  await expect(page.getByTestId('ivr-Reception')).toContainText('Nessuna registrazione: chi chiama sente silenzio');
  await page.getByTestId('ivr-Reception').getByRole('button', { name: 'Modifica' }).click();
  await expect(page.getByRole('dialog').getByTestId('ivr-no-recording')).toContainText('chi chiama sente silenzio');
  await dialogCheck(page);
});

test('day/night switch: created with its two destinations, its feature code and mode shown', async ({ page }) => {
  await signedIn(page);
  await page.goto('/flows/daynight');
  await expect(page.getByRole('heading', { name: 'Day/night switches', level: 1 })).toBeVisible();
  await expect(page.getByText('No day/night switches yet.')).toBeVisible();
  expect(await seriousViolations(page, ['main'])).toEqual([]);
  await page.getByRole('button', { name: 'New switch' }).click();
  const dialog = page.getByRole('dialog', { name: 'New switch' });
  await dialog.getByRole('textbox', { name: 'Name' }).fill('Office');
  await choose(page, dialog, 'Feature code', '*283');
  await choose(page, dialog, 'Day: go to', 'Busy');
  await choose(page, dialog, 'Night: go to', 'Hang up');
  await dialogCheck(page);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  const row = page.getByTestId('daynight-Office');
  await expect(row).toContainText('*283');
  await expect(row).toContainText('Terminate call: Busy');
  await expect(row).toContainText('Terminate call: Hang up');
  // This test server has no connection to Asterisk: the mode cannot be read, nor flipped from here.
  await expect(row).toContainText('Unknown');
  await expect(row.getByRole('button', { name: 'Switch to night' })).toBeDisabled();
  expect(await seriousViolations(page, ['main'])).toEqual([]);
  // The switch is a destination like any other.
  const destinations = (await apiAs(page, 'GET', '/api/destinations')).body as Record<string, Record<string, unknown>>;
  expect(Object.values(destinations['Day/Night'] ?? {})).toEqual([
    expect.objectContaining({ destination: 'app-daynight,3,1', description: 'Office' }),
  ]);
});
