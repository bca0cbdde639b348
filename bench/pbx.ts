// PBX configuration apply at scale: 10,000 users × 2 devices (N and 91N), 100 VoIP trunks, 10 gateways, 400 routes.
// Full apply (render + validate + write into an empty directory) and apply after a one-user change,
// compared with the naive way: render everything afresh, validate it on the same thread, rewrite every file.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { ApplyPipeline } from '../apps/server/src/pbx/apply.ts';
import type { PbxModel } from '../apps/server/src/pbx/model.ts';
import { renderConfiguration } from '../apps/server/src/pbx/render/index.ts';
import { validateConfiguration } from '../apps/server/src/pbx/validate.ts';
import { ValidatorThread } from '../apps/server/src/pbx/validate-thread.ts';
import { writeAtomically } from '../apps/server/src/pbx/write-files.ts';
import { bigModel } from './pbx-model.ts';

const ms = (t0: number) => Math.round(performance.now() - t0);
const COLD_RUNS = 5;
const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)] ?? 0;

/**
 * Starts the validator's thread, as the server does when it starts (PbxEngine.start), then times
 * the first apply of the model into an empty directory (`watch` runs during the apply only).
 */
async function firstApply(directory: string, model: PbxModel, watch?: { enable(): void; disable(): void }) {
  const thread = new ValidatorThread();
  let t0 = performance.now();
  await thread.ready();
  const threadStart = ms(t0);
  const pipeline = new ApplyPipeline(directory, { thread });
  watch?.enable();
  t0 = performance.now();
  const written = await pipeline.run(model);
  const full = ms(t0);
  watch?.disable();
  return { thread, pipeline, threadStart, written, full };
}

/**
 * `--cold`: one full apply in this fresh process (nothing compiled by the JIT yet, as after a server
 * start), printed as JSON for the parent. A single such figure moves by ±15% on a shared machine:
 * the parent runs several and reports their median and range.
 */
async function coldRun(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'centralino-bench-pbx-cold-'));
  try {
    const { thread, pipeline, full } = await firstApply(dir, bigModel());
    await thread.close();
    console.log(JSON.stringify({ full, ...pipeline.lastTimings }));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function coldRuns(): { full: number; renderMs: number; validateMs: number; writeMs: number }[] {
  const runs = [];
  for (let i = 0; i < COLD_RUNS; i++) {
    const child = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--cold'], {
      encoding: 'utf8',
    });
    if (child.status !== 0) throw new Error(`cold run failed: ${child.stderr}`);
    runs.push(JSON.parse(child.stdout.trim().split('\n').pop() as string));
  }
  return runs;
}

if (process.argv.includes('--cold')) {
  await coldRun();
  process.exit(0);
}

const cold = coldRuns();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'centralino-bench-pbx-'));
try {
  const model = bigModel();
  // How long a request arriving during the apply could wait for the event loop.
  const delay = monitorEventLoopDelay({ resolution: 5 });
  const {
    thread,
    pipeline,
    threadStart,
    written: first,
    full,
  } = await firstApply(path.join(dir, 'incremental'), model, delay);
  let t0: number;
  const files = renderConfiguration(model);
  const bytes = [...files.values()].reduce((n, t) => n + t.length, 0);

  const fullTimings = { ...pipeline.lastTimings };

  // One user changed, the rest the same objects (the renderer sees at once they did not change).
  const oneUser: number[] = [];
  const phases: (typeof pipeline.lastTimings)[] = [];
  let written: string[] = [];
  for (let round = 0; round < 9; round++) {
    const u = model.users[4321 + round] as PbxModel['users'][number];
    model.users[4321 + round] = { ...u, name: `${u.name} changed`, voicemail: u.voicemail ? null : { pin: '4321' } };
    t0 = performance.now();
    written = await pipeline.run(model);
    oneUser.push(ms(t0));
    phases.push({ ...pipeline.lastTimings });
  }
  const phase = (key: 'renderMs' | 'validateMs' | 'writeMs') => Math.round(median(phases.map((p) => p[key])));

  // The same, with every object new, as after loading the model from the database again.
  const reloaded: number[] = [];
  for (let round = 0; round < 5; round++) {
    const u = model.users[5321 + round] as PbxModel['users'][number];
    model.users[5321 + round] = { ...u, name: `${u.name} changed` };
    const copy = structuredClone(model);
    t0 = performance.now();
    await pipeline.run(copy);
    reloaded.push(ms(t0));
  }

  // The same from scratch in a process that has run it once (the code already compiled by the JIT),
  // as when an apply must redo everything on a running server.
  thread.reset();
  const warmPipeline = new ApplyPipeline(path.join(dir, 'warm'), { thread });
  t0 = performance.now();
  await warmPipeline.run(model);
  const warmFull = ms(t0);
  const w = warmPipeline.lastTimings;
  await thread.close();

  // Naive: everything rendered, validated and rewritten on every apply.
  const naive: number[] = [];
  for (let round = 0; round < 3; round++) {
    t0 = performance.now();
    const all = renderConfiguration(model);
    const issues = validateConfiguration(all);
    if (issues.length > 0) throw new Error(`invalid: ${issues.length}`);
    fs.mkdirSync(path.join(dir, 'naive'), { recursive: true });
    for (const [name, text] of all) await writeAtomically(path.join(dir, 'naive', name), text);
    naive.push(ms(t0));
  }
  naive.sort((a, b) => a - b);

  console.log(
    `PBX apply: ${files.size} files, ${(bytes / 1e6).toFixed(1)} MB, ${first.length} written on the first apply; validator thread started in ${threadStart} ms`,
  );
  console.log(
    '  (validate: how long the check went on after the rendering, which it runs alongside on its own thread)',
  );
  console.log(
    `  event loop during the full apply: longest wait ${Math.round(delay.max / 1e6)} ms, 99th percentile ${Math.round(delay.percentile(99) / 1e6)} ms (requests are served meanwhile)`,
  );
  const f = fullTimings;
  console.log(
    `  full apply (render + validate + write, empty directory): ${full} ms (target < 1000): render ${Math.round(f.renderMs)}, validate ${Math.round(f.validateMs)}, write ${Math.round(f.writeMs)}`,
  );
  const coldFull = cold.map((r) => Math.round(r.full)).sort((a, b) => a - b);
  const coldMedian = median(coldFull);
  const coldPhase = (key: 'renderMs' | 'validateMs' | 'writeMs') => Math.round(median(cold.map((r) => r[key])));
  console.log(
    `  the same in ${COLD_RUNS} fresh processes: median ${coldMedian} ms (${coldFull.join(', ')}), ${coldFull.filter((v) => v < 1000).length} of ${COLD_RUNS} under 1 s: render ${coldPhase('renderMs')}, validate ${coldPhase('validateMs')}, write ${coldPhase('writeMs')}`,
  );
  console.log(
    `  full apply again in the same process (warm): ${warmFull} ms: render ${Math.round(w.renderMs)}, validate ${Math.round(w.validateMs)}, write ${Math.round(w.writeMs)}`,
  );
  console.log(
    `  apply after a one-user change: median ${median(oneUser)} ms, max ${Math.max(...oneUser)} ms (target < 100): render ${phase('renderMs')}, validate ${phase('validateMs')}, write ${phase('writeMs')}; files written: ${written.join(', ')}`,
  );
  console.log(`  the same with the model loaded afresh (every object new): median ${median(reloaded)} ms`);
  console.log(`  naive apply after the same change (render all, validate all, rewrite all): median ${naive[1]} ms`);
  const met = (v: number, target: number) => (v < target ? 'met' : 'MISSED');
  console.log(
    `  targets: full (median of the fresh processes) ${met(coldMedian, 1000)}, warm full ${met(warmFull, 1000)}, one-user change ${met(median(oneUser), 100)}`,
  );
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
