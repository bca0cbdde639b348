import { describe, expect, it } from 'vitest';
import {
  currentWizard,
  isPathAllowedInMode,
  MAX_WIZARD_STEP,
  modeOnlyPaths,
  type ProvisioningEngine,
  progressPercent,
  stepMaps,
  stepOfPath,
  stepPath,
  totalSteps,
  wizardUpdateSchema,
} from '../src/index.ts';

// Written out from the contract (api-core §3.1) rather than derived from the code under test.
const NEW_MODE = [
  '/users',
  '/extensions',
  '/trunks/physical',
  '/trunks/voip',
  '/routes/inbound',
  '/routes/outbound',
  '/devices',
  '/devices/inventory',
  '/devices/models',
  '/configurations/groups',
  '/configurations/profiles',
  '/configurations/preferences',
  '/admin/languages',
  '/admin/settings',
];
const OLD_MODE = [
  '/users',
  '/extensions',
  '/trunks/physical',
  '/trunks/voip',
  '/routes/inbound',
  '/routes/outbound',
  '/configurations/groups',
  '/configurations/profiles',
  '/configurations/devices',
  '/configurations/preferencesFreepbx',
  '/admin/languages',
  '/admin/settings',
];

describe('step maps', () => {
  it('has 13 steps in the new mode (tancredi) and 11 in the old one (freepbx)', () => {
    expect(totalSteps('tancredi')).toBe(13);
    expect(totalSteps('freepbx')).toBe(11);
    expect(stepMaps.tancredi).toEqual(NEW_MODE);
    expect(stepMaps.freepbx).toEqual(OLD_MODE);
  });

  it('allows the largest step of the new mode and no more', () => {
    expect(MAX_WIZARD_STEP).toBe(13);
  });

  it.each([
    ['tancredi', NEW_MODE],
    ['freepbx', OLD_MODE],
  ] as const)('maps every step to its path and back in %s mode', (engine, paths) => {
    paths.forEach((path, step) => {
      expect(stepPath(engine, step)).toBe(path);
      expect(stepOfPath(engine, path)).toBe(step);
    });
  });

  it('clamps out-of-range and fractional steps to the map', () => {
    expect(stepPath('tancredi', -3)).toBe('/users');
    expect(stepPath('tancredi', 99)).toBe('/admin/settings');
    expect(stepPath('freepbx', 12)).toBe('/admin/settings');
    expect(stepPath('freepbx', 13)).toBe('/admin/settings');
    expect(stepPath('tancredi', 2.7)).toBe('/trunks/physical');
  });

  it('gives no step for paths outside the map of the mode', () => {
    expect(stepOfPath('tancredi', '/configurations/devices')).toBeUndefined();
    expect(stepOfPath('tancredi', '/configurations/preferencesFreepbx')).toBeUndefined();
    expect(stepOfPath('freepbx', '/devices/inventory')).toBeUndefined();
    expect(stepOfPath('freepbx', '/devices/models')).toBeUndefined();
    expect(stepOfPath('freepbx', '/configurations/preferences')).toBeUndefined();
    expect(stepOfPath('tancredi', '/')).toBeUndefined();
    expect(stepOfPath('tancredi', '/final')).toBeUndefined();
    expect(stepOfPath('tancredi', '/users/')).toBeUndefined();
  });
});

describe('progressPercent', () => {
  it.each(['tancredi', 'freepbx'] as const)('is step × 100 / total steps in %s mode', (engine) => {
    const total = engine === 'tancredi' ? 13 : 11;
    for (let step = 0; step <= total; step++) {
      const exact = (step * 100) / total;
      const shown = progressPercent(engine, step);
      expect(Math.abs(shown - exact)).toBeLessThanOrEqual(0.5);
      expect(Number.isInteger(shown)).toBe(true);
    }
  });

  it('starts at 0 and ends at 100', () => {
    expect(progressPercent('tancredi', 0)).toBe(0);
    expect(progressPercent('tancredi', 13)).toBe(100);
    expect(progressPercent('freepbx', 0)).toBe(0);
    expect(progressPercent('freepbx', 11)).toBe(100);
  });

  it('uses the total of the mode', () => {
    expect(progressPercent('tancredi', 1)).toBe(Math.round(100 / 13));
    expect(progressPercent('freepbx', 1)).toBe(Math.round(100 / 11));
    expect(progressPercent('tancredi', 6)).toBe(Math.round(600 / 13));
    expect(progressPercent('freepbx', 6)).toBe(Math.round(600 / 11));
  });
});

describe('isPathAllowedInMode', () => {
  const newOnly = [
    '/devices/inventory',
    '/devices/models',
    '/configurations/preferences',
    '/apps/bulkdevices',
    '/bulkdevices',
  ];
  const oldOnly = ['/users/devices', '/configurations/preferencesFreepbx'];

  it.each(newOnly)('old mode redirects %s', (path) => {
    expect(isPathAllowedInMode('freepbx', path)).toBe(false);
    expect(isPathAllowedInMode('tancredi', path)).toBe(true);
  });

  it.each(oldOnly)('new mode redirects %s', (path) => {
    expect(isPathAllowedInMode('tancredi', path)).toBe(false);
    expect(isPathAllowedInMode('freepbx', path)).toBe(true);
  });

  it('lists exactly these mode-only screens', () => {
    expect([...modeOnlyPaths.tancredi].sort()).toEqual([...newOnly].sort());
    expect([...modeOnlyPaths.freepbx].sort()).toEqual([...oldOnly].sort());
  });

  it.each([
    '/',
    '/users',
    '/extensions',
    '/devices',
    '/configurations/groups',
    '/configurations/devices',
    '/admin/settings',
    '/apps/phonebook',
    '/final',
  ])('keeps the shared screen %s in both modes', (path) => {
    for (const engine of ['tancredi', 'freepbx'] as ProvisioningEngine[]) {
      expect(isPathAllowedInMode(engine, path)).toBe(true);
    }
  });

  it('allows every step of a mode in that mode', () => {
    for (const engine of ['tancredi', 'freepbx'] as const) {
      for (const path of stepMaps[engine]) expect(isPathAllowedInMode(engine, path)).toBe(true);
    }
  });
});

describe('currentWizard', () => {
  it('treats no row as a running wizard at step 0', () => {
    expect(currentWizard([])).toEqual({ active: true, step: 0 });
  });

  it('reads status "true" as running and "false" as finished', () => {
    expect(currentWizard([{ step: 5, status: 'true' }])).toEqual({ active: true, step: 5 });
    expect(currentWizard([{ step: 13, status: 'false' }])).toEqual({ active: false, step: 13 });
  });

  it('reads the first row only', () => {
    expect(
      currentWizard([
        { step: 2, status: 'true' },
        { step: 9, status: 'false' },
      ]),
    ).toEqual({ active: true, step: 2 });
  });
});

describe('wizardUpdateSchema', () => {
  it('accepts the step as a number or a numeric string and gives a number', () => {
    expect(wizardUpdateSchema.parse({ status: 'true', step: 3 })).toEqual({ status: 'true', step: 3 });
    expect(wizardUpdateSchema.parse({ status: 'true', step: '3' })).toEqual({ status: 'true', step: 3 });
    expect(wizardUpdateSchema.parse({ status: 'false', step: '13' })).toEqual({ status: 'false', step: 13 });
    expect(wizardUpdateSchema.parse({ status: 'true', step: 0 })).toEqual({ status: 'true', step: 0 });
    expect(wizardUpdateSchema.parse({ status: 'true', step: '0' })).toEqual({ status: 'true', step: 0 });
  });

  it.each([['x'], [-1], ['-1'], [14], ['14'], [2.5], ['2.5'], [''], [' 3'], ['100'], [null], [true], [Number.NaN]])(
    'rejects step %j',
    (step) => {
      const result = wizardUpdateSchema.safeParse({ status: 'true', step });
      expect(result.success).toBe(false);
    },
  );

  it.each([['yes'], ['TRUE'], [true], [false], [1], [''], [null]])('rejects status %j', (status) => {
    expect(wizardUpdateSchema.safeParse({ status, step: 1 }).success).toBe(false);
  });

  it('rejects missing fields', () => {
    expect(wizardUpdateSchema.safeParse({ status: 'true' }).success).toBe(false);
    expect(wizardUpdateSchema.safeParse({ step: 1 }).success).toBe(false);
    expect(wizardUpdateSchema.safeParse({}).success).toBe(false);
    expect(wizardUpdateSchema.safeParse(undefined).success).toBe(false);
  });

  it('names the step field with a readable message', () => {
    const result = wizardUpdateSchema.safeParse({ status: 'true', step: 'x' });
    expect(result.success).toBe(false);
    const issue = result.error?.issues.find((i) => i.path[0] === 'step');
    expect(issue?.message).toMatch(/0 to 13/);
  });
});
