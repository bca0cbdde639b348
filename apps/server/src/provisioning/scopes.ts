import {
  buildShippedModels,
  ENGINE_MAC_VENDORS,
  hasControlCharacters,
  INDEXED_VARIABLES,
  indexLimit,
  isValidUploadName,
  MAX_VARIABLE_LENGTH,
  networkListSchema,
  PHONE_READ_ONLY_ATTRIBUTES,
  PROVISIONING_API_BASE,
  PROVISIONING_URL_PATH,
  RESERVED_VARIABLES,
  type ShippedModel,
  splitIndexed,
  TOKENLESS_NETWORKS_VARIABLE,
  VARIABLES,
  type VariableRule,
} from '@centralino/contract';
import { TEMPLATE_NAMES } from './templates.ts';

export type Variables = Record<string, string>;
export type VariablesPatch = Record<string, string | null>;

/** Shipped ("original") models by name; built once, never mutated. */
export const SHIPPED_MODELS: ReadonlyMap<string, ShippedModel> = new Map(
  buildShippedModels().map((model) => [model.name, model]),
);

/** Vendors whose models the engine lists (contract §2.4: the [macvendors] values). */
const LISTED_VENDORS = new Set(Object.values(ENGINE_MAC_VENDORS));

export function isListedModelName(name: string): boolean {
  return LISTED_VENDORS.has(name.split('-')[0] ?? '');
}

/** defaults < model < phone: the most specific scope that defines a key wins, even with '' (contract §3.2). */
export function mergeScopes(...scopes: (Variables | undefined)[]): Variables {
  return Object.assign({}, ...scopes.filter(Boolean));
}

/** Applies a PATCH: null deletes, other values set (contract §2.9.2). */
export function applyPatch(current: Variables, patch: VariablesPatch): Variables {
  const next = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete next[key];
    else next[key] = value;
  }
  return next;
}

export const modelUrl = (name: string) => `${PROVISIONING_API_BASE}/models/${name}`;
export const phoneUrl = (mac: string) => `${PROVISIONING_API_BASE}/phones/${mac}`;

/** `<scheme>://<host>/provisioning/<token>/<filename>` without a trailing slash (contract §4.2). */
export function provisioningUrl(origin: string, effective: Variables, token: string, shortMac: string): string {
  const filename = (effective.provisioning_url_filename ?? '').replace(/\$mac|%25MACD|%MACD|\{mac\}/g, shortMac);
  return `${origin}/${PROVISIONING_URL_PATH}${token}/${filename}`.replace(/\/+$/, '');
}

/** 'model-create' is a copy of another model: its capabilities and presets come along as they are. */
export type Scope = 'defaults' | 'model-create' | 'model' | 'phone';

export interface VariableProblems {
  /** Names inside `variables` that are computed fields or capabilities the scope may not change. */
  readOnly: Record<string, string>;
  /** Names the engine does not know, or key indexes beyond the model's keys. */
  unknown: Record<string, string>;
  invalid: Record<string, string>;
}

function timezoneExists(name: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

function checkValue(rule: VariableRule, value: string): string | undefined {
  if (value === '') return undefined;
  switch (rule.kind) {
    case 'enum':
      return rule.values.includes(value) ? undefined : `must be one of: ${rule.values.join(', ')}`;
    case 'int': {
      if (!/^-?\d{1,6}$/.test(value)) return 'must be a whole number';
      const n = Number(value);
      return n < rule.min || n > rule.max ? `must be between ${rule.min} and ${rule.max}` : undefined;
    }
    case 'bool':
      return value === '1' || value === '0' ? undefined : 'must be "1" or ""';
    case 'file':
      return isValidUploadName(value) ? undefined : 'must be a file name of the collection';
    case 'template':
      return TEMPLATE_NAMES.has(value) ? undefined : `unknown template; known: ${[...TEMPLATE_NAMES].join(', ')}`;
    case 'timezone':
      return timezoneExists(value) ? undefined : 'must be an IANA time zone name such as Europe/Rome';
    case 'list':
      return /^[A-Za-z0-9_ ,.-]*$/.test(value) ? undefined : 'must be a comma-separated list';
    case 'networks': {
      const result = networkListSchema.safeParse(value);
      return result.success ? undefined : (result.error.issues[0]?.message ?? 'invalid network list');
    }
    case 'text':
      return undefined;
  }
}

/**
 * Checks variables written to a scope. `effective` is what the scope sees today (its parents plus its own
 * values): keys already present there stay writable even beyond the capability counts, because shipped
 * models preset some (e.g. Fanvil H2 has two line-key presets and no line keys).
 */
export function checkVariables(
  patch: VariablesPatch,
  scope: Scope,
  effective: Variables,
  caps: Variables,
): VariableProblems {
  const problems: VariableProblems = { readOnly: {}, unknown: {}, invalid: {} };
  for (const [name, value] of Object.entries(patch)) {
    if ((RESERVED_VARIABLES as readonly string[]).includes(name)) {
      problems.readOnly[name] = 'computed by the server';
      continue;
    }
    // Decided before any phone is known (the token-less route): one value for the whole system.
    if (name === TOKENLESS_NETWORKS_VARIABLE && scope !== 'defaults') {
      problems.readOnly[name] = 'set in the default settings only';
      continue;
    }
    let rule = VARIABLES[name];
    if (!rule) {
      const indexed = splitIndexed(name);
      const spec = indexed && INDEXED_VARIABLES[indexed.prefix];
      if (!indexed || !spec) {
        problems.unknown[name] = 'unknown variable';
        continue;
      }
      const max = indexLimit(spec.limit, caps);
      if ((scope === 'model' || scope === 'phone') && indexed.index > max && !(name in effective)) {
        problems.unknown[name] = max === 0 ? 'this model has no such keys' : `this model has ${max} of these`;
        continue;
      }
      rule = spec.rule;
    }
    // Capabilities describe the hardware: they come with the model and are not edited afterwards.
    if (name.startsWith('cap_') && (scope === 'model' || scope === 'phone') && effective[name] !== value) {
      problems.readOnly[name] = 'capabilities come with the model';
      continue;
    }
    // Sending back what is already there is no change (the console saves whole forms).
    if (value === null || effective[name] === value) continue;
    if (value.length > MAX_VARIABLE_LENGTH) problems.invalid[name] = `at most ${MAX_VARIABLE_LENGTH} characters`;
    // A line break would let a value add settings of its own to the rendered file.
    else if (hasControlCharacters(value)) problems.invalid[name] = 'must not contain control characters';
    else {
      const problem = checkValue(rule, value);
      if (problem) problems.invalid[name] = problem;
    }
  }
  return problems;
}

export { PHONE_READ_ONLY_ATTRIBUTES };
