import fs from 'node:fs';
import { createRequire } from 'node:module';
import { STORED_CREDENTIALS_KEY } from '@centralino/contract/constants';
import { test as base, expect, type Page } from '@playwright/test';
import { watchDialogs } from './dialog-axe.ts';
import { ADMIN_PASSWORD, type RunningServer, startServer } from './server.ts';

export { expect };

type Fixtures = { server: RunningServer; serverEnv: Record<string, string>; axeDialogs: boolean };

export const test = base.extend<Fixtures>({
  serverEnv: [{}, { option: true }],
  /** Whether every dialog the test opens is checked by axe (dialog-axe.ts); a spec may turn it off with a reason. */
  axeDialogs: [true, { option: true }],
  page: async ({ page, axeDialogs }, use) => {
    if (!axeDialogs) return use(page);
    const watch = await watchDialogs(page, seriousViolations);
    await use(page);
    expect(await watch.finish(), `axe on the dialogs opened (${watch.checked.join(', ')})`).toEqual([]);
  },
  server: async ({ serverEnv }, use, testInfo) => {
    const server = await startServer(serverEnv);
    // Where a test's time goes, read from the JSON report when the suite is to be made faster.
    testInfo.annotations.push({ type: 'server-start-ms', description: String(Math.round(server.coldStartMs)) });
    await use(server);
    await server.stop();
  },
  baseURL: async ({ server }, use) => {
    await use(server.url);
  },
});

/**
 * Signs in as the administrator. The form is what login.spec.ts tests (signInWithForm); every other spec takes
 * the key from the API and opens the console with it, as a reload with a stored key does: on two cores the
 * form's page and its signed-in chunk took 4-6 s of each of 150 tests. A password the server refuses goes
 * through the form, so the page shows the refusal as a user would see it.
 */
export async function signIn(page: Page, password = ADMIN_PASSWORD) {
  const began = performance.now();
  await signInWithKey(page, password);
  test.info().annotations.push({ type: 'sign-in-ms', description: String(Math.round(performance.now() - began)) });
}

async function signInWithKey(page: Page, password: string) {
  const answer = await page.request.post('/api/login', { data: { username: 'admin', password } });
  if (!answer.ok()) return signInWithForm(page, password);
  const session = await answer.json();
  // Any page of the console's origin will do to write its storage; the health answer is the lightest.
  await page.goto('/api/health');
  await page.evaluate(({ key, value }) => localStorage.setItem(key, value), {
    key: STORED_CREDENTIALS_KEY,
    value: JSON.stringify({ user: session.user, secretkey: session.secretkey }),
  });
  // Done when the console has checked the key (GET /api/login), so a navigation right after cannot cut it short.
  const checked = page.waitForResponse(
    (response) => new URL(response.url()).pathname === '/api/login' && response.request().method() === 'GET',
    // Within the test's budget: on a loaded machine the console's first load took over 30 s.
    { timeout: 0 },
  );
  await page.goto('/');
  expect((await checked).status()).toBe(200);
  await page.waitForURL((url) => !url.pathname.endsWith('/login'), { timeout: 0 });
}

/**
 * Signs in as another console account the way signIn does for admin: its key from the API, stored for the console;
 * the next page.goto opens the console with it.
 */
export async function signInAs(page: Page, username: string, password: string) {
  const answer = await page.request.post('/api/login', { data: { username, password } });
  expect(answer.status()).toBe(200);
  const session = await answer.json();
  await page.goto('/api/health');
  await page.evaluate(({ key, value }) => localStorage.setItem(key, value), {
    key: STORED_CREDENTIALS_KEY,
    value: JSON.stringify({ user: session.user, secretkey: session.secretkey }),
  });
}

export async function signInWithForm(page: Page, password = ADMIN_PASSWORD) {
  await page.goto('/login');
  await page.getByLabel('User').fill('admin');
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  // The outcome is a screen past the login page or a refusal on it. Waited for here, with room for a loaded
  // machine (the signed-in frame is a chunk of its own), so a spec's first check after signing in starts
  // from a settled page; a sign-in that never finishes fails here, with what the page showed.
  const outcome = await Promise.race([
    page.waitForURL((url) => !url.pathname.endsWith('/login'), { timeout: 90_000 }).then(() => 'in'),
    page
      .getByRole('alert')
      .first()
      .waitFor({ timeout: 90_000 })
      .then(() => 'refused'),
  ]).catch(() => 'stuck');
  if (outcome === 'stuck') {
    throw new Error(
      `sign-in did not finish in 90 s; the page shows: ${(await page.locator('body').textContent())?.slice(0, 500)}`,
    );
  }
}

/**
 * Signs in on a fresh server, chooses the built-in local directory and waits until it is ready, then creates
 * the users (with their main extension when one is given), as the seeds of most screens begin.
 */
export async function signInWithLocalUsers(page: Page, users: readonly (readonly [string, string, string?])[]) {
  await signIn(page);
  const began = performance.now();
  await expect(page.getByRole('heading', { name: 'Users', exact: true })).toBeVisible();
  expect((await apiAs(page, 'POST', '/api/configuration/mode', { mode: 'legacy' })).status).toBe(200);
  await expect.poll(async () => (await apiAs(page, 'GET', '/api/configuration/userprovider')).body.configured).toBe(1);
  test
    .info()
    .annotations.push({ type: 'local-directory-ms', description: String(Math.round(performance.now() - began)) });
  for (const [username, fullname, extension] of users) {
    expect((await apiAs(page, 'POST', '/api/users', { username, fullname })).status).toBe(201);
    if (extension) await apiAs(page, 'POST', '/api/mainextensions', { username, extension });
  }
}

/** Calls the API as the signed-in administrator of the page (same stored key as the console). */
export async function apiAs(page: Page, method: string, path: string, body?: unknown) {
  return page.evaluate(
    async ({ method, path, body }) => {
      const stored = JSON.parse(localStorage.getItem('secretkey') ?? '{}');
      const res = await fetch(path, {
        method,
        headers: {
          User: stored.user,
          Secretkey: stored.secretkey,
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: await res.json().catch(() => null) };
    },
    { method, path, body },
  );
}

const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
let axeSource: string | undefined;

/**
 * Loads axe-core into the page, once per document (a modal checked after its screen reuses it). Evaluated
 * through the debugging protocol rather than added as an inline <script>: the console's
 * Content-Security-Policy (rightly) refuses inline scripts.
 */
export async function injectAxe(page: Page): Promise<void> {
  if (await page.evaluate(() => 'axe' in window)) return;
  axeSource ??= fs.readFileSync(axePath, 'utf8');
  await page.evaluate(axeSource);
}

/**
 * Serious and critical WCAG A/AA violations found by axe in the parts of the page named by `selectors`
 * (those present), as 'impact rule: targets' lines. Specs name the parts their feature adds; the screens
 * underneath are checked by their own specs.
 */
export async function seriousViolations(page: Page, selectors: string[]): Promise<string[]> {
  await injectAxe(page);
  // A notification or dialog still fading in or out is drawn half transparent, and axe would judge its text's
  // contrast against what shows through: wait until every one is fully shown (or gone).
  await page
    .waitForFunction(
      () =>
        [...document.querySelectorAll('.mantine-Notification-root, [role="dialog"]')].every((el) => {
          for (let node: Element | null = el; node; node = node.parentElement) {
            if (getComputedStyle(node).opacity !== '1') return false;
          }
          return true;
        }),
      undefined,
      { timeout: 10_000 },
    )
    .catch(() => undefined);
  return page.evaluate(async (wanted) => {
    type AxeResults = { violations: { id: string; impact: string | null; nodes: { target: string[] }[] }[] };
    const axe = (window as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<AxeResults> } }).axe;
    const include = wanted.filter((selector) => document.querySelector(selector)).map((selector) => [selector]);
    if (include.length === 0) return [];
    // axe runs one check at a time in a page: the test's own and the dialog watcher's (dialog-axe.ts) queue.
    const w = window as unknown as { axeQueue?: Promise<unknown> };
    const run = () =>
      axe.run({ include }, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    const queued = (w.axeQueue ?? Promise.resolve()).then(run, run);
    w.axeQueue = queued.catch(() => undefined);
    const results = await queued;
    return results.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.impact} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  }, selectors);
}
