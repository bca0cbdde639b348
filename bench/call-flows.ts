// Call flows at scale (issue 26): 500 IVRs, 200 queues × 50 members, 1,000 time conditions (and 200 announcements),
// with 200 ring groups × 10 members, 100 conference rooms, 10 parking lots and follow-me on half the users (issue 42),
// on top of the 10,000-user system of pbx.ts.
// Full apply (render + validate + write into an empty directory) in fresh processes and warm; apply after one flow object changes (an IVR, a queue, a
// time condition, a ring group, a conference room, a user's follow-me).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ApplyPipeline } from '../apps/server/src/pbx/apply.ts';
import type { PbxModel } from '../apps/server/src/pbx/model.ts';
import { ValidatorThread } from '../apps/server/src/pbx/validate-thread.ts';
import { bigModel } from './pbx-model.ts';

const ms = (t0: number) => Math.round(performance.now() - t0);
const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)] ?? 0;
const COLD_RUNS = 3;
const FULL_TARGET = 1500;
const CHANGE_TARGET = 150;

/** The 10,000-user system with the flows of the scale, every object pointing at real ones. */
function flowsModel(): PbxModel {
  const model = bigModel();
  const ext = (i: number) => String(1000 + (i % 10_000));
  model.announcements = Array.from({ length: 200 }, (_, i) => ({
    id: i + 1,
    description: `Announcement ${i}`,
    recording: `/var/lib/centralino/sounds/recording-${i + 1}`,
    allowSkip: i % 2 === 0,
    destination: `ext-queues,${5000 + (i % 200)},1`,
    returnIvr: false,
    noAnswer: false,
    repeatKey: '',
  }));
  model.queues = Array.from({ length: 200 }, (_, q) => ({
    number: String(5000 + q),
    name: `Queue ${q}`,
    strategy: ['ringall', 'rrmemory', 'leastrecent', 'fewestcalls', 'random'][q % 5] as string,
    ringTime: 15,
    maxWait: 120,
    failover: `ext-local,vmu${ext(q * 2)},1`,
    music: q % 3 ? 'default' : 'ringing',
    announcePosition: q % 2 === 0,
    members: Array.from({ length: 50 }, (_, m) => ({ extension: ext(q * 50 + m), name: `User Number ${q * 50 + m}` })),
    agents: Array.from({ length: 10 }, (_, a) => ext(5000 + q * 10 + a)),
  }));
  model.ivrs = Array.from({ length: 500 }, (_, i) => ({
    id: i + 1,
    name: `Menu ${i}`,
    announcement: `/var/lib/centralino/sounds/recording-${(i % 200) + 1}`,
    directDial: i % 4 === 0,
    timeout: 10,
    invalidLoops: 3,
    invalidDestination: 'app-blackhole,hangup,1',
    timeoutLoops: 2,
    timeoutDestination: `ext-queues,${5000 + (i % 200)},1`,
    entries: ['1', '2', '3', '0'].map((selection, k) => ({
      selection,
      destination:
        k === 0
          ? `ext-queues,${5000 + ((i + k) % 200)},1`
          : k === 1
            ? `app-announcement-${(i % 200) + 1},s,1`
            : `from-did-direct,${ext(i * 7 + k)},1`,
    })),
  }));
  model.timeConditions = Array.from({ length: 1000 }, (_, i) => ({
    id: i + 1,
    name: `Hours ${i}`,
    ranges: [
      { hours: '08:30-12:30', weekdays: 'mon-fri', mdays: '*', months: '*' },
      { hours: '14:00-18:00', weekdays: 'mon-thu', mdays: '*', months: '*' },
      { hours: '*', weekdays: '*', mdays: '25', months: 'dec' },
    ],
    trueDestination: `ivr-${(i % 500) + 1},s,1`,
    falseDestination: i % 2 ? 'app-blackhole,hangup,1' : `app-announcement-${(i % 200) + 1},s,1`,
  }));
  // Ring groups (issue 42): 200 × 10 members, every strategy, a few outside numbers, unanswered to a queue.
  const strategies = ['ringall', 'hunt', 'memoryhunt', 'random'] as const;
  model.numberedRingGroups = Array.from({ length: 200 }, (_, g) => ({
    number: String(6000 + g),
    name: `Ring group ${g}`,
    strategy: strategies[g % 4] as (typeof strategies)[number],
    ringTime: 20,
    confirmExternal: g % 5 === 0,
    failover: `ext-queues,${5000 + (g % 200)},1`,
    members: [
      ...Array.from({ length: 9 }, (_, m) => ({ kind: 'user' as const, number: ext(g * 9 + m) })),
      { kind: 'external' as const, number: `0039333${String(g).padStart(7, '0')}` },
    ],
  }));
  model.inboundRoutes.push(
    ...Array.from({ length: 1000 }, (_, i) => ({
      did: `07219${String(i).padStart(5, '0')}`,
      cid: '',
      description: `Line ${i}`,
      destination: `timeconditions,${i + 1},1`,
      cidNamePrefix: '',
    })),
  );
  // Parking lots (issue 42): 10 of 8 slots, half going back to the parker, half to a ring group.
  model.parkingLots = Array.from({ length: 10 }, (_, i) => ({
    id: i + 1,
    number: String(8500 + i * 10),
    name: `Lot ${i}`,
    slots: Array.from({ length: 8 }, (_, s) => String(8501 + i * 10 + s)),
    timeout: 45,
    timeoutDestination: i % 2 ? `ext-group,${model.numberedRingGroups?.[i]?.number ?? ''},1` : null,
    musicClass: 'default',
  }));
  // Conference rooms (issue 42): 100, a third with PINs, some limited and recorded, ten reached from inbound routes.
  model.conferences = Array.from({ length: 100 }, (_, i) => ({
    number: String(7000 + i),
    name: `Room ${i}`,
    userPin: i % 3 === 0 ? String(1000 + i) : null,
    adminPin: i % 3 === 0 ? String(9000 + i) : null,
    maxMembers: i % 2 ? 20 : 0,
    musicWhenAlone: i % 2 === 0,
    announceJoinLeave: i % 5 === 0,
    record: i % 4 === 0,
  }));
  model.inboundRoutes.push(
    ...Array.from({ length: 10 }, (_, i) => ({
      did: `07218${String(i).padStart(5, '0')}`,
      cid: '',
      description: `Meeting line ${i}`,
      destination: `ext-meetme,${7000 + i},1`,
      cidNamePrefix: '',
    })),
  );
  // Follow-me (issue 42) on every other user: a colleague, then the mobile with press 1.
  model.users = model.users.map((u, i) =>
    i % 2
      ? u
      : {
          ...u,
          followMe: {
            preRing: 15,
            strategy: i % 4 ? 'ringall' : 'hunt',
            confirmExternal: true,
            legs: [
              { kind: 'user', number: ext(i + 1), ringTime: 15 },
              { kind: 'external', number: `0039347${String(i).padStart(7, '0')}`, ringTime: 25 },
            ],
          },
        },
  );
  return model;
}

async function firstApply(directory: string, model: PbxModel) {
  const thread = new ValidatorThread();
  await thread.ready();
  const pipeline = new ApplyPipeline(directory, { thread });
  const t0 = performance.now();
  const written = await pipeline.run(model);
  return { thread, pipeline, written, full: ms(t0) };
}

if (process.argv.includes('--cold')) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'centralino-bench-flows-cold-'));
  try {
    const { thread, pipeline, full } = await firstApply(dir, flowsModel());
    await thread.close();
    console.log(JSON.stringify({ full, ...pipeline.lastTimings }));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  process.exit(0);
}

const cold: { full: number; renderMs: number; validateMs: number; writeMs: number }[] = [];
for (let i = 0; i < COLD_RUNS; i++) {
  const child = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--cold'], {
    encoding: 'utf8',
  });
  if (child.status !== 0) throw new Error(`cold run failed: ${child.stderr}`);
  cold.push(JSON.parse(child.stdout.trim().split('\n').pop() as string));
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'centralino-bench-flows-'));
try {
  const model = flowsModel();
  const { thread, pipeline, written: first } = await firstApply(path.join(dir, 'incremental'), model);
  const flowsBytes = fs
    .readdirSync(path.join(dir, 'incremental'))
    .filter((f) => f.startsWith('extensions.flows'))
    .reduce((n, f) => n + fs.statSync(path.join(dir, 'incremental', f)).size, 0);
  const queuesBytes = fs.statSync(path.join(dir, 'incremental', 'queues.conf')).size;

  // One flow object changed per apply, in turn an IVR, a queue and a time condition (new objects, as loading does).
  const changes: Record<string, number[]> = {
    IVR: [],
    queue: [],
    'time condition': [],
    'ring group': [],
    conference: [],
    'follow-me': [],
  };
  const phases: Record<string, (typeof pipeline.lastTimings)[]> = {
    IVR: [],
    queue: [],
    'time condition': [],
    'ring group': [],
    conference: [],
    'follow-me': [],
  };
  let written: Record<string, string[]> = {};
  for (let round = 0; round < 6; round++) {
    const i = 100 + round;
    model.ivrs[i] = { ...(model.ivrs[i] as PbxModel['ivrs'][number]), name: `Menu ${i} changed ${round}` };
    let t0 = performance.now();
    written = { ...written, IVR: await pipeline.run(model) };
    changes.IVR?.push(ms(t0));
    phases.IVR?.push({ ...pipeline.lastTimings });
    const q = model.queues[i] as PbxModel['queues'][number];
    model.queues[i] = { ...q, ringTime: q.ringTime + 1, members: q.members.slice(1) };
    t0 = performance.now();
    written = { ...written, queue: await pipeline.run(model) };
    changes.queue?.push(ms(t0));
    phases.queue?.push({ ...pipeline.lastTimings });
    const c = model.timeConditions[i] as PbxModel['timeConditions'][number];
    model.timeConditions[i] = { ...c, falseDestination: 'app-blackhole,busy,1' };
    t0 = performance.now();
    written = { ...written, 'time condition': await pipeline.run(model) };
    changes['time condition']?.push(ms(t0));
    phases['time condition']?.push({ ...pipeline.lastTimings });
    const groups = model.numberedRingGroups ?? [];
    const g = groups[i] as NonNullable<PbxModel['numberedRingGroups']>[number];
    groups[i] = { ...g, ringTime: g.ringTime + 1, members: g.members.slice(1) };
    t0 = performance.now();
    written = { ...written, 'ring group': await pipeline.run(model) };
    changes['ring group']?.push(ms(t0));
    phases['ring group']?.push({ ...pipeline.lastTimings });
    const rooms = model.conferences ?? [];
    const r = rooms[round] as NonNullable<PbxModel['conferences']>[number];
    rooms[round] = { ...r, maxMembers: r.maxMembers + 1 };
    t0 = performance.now();
    written = { ...written, conference: await pipeline.run(model) };
    changes.conference?.push(ms(t0));
    phases.conference?.push({ ...pipeline.lastTimings });
    const at = 2 * (100 + round);
    const u = model.users[at] as PbxModel['users'][number];
    const fm = u.followMe as NonNullable<PbxModel['users'][number]['followMe']>;
    model.users[at] = { ...u, followMe: { ...fm, preRing: fm.preRing + 1 } };
    t0 = performance.now();
    written = { ...written, 'follow-me': await pipeline.run(model) };
    changes['follow-me']?.push(ms(t0));
    phases['follow-me']?.push({ ...pipeline.lastTimings });
  }

  thread.reset();
  const warmPipeline = new ApplyPipeline(path.join(dir, 'warm'), { thread });
  const t0 = performance.now();
  await warmPipeline.run(model);
  const warmFull = ms(t0);
  const w = warmPipeline.lastTimings;
  await thread.close();

  const coldFull = cold.map((r) => Math.round(r.full)).sort((a, b) => a - b);
  const coldMedian = median(coldFull);
  const coldPhase = (key: 'renderMs' | 'validateMs' | 'writeMs') => Math.round(median(cold.map((r) => r[key])));
  console.log(
    `Call flows: 500 IVRs, 200 queues × 50 members, 1,000 time conditions, 200 announcements, 200 ring groups × 10 members, 100 conference rooms, follow-me on 5,000 users, 1,000 more inbound routes on 10,000 users; ${first.length} files, extensions.flows*.conf ${(flowsBytes / 1e6).toFixed(2)} MB, queues.conf ${(queuesBytes / 1e6).toFixed(2)} MB`,
  );
  console.log(
    `  full apply in ${COLD_RUNS} fresh processes: median ${coldMedian} ms (${coldFull.join(', ')}) (target < ${FULL_TARGET}): render ${coldPhase('renderMs')}, validate ${coldPhase('validateMs')}, write ${coldPhase('writeMs')}`,
  );
  console.log(
    `  full apply again in the same process (warm): ${warmFull} ms: render ${Math.round(w.renderMs)}, validate ${Math.round(w.validateMs)}, write ${Math.round(w.writeMs)}`,
  );
  const met = (v: number, target: number) => (v < target ? 'met' : 'MISSED');
  const verdicts = [`full ${met(coldMedian, FULL_TARGET)}`];
  for (const [what, times] of Object.entries(changes)) {
    const phase = (key: 'renderMs' | 'validateMs' | 'writeMs') =>
      Math.round(median((phases[what] ?? []).map((p) => p[key])));
    console.log(
      `  apply after one ${what} changed: median ${median(times)} ms, max ${Math.max(...times)} ms (target < ${CHANGE_TARGET}): render ${phase('renderMs')}, validate ${phase('validateMs')}, write ${phase('writeMs')}; files written: ${(written[what] ?? []).join(', ')}`,
    );
    verdicts.push(`${what} change ${met(median(times), CHANGE_TARGET)}`);
  }
  console.log(`  targets: ${verdicts.join(', ')}`);
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
