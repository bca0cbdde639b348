import type { BulkPhone, BulkPhoneFilter, BulkPhonePage, BulkPhoneSelection } from '@centralino/contract';

/**
 * What the administrator selected: nothing, phones one by one, or every phone of the filter except some.
 * "All" is kept as the filter (the server resolves it), so 10,000 phones never travel as a list.
 */
export type Selection =
  | { kind: 'none' }
  | { kind: 'some'; phones: ReadonlyMap<string, BulkPhone> }
  | { kind: 'all'; filter: BulkPhoneFilter; except: ReadonlyMap<string, BulkPhone> };

export const NONE: Selection = { kind: 'none' };

export function isSelected(selection: Selection, mac: string): boolean {
  if (selection.kind === 'some') return selection.phones.has(mac);
  if (selection.kind === 'all') return !selection.except.has(mac);
  return false;
}

/** Ticks or unticks one phone. */
export function toggle(selection: Selection, phone: BulkPhone, on: boolean): Selection {
  if (selection.kind === 'all') {
    const except = new Map(selection.except);
    if (on) except.delete(phone.mac);
    else except.set(phone.mac, phone);
    return { ...selection, except };
  }
  const phones = new Map(selection.kind === 'some' ? selection.phones : []);
  if (on) phones.set(phone.mac, phone);
  else phones.delete(phone.mac);
  return phones.size === 0 ? NONE : { kind: 'some', phones };
}

export interface SelectionSummary {
  count: number;
  /** Vendors among the selected phones ('' = unknown). */
  vendors: string[];
  registered: number;
}

/** Count, vendors and registered phones of a selection; "all" from the filter's totals minus the exceptions. */
export function summarize(
  selection: Selection,
  page: Pick<BulkPhonePage, 'total' | 'vendors' | 'registered'> | undefined,
): SelectionSummary {
  if (selection.kind === 'none') return { count: 0, vendors: [], registered: 0 };
  if (selection.kind === 'some') {
    const phones = [...selection.phones.values()];
    return {
      count: phones.length,
      vendors: [...new Set(phones.map((p) => p.vendor ?? ''))],
      registered: phones.filter((p) => p.registered).length,
    };
  }
  if (!page) return { count: 0, vendors: [], registered: 0 };
  const vendors = { ...page.vendors };
  let registered = page.registered;
  for (const phone of selection.except.values()) {
    const vendor = phone.vendor ?? '';
    vendors[vendor] = (vendors[vendor] ?? 0) - 1;
    if (phone.registered) registered--;
  }
  return {
    count: Math.max(0, page.total - selection.except.size),
    vendors: Object.keys(vendors).filter((v) => (vendors[v] ?? 0) > 0),
    registered: Math.max(0, registered),
  };
}

/** The selection as the API takes it. */
export function toRequest(selection: Selection): BulkPhoneSelection | undefined {
  if (selection.kind === 'some') return { macs: [...selection.phones.keys()] };
  if (selection.kind === 'all') return { filter: selection.filter, except: [...selection.except.keys()] };
  return undefined;
}
