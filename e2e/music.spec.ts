import type { Page } from '@playwright/test';
import { apiAs, expect, seriousViolations, signIn, test } from './fixtures.ts';

/*
 * Call flows › Music on hold (/flows/music) against the real server: a class is created (a malformed name is refused
 * in the form), a small WAV uploaded into it is converted and listed with its length and plays; a queue chooses the
 * class, so deleting the class is refused naming the queue, in English and in Italian.
 */

/** A WAV of `seconds` of a 440 Hz tone, 8 kHz mono 16-bit. */
function wav(seconds: number): Buffer {
  const samples = 8000 * seconds;
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++)
    data.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / 8000)), i * 2);
  const head = Buffer.alloc(44);
  head.write('RIFF', 0);
  head.writeUInt32LE(36 + data.length, 4);
  head.write('WAVEfmt ', 8);
  head.writeUInt32LE(16, 16);
  head.writeUInt16LE(1, 20);
  head.writeUInt16LE(1, 22);
  head.writeUInt32LE(8000, 24);
  head.writeUInt32LE(16000, 28);
  head.writeUInt16LE(2, 32);
  head.writeUInt16LE(16, 34);
  head.write('data', 36);
  head.writeUInt32LE(data.length, 40);
  return Buffer.concat([head, data]);
}

const dialogCheck = async (page: Page) => {
  const dialog = page.getByRole('dialog').last();
  await expect(dialog).toHaveCSS('opacity', '1');
  expect(await seriousViolations(page, ['[role="dialog"]'])).toEqual([]);
};

test('music on hold: a class with an uploaded file, chosen by a queue, not deleted while it plays', async ({
  page,
}) => {
  await signIn(page);
  await page.goto('/flows/music');
  await expect(page.getByRole('heading', { name: 'Music on hold', level: 1 })).toBeVisible();
  await expect(page.getByTestId('music-class-default')).toContainText("default (the PBX's music)");
  expect(await seriousViolations(page, ['main'])).toEqual([]);

  await page.getByRole('textbox', { name: 'Class name' }).fill('Sales Team');
  await page.getByRole('button', { name: 'Create class' }).click();
  await expect(page.getByText(/Lower-case letters, digits, - and _, starting/)).toBeVisible();
  await page.getByRole('textbox', { name: 'Class name' }).fill('sales');
  await page.getByRole('button', { name: 'Create class' }).click();
  const card = page.getByTestId('music-class-sales');
  await expect(card).toContainText('No files yet');

  await card.locator('input[type="file"]').setInputFiles({ name: 'Jingle.wav', mimeType: 'audio/wav', buffer: wav(1) });
  await card.getByRole('button', { name: 'Upload' }).click();
  const row = card.getByTestId('music-file-row-Jingle');
  await expect(row).toContainText('1.0 s');
  await row.getByRole('button', { name: /Listen/ }).click();
  await expect(row.getByLabel('Player of Jingle')).toBeVisible();
  expect(await seriousViolations(page, ['main'])).toEqual([]);

  // A queue plays the class; deleting the class is then refused, naming the queue.
  const queue = await apiAs(page, 'POST', '/api/queues', {
    extension: '500',
    name: 'Support',
    failover_dest: 'app-blackhole,hangup,1',
    music: 'sales',
  });
  expect(queue.status).toBe(200);
  await page.reload();
  await expect(card).toContainText('Played by: queue 500 Support');
  await card.getByRole('button', { name: 'Delete class' }).click();
  await dialogCheck(page);
  await page.getByRole('dialog').getByRole('button', { name: 'Delete class' }).click();
  await expect(page.getByText(/Music class sales is used by: queue 500 Support/)).toBeVisible();

  // The queue's form offers the class.
  await page.goto('/flows/queues');
  await page.getByRole('button', { name: 'Edit' }).first().click();
  await expect(page.getByRole('dialog').getByRole('combobox', { name: 'Callers hear' })).toHaveValue('sales');
  await dialogCheck(page);
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();

  // In Italian.
  await page.evaluate(() => localStorage.setItem('preferredLanguage', 'it'));
  await page.goto('/flows/music');
  await expect(page.getByRole('heading', { name: 'Musica di attesa', level: 1 })).toBeVisible();
  await expect(card).toContainText('Suonata da: coda 500 Support');
  await card.getByRole('button', { name: 'Elimina classe' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Elimina classe' }).click();
  await expect(page.getByText(/La classe musicale sales è usato da: coda 500 Support/)).toBeVisible();
  expect(await seriousViolations(page, ['main'])).toEqual([]);
});
