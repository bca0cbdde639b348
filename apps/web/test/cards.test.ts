import { describe, expect, it } from 'vitest';
import {
  canCheck,
  cardFormProblems,
  colorOf,
  defaultPortOf,
  duplicateNameError,
  fromBase64,
  sampleQuery,
  templateValue,
  toBase64,
  withColor,
} from '../src/features/cards/cardsLogic.ts';

describe('template colour', () => {
  it('reads the first-line comment', () => {
    expect(colorOf('<!-- color: red -->\n<div></div>')).toBe('red');
    expect(colorOf('<!--color:Teal-->\n<div></div>')).toBe('teal');
    expect(colorOf('<div></div>\n<!-- color: red -->')).toBeNull();
    expect(colorOf('<!-- color: magenta -->\n')).toBeNull();
  });

  it('writes the comment and recolours the bg- classes, keeping their shade', () => {
    const html = '<!-- color: red -->\n<div class="p-2 bg-red-500 text-white"><span class="bg-red">x</span></div>';
    expect(withColor(html, 'blue')).toBe(
      '<!-- color: blue -->\n<div class="p-2 bg-blue-500 text-white"><span class="bg-blue">x</span></div>',
    );
  });

  it('adds the comment to a template without one, and leaves other classes alone', () => {
    const html = '<div class="bg-gray-100 bg-olive-200 bred-red">x</div>';
    expect(withColor(html, 'pink')).toBe('<!-- color: pink -->\n<div class="bg-gray-100 bg-pink-200 bred-red">x</div>');
  });

  it('removes the comment for no colour', () => {
    expect(withColor('<!-- color: red -->\n<p>x</p>', null)).toBe('<p>x</p>');
  });

  it('is stable when applied twice', () => {
    const once = withColor('<p class="bg-red-100">x</p>', 'green');
    expect(withColor(once, 'green')).toBe(once);
    expect(colorOf(once)).toBe('green');
  });
});

describe('base64 of UTF-8 text', () => {
  it('round-trips accents and symbols', () => {
    const text = 'Perché € — ok\n<b>ü</b>';
    expect(fromBase64(toBase64(text))).toBe(text);
    expect(toBase64('select 1')).toBe('c2VsZWN0IDE=');
  });

  it('reads garbage as empty', () => {
    expect(fromBase64('%%%')).toBe('');
  });
});

describe('template references and names', () => {
  it('a card refers to name or name_custom', () => {
    expect(templateValue({ name: 'identity', custom: false })).toBe('identity');
    expect(templateValue({ name: 'mycard', custom: true })).toBe('mycard_custom');
  });

  it('a duplicate needs a name, different from the original once normalised', () => {
    expect(duplicateNameError('', 'identity')).toBe('required');
    expect(duplicateNameError(' -- ', 'identity')).toBe('required');
    expect(duplicateNameError('Identity', 'identity')).toBe('same');
    expect(duplicateNameError('My Identity', 'identity')).toBeNull();
  });
});

describe('source form', () => {
  const form = { type: 'mysql', host: 'db', port: '3306', name: 'crm', user: 'u', pass: '' };

  it('proposes the default port of the type', () => {
    expect(defaultPortOf('mysql')).toBe('3306');
    expect(defaultPortOf('postgres')).toBe('5432');
    expect(defaultPortOf('mssql:7_4')).toBe('1433');
    expect(defaultPortOf('mssql:7_1')).toBe('1433');
    expect(defaultPortOf('oracle')).toBe('');
  });

  it('the check needs type, name and port (and host and user for a new source)', () => {
    expect(canCheck(form, false)).toBe(true);
    expect(canCheck({ ...form, type: '' }, false)).toBe(false);
    expect(canCheck({ ...form, name: ' ' }, false)).toBe(false);
    expect(canCheck({ ...form, port: '' }, false)).toBe(false);
    expect(canCheck({ ...form, port: '70000' }, false)).toBe(false);
    expect(canCheck({ ...form, port: '33a' }, false)).toBe(false);
    expect(canCheck({ ...form, host: '' }, false)).toBe(false);
    expect(canCheck({ ...form, host: '' }, true)).toBe(true);
  });
});

describe('card form', () => {
  const form = { name: 'CRM', dbconn_id: '3', template: 'identity', profiles: ['1'], query: 'select 1' };

  it('is complete with name, source, template, a profile and a query', () => {
    expect(cardFormProblems(form)).toEqual([]);
  });

  it('names what is missing; an empty query keeps Save disabled', () => {
    expect(cardFormProblems({ ...form, query: '  \n' })).toEqual(['query']);
    expect(cardFormProblems({ name: '--', dbconn_id: null, template: null, profiles: [], query: '' })).toEqual([
      'name',
      'source',
      'template',
      'profiles',
      'query',
    ]);
  });
});

describe('sample query', () => {
  it('selects literals, quoting values and names', () => {
    expect(
      sampleQuery([
        { name: "O'Brien", Col_1: 'x' },
        { name: 'b', Col_1: 'y' },
      ]),
    ).toBe(`SELECT 'O''Brien' AS "name", 'x' AS "Col_1"\nUNION ALL\nSELECT 'b' AS "name", 'y' AS "Col_1"`);
  });
});
