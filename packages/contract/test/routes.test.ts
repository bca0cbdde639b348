import { describe, expect, it } from 'vitest';
import { decodeTrunkName, defaultDialPatterns, dialPatternProblem, didSchema, routeLocales } from '../src/index.ts';

describe('dial patterns', () => {
  it('accepts every default pattern of every language', () => {
    let count = 0;
    for (const locale of routeLocales) {
      for (const p of defaultDialPatterns[locale]) {
        expect(dialPatternProblem(p.pattern), `${locale} ${p.pattern}`).toBeUndefined();
        count++;
      }
    }
    expect(count).toBe(70);
    expect(defaultDialPatterns.it).toHaveLength(18);
    expect(defaultDialPatterns.de).toHaveLength(14);
  });

  it.each([
    ['0ZXXX.', undefined],
    ['0[1-59]XXX.', undefined],
    ['*72', undefined],
    ['NXXXXXX!', undefined],
    ['', 'The pattern is empty'],
    ['0ZX X', "' ' is not allowed in a dial pattern"],
    ['0A12', "'A' is not allowed in a dial pattern"],
    ['0[1-5XX', 'A [ is not closed'],
    ['0[a-c]', 'The set [a-c] may hold only digits and ranges like 1-5'],
    ['0[9-1]', 'The range 9-1 goes backwards'],
    ['0.12', "'.' may only end a pattern"],
    ['.', "'.' may only end a pattern"],
    ['12;3', "';' is not allowed in a dial pattern"],
  ])('%s → %s', (pattern, problem) => {
    expect(dialPatternProblem(pattern)).toBe(problem);
  });

  it('accepts DIDs that are numbers or _patterns, and refuses letters', () => {
    for (const ok of ['', '0721405516', '+390721405516', '_0721XXXX'])
      expect(didSchema.safeParse(ok).success).toBe(true);
    for (const bad of ['07214O5516', 'abc', '_07A1', '0721 405']) expect(didSchema.safeParse(bad).success).toBe(false);
  });
});

describe('trunk names', () => {
  it('decodes gateway port names and leaves the others alone', () => {
    expect(decodeTrunkName('Patton_a1b2c3_isdn_0')).toBe('Patton a1b2c3 ISDN 0');
    expect(decodeTrunkName('grandstream_0a1b2c_fxo_2')).toBe('grandstream 0a1b2c FXO 2');
    expect(decodeTrunkName('vivavox')).toBe('vivavox');
    expect(decodeTrunkName('my_line_2')).toBe('my_line_2');
  });
});
