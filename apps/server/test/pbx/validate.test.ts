import { describe, expect, it } from 'vitest';
import type { PbxDevice, PbxModel } from '../../src/pbx/model.ts';
import { renderConfiguration } from '../../src/pbx/render/index.ts';
import {
  extensionNameProblem,
  formatIssue,
  type ValidationIssue,
  validateConfiguration,
} from '../../src/pbx/validate.ts';
import { IncrementalValidator } from '../../src/pbx/validate-incremental.ts';
import { ValidatorThread } from '../../src/pbx/validate-thread.ts';
import { referenceModel, user, voipTrunk } from './fixtures.ts';

const messages = (files: Map<string, string>) => validateConfiguration(files).map(formatIssue);

/** The reference configuration with one file edited. */
function edited(file: string, edit: (text: string) => string): Map<string, string> {
  const files = renderConfiguration(referenceModel());
  files.set(file, edit(files.get(file) ?? ''));
  return files;
}

describe('configuration validator', () => {
  it('reports an endpoint whose aor or auth is missing', () => {
    const files = edited('pjsip.users.10xx.conf', (t) => t.replace(/\[1001-auth\]\(device-auth\)\n[^[]*/, ''));
    expect(messages(files)).toEqual([
      'pjsip.users.10xx.conf:2: endpoint [1001] auth = 1001-auth: no auth named "1001-auth"',
    ]);
    const noAor = edited('pjsip.users.10xx.conf', (t) => t.replace('[1001](device-aor)', '[1001x](device-aor)'));
    expect(messages(noAor)).toEqual(['pjsip.users.10xx.conf:2: endpoint [1001] aors = 1001: no aor named "1001"']);
  });

  it('reports duplicate sections of the same type, but not an endpoint and aor sharing a name', () => {
    const files = edited('pjsip.users.10xx.conf', (t) => `${t}[1001-auth](device-auth)\nusername = x\npassword = y\n`);
    expect(messages(files)).toEqual([
      expect.stringMatching(
        /^pjsip\.users\.10xx\.conf:\d+: duplicate auth \[1001-auth\] \(first at pjsip\.users\.10xx\.conf:\d+\)$/,
      ),
    ]);
  });

  it('reports a Goto or Gosub to a missing context, extension or label', () => {
    const model = referenceModel();
    const u = model.users[1];
    if (u) u.destinations.busy = 'ivr-9,s,1';
    expect(messages(renderConfiguration(model))).toEqual([
      'extensions.users.2xx.conf:34: [ext-local] Goto: context "ivr-9" does not exist',
    ]);
    const files = edited('extensions.users.2xx.conf', (t) =>
      t.replace('Goto(ext-local,201,result)', 'Goto(ext-local,201,nowhere)'),
    );
    expect(messages(files)[0]).toBe(
      'extensions.users.2xx.conf:15: [ext-local] Goto: label "nowhere" does not exist in ext-local,201',
    );
    const ext = edited('extensions.users.2xx.conf', (t) =>
      t.replace('Goto(ext-local,vmb201,1)', 'Goto(ext-local,vmb999,1)'),
    );
    expect(messages(ext)).toEqual([
      'extensions.users.2xx.conf:10: [ext-local] Goto: extension "vmb999" does not exist in context "ext-local"',
    ]);
  });

  it('reports a route that names a deleted trunk, and an endpoint in a missing context', () => {
    const model: PbxModel = referenceModel();
    model.trunks = model.trunks.filter((t) => t.id !== 2);
    expect(messages(renderConfiguration(model))).toEqual([
      expect.stringMatching(/^extensions\.conf:\d+: \[outrt-2\] dials trunk 2, which does not exist$/),
    ]);
    const gone = edited('pjsip.trunks.conf', (t) =>
      t.replace('[Provider1]\ntype = endpoint', '[Provider1x]\ntype = endpoint'),
    );
    expect(messages(gone)).toEqual(
      expect.arrayContaining([expect.stringContaining('trunk 1 dials endpoint "Provider1"')]),
    );
    const noProfile = referenceModel();
    noProfile.users[0] = { ...(noProfile.users[0] as PbxModel['users'][number]), profileId: 42 };
    expect(messages(renderConfiguration(noProfile))).toEqual(
      expect.arrayContaining([
        expect.stringContaining('endpoint [201] context = cti-profile-42: no such dialplan context'),
      ]),
    );
  });

  it('reports registrations and identifies that point at a missing endpoint', () => {
    const files = edited('pjsip.trunks.conf', (t) => t.replace('endpoint = Provider1\n', 'endpoint = Nobody\n'));
    expect(messages(files)).toEqual(
      expect.arrayContaining([
        expect.stringContaining('registration [Provider1] endpoint = Nobody: no endpoint named "Nobody"'),
      ]),
    );
  });

  it('reports invalid dial patterns with the reason', () => {
    expect(extensionNameProblem('_0ZXXX.')).toBeNull();
    expect(extensionNameProblem('_[2-9]XX')).toBeNull();
    expect(extensionNameProblem('_0.X')).toBe('"." must end the dial pattern "_0.X"');
    expect(extensionNameProblem('_0[1-')).toBe('unclosed [ in dial pattern "_0[1-"');
    expect(extensionNameProblem('_0A')).toBe('invalid character "A" in dial pattern "_0A"');
    expect(extensionNameProblem('_')).toBe('empty dial pattern "_"');
    const model = referenceModel();
    model.outboundRoutes[0]?.patterns.push({ prefix: '', pass: '9.X', cid: '', prepend: '' });
    expect(messages(renderConfiguration(model))).toEqual([
      expect.stringMatching(/^extensions\.conf:\d+: \[outrt-1\] "\." must end the dial pattern "_9\.X"$/),
    ]);
  });

  it('reports missing includes, includes of missing contexts, and syntax errors', () => {
    const files = edited('extensions.conf', (t) => t.replace('include => bad-number\n', 'include => bad-numbr\n'));
    expect(messages(files)[0]).toMatch(/\[from-internal\] includes context "bad-numbr", which does not exist/);
    const missing = renderConfiguration(referenceModel());
    missing.delete('pjsip.trunks.conf');
    expect(messages(missing)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^pjsip\.conf:\d+: #include of "pjsip\.trunks\.conf", which is not part/),
      ]),
    );
    const broken = edited('rtp.conf', (t) => `${t}this is not a setting\n`);
    expect(messages(broken)).toEqual([
      expect.stringMatching(/^rtp\.conf:\d+: expected "key = value", got "this is not a setting"$/),
    ]);
  });

  it('reports a mailbox that does not exist', () => {
    const files = edited('voicemail.conf', (t) => t.replace(/^201 => .*\n/m, ''));
    expect(messages(files)).toEqual(
      expect.arrayContaining([expect.stringContaining('endpoint [201] mailboxes = 201@default: no such mailbox')]),
    );
  });
});

/** Deterministic pseudo-random numbers (mulberry32), so a failing seed can be replayed. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A random valid system: unique numbers, devices 9xN, routes over existing trunks, destinations that exist. */
function randomModel(seed: number): PbxModel {
  const r = random(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(r() * list.length)] as T;
  const model = referenceModel();
  const count = 1 + Math.floor(r() * 40);
  const used = new Set<string>();
  model.users = [];
  for (let i = 0; i < count; i++) {
    let ext: string;
    do ext = String(Math.floor(10 + r() * 9000));
    while (used.has(ext));
    used.add(ext);
    const devices: PbxDevice[] = [];
    for (let d = 1; d <= Math.floor(r() * 4); d++) {
      const number = `9${d}${ext}`;
      if (used.has(number)) continue;
      used.add(number);
      devices.push({
        number,
        type: pick(['physical', 'webrtc', 'mobile', 'custom'] as const),
        secret: `s${number}`,
        encrypted: r() < 0.3,
      });
    }
    if (r() < 0.3) devices.unshift({ number: ext, type: 'physical', secret: 'x', encrypted: r() < 0.5 });
    model.users.push(
      user(ext, {
        username: `u${i}-${ext}`,
        name: `Name ${pick(['A', 'B;C', 'D"E', 'F, G', 'Ü'])} ${i}`,
        devices,
        voicemail: r() < 0.5 ? { pin: String(1000 + i) } : null,
        profileId: pick([null, 1, 3]),
        ringTime: pick([0, 10, 30]),
        outboundcid: r() < 0.3 ? '0612345678' : null,
        groups: r() < 0.3 ? ['sales'] : [],
      }),
    );
  }
  const users = model.users;
  const destination = () => {
    const u = pick(users);
    return pick([
      `from-did-direct,${u.extension},1`,
      'app-blackhole,hangup,1',
      ...(u.voicemail ? [`ext-local,vmu${u.extension},1`] : []),
    ]);
  };
  for (const u of users) {
    u.destinations = {
      busy: r() < 0.3 ? destination() : null,
      noAnswer: r() < 0.3 ? destination() : null,
      unavailable: null,
    };
  }
  model.trunks = Array.from({ length: 1 + Math.floor(r() * 5) }, (_, i) =>
    voipTrunk(i + 1, `T${i + 1}`, {
      registration: pick(['send', 'none'] as const),
      transport: pick(['udp', 'tcp', 'tls'] as const),
    }),
  );
  const trunkIds = [...model.trunks.map((t) => t.id), ...model.gateways.flatMap((g) => g.ports.map((p) => p.trunkId))];
  const passes = ['0ZXXX.', '3XXXXXX.', '00XXX.', '1XX', '[2-9]XXXXXX', '112', '8ZXXXX.'];
  model.outboundRoutes = Array.from({ length: Math.floor(r() * 6) }, (_, i) => ({
    id: i + 1,
    name: `route ${i}`,
    patterns: Array.from({ length: 1 + Math.floor(r() * 3) }, () => ({
      prefix: pick(['', '0', '0039']),
      pass: pick(passes),
      cid: pick(['', '', '2XX']),
      prepend: pick(['', '0']),
    })),
    trunkIds: trunkIds.filter(() => r() < 0.6),
    outcid: '',
    outcidOverride: r() < 0.5,
    emergency: false,
    failover: r() < 0.3 ? destination() : null,
  }));
  model.inboundRoutes = Array.from({ length: Math.floor(r() * 5) }, (_, i) => ({
    did: r() < 0.8 ? `06123450${i}` : '',
    cid: r() < 0.3 ? `33312345${i}` : '',
    description: `in ${i}`,
    destination: destination(),
    cidNamePrefix: '',
  }));
  model.ringGroups = [
    { key: 'cti-group-1', name: 'sales', members: users.filter(() => r() < 0.5).map((u) => u.extension), ringTime: 20 },
  ];
  model.inboundRoutes.push({
    did: '0600',
    cid: '',
    description: 'group',
    destination: 'ext-group,cti-group-1,1',
    cidNamePrefix: '',
  });
  // Call flows (issue 26): announcements and IVRs leading to users, to each other and to themselves.
  const announcementCount = Math.floor(r() * 3);
  const ivrCount = Math.floor(r() * 3);
  const queueCount = Math.floor(r() * 3);
  const flowDestination = () =>
    pick([
      destination(),
      ...(queueCount ? [`ext-queues,${7001 + Math.floor(r() * queueCount)},1`] : []),
      ...(announcementCount ? [`app-announcement-${1 + Math.floor(r() * announcementCount)},s,1`] : []),
      ...(ivrCount ? [`ivr-${1 + Math.floor(r() * ivrCount)},s,1`] : []),
    ]);
  model.announcements = Array.from({ length: announcementCount }, (_, i) => ({
    id: i + 1,
    description: `announcement ${pick(['A', 'B;C', '(x)'])} ${i}`,
    recording: r() < 0.7 ? `/sounds/recording-${i + 1}` : null,
    allowSkip: r() < 0.5,
    destination: flowDestination(),
    returnIvr: r() < 0.3,
    noAnswer: r() < 0.3,
    repeatKey: pick(['', '*', '#', '5']),
  }));
  model.ivrs = Array.from({ length: ivrCount }, (_, i) => ({
    id: i + 1,
    name: `menu ${i}`,
    announcement: r() < 0.7 ? `/sounds/recording-${i + 1}` : null,
    directDial: r() < 0.5,
    timeout: pick([3, 10]),
    invalidLoops: pick([0, 3]),
    invalidDestination: flowDestination(),
    timeoutLoops: pick([0, 2]),
    timeoutDestination: flowDestination(),
    entries: ['1', '2', '*', '#']
      .filter(() => r() < 0.5)
      .map((selection) => ({ selection, destination: flowDestination() })),
  }));
  model.dayNight =
    r() < 0.5
      ? [
          {
            index: pick([0, 3, 9]),
            name: 'office',
            dayDestination: flowDestination(),
            nightDestination: flowDestination(),
          },
        ]
      : [];
  // Queues (issue 26): members and agents among the users, a failover anywhere (itself included).
  model.queues = Array.from({ length: queueCount }, (_, i) => ({
    number: String(7001 + i),
    name: `queue ${pick(['A', 'B;C', '(x), y'])} ${i}`,
    strategy: pick(['ringall', 'rrmemory', 'random']),
    ringTime: 15,
    maxWait: pick([0, 60]),
    failover: flowDestination(),
    music: pick(['default', 'ringing']),
    announcePosition: r() < 0.5,
    members: users.filter(() => r() < 0.3).map((u) => ({ extension: u.extension, name: u.name })),
    agents: users.filter(() => r() < 0.3).map((u) => u.extension),
  }));
  // Time conditions: a range or two, each way to any flow.
  model.timeConditions = Array.from({ length: Math.floor(r() * 3) }, (_, i) => ({
    id: i + 1,
    name: `hours ${pick(['A', 'B;C', '(x), y'])} ${i}`,
    ranges: [
      { hours: pick(['*', '08:00-12:30']), weekdays: pick(['*', 'mon-fri']), mdays: '*', months: '*' },
      ...(r() < 0.5 ? [{ hours: '*', weekdays: '*', mdays: '25', months: 'dec' }] : []),
    ],
    trueDestination: flowDestination(),
    falseDestination: flowDestination(),
  }));
  // Caller query routings: the default to any flow (the rest is decided by the console at call time).
  model.cqrs = Array.from({ length: Math.floor(r() * 3) }, (_, i) => ({
    id: i + 1,
    name: `lookup ${pick(['A', 'B;C', '(x), y'])} ${i}`,
    timeout: pick([1, 5]),
    defaultDestination: flowDestination(),
  }));
  // Ring groups (issue 42): users and outside numbers in any strategy, unanswered calls to any flow; a route to one.
  model.numberedRingGroups = Array.from({ length: Math.floor(r() * 3) }, (_, i) => ({
    number: String(7101 + i),
    name: `ring group ${pick(['A', 'B;C', '(x), y'])} ${i}`,
    strategy: pick(['ringall', 'hunt', 'memoryhunt', 'random'] as const),
    ringTime: pick([5, 20]),
    confirmExternal: r() < 0.5,
    failover: flowDestination(),
    members: [
      ...users.filter(() => r() < 0.3).map((u) => ({ kind: 'user' as const, number: u.extension })),
      ...(r() < 0.5 ? [{ kind: 'external' as const, number: pick(['0612345678', '+393331234567']) }] : []),
    ],
  }));
  for (const g of model.numberedRingGroups) {
    model.inboundRoutes.push({
      did: `07${g.number}`,
      cid: '',
      description: g.name,
      destination: `ext-group,${g.number},1`,
      cidNamePrefix: '',
    });
  }
  // Parking lots (issue 42): back to the parker or to any flow; a route to one.
  model.parkingLots = Array.from({ length: Math.floor(r() * 3) }, (_, i) => ({
    id: i + 1,
    number: String(7201 + i * 10),
    name: `lot ${pick(['A', 'B;C', '(x), y'])} ${i}`,
    slots: Array.from({ length: 1 + Math.floor(r() * 8) }, (_, s) => String(7202 + i * 10 + s)),
    timeout: pick([10, 45]),
    timeoutDestination: r() < 0.5 ? null : flowDestination(),
    musicClass: 'default',
  }));
  for (const l of model.parkingLots) {
    model.inboundRoutes.push({
      did: `08${l.number}`,
      cid: '',
      description: l.name,
      destination: `app-parking,${l.number},1`,
      cidNamePrefix: '',
    });
  }
  return model;
}

describe('property: random valid systems render to configurations the validator accepts', () => {
  it('holds for 200 seeded systems', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const issues = messages(renderConfiguration(randomModel(seed)));
      expect(issues, `seed ${seed}`).toEqual([]);
    }
  });
});

describe('incremental validation', () => {
  const sorted = (issues: ValidationIssue[]) => issues.map(formatIssue).sort();

  /** Random damage to a rendered configuration: lines dropped, names changed, files removed. */
  function damage(files: Map<string, string>, r: () => number): Map<string, string> {
    const out = new Map(files);
    const names = [...out.keys()];
    const edits = 1 + Math.floor(r() * 3);
    for (let i = 0; i < edits; i++) {
      const name = names[Math.floor(r() * names.length)] as string;
      const text = out.get(name);
      if (text === undefined) continue;
      const kind = r();
      if (kind < 0.05 && name !== 'pjsip.conf' && name !== 'extensions.conf') {
        out.delete(name);
        continue;
      }
      const lines = text.split('\n');
      const at = Math.floor(r() * lines.length);
      if (kind < 0.5) lines.splice(at, 1);
      else if (kind < 0.8) lines[at] = (lines[at] ?? '').replace(/\d/, 'x');
      else lines.splice(at, 0, lines[Math.floor(r() * lines.length)] ?? '');
      out.set(name, lines.join('\n'));
    }
    return out;
  }

  it('finds the same problems as a full validation after every change (100 seeded sequences)', () => {
    for (let seed = 1; seed <= 100; seed++) {
      const r = random(seed * 7919);
      const validator = new IncrementalValidator();
      let files = renderConfiguration(randomModel(seed));
      expect(sorted(validator.validate(files)), `seed ${seed} start`).toEqual(sorted(validateConfiguration(files)));
      for (let step = 0; step < 6; step++) {
        // Either a new valid system (as after a change of data) or a damaged copy of the current one.
        files = r() < 0.3 ? renderConfiguration(randomModel(seed * 1000 + step)) : damage(files, r);
        const expected = sorted(validateConfiguration(files));
        expect(sorted(validator.validate(files)), `seed ${seed} step ${step}`).toEqual(expected);
      }
    }
  });

  it('on its own thread, finds the same problems, checks again only what changed, and recovers when stopped', async () => {
    const thread = new ValidatorThread();
    try {
      for (let seed = 1; seed <= 8; seed++) {
        const r = random(seed * 104_729);
        let files = renderConfiguration(randomModel(seed));
        expect(sorted(await thread.check(files)), `seed ${seed} start`).toEqual(sorted(validateConfiguration(files)));
        for (let step = 0; step < 4; step++) {
          files = r() < 0.3 ? renderConfiguration(randomModel(seed * 1000 + step)) : damage(files, r);
          const expected = sorted(validateConfiguration(files));
          expect(sorted(await thread.check(files)), `seed ${seed} step ${step}`).toEqual(expected);
        }
      }
      const model = referenceModel();
      const files = renderConfiguration(model);
      await thread.check(files);
      // The same files again: nothing crosses over and nothing is checked again.
      expect(await thread.check(files)).toEqual([]);
      expect(thread.lastChecked).toBe(0);
      const renamed = renderConfiguration({
        ...model,
        users: model.users.map((u) => (u.extension === '202' ? { ...u, name: 'Robert' } : u)),
      });
      expect(await thread.check(renamed)).toEqual([]);
      expect(thread.lastChecked).toBe(1);
      // A stopped thread is started afresh at the next check and given every file again.
      await thread.close();
      const broken = new Map(renamed);
      broken.set(
        'pjsip.users.2xx.conf',
        (broken.get('pjsip.users.2xx.conf') ?? '').replace('aors = 202', 'aors = 299'),
      );
      expect((await thread.check(broken)).map(formatIssue)).toEqual([
        'pjsip.users.2xx.conf:73: endpoint [202] aors = 299: no aor named "299"',
      ]);
      expect(thread.lastChecked).toBe(broken.size);
    } finally {
      await thread.close();
    }
  });

  it('checks again only the files a change can affect', () => {
    const validator = new IncrementalValidator();
    const model = referenceModel();
    validator.validate(renderConfiguration(model));
    const changed: PbxModel = {
      ...model,
      users: model.users.map((u) => (u.extension === '202' ? { ...u, name: 'Robert' } : u)),
    };
    expect(validator.validate(renderConfiguration(changed))).toEqual([]);
    expect(validator.lastChecked).toBe(1);
    // A user removed: the jumps of the other files to it are found at once.
    const gone: PbxModel = { ...model, users: model.users.filter((u) => u.extension !== '1001') };
    const issues = validator.validate(renderConfiguration(gone)).map(formatIssue);
    expect(issues.sort()).toEqual(validateConfiguration(renderConfiguration(gone)).map(formatIssue).sort());
  });
});
