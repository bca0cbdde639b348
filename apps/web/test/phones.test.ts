import { describe, expect, it } from 'vitest';
import { modelOptions, PASTE_LIMIT, splitPasted, validatePending } from '../src/features/phones/macs.ts';

describe('phone inventory input', () => {
  it('splits a pasted list on spaces, commas, semicolons and line breaks', () => {
    expect(splitPasted(' a,b;c\n d\r\n\te  ,; f ')).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    expect(splitPasted(' \n ')).toEqual([]);
    expect(PASTE_LIMIT).toBe(3600);
  });

  it('normalises MACs and reports the four errors', () => {
    const rows = [
      '00:15:65:aa:bb:cc',
      'nonsense',
      '001565AABBCC',
      'AA-BB-CC-00-11-22',
      '00-04-13-11-22-33',
      'E0:E6:56:01:00:01',
    ].map((input, id) => ({ id, input }));
    const result = validatePending(rows, new Set(['00-04-13-11-22-33']));
    expect(result.map((r) => [r.mac, r.vendor, r.error])).toEqual([
      ['00-15-65-AA-BB-CC', 'Yealink/Dreamwave', undefined],
      [undefined, undefined, 'invalid'],
      ['00-15-65-AA-BB-CC', 'Yealink/Dreamwave', 'duplicated'],
      ['AA-BB-CC-00-11-22', undefined, 'unknownVendor'],
      ['00-04-13-11-22-33', 'Snom', 'exists'],
      ['E0-E6-56-01-00-01', 'Nethesis', undefined],
    ]);
    // Provider-brand phones get their model from the 4th segment; a chosen model wins.
    expect(result[5]?.model).toBe('nethesis-NPX5');
    expect(validatePending([{ id: 1, input: 'E0E656010001', model: null }], new Set())[0]?.model).toBeNull();
  });

  it('offers the vendor’s models plus the current one', () => {
    const models = [
      { name: 'yealink-T46', display_name: 'Yealink T46' },
      { name: 'snom-D785', display_name: 'Snom D785' },
    ];
    expect(modelOptions(models, 'Yealink/Dreamwave')).toEqual([{ value: 'yealink-T46', label: 'Yealink T46' }]);
    expect(modelOptions(models, 'Yealink/Dreamwave', 'snom-D785').map((o) => o.value)).toEqual([
      'yealink-T46',
      'snom-D785',
    ]);
    expect(modelOptions(models, undefined)).toEqual([]);
  });
});

describe('phone inventory input, more', () => {
  it('accepts the three MAC spellings and refuses the rest', () => {
    const rows = [
      '00:15:65:aa:bb:cc',
      '00-15-65-AA-BB-CD',
      '001565aabbce',
      '00:15:65:aa:bb',
      '00:15:65:aa:bb:cg',
      '',
    ].map((input, id) => ({ id, input }));
    expect(validatePending(rows, new Set()).map((r) => r.mac ?? r.error)).toEqual([
      '00-15-65-AA-BB-CC',
      '00-15-65-AA-BB-CD',
      '00-15-65-AA-BB-CE',
      'invalid',
      'invalid',
      'invalid',
    ]);
  });

  it('splits a long pasted list into every MAC it holds', () => {
    const macs = Array.from(
      { length: 200 },
      (_, i) => `00:15:65:00:${(i >> 8).toString(16).padStart(2, '0')}:${(i & 255).toString(16).padStart(2, '0')}`,
    );
    const text = macs.join('\n');
    expect(text.length).toBeLessThanOrEqual(PASTE_LIMIT);
    expect(splitPasted(text)).toEqual(macs);
    expect(splitPasted('a;;b,,c  d\n\ne')).toEqual(['a', 'b', 'c', 'd', 'e']);
  });
});
