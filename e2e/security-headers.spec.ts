import { expect, signIn, test } from './fixtures.ts';

/**
 * The console runs under its Content-Security-Policy: signing in, the wizard's first screens, the
 * phones screen and the API documentation work and the browser reports no violation.
 */
test('the console and the API documentation work under the Content-Security-Policy', async ({ page, server }) => {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error(
        `Refused to load (CSP ${e.violatedDirective}): ${e.blockedURI} on ${location.pathname} from ${e.sourceFile}:${e.lineNumber}`,
      );
    });
  });
  const res = await page.goto('/login');
  expect(res?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Users', exact: true })).toBeVisible();
  await page.goto('/devices/inventory');
  await expect(page.locator('main')).toBeVisible();
  await page.goto('/api/docs');
  // The first request for the API document builds it from every route's schemas: seconds on a loaded machine.
  await expect(page.getByText('Centralino', { exact: false }).first()).toBeVisible({ timeout: 30_000 });
  expect(violations).toEqual([]);

  // A page of another origin cannot frame the console.
  const framed = await page.request.get(`${server.url}/`);
  expect(framed.headers()['x-frame-options']).toBe('DENY');
});
