import { describe, expect, it } from 'vitest';
import en from '../src/i18n/en.json';
import itMessages from '../src/i18n/it.json';

function keys(tree: object, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    value && typeof value === 'object' ? keys(value, `${prefix}${key}.`) : [`${prefix}${key}`],
  );
}

function leaves(tree: object): string[] {
  return Object.values(tree).flatMap((value) => (value && typeof value === 'object' ? leaves(value) : [value]));
}

describe('translations', () => {
  it('English and Italian have exactly the same keys', () => {
    expect(keys(itMessages).sort()).toEqual(keys(en).sort());
  });

  it('no message is empty', () => {
    for (const text of [...leaves(en), ...leaves(itMessages)]) expect(String(text).trim()).not.toBe('');
  });

  it('placeholders match between the two languages', () => {
    const placeholders = (text: string) => (text.match(/\{\{\w+\}\}/g) ?? []).sort();
    const lookup = (tree: object, key: string) =>
      String(key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], tree));
    for (const key of keys(en)) {
      expect(placeholders(lookup(itMessages, key)), key).toEqual(placeholders(lookup(en, key)));
    }
  });
});
