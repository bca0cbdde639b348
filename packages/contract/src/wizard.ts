import { z } from 'zod';

export const provisioningEngines = ['tancredi', 'freepbx'] as const;
export type ProvisioningEngine = (typeof provisioningEngines)[number];
export const provisioningEngineSchema = z.enum(provisioningEngines).meta({ id: 'ProvisioningEngine' });

/** Wizard status travels as the strings 'true' (running) and 'false' (finished), as in the original API. */
export const wizardStatusSchema = z.enum(['true', 'false']);

export const wizardStateSchema = z
  .object({ step: z.number().int().min(0), status: wizardStatusSchema })
  .meta({ id: 'WizardState' });
export type WizardState = z.infer<typeof wizardStateSchema>;

/** GET answers an array of 0 or 1 rows: no row means the wizard never started. */
export const wizardStateListSchema = z.array(wizardStateSchema).meta({ id: 'WizardStateList' });

export const MAX_WIZARD_STEP = 13;

export const wizardUpdateSchema = z
  .object({
    status: wizardStatusSchema,
    // Existing clients send the step as a number or as a numeric string ("1").
    step: z.union(
      [
        z.number().int().min(0).max(MAX_WIZARD_STEP),
        z
          .string()
          .regex(/^\d{1,2}$/)
          .transform(Number)
          .pipe(z.number().int().min(0).max(MAX_WIZARD_STEP)),
      ],
      { error: `step must be a whole number from 0 to ${MAX_WIZARD_STEP}` },
    ),
  })
  .meta({ id: 'WizardUpdate' });
export type WizardUpdate = z.input<typeof wizardUpdateSchema>;

/** Route of each step, indexed by step number (0 is the users screen). */
export const stepMaps: Record<ProvisioningEngine, readonly string[]> = {
  tancredi: [
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
  ],
  freepbx: [
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
  ],
};

/** 13 steps in the new mode, 11 in the old one (step 0 is not counted). */
export function totalSteps(engine: ProvisioningEngine): number {
  return stepMaps[engine].length - 1;
}

export function stepPath(engine: ProvisioningEngine, step: number): string {
  const map = stepMaps[engine];
  const clamped = Math.min(Math.max(0, Math.trunc(step)), map.length - 1);
  return map[clamped] as string;
}

/** Step of a path in the given mode, or undefined when the path is not a wizard step. */
export function stepOfPath(engine: ProvisioningEngine, path: string): number | undefined {
  const index = stepMaps[engine].indexOf(path);
  return index < 0 ? undefined : index;
}

export function progressPercent(engine: ProvisioningEngine, step: number): number {
  return Math.round((step * 100) / totalSteps(engine));
}

/** Screens that exist in one provisioning mode only; in the other they redirect to /. */
export const modeOnlyPaths: Record<ProvisioningEngine, readonly string[]> = {
  tancredi: [
    '/devices/inventory',
    '/devices/models',
    '/configurations/preferences',
    '/apps/bulkdevices',
    '/bulkdevices',
  ],
  freepbx: ['/users/devices', '/configurations/preferencesFreepbx'],
};

export function isPathAllowedInMode(engine: ProvisioningEngine, path: string): boolean {
  const other: ProvisioningEngine = engine === 'tancredi' ? 'freepbx' : 'tancredi';
  return !modeOnlyPaths[other].includes(path);
}

/** Interpretation of GET /configuration/wizard: no row = running at step 0. */
export function currentWizard(rows: readonly WizardState[]): { active: boolean; step: number } {
  const row = rows[0];
  if (!row) return { active: true, step: 0 };
  return { active: row.status === 'true', step: row.step };
}
