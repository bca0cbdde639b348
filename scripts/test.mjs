// npm test: type check, lint, unit and integration tests (SQLite and PostgreSQL), browser tests.
// Ends with one "N passed, N failed" line over every test that ran.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const reports = path.join(root, '.tmp');
fs.mkdirSync(reports, { recursive: true });
const vitestReport = path.join(reports, 'vitest.json');
const vitestNetworkReport = path.join(reports, 'vitest-network.json');
const playwrightReport = path.join(reports, 'playwright.json');
fs.rmSync(vitestReport, { force: true });
fs.rmSync(vitestNetworkReport, { force: true });
fs.rmSync(playwrightReport, { force: true });

const timings = [];
/** Steps that failed, named on the last line: a failed type check fails the run with no test counted failed. */
const failedSteps = [];
function step(name, command, args, env = {}) {
  console.log(`\n=== ${name} ===`);
  const started = Date.now();
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  timings.push(`${name}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (result.status !== 0) failedSteps.push(name);
  return result.status === 0;
}

/** Runs a step with its output shown as it comes, without blocking the steps running alongside; resolves ok. */
function live(name, command, args, env = {}) {
  console.log(`\n=== ${name} ===`);
  const started = Date.now();
  const child = spawn(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  return new Promise((resolve) => {
    const end = (code) => {
      timings.push(`${name}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
      if (code !== 0) failedSteps.push(name);
      resolve(code === 0);
    };
    child.on('error', () => end(1));
    child.on('close', end);
  });
}

/**
 * Runs a step alongside the others, its output held back and printed when `finish` is awaited, so the
 * log stays readable. For CPU work that does not need to come first (type check, build): the integration
 * tests spend much of their time waiting on PostgreSQL, child processes and scrypt, and the cores are free.
 */
function background(name, command, args, env = {}) {
  const started = Date.now();
  const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let output = '';
  child.stdout.on('data', (d) => {
    output += d;
  });
  child.stderr.on('data', (d) => {
    output += d;
  });
  let seconds = '';
  const done = new Promise((resolve) => {
    const end = (code) => {
      seconds = ((Date.now() - started) / 1000).toFixed(1);
      resolve(code);
    };
    child.on('error', (error) => {
      output += `${error}\n`;
      end(1);
    });
    child.on('close', end);
  });
  return {
    async finish() {
      const code = await done;
      console.log(`\n=== ${name} (ran alongside) ===`);
      if (output) process.stdout.write(output);
      timings.push(`${name}: ${seconds} s (alongside)`);
      if (code !== 0) failedSteps.push(name);
      return code === 0;
    },
  };
}

function counts() {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const report of [vitestNetworkReport, vitestReport]) {
    if (!fs.existsSync(report)) continue;
    const r = JSON.parse(fs.readFileSync(report, 'utf8'));
    passed += r.numPassedTests ?? 0;
    failed += r.numFailedTests ?? 0;
    // A test file that fails before any test runs (an error at load or in a hook) counts as one failure.
    failed += (r.testResults ?? []).filter(
      (f) => f.status === 'failed' && (f.assertionResults ?? []).length === 0,
    ).length;
    skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  }
  if (fs.existsSync(playwrightReport)) {
    const r = JSON.parse(fs.readFileSync(playwrightReport, 'utf8'));
    passed += (r.stats?.expected ?? 0) + (r.stats?.flaky ?? 0);
    failed += r.stats?.unexpected ?? 0;
    skipped += r.stats?.skipped ?? 0;
  }
  return { passed, failed, skipped };
}

/** The failed tests by name with the first line of why, so that the tail of a CI log says what to mend. */
function failures() {
  const lines = [];
  const first = (text) =>
    String(text ?? '')
      .split('\n')
      .find((l) => l.trim() !== '') ?? '';
  const short = (text) =>
    first(text)
      .replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g'), '')
      .trim()
      .slice(0, 200);
  for (const report of [vitestNetworkReport, vitestReport]) {
    if (!fs.existsSync(report)) continue;
    const r = JSON.parse(fs.readFileSync(report, 'utf8'));
    for (const f of r.testResults ?? []) {
      const file = path.relative(process.cwd(), f.name ?? '');
      const failedTests = (f.assertionResults ?? []).filter((a) => a.status === 'failed');
      for (const a of failedTests) lines.push(`${file} › ${a.fullName}: ${short(a.failureMessages?.[0])}`);
      if (f.status === 'failed' && failedTests.length === 0) lines.push(`${file}: ${short(f.message)}`);
    }
  }
  if (fs.existsSync(playwrightReport)) {
    const r = JSON.parse(fs.readFileSync(playwrightReport, 'utf8'));
    const walk = (suite, titles) => {
      for (const spec of suite.specs ?? []) {
        for (const t of spec.tests ?? []) {
          if (t.status !== 'unexpected') continue;
          const error = (t.results ?? []).map((x) => x.error?.message).find(Boolean);
          lines.push(`${spec.file}:${spec.line} › ${[...titles, spec.title].join(' › ')}: ${short(error)}`);
        }
      }
      for (const child of suite.suites ?? []) walk(child, suite.file === child.file ? [...titles, child.title] : []);
    };
    for (const suite of r.suites ?? []) walk(suite, []);
  }
  return lines;
}

const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
// The type check and the build run alongside lint and the unit tests; nothing before the browser tests reads
// the build, and a failed type check still fails the run (and skips the browser tests).
const typecheck = background('type check', 'npm', ['run', '--silent', 'typecheck']);
const build = background('build', 'npm', ['run', '--silent', 'build']);
let ok =
  step('lint', npx, ['biome', 'check', '.']) &&
  step('test services', process.execPath, ['scripts/ensure-postgres.mjs']) &&
  step('directory server (slapd)', process.execPath, ['scripts/ensure-slapd.mjs']) &&
  step('audio tools (sox, espeak-ng)', process.execPath, ['scripts/ensure-audio-tools.mjs']) &&
  step('front web server (nginx)', process.execPath, ['scripts/ensure-nginx.mjs']) &&
  step('browser (Chromium)', process.execPath, ['scripts/ensure-chromium.mjs']);
// Builds Asterisk once into a cache (or says why the real-PBX tier is skipped); never fails the run.
if (ok) step('real Asterisk (apps/server/test/asterisk)', process.execPath, ['scripts/ensure-asterisk.mjs']);

/**
 * The unit and integration tests and the browser tests run at the same time: the first spend most of their time
 * waiting (on PostgreSQL, Asterisk and sipp, child processes, timers: 523 s of CPU in 680 s on two cores), the
 * second are CPU-bound, so one after the other left a core idle for ten minutes. Only the server tests that add
 * and remove network interfaces (vitest.config.ts, TEST_PART) run before, alongside the type check and the build:
 * Chromium aborts its requests when an interface comes or goes. The browser tests' output is held back and printed
 * after the unit tests'.
 */
const vitest = (report) => ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`];
let browser = null;
if (ok) {
  ok = await live(
    'unit tests that change the network (real Asterisk, scan lab)',
    npx,
    [...vitest(vitestNetworkReport), '--project', 'server'],
    { TEST_PART: 'network' },
  );
  const checked = await typecheck.finish();
  const built = await build.finish();
  if (checked && built) {
    browser = background(
      'browser tests',
      npx,
      ['playwright', 'test', '-c', 'e2e/playwright.config.ts', '--reporter=list,json'],
      { PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightReport },
    );
  }
  ok = (await live('unit and integration tests', npx, vitest(vitestReport), { TEST_PART: 'rest' })) && ok;
  ok = ok && checked && built;
  if (browser) ok = (await browser.finish()) && ok;
} else {
  await typecheck.finish();
  await build.finish();
}

const { passed, failed, skipped } = counts();
const failedTests = failures();
if (failedTests.length > 0) console.log(`\nfailed tests:\n${failedTests.map((l) => `  ${l}`).join('\n')}`);
console.log(`\n${timings.join('\n')}`);
console.log(`\ntests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
if (failedSteps.length > 0) console.log(`failed: ${failedSteps.join(', ')}`);
process.exit(ok && failed === 0 && passed > 0 ? 0 : 1);
