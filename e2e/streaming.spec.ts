import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { apiAs, expect, seriousViolations, signInWithLocalUsers, test } from './fixtures.ts';

/*
 * Streaming sources (/apps/streaming): the Check fetches a snapshot through the server from a camera served on
 * loopback here (allowed by STREAMING_ALLOWED_HOSTS, as an administrator would allow a host), Save only after a
 * successful Check, the Connected / Connection error bar, the extension picker ('name - number'), the opening
 * code rule, and delete with confirmation.
 */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEUlEQVR4nGP4z8DA8B+MgBgAHfAD/dPQfSYAAAAASUVORK5CYII=',
  'base64',
);
let camera: http.Server;
let port = 0;
test.beforeAll(async () => {
  camera = http.createServer((req, res) => {
    if (req.url === '/snap.png') res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    else res.writeHead(200, { 'content-type': 'text/html' }).end('<!DOCTYPE html><p>login');
  });
  await new Promise<void>((resolve) => camera.listen(0, '127.0.0.1', resolve));
  port = (camera.address() as AddressInfo).port;
});
test.afterAll(async () => {
  camera.closeAllConnections();
  await new Promise((resolve) => camera.close(resolve));
});
test.use({ serverEnv: { STREAMING_ALLOWED_HOSTS: '127.0.0.1' } });

const dialogCheck = async (page: import('@playwright/test').Page) => {
  const dialog = page.getByRole('dialog').last();
  await expect(dialog).toHaveCSS('opacity', '1');
  expect(await seriousViolations(page, ['[role="dialog"]'])).toEqual([]);
};

test('streaming sources: Check through the server, Save after it, the status bar, delete', async ({ page }) => {
  await signInWithLocalUsers(page, [['portiere', 'Door Phone', '201']]);
  await page.goto('/apps/streaming');
  await expect(page.getByRole('heading', { name: 'Streaming sources', level: 1 })).toBeVisible();
  await expect(page.getByText('No streaming source yet.')).toBeVisible();
  expect(await seriousViolations(page, ['main'])).toEqual([]);

  await page.getByRole('button', { name: 'New source' }).click();
  const modal = page.getByRole('dialog', { name: 'New streaming source' });
  const checkButton = modal.getByRole('button', { name: 'Check' });
  const save = modal.getByRole('button', { name: 'Save' });
  await expect(checkButton).toBeDisabled();
  await expect(save).toBeDisabled();
  await modal.getByRole('textbox', { name: 'Name' }).fill('Front door');
  const extension = modal.getByRole('combobox', { name: 'Door phone extension' });
  await extension.click();
  await extension.fill('Door');
  await page.getByRole('option', { name: 'Door Phone - 201' }).click();
  await expect(extension).toHaveValue('Door Phone - 201');

  // Not an image: refused with the reason, Save stays disabled.
  const url = modal.getByRole('textbox', { name: 'Snapshot URL' });
  await url.fill(`http://127.0.0.1:${port}/login`);
  await checkButton.click();
  await expect(modal.getByRole('alert')).toContainText('Connection error');
  await expect(modal.getByRole('alert')).toContainText('text/html');
  await expect(save).toBeDisabled();

  await url.fill(`http://127.0.0.1:${port}/snap.png`);
  await checkButton.click();
  await expect(modal.getByText('Connected')).toBeVisible();
  const preview = modal.getByTestId('streaming-check-preview');
  await expect(preview).toBeVisible();
  expect(await preview.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(2);

  const open = modal.getByRole('textbox', { name: 'Opening code' });
  await open.fill('9*9');
  await open.blur();
  await expect(modal.getByText('Optional *, + or # first, then digits, then optional * or #')).toBeVisible();
  await open.fill('*9');
  await expect(save).toBeDisabled(); // no profile yet
  await modal.locator('.mantine-MultiSelect-input').click();
  await page.getByRole('option', { name: 'Base' }).click();
  await page.keyboard.press('Escape');
  await dialogCheck(page);
  await expect(save).toBeEnabled();
  await save.click();
  await expect(page.getByText('Source saved with success')).toBeVisible();
  await expect(modal).toBeHidden();

  const card = page.getByRole('article', { name: 'Front door' });
  await expect(card).toContainText('Extension: 201');
  await expect(card).toContainText('Opening code: *9');
  await expect(card.getByTestId('streaming-status')).toHaveText('Connected');
  await expect(card.getByRole('img', { name: 'Picture of Front door' })).toBeVisible();

  // Modifying the URL needs a new Check before Save.
  await card.getByRole('button', { name: 'Modify' }).click();
  const modify = page.getByRole('dialog', { name: 'Modify streaming source' });
  await expect(modify.getByRole('button', { name: 'Save' })).toBeDisabled();
  await modify.getByRole('button', { name: 'Check' }).click();
  await expect(modify.getByRole('button', { name: 'Save' })).toBeEnabled();
  await modify.getByRole('textbox', { name: 'Snapshot URL' }).fill(`http://127.0.0.1:${port}/snap.png?x=1`);
  await expect(modify.getByRole('button', { name: 'Save' })).toBeDisabled();
  await modify.getByRole('button', { name: 'Cancel' }).click();

  // A source the server refuses to reach (loopback not allowed): the card says Connection error.
  const made = await apiAs(page, 'POST', '/api/cti/streaming', {
    descr: 'Back yard',
    url: `http://127.0.0.2:${port}/snap.png`,
    profiles: [2],
  });
  expect(made.status).toBe(200);
  await page.reload();
  const refused = page.getByRole('article', { name: 'Back yard' });
  await expect(refused.getByTestId('streaming-status')).toHaveText('Connection error');
  await expect(refused).toContainText('STREAMING_ALLOWED_HOSTS');
  expect(await seriousViolations(page, ['main'])).toEqual([]);

  await card.getByRole('button', { name: 'Delete' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete the source Front door' });
  await dialogCheck(page);
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Source deleted')).toBeVisible();
  await expect(page.getByTestId('streaming-source')).toHaveCount(1);
});
