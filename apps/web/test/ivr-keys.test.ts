import { describe, expect, it } from 'vitest';
import { chooseKey, nextFreeKey } from '../src/features/flows/ivrKeys.ts';

describe('IVR option keys', () => {
  it('hands out the next free key from 1, 0 after 9', () => {
    expect(nextFreeKey([])).toBe('1');
    expect(nextFreeKey([{ selection: '1' }, { selection: '3' }])).toBe('2');
    const nine = ['1', '2', '3', '4', '5', '6', '7', '8', '9'].map((selection) => ({ selection }));
    expect(nextFreeKey(nine)).toBe('0');
    expect(nextFreeKey([...nine, { selection: '0' }, { selection: '*' }, { selection: '#' }])).toBeUndefined();
  });

  it('a key another option holds swaps the two options keys', () => {
    const entries = [
      { selection: '1', dest: 'a' },
      { selection: '2', dest: 'b' },
      { selection: '3', dest: 'c' },
    ];
    const swapped = chooseKey(entries, 0, '2');
    expect(swapped.entries).toEqual([
      { selection: '2', dest: 'a' },
      { selection: '1', dest: 'b' },
      { selection: '3', dest: 'c' },
    ]);
    expect(swapped.swappedWith).toEqual({ index: 1, key: '1' });
    // A free key just moves; the same key changes nothing.
    expect(chooseKey(entries, 2, '9')).toEqual({
      entries: [entries[0], entries[1], { selection: '9', dest: 'c' }],
    });
    expect(chooseKey(entries, 1, '2').entries).toEqual(entries);
  });
});
