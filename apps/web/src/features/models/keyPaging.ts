import type { KeyKind } from './capabilities.ts';

/** Key sections show 4 keys at first and 4 more on each 'View more' (spec §9). */
export const KEY_PAGE = 4;

export function initialKeys(total: number): number {
  return Math.min(KEY_PAGE, total);
}

export function moreKeys(shown: number, total: number): number {
  return Math.min(shown + KEY_PAGE, total);
}

/**
 * Variable index of a key. Expansion keys are numbered across modules: key k of module m is
 * (m − 1) × keys per module + k (contract §3.5).
 */
export function keyIndex(kind: KeyKind, key: number, module = 1, keysPerModule = 0): number {
  return kind === 'expkey' ? (module - 1) * keysPerModule + key : key;
}

export function keyVariables(kind: KeyKind, index: number) {
  return { type: `${kind}_type_${index}`, value: `${kind}_value_${index}`, label: `${kind}_label_${index}` };
}
