import type { Variables } from './capabilities.ts';

/**
 * The editor's view of a model (contract §3.6): what the model stores, the defaults ("globals") under it,
 * and, when a single phone is edited, the model between the two. Changes the administrator made and has
 * not saved are kept apart as edits, so resetting them is dropping them.
 */
export interface ModelLayers {
  stored: Variables;
  globals: Variables;
  parent?: { displayName: string; variables: Variables };
}

export type Edits = Readonly<Record<string, string>>;

/** Lists show what applies: the own value, else the inherited one (an own empty value counts as unset). */
export function listValue(key: string, layers: ModelLayers, edits: Edits = {}): string {
  if (key in edits) return edits[key] ?? '';
  return layers.stored[key] || layers.parent?.variables[key] || layers.globals[key] || '';
}

/** Text fields show only the own value; the inherited one is the placeholder. */
export function textValue(key: string, layers: ModelLayers, edits: Edits = {}): string {
  if (key in edits) return edits[key] ?? '';
  return layers.stored[key] ?? '';
}

/**
 * '(changed)' marks a value that differs both from what is saved and from the default: a value put back
 * to either is not news.
 */
export function isChanged(key: string, layers: ModelLayers, edits: Edits): boolean {
  if (!(key in edits)) return false;
  const value = listValue(key, layers, edits);
  return value !== (layers.stored[key] ?? '') && value !== (layers.globals[key] ?? '');
}

export type Inherited =
  | { source: 'model'; value: string; modelName: string }
  | { source: 'default'; value: string }
  | { source: 'hostname'; value: string }
  | { source: 'none' };

/** What an empty text field falls back to, shown as its placeholder. */
export function inheritedValue(key: string, layers: ModelLayers): Inherited {
  const parent = layers.parent?.variables[key];
  if (layers.parent && parent && !layers.stored[key]) {
    return { source: 'model', value: parent, modelName: layers.parent.displayName };
  }
  const global = layers.globals[key];
  if (global) return { source: 'default', value: global };
  // With no server of its own, the phone book is looked up on the PBX itself.
  if (key === 'ldap_server' && layers.globals.hostname) return { source: 'hostname', value: layers.globals.hostname };
  return { source: 'none' };
}

/** The option of a list that holds the inherited value (it gets '(default)' or the model's name). */
export function inheritedOption(key: string, layers: ModelLayers): Inherited {
  if (layers.stored[key]) return { source: 'none' };
  const parent = layers.parent?.variables[key];
  if (layers.parent && parent) return { source: 'model', value: parent, modelName: layers.parent.displayName };
  const global = layers.globals[key];
  return global ? { source: 'default', value: global } : { source: 'none' };
}

/**
 * Records one change. A value put back to what the field showed when loaded is no change any more, so
 * the unsaved-changes guard does not fire for nothing.
 */
export function withEdit(edits: Edits, key: string, value: string, baseline: string): Edits {
  const next = { ...edits };
  if (value === baseline) delete next[key];
  else next[key] = value;
  return next;
}

/**
 * The variables a save sends (spec §5): an emptied value or '-' becomes null, which removes the model's
 * own value so the default applies again; a value equal to the default that the model did not store is
 * not stored now, so later changes of the default still reach the model.
 */
export function savePayload(edits: Edits, layers: ModelLayers): Record<string, string | null> {
  const payload: Record<string, string | null> = {};
  for (const [key, raw] of Object.entries(edits)) {
    const value = raw === 'null' ? '' : raw;
    const stored = layers.stored[key];
    if (stored === undefined && value === '') continue;
    if (!stored && value === (layers.parent?.variables[key] || layers.globals[key] || '')) continue;
    if (stored !== undefined && value === stored) continue;
    payload[key] = value === '' ? null : value;
  }
  return payload;
}

export function hasUnsavedChanges(edits: Edits, layers: ModelLayers): boolean {
  return Object.keys(savePayload(edits, layers)).length > 0;
}

/**
 * Body that puts a shipped model back as it was shipped: every original value, and null for what the
 * model gained since, keeping the shipped display name.
 */
export function resetToOriginalPayload(
  stored: Variables,
  original: { display_name: string | null; variables: Variables },
): { display_name?: string; variables: Record<string, string | null> } {
  const variables: Record<string, string | null> = {};
  for (const [key, value] of Object.entries(original.variables)) if (value !== undefined) variables[key] = value;
  for (const key of Object.keys(stored)) if (!(key in original.variables)) variables[key] = null;
  return original.display_name ? { display_name: original.display_name, variables } : { variables };
}
