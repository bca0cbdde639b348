import { describe, expect, it } from 'vitest';
import { parseConf, scanConf } from '../../src/pbx/conf-parser.ts';

describe('Asterisk configuration parser', () => {
  it('reads sections, templates, inherited templates and entries as Asterisk does', () => {
    const parsed = parseConf(
      'pjsip.conf',
      [
        '; a comment line',
        '[device-endpoint](!)',
        'Type = endpoint',
        '  context   =  from-internal  ',
        '[2000](device-endpoint, +, other-tpl)',
        'aors=2000',
        'exten => 2000,1,Dial(PJSIP/2000) ; why it dials',
        'password = a\\;b',
        '[x]()',
        '',
      ].join('\n'),
    );
    expect(parsed.errors).toEqual([]);
    expect(parsed.sections.map((s) => [s.name, s.line, s.template, s.inherits])).toEqual([
      ['device-endpoint', 2, true, []],
      ['2000', 5, false, ['device-endpoint', 'other-tpl']],
      ['x', 9, false, []],
    ]);
    expect(parsed.sections[0]?.entries).toEqual([
      { key: 'type', value: 'endpoint', line: 3, arrow: false },
      { key: 'context', value: 'from-internal', line: 4, arrow: false },
    ]);
    expect(parsed.sections[1]?.entries).toEqual([
      { key: 'aors', value: '2000', line: 6, arrow: false },
      { key: 'exten', value: '2000,1,Dial(PJSIP/2000)', line: 7, arrow: true },
      { key: 'password', value: 'a;b', line: 8, arrow: false },
    ]);
  });

  it('skips block comments and reads includes', () => {
    const parsed = parseConf(
      'extensions.conf',
      [
        '#include "extensions.users.2xx.conf"',
        '[a]',
        ';-- a block',
        'exten => 1,1,NoOp()',
        '--; same => n,Hangup()',
      ].join('\n'),
    );
    expect(parsed.includes).toEqual([{ file: 'extensions.users.2xx.conf', line: 1 }]);
    expect(parsed.errors).toEqual([]);
    expect(parsed.sections[0]?.entries).toEqual([{ key: 'same', value: 'n,Hangup()', line: 5, arrow: true }]);
  });

  it('reports each malformed line with its number, and goes on', () => {
    const parsed = parseConf(
      'x.conf',
      [
        'orphan = 1',
        '[]',
        '[a](tpl',
        '[b](t)x',
        '[ok]',
        'no equals sign',
        '= no key',
        '#exec "/bin/sh"',
        'fine = yes',
      ].join('\n'),
    );
    expect(parsed.errors).toEqual([
      { line: 1, message: 'entry outside a section: "orphan = 1"' },
      { line: 2, message: 'malformed section header "[]"' },
      { line: 3, message: 'malformed section header "[a](tpl"' },
      { line: 4, message: 'malformed section header "[b](t)x"' },
      { line: 6, message: 'expected "key = value", got "no equals sign"' },
      { line: 7, message: 'expected "key = value", got "= no key"' },
      { line: 8, message: 'unsupported directive "#exec "/bin/sh""' },
    ]);
    expect(parsed.sections.map((s) => [s.name, s.entries.map((e) => e.key)])).toEqual([['ok', ['fine']]]);
  });

  it('hands over only the keys a visitor asks for, and every error still', () => {
    const seen: string[] = [];
    const errors: number[] = [];
    scanConf('[a]\ntype = aor\ncallerid = x\nMax_Contacts = 1\nbroken\naors = 1', {
      keys: new Set(['type', 'aors', 'max_contacts']),
      section: () => {},
      entry: (key, value) => seen.push(`${key}=${value}`),
      include: () => {},
      error: (line) => errors.push(line),
    });
    expect(seen).toEqual(['type=aor', 'max_contacts=1', 'aors=1']);
    expect(errors).toEqual([5]);
  });
});
