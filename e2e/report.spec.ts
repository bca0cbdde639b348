import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Page } from '@playwright/test';
import * as pdfjs from 'pdfjs-dist/legacy/build/pdf.mjs';
import { apiAs, expect, signIn, test } from './fixtures.ts';

const standardFontDataUrl = `${path.join(path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts')}/`;

interface Created {
  username: string;
  fullname: string;
  extension: string;
  password: string;
}

/** Chooses the local directory and waits until it is ready. */
async function useLocalDirectory(page: Page) {
  const mode = await apiAs(page, 'POST', '/api/configuration/mode', { mode: 'legacy' });
  expect(mode.status, JSON.stringify(mode.body)).toBe(200);
  await expect
    .poll(async () => (await apiAs(page, 'GET', '/api/configuration/userprovider')).body, { timeout: 30_000 })
    .toMatchObject({ configured: 1, local: 1 });
}

async function createUsers(page: Page, count: number): Promise<Created[]> {
  const created: Created[] = [];
  for (let i = 0; i < count; i++) {
    const username = `user${String(i).padStart(2, '0')}`;
    const fullname = `Person ${String.fromCharCode(65 + (i % 26))} Number${i}`;
    const extension = String(201 + i);
    const user = await apiAs(page, 'POST', '/api/users', { username, fullname });
    expect(user.status, JSON.stringify(user.body)).toBe(201);
    const ext = await apiAs(page, 'POST', '/api/mainextensions', { username, extension });
    expect(ext.status, JSON.stringify(ext.body)).toBe(201);
    created.push({ username, fullname, extension, password: user.body.password });
  }
  return created;
}

/** Text of each page of a PDF, and whether each page is wider than high. */
async function readPdf(data: Uint8Array) {
  const doc = await pdfjs.getDocument({ data, isEvalSupported: false, standardFontDataUrl }).promise;
  const pages: { text: string; landscape: boolean }[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const page = await doc.getPage(n);
    const viewport = page.getViewport({ scale: 1 });
    const content = await page.getTextContent();
    const text = content.items.map((item) => ('str' in item ? item.str : '')).join(' ');
    pages.push({ text, landscape: viewport.width > viewport.height });
  }
  await doc.destroy();
  return pages;
}

test('the final report lists configured users 20 at a time and prints a landscape wizard_report.pdf', async ({
  page,
}) => {
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Users', exact: true })).toBeVisible();
  await useLocalDirectory(page);
  const users = await createUsers(page, 23);
  expect(users[0]?.password).toMatch(/^[A-Za-z0-9]{8}$/);

  // With the wizard finished, the navigation leads to the report.
  expect((await apiAs(page, 'POST', '/api/configuration/wizard', { status: 'false', step: 13 })).status).toBe(200);
  await page.goto('/');
  await page.getByRole('navigation').getByRole('link', { name: 'Final report' }).click();
  await expect(page).toHaveURL(/\/admin\/report$/);
  await expect(page.getByRole('heading', { name: 'Final report' })).toBeVisible();

  const rows = page.getByTestId('report-row');
  await expect(rows).toHaveCount(20);
  await expect(page.getByTestId('list-count')).toHaveText('20 of 23');
  const first = rows.first();
  await expect(first.getByTestId('report-extension')).toHaveText('201');
  await expect(first.getByTestId('report-fullname')).toHaveText(users[0]!.fullname);
  await expect(first.getByTestId('report-username')).toHaveText('user00');
  // The local directory shows the password the console set.
  await expect(first.getByTestId('report-password')).toHaveText(users[0]!.password);

  // Scrolling to the end loads the rest.
  await expect(async () => {
    await page.mouse.wheel(0, 5000);
    await expect(rows).toHaveCount(23, { timeout: 1000 });
  }).toPass();
  await expect(page.getByTestId('list-count')).toHaveText('23 of 23');

  const downloadPromise = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Print final report' }).click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toBe('wizard_report.pdf');
  const file = await download.path();
  const bytes = new Uint8Array(fs.readFileSync(file));
  expect(Buffer.from(bytes.subarray(0, 5)).toString()).toBe('%PDF-');

  const pages = await readPdf(bytes);
  expect(pages.length).toBeGreaterThan(0);
  for (const p of pages) expect(p.landscape).toBe(true);
  const first1 = pages[0]!.text;
  for (const header of ['Final report', 'Extension', 'Full name', 'Username', 'Voicemail password', 'Password']) {
    expect(first1).toContain(header);
  }
  expect(first1).toContain(users[0]!.fullname);
  expect(first1).toContain(users[0]!.extension);
  expect(first1).toContain(users[0]!.password);
  const all = pages.map((p) => p.text).join(' ');
  for (const user of users) {
    expect(all).toContain(user.fullname);
    expect(all).toContain(user.username);
  }
});

test('the final page prints the same report, in Italian for an Italian interface', async ({ page }) => {
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Users', exact: true })).toBeVisible();
  await useLocalDirectory(page);
  const [user] = await createUsers(page, 1);

  expect((await apiAs(page, 'POST', '/api/configuration/wizard', { status: 'false', step: 13 })).status).toBe(200);
  await page.goto('/final');
  await expect(page.getByRole('heading', { name: 'Wizard completed' })).toBeVisible();
  await page.getByRole('button', { name: 'Interface language' }).click();
  await page.getByRole('menuitem', { name: 'Italiano' }).click();

  const downloadPromise = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Stampa report finale' }).click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toBe('wizard_report.pdf');
  const [first] = await readPdf(new Uint8Array(fs.readFileSync(await download.path())));
  expect(first?.landscape).toBe(true);
  for (const text of ['Report finale', 'Interno', 'Nome completo', 'Password casella vocale', user!.fullname, '201']) {
    expect(first?.text).toContain(text);
  }

  await page.getByRole('button', { name: /Home/ }).click();
  await expect(page).toHaveURL(/\/$/);
});
