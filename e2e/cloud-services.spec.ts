import { generateKeyPairSync } from 'node:crypto';
import type { Page } from '@playwright/test';
import { apiAs, expect, seriousViolations, signIn, test } from './fixtures.ts';

/*
 * Cloud speech (/apps/cloudServices): the JSON refusal before anything is sent, the server's refusal of a
 * JSON that is not a service-account key, the upload, 'File already uploaded, click here to replace it' after
 * a reload (GET /api/configuration/googleauthexists), the transcription switch shown only then, and the
 * text-to-speech placeholder.
 */

const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const KEY = {
  type: 'service_account',
  project_id: 'centralino-e2e',
  private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  client_email: 'voicemail@centralino-e2e.iam.gserviceaccount.com',
  token_uri: 'https://oauth2.googleapis.com/token',
};

async function choose(page: Page, button: string, name: string, mimeType: string, text: string) {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: button }).click();
  await (await chooser).setFiles({ name, mimeType, buffer: Buffer.from(text) });
}

test('cloud speech: JSON only, service-account keys only, upload, then the transcription switch', async ({ page }) => {
  await signIn(page);
  await page.goto('/apps/cloudServices');
  await expect(page.getByRole('heading', { name: 'Cloud speech', level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Text to speech', level: 2 })).toBeVisible();
  await expect(page.getByText('Not available yet')).toBeVisible();
  const upload = 'Upload authorization file';
  await expect(page.getByRole('button', { name: upload })).toBeVisible();
  await expect(page.getByRole('switch')).toHaveCount(0);
  expect(await seriousViolations(page, ['main'])).toEqual([]);

  // Not a JSON file: refused here, nothing sent.
  const sent: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/configuration/googleauth') && r.method() === 'POST') sent.push(r.url());
  });
  await choose(page, upload, 'notes.txt', 'text/plain', 'hello');
  await expect(page.getByRole('alert')).toContainText('File format error: File must be a JSON');
  expect(sent).toEqual([]);

  // JSON, but not a service-account key: the server says what is wrong.
  await choose(page, upload, 'other.json', 'application/json', JSON.stringify({ type: 'authorized_user' }));
  await expect(page.getByRole('alert')).toContainText('not a Google service-account key');
  expect(sent).toHaveLength(1);
  expect(await seriousViolations(page, ['main'])).toEqual([]);

  await choose(page, upload, 'key.json', 'application/json', JSON.stringify(KEY));
  await expect(page.getByText('Authorization file uploaded')).toBeVisible();
  const replace = page.getByRole('button', { name: 'File already uploaded, click here to replace it' });
  await expect(replace).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);

  // After a reload the page knows the file is there; the switch saves at once.
  await page.reload();
  await expect(replace).toBeVisible();
  const sw = page.getByRole('switch', { name: 'Voicemail transcription' });
  await expect(sw).not.toBeChecked();
  await expect(sw).toBeEnabled();
  await sw.click({ force: true });
  await expect(sw).toBeChecked();
  await expect
    .poll(async () => (await apiAs(page, 'GET', '/api/configuration/voicemailgooglestt')).body)
    .toBe('enabled');
  await page.reload();
  await expect(page.getByRole('switch', { name: 'Voicemail transcription' })).toBeChecked();
  expect(await seriousViolations(page, ['main'])).toEqual([]);
  // The key is never answered.
  const exists = await apiAs(page, 'GET', '/api/configuration/googleauthexists');
  expect(exists).toEqual({ status: 200, body: true });
});

test('a visit before any key is stored logs no error; the Google Cloud pages are linked (en, it)', async ({ page }) => {
  await signIn(page);
  // Listened to from here: signing in opens /api/health, a JSON page for which the browser asks /favicon.ico.
  const logged: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') logged.push(`${message.text()} (${message.location().url})`);
  });
  const failed: string[] = [];
  page.on('response', (response) => {
    if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
  });
  const checked = page.waitForResponse((r) => r.url().endsWith('/api/configuration/googleauthexists'));
  await page.goto('/apps/cloudServices');
  expect((await checked).status()).toBe(200);
  await expect(page.getByRole('button', { name: 'Upload authorization file' })).toBeVisible();
  const links = page.getByRole('list', { name: 'Google Cloud pages' }).getByRole('link');
  await expect(links).toHaveText([
    'Enable the Speech-to-Text API (Google Cloud console)',
    'Create a service account and its JSON key (Google Cloud console)',
    'Speech-to-Text documentation',
    'Speech-to-Text pricing',
  ]);
  await expect(links.first()).toHaveAttribute(
    'href',
    'https://console.cloud.google.com/apis/library/speech.googleapis.com',
  );
  await expect(links.first()).toHaveAttribute('target', '_blank');
  expect(await seriousViolations(page, ['main'])).toEqual([]);

  await page.evaluate(() => localStorage.setItem('preferredLanguage', 'it'));
  await page.reload();
  await expect(page.getByRole('list', { name: 'Pagine di Google Cloud' }).getByRole('link')).toHaveCount(4);
  await expect(page.getByRole('link', { name: "Abilita l'API Speech-to-Text (console Google Cloud)" })).toBeVisible();
  expect(await seriousViolations(page, ['main'])).toEqual([]);
  expect(failed).toEqual([]);
  expect(logged).toEqual([]);
});
