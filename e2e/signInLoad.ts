import zlib from 'node:zlib';
import type { Page } from '@playwright/test';

/**
 * What the sign-in page may download, scripts and stylesheets together, compressed with gzip at level 9
 * (issue 20, P5). In bytes: "kB" as the build tools print it, 1,000 bytes.
 */
export const SIGN_IN_BUDGET_GZIP_BYTES = 215_000;

export interface LoadedFile {
  path: string;
  kind: 'script' | 'stylesheet' | 'document' | 'other';
  /** Size of the file itself (decoded). */
  raw: number;
  gzip9: number;
  brotli11: number;
  /** Content-Encoding the server answered with (undefined: sent as is). */
  encoding: string | undefined;
  /** The text of a script or stylesheet (empty for other files). */
  text: string;
}

function kindOf(pathname: string, resourceType: string): LoadedFile['kind'] {
  if (resourceType === 'document') return 'document';
  if (pathname.endsWith('.js')) return 'script';
  if (pathname.endsWith('.css')) return 'stylesheet';
  return 'other';
}

/**
 * Opens `url` (a fresh page of a fresh context: nothing cached, signed out), waits until the sign-in form
 * is drawn and the network is quiet, and returns every file of the console's origin the browser fetched:
 * scripts (module preloads and on-demand chunks such as the language's catalogue too) and stylesheets.
 */
export async function recordSignInLoad(page: Page, url: string): Promise<LoadedFile[]> {
  const origin = new URL(url).origin;
  const pending: Promise<LoadedFile | undefined>[] = [];
  page.on('response', (response) => {
    const target = new URL(response.url());
    if (target.origin !== origin || target.pathname.startsWith('/api/')) return;
    pending.push(
      response
        .body()
        .then((body) => {
          const kind = kindOf(target.pathname, response.request().resourceType());
          return {
            path: target.pathname,
            kind,
            raw: body.length,
            gzip9: zlib.gzipSync(body, { level: 9 }).length,
            brotli11: zlib.brotliCompressSync(body, {
              params: { [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY },
            }).length,
            encoding: response.headers()['content-encoding'],
            text: kind === 'script' || kind === 'stylesheet' ? body.toString('utf8') : '',
          };
        })
        .catch(() => undefined),
    );
  });
  await page.goto(url);
  await page.locator('form button[type="submit"]').waitFor({ state: 'visible', timeout: 60_000 });
  await page.waitForLoadState('networkidle');
  const files = (await Promise.all(pending)).filter((file): file is LoadedFile => file !== undefined);
  return files.sort((a, b) => b.gzip9 - a.gzip9);
}

export function sumOf(files: LoadedFile[], kinds: LoadedFile['kind'][] = ['script', 'stylesheet']) {
  const chosen = files.filter((file) => kinds.includes(file.kind));
  return {
    count: chosen.length,
    raw: chosen.reduce((sum, file) => sum + file.raw, 0),
    gzip9: chosen.reduce((sum, file) => sum + file.gzip9, 0),
    brotli11: chosen.reduce((sum, file) => sum + file.brotli11, 0),
  };
}
