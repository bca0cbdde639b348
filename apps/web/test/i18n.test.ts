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

describe('the keys the code names', () => {
  // A literal key that is in neither file shows the key itself on screen (the file input's clear X once read
  // "common.clearFile" to a screen reader): every t('…') with a literal key must resolve in English.
  it('every literal t() key of the web sources exists in English', async () => {
    const fs = await import('node:fs');
    const path = await import('node:path');
    const src = path.resolve(import.meta.dirname, '../src');
    const files = (fs.readdirSync(src, { recursive: true }) as string[]).filter((f) => /\.tsx?$/.test(f));
    const known = new Set(keys(en));
    const groups = new Set(
      keys(en).flatMap((key) => key.split('.').map((_, i, parts) => parts.slice(0, i + 1).join('.'))),
    );
    const missing: string[] = [];
    for (const file of files) {
      const text = fs.readFileSync(path.join(src, file), 'utf8');
      for (const [, key = ''] of text.matchAll(/\bt\(\s*'([a-zA-Z][\w-]*(?:\.[\w-]+)+)'/g)) {
        const plural = ['_one', '_other', '_zero'].some((suffix) => known.has(`${key}${suffix}`));
        if (!known.has(key) && !plural && !groups.has(key)) missing.push(`${file}: ${key}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
