// npm test: type check, lint, unit and integration tests (SQLite and PostgreSQL), browser tests.
// Ends with one "N passed, N failed" line over every test that ran.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const reports = path.join(root, '.tmp');
fs.mkdirSync(reports, { recursive: true });
const vitestReport = path.join(reports, 'vitest.json');
const playwrightReport = path.join(reports, 'playwright.json');
fs.rmSync(vitestReport, { force: true });
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

/**
 * Runs a step alongside the others, its output held back and printed when `finish` is awaited, so the
 * log stays readable. For CPU work that does not need to come first (type check, build): the integration
 * tests spend much of their time waiting on PostgreSQL, child processes and scrypt, and the cores are free.
 */
function background(name, command, args) {
  const started = Date.now();
  const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
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
  if (fs.existsSync(vitestReport)) {
    const r = JSON.parse(fs.readFileSync(vitestReport, 'utf8'));
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
  step('front web server (nginx)', process.execPath, ['scripts/ensure-nginx.mjs']);
// Builds Asterisk once into a cache (or says why the real-PBX tier is skipped); never fails the run.
if (ok) step('real Asterisk (apps/server/test/asterisk)', process.execPath, ['scripts/ensure-asterisk.mjs']);

if (ok) {
  ok = step('unit and integration tests', npx, [
    'vitest',
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${vitestReport}`,
  ]);
}
ok = (await typecheck.finish()) && ok;
const built = await build.finish();
if (ok) {
  ok =
    step('browser (Chromium)', process.execPath, ['scripts/ensure-chromium.mjs']) &&
    built &&
    step('browser tests', npx, ['playwright', 'test', '-c', 'e2e/playwright.config.ts', '--reporter=list,json'], {
      PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightReport,
    });
}

const { passed, failed, skipped } = counts();
console.log(`\n${timings.join('\n')}`);
console.log(`\ntests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
if (failedSteps.length > 0) console.log(`failed: ${failedSteps.join(', ')}`);
process.exit(ok && failed === 0 && passed > 0 ? 0 : 1);
