import { expect, test } from './fixtures.ts';
import { recordSignInLoad, SIGN_IN_BUDGET_GZIP_BYTES, sumOf } from './signInLoad.ts';

// A size check, not a timing: bench/console-size.ts measures the time on a slow phone and network.
test('the sign-in page loads at most 215 kB of scripts and styles (gzip 9), all of it compressed', async ({
  page,
  server,
}) => {
  const files = await recordSignInLoad(page, `${server.url}/`);
  await expect(page).toHaveURL(/\/login$/);
  const total = sumOf(files);
  const listing = files.map((file) => `${file.path} ${file.gzip9} B (${file.encoding ?? 'identity'})`).join('\n');
  expect(total.gzip9, listing).toBeLessThanOrEqual(SIGN_IN_BUDGET_GZIP_BYTES);
  // What the page does not draw stays out: zod (its error class), the other language, the complete
  // Mantine stylesheet (its Accordion rules, say) and the notifications.
  const scripts = files.filter((file) => file.kind === 'script').map((file) => file.text);
  const styles = files.filter((file) => file.kind === 'stylesheet').map((file) => file.text);
  expect(
    scripts.some((text) => text.includes('ZodError')),
    'zod',
  ).toBe(false);
  expect(
    scripts.some((text) => text.includes('Accedi')),
    'the Italian catalogue',
  ).toBe(false);
  expect(
    styles.some((text) => text.includes('--accordion-')),
    'all of Mantine styles.css',
  ).toBe(false);
  expect(
    scripts.some((text) => text.includes('notifications-container')),
    'notifications',
  ).toBe(false);
  for (const file of files.filter((f) => f.kind !== 'other')) expect(file.encoding, file.path).toBe('br');
});
