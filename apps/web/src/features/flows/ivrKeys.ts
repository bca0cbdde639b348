import type { IVR_SELECTIONS } from '@centralino/contract';

type Key = (typeof IVR_SELECTIONS)[number];

/** The order keys are handed out in: as on a keypad, 1 first; 0 after 9 (callers expect "press 1"). */
export const KEY_ORDER: readonly Key[] = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '0', '*', '#'];

/** The first key no option uses yet, or undefined when all twelve are taken. */
export function nextFreeKey(entries: readonly { selection: string }[]): Key | undefined {
  return KEY_ORDER.find((key) => !entries.some((entry) => entry.selection === key));
}

/**
 * Gives option `index` the key `key`. A key another option holds is not refused: the two options swap keys,
 * so exchanging two keys is one choice. Answers the new options and, on a swap, the key the other got.
 */
export function chooseKey<E extends { selection: string }>(
  entries: readonly E[],
  index: number,
  key: string,
): { entries: E[]; swappedWith?: { index: number; key: string } } {
  const current = entries[index];
  if (!current || current.selection === key) return { entries: [...entries] };
  const other = entries.findIndex((entry, i) => i !== index && entry.selection === key);
  const next = entries.map((entry, i) => {
    if (i === index) return { ...entry, selection: key };
    if (i === other) return { ...entry, selection: current.selection };
    return entry;
  });
  return other === -1 ? { entries: next } : { entries: next, swappedWith: { index: other, key: current.selection } };
}
