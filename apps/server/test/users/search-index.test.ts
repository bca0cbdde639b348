import { describe, expect, it } from 'vitest';
import { copyOf, type Entry, matches } from '../../src/features/users/search-index.ts';

/** A small random generator with a seed, so a failure can be replayed. */
function random(seed: number) {
  let x = seed;
  return () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x / 2147483648;
  };
}

describe('the users search over a copy of the list', () => {
  it('finds what a scan of every key finds, by scanning and then from its three-letter index', () => {
    const next = random(7);
    // Few letters, so that keys share many three-letter sequences without holding the whole text searched.
    const word = () =>
      Array.from({ length: 2 + Math.floor(next() * 5) }, () => 'abc '[Math.floor(next() * 4)]).join('');
    const entries: Entry[] = Array.from({ length: 400 }, (_, id) => ({
      id,
      key: `${word()}${word()}${word()}`,
      configured: id % 3 === 0,
    }));
    const copy = copyOf(entries);
    const needles = Array.from({ length: 300 }, () => word() + (next() < 0.5 ? word() : ''));
    needles.push('', 'a', 'ab', 'zzz', 'abcabcabcabc', '\u0001', `${entries[0]?.key}\u0001`);
    let falseLeads = 0;
    for (const needle of needles) {
      for (const keep of [() => true, (e: Entry) => e.configured]) {
        const expected = entries.filter((e) => keep(e) && e.key.includes(needle)).map((e) => e.id);
        expect(
          matches(copy, needle, keep).map((e) => e.id),
          JSON.stringify(needle),
        ).toEqual(expected);
      }
      if (copy.grams && needle.length >= 3) {
        const lists = Array.from({ length: needle.length - 2 }, (_, at) => copy.grams?.get(needle.slice(at, at + 3)));
        const fewest = lists.every(Boolean) ? Math.min(...lists.map((l) => l?.length ?? 0)) : 0;
        if (fewest > entries.filter((e) => e.key.includes(needle)).length) falseLeads++;
      }
    }
    // The index was made and used, and its candidates had to be checked: some held every sequence but not the text.
    expect(copy.grams?.size).toBeGreaterThan(0);
    expect(falseLeads).toBeGreaterThan(0);
    // Never across two keys next to each other in the list.
    const pair = copyOf([
      { id: 1, key: 'ab', configured: true },
      { id: 2, key: 'cd', configured: true },
    ]);
    for (let i = 0; i < 12; i++) expect(matches(pair, 'bcd', () => true)).toEqual([]);
    expect(matches(pair, 'b', () => true).map((e) => e.id)).toEqual([1]);
  });
});
