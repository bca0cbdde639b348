import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.ts';

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  globalSetup: './global-setup.ts',
  // A test's whole budget, not a speed check: a test that signs in five times in two browsers took over a
  // minute on a two-core machine whose Chromium ran every test about four times slower than the last CI's, and
  // the unit tests run alongside (scripts/test.mjs). Every wait below is for an event (a response, a screen, a
  // row): a longer bound costs a passing test nothing, and a machine busy with other work (load 15 on two cores)
  // took over 10 s to draw a screen and over 30 s to sign in.
  timeout: 240_000,
  expect: { timeout: 30_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  outputDir: '../test-results',
  use: {
    locale: 'en-US',
    // Tests click at machine speed: with transitions, a click could land in a dialog still opening and do nothing
    // (a trunk's deletion, confirmed 170 ms after its dialog began to open, once sent no request). The console
    // respects the setting (theme.ts), so dialogs appear at once.
    reducedMotion: 'reduce',
    // A failed test keeps its trace (the DOM at each action, the network, the console) and a screenshot. Not the
    // trace's screencast: recording it for every test cost a third of the suite's CPU (Chromium's compositor
    // drawing frames for it, the browser encoding them, Playwright taking them in: 58.6 s against 49.4 s without
    // it on 5 tests, the compositor's share from 4 s to 28 s), for the one test in a hundred that fails.
    trace: { mode: 'retain-on-failure', screenshots: false, snapshots: true, sources: false },
    screenshot: 'only-on-failure',
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
  },
});
