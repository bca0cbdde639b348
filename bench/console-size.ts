// Issue 20, P5: what the console downloads before sign-in, and how soon the sign-in page answers on a
// slow phone and network. Reads apps/web/dist (builds it when missing), starts the real built server
// (which sends the precompressed files), loads the sign-in page in Debian's Chromium and records every
// response; then times the page with 4x CPU throttling and Fast 3G network emulation, cold cache.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { type Browser, chromium } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/chromium.ts';
import { type LoadedFile, recordSignInLoad, SIGN_IN_BUDGET_GZIP_BYTES, sumOf } from '../e2e/signInLoad.ts';
import { percentile, root, startServer } from './lib.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const TTI_GOAL_MS = 3000;
// Chrome DevTools' "Fast 3G" preset: 1.6 Mbps down, 750 kbps up, 562.5 ms round trip (with DevTools'
// 0.9 factor on the throughputs).
const FAST_3G = {
  offline: false,
  latency: 562.5,
  downloadThroughput: ((1.6 * 1000 * 1000) / 8) * 0.9,
  uploadThroughput: ((750 * 1000) / 8) * 0.9,
};
const CPU_SLOWDOWN = 4;

const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

function ensureWebBuild() {
  if (fs.existsSync(path.join(root, 'apps/web/dist/index.html'))) return;
  console.log('apps/web/dist missing: building the web app');
  const built = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) throw new Error('web build failed');
}

function printFiles(files: LoadedFile[]) {
  console.log('file                                              raw        gzip-9     brotli-11  sent as');
  for (const file of files) {
    console.log(
      `${file.path.padEnd(48)}  ${kB(file.raw).padStart(9)}  ${kB(file.gzip9).padStart(9)}  ${kB(file.brotli11).padStart(9)}  ${file.encoding ?? 'identity'}`,
    );
  }
}

/**
 * Time to interactive of the sign-in page: from the start of navigation until the form is drawn and the
 * main thread has run its last long task (> 50 ms) before the network went quiet: the moment a tap on
 * the form is answered at once.
 */
async function timeSignIn(browser: Browser, url: string) {
  const context = await browser.newContext({ locale: 'en-US' });
  const page = await context.newPage();
  // Long tasks are recorded from the first byte of the page on (a string: it runs in the page, not here).
  await page.addInitScript(`
    window.__longTaskEnds = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.__longTaskEnds.push(entry.startTime + entry.duration);
    }).observe({ type: 'longtask', buffered: true });
  `);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.emulateNetworkConditions', FAST_3G);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
  await page.goto(url, { waitUntil: 'commit', timeout: 120_000 });
  await page.locator('form button[type="submit"]').waitFor({ state: 'visible', timeout: 120_000 });
  const drawnAt = await page.evaluate(() => performance.now());
  await page.waitForLoadState('networkidle', { timeout: 120_000 });
  const marks = (await page.evaluate(`({
    fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
    lastLongTask: Math.max(0, ...window.__longTaskEnds),
  })`)) as { fcp: number; lastLongTask: number };
  await context.close();
  return { fcp: marks.fcp, drawn: drawnAt, tti: Math.max(drawnAt, marks.lastLongTask) };
}

ensureWebBuild();
// The server's first start can outlast the helper's 20 s deadline on a busy machine: try again.
async function startServerPatiently(tries = 3) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startServer();
    } catch (error) {
      if (attempt >= tries) throw error;
      console.log(`server start ${attempt} failed (${(error as Error).message.split('\n')[0]}); trying again`);
    }
  }
}

// CONSOLE_URL measures a console already running (e.g. one started by hand), built from this tree.
const server = process.env.CONSOLE_URL
  ? { url: process.env.CONSOLE_URL.replace(/\/$/, ''), stop: async () => undefined }
  : await startServerPatiently();
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
let failed = false;
try {
  const context = await browser.newContext({ locale: 'en-US' });
  const files = await recordSignInLoad(await context.newPage(), `${server.url}/`);
  await context.close();
  printFiles(files);
  const total = sumOf(files);
  const all = sumOf(files, ['script', 'stylesheet', 'document', 'other']);
  const uncompressed = files.filter((file) => file.kind !== 'other' && file.encoding === undefined);
  console.log(
    `\nsign-in page, scripts and styles: ${total.count} files, ${kB(total.raw)} raw, ${kB(total.gzip9)} gzip-9, ${kB(total.brotli11)} brotli-11 (budget ${kB(SIGN_IN_BUDGET_GZIP_BYTES)} gzip-9)`,
  );
  console.log(`everything fetched: ${all.count} files, ${kB(all.gzip9)} gzip-9, ${kB(all.brotli11)} brotli-11`);
  if (uncompressed.length > 0) console.log(`sent uncompressed: ${uncompressed.map((f) => f.path).join(', ')}`);
  failed ||= total.gzip9 > SIGN_IN_BUDGET_GZIP_BYTES || uncompressed.length > 0;

  const runs = [];
  for (let run = 0; run < RUNS; run++) runs.push(await timeSignIn(browser, `${server.url}/login`));
  const median = (values: number[]) =>
    percentile(
      [...values].sort((a, b) => a - b),
      50,
    );
  const tti = median(runs.map((r) => r.tti));
  console.log(
    `\nsign-in page on ${CPU_SLOWDOWN}x CPU + Fast 3G, cold cache, median of ${RUNS}: first contentful paint ${median(runs.map((r) => r.fcp)).toFixed(0)} ms, form drawn ${median(runs.map((r) => r.drawn)).toFixed(0)} ms, interactive ${tti.toFixed(0)} ms (goal < ${TTI_GOAL_MS} ms)`,
  );
  console.log(`  runs (interactive): ${runs.map((r) => r.tti.toFixed(0)).join(', ')} ms`);
  failed ||= tti >= TTI_GOAL_MS;
} finally {
  await browser.close();
  await server.stop();
}
process.exit(failed ? 1 : 0);
