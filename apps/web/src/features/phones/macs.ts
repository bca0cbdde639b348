import { canonicalMac, modelPrefixOfVendor, providerBrandModel, vendorOfMac } from '@centralino/contract';

/** Longest pasted list (about 200 MACs, spec §9). */
export const PASTE_LIMIT = 3600;
/** From this length on, the paste box says the limit is (about to be) reached. */
export const PASTE_NOTICE_FROM = PASTE_LIMIT - 18;

/** Splits a pasted list on spaces, commas, semicolons and line breaks. */
export function splitPasted(text: string): string[] {
  return text.split(/[\s,;]+/).filter((part) => part.length > 0);
}

export type PendingError = 'invalid' | 'unknownVendor' | 'duplicated' | 'exists';

export interface PendingInput {
  id: number;
  input: string;
  /** Model chosen for the row; undefined = the automatic choice. */
  model?: string | null;
}

export interface PendingPhone {
  id: number;
  input: string;
  mac?: string;
  vendor?: string;
  model: string | null;
  error?: PendingError;
}

/**
 * Validates the pending rows (spec §5): a MAC, a known vendor, once in the list, not in the inventory.
 * MACs are normalised to upper-case pairs joined by dashes; provider-brand phones get their model.
 */
export function validatePending(rows: readonly PendingInput[], inventory: ReadonlySet<string>): PendingPhone[] {
  const seen = new Set<string>();
  return rows.map(({ id, input, model }) => {
    const mac = canonicalMac(input);
    if (!mac) return { id, input, model: null, error: 'invalid' };
    const vendor = vendorOfMac(mac);
    const chosen = model === undefined ? (providerBrandModel(mac) ?? null) : model;
    if (!vendor) return { id, input, mac, model: chosen, error: 'unknownVendor' };
    let error: PendingError | undefined;
    if (seen.has(mac)) error = 'duplicated';
    else if (inventory.has(mac)) error = 'exists';
    seen.add(mac);
    return { id, input, mac, vendor, model: chosen, error };
  });
}

/** Models of a vendor: those whose name starts with the vendor's prefix. */
export function modelsOfVendor<M extends { name: string }>(models: readonly M[], vendor: string | undefined): M[] {
  if (!vendor) return [];
  const prefix = `${modelPrefixOfVendor(vendor)}-`;
  return models.filter((m) => m.name.toLowerCase().startsWith(prefix));
}

export interface ModelSummary {
  name: string;
  display_name: string;
}

/** Options of a model selector: the vendor's models, plus the current one when it is another. */
export function modelOptions(models: readonly ModelSummary[], vendor: string | undefined, current?: string | null) {
  const list = modelsOfVendor(models, vendor);
  if (current && !list.some((m) => m.name === current)) {
    list.push(models.find((m) => m.name === current) ?? { name: current, display_name: current });
  }
  return list.map((m) => ({ value: m.name, label: m.display_name || m.name }));
}

/** A MAC as the inventory shows it: upper-case pairs joined by dashes (any accepted spelling in). */
export function displayMac(mac: string): string {
  return canonicalMac(mac) ?? mac;
}

/** A model as the inventory shows it: its display name, or its name when the catalogue has none. */
export function modelDisplayName(models: readonly ModelSummary[], name: string | null | undefined): string | null {
  if (!name) return null;
  return models.find((m) => m.name === name)?.display_name || name;
}

/** One phone in a picker, in the inventory's formats: 'AA-BB-… · vendor · model display name'. */
export function phoneLabel(
  phone: { mac: string; vendor?: string | null; model?: string | null },
  models: readonly ModelSummary[],
): string {
  const vendor = phone.vendor || vendorOfMac(phone.mac);
  return [displayMac(phone.mac), vendor, modelDisplayName(models, phone.model)].filter(Boolean).join(' · ');
}
