import { MAX_MODEL_NAME_LENGTH, MODEL_CAPABILITIES } from '@centralino/contract';

export interface ModelSummary {
  name: string;
  display_name: string;
}

/** Shipped with a model name of two parts but three: listed only while some phone uses it (contract §6.12). */
const HIDDEN_SHIPPED = 'fanvil-X3SG-PRO';

const SHIPPED_NAMES: ReadonlySet<string> = new Set(MODEL_CAPABILITIES.map((row) => row[0]));

/**
 * A shipped model has an original to go back to; a model created here has none and can be deleted.
 * Decided from the catalogue rather than by counting hyphens, so fanvil-X3SG-PRO is not taken for a copy.
 */
export function hasOriginals(name: string): boolean {
  return SHIPPED_NAMES.has(name);
}

/** Models created as copies are named `<vendor>-<model>-<custom part>`: three or more parts. */
export function isCustomName(name: string): boolean {
  return name.split('-').length > 2 && name !== HIDDEN_SHIPPED;
}

/**
 * The models the Models page lists, which are also the sources offered for a new model: those some phone
 * uses, plus every copy. Unused shipped models stay out of the way (there are over a hundred of them).
 */
export function listedModels(used: readonly ModelSummary[], all: readonly ModelSummary[]): ModelSummary[] {
  const byName = new Map<string, ModelSummary>();
  for (const model of used) byName.set(model.name, model);
  for (const model of all) if (isCustomName(model.name) && !byName.has(model.name)) byName.set(model.name, model);
  return [...byName.values()].sort(
    (a, b) => displayName(a).localeCompare(displayName(b)) || a.name.localeCompare(b.name),
  );
}

/** What 'Create new model' offers to copy, in two groups. */
export interface ModelSources {
  /** The listed models: those phones use and the copies made before. */
  onSystem: ModelSummary[];
  /** Every other model of the catalogue, so a fresh system (no copy yet) can still start from a shipped model. */
  catalogue: ModelSummary[];
}

/**
 * The spec offered only copies (names of more than two parts), which left a fresh system with nothing to
 * copy from; the original console offered every listed model. Both the listed models and the rest of the
 * catalogue are offered here (docs/differences.md); fanvil-X3SG-PRO stays out unless a phone uses it, as in
 * the list.
 */
export function modelSources(listed: readonly ModelSummary[], all: readonly ModelSummary[]): ModelSources {
  const onSystem = new Set(listed.map((model) => model.name));
  const catalogue = all
    .filter((model) => !onSystem.has(model.name) && !isCustomName(model.name) && model.name !== HIDDEN_SHIPPED)
    .sort((a, b) => displayName(a).localeCompare(displayName(b)) || a.name.localeCompare(b.name));
  return { onSystem: [...listed], catalogue };
}

export function displayName(model: ModelSummary): string {
  return model.display_name || model.name;
}

/** Characters a model name may not hold become '_' (the engine accepts letters, digits, '-', '.', '_'). */
export function sanitizeModelName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]/g, '_');
}

export function composeModelName(source: string, customPart: string): string {
  return sanitizeModelName(`${source}-${customPart.trim()}`);
}

export function composeDisplayName(source: ModelSummary, customPart: string): string {
  return `${displayName(source)} - ${customPart.trim()}`;
}

export type NewModelError = 'sourceRequired' | 'customRequired' | 'tooLong' | 'exists';

/** Checks the 'Create new model' form; answers the errors by field. */
export function validateNewModel(
  source: string | null,
  customPart: string,
  existing: readonly ModelSummary[],
): { source?: NewModelError; custom?: NewModelError } {
  const errors: { source?: NewModelError; custom?: NewModelError } = {};
  if (!source) errors.source = 'sourceRequired';
  if (customPart.trim() === '') errors.custom = 'customRequired';
  else if (source) {
    const name = composeModelName(source, customPart);
    if (name.length > MAX_MODEL_NAME_LENGTH) errors.custom = 'tooLong';
    else if (existing.some((m) => m.name === name) || SHIPPED_NAMES.has(name)) errors.custom = 'exists';
  }
  return errors;
}
