import { SHIPPED_DEFAULTS } from '@centralino/contract';
import { describe, expect, it } from 'vitest';
import {
  applyPatch,
  checkVariables,
  mergeScopes,
  provisioningUrl,
  SHIPPED_MODELS,
} from '../../src/provisioning/scopes.ts';

describe('scopes: defaults → model → phone (contract §3.2)', () => {
  it('takes each key from the most specific scope that defines it, even when empty', () => {
    const defaults = { screensaver_time: '600', language: 'it', tonezone: 'it' };
    const model = { screensaver_time: '', language: 'en' };
    const phone = { language: 'de' };
    expect(mergeScopes(defaults, model, phone)).toEqual({ screensaver_time: '', language: 'de', tonezone: 'it' });
    expect(mergeScopes(defaults, undefined, phone)).toEqual({
      screensaver_time: '600',
      language: 'de',
      tonezone: 'it',
    });
  });

  it('applies a patch: null deletes so the inherited value applies again, absent keys stay', () => {
    const stored = { a: '1', b: '2' };
    const next = applyPatch(stored, { a: null, c: '3' });
    expect(next).toEqual({ b: '2', c: '3' });
    expect(stored).toEqual({ a: '1', b: '2' });
    const model = SHIPPED_MODELS.get('snom-D120')?.variables;
    expect(
      mergeScopes(SHIPPED_DEFAULTS, model, applyPatch({ screensaver_time: '60' }, { screensaver_time: null })),
    ).toMatchObject({ screensaver_time: '' });
  });

  it('never lets a model change the shipped original', () => {
    const original = SHIPPED_MODELS.get('yealink-T46')?.variables;
    applyPatch(original ?? {}, { softkey_type_1: 'dnd' });
    expect(SHIPPED_MODELS.get('yealink-T46')?.variables.softkey_type_1).toBe('history');
  });

  it('builds provisioning URLs with the model file name and the phone MAC', () => {
    const origin = 'https://pbx.example.com';
    const vars = { provisioning_url_filename: '{mac}.xml' };
    expect(provisioningUrl(origin, vars, 'TOK', '000413aabbcc')).toBe(
      'https://pbx.example.com/provisioning/TOK/000413aabbcc.xml',
    );
    expect(provisioningUrl(origin, { provisioning_url_filename: '$mac.cfg' }, 'T', '0c383eaabbcc')).toBe(
      'https://pbx.example.com/provisioning/T/0c383eaabbcc.cfg',
    );
    expect(provisioningUrl(origin, { provisioning_url_filename: '%25MACD.xml' }, 'T', '7c2f80aabbcc')).toBe(
      'https://pbx.example.com/provisioning/T/7c2f80aabbcc.xml',
    );
    // Empty file name: no trailing slash.
    expect(provisioningUrl('http://10.0.0.5:8080', {}, 'T', 'x')).toBe('http://10.0.0.5:8080/provisioning/T');
  });
});

describe('variable checks', () => {
  const caps = mergeScopes(SHIPPED_DEFAULTS, SHIPPED_MODELS.get('yealink-T46')?.variables);

  it('accepts known variables with allowed values', () => {
    const problems = checkVariables(
      {
        linekey_type_27: 'blf',
        linekey_value_27: '202',
        expkey_type_180: 'speed_dial',
        language: 'en',
        timezone: 'Europe/Rome',
        vlan_id_phone: '',
      },
      'phone',
      caps,
      caps,
    );
    expect(problems).toEqual({ readOnly: {}, unknown: {}, invalid: {} });
  });

  it('refuses variables outside the model: unknown names and keys beyond its counts', () => {
    const problems = checkVariables(
      { linekey_type_28: 'blf', expkey_type_181: 'blf', softkey_type_5: 'dnd', no_such_thing: '1' },
      'phone',
      caps,
      caps,
    );
    expect(Object.keys(problems.unknown).sort()).toEqual([
      'expkey_type_181',
      'linekey_type_28',
      'no_such_thing',
      'softkey_type_5',
    ]);
  });

  it('accepts every shipped model as the copy the console sends, and the shipped defaults', () => {
    for (const [name, model] of SHIPPED_MODELS) {
      const problems = checkVariables(
        model.variables,
        'model-create',
        SHIPPED_DEFAULTS,
        mergeScopes(SHIPPED_DEFAULTS, model.variables),
      );
      expect(problems, name).toEqual({ readOnly: {}, unknown: {}, invalid: {} });
    }
    expect(checkVariables(SHIPPED_DEFAULTS, 'defaults', SHIPPED_DEFAULTS, SHIPPED_DEFAULTS)).toEqual({
      readOnly: {},
      unknown: {},
      invalid: {},
    });
  });

  it('keeps presets writable even when the model has fewer keys (Fanvil H2)', () => {
    const h2 = mergeScopes(SHIPPED_DEFAULTS, SHIPPED_MODELS.get('fanvil-H2')?.variables);
    expect(checkVariables({ linekey_type_1: 'line' }, 'model', h2, h2).unknown).toEqual({});
    expect(checkVariables({ linekey_type_3: 'line' }, 'model', h2, h2).unknown).toHaveProperty('linekey_type_3');
  });

  it('refuses values outside the allowed lists and control characters', () => {
    const problems = checkVariables(
      {
        date_format: 'YYYY-MM-DD',
        backlight_time: '-5',
        contrast: '10',
        vlan_id_pcport: '4095',
        ldap_tls: 'ssl',
        timezone: 'Mars/Olympus',
        linekey_type_1: 'teleport',
        tmpl_phone: '../../etc/passwd',
        ringtone_file: '../x.wav',
        userpw: 'a\nstatic.security.user_password = admin:x',
      },
      'phone',
      caps,
      caps,
    );
    expect(Object.keys(problems.invalid).sort()).toEqual(
      [
        'backlight_time',
        'contrast',
        'date_format',
        'ldap_tls',
        'linekey_type_1',
        'ringtone_file',
        'timezone',
        'tmpl_phone',
        'userpw',
        'vlan_id_pcport',
      ].sort(),
    );
  });

  it('treats computed fields and capabilities as read-only where they are not data', () => {
    const phone = checkVariables({ tok2: 'x', provisioning_url1: 'x', cap_linekey_count: '99' }, 'phone', caps, caps);
    expect(Object.keys(phone.readOnly).sort()).toEqual(['cap_linekey_count', 'provisioning_url1', 'tok2']);
    // A copied model brings its capabilities along; defaults hold the fallbacks.
    expect(checkVariables({ cap_linekey_count: '27' }, 'model-create', SHIPPED_DEFAULTS, caps).readOnly).toEqual({});
    expect(
      checkVariables({ cap_ringtone_count: '3' }, 'defaults', SHIPPED_DEFAULTS, SHIPPED_DEFAULTS).readOnly,
    ).toEqual({});
    // Sending back an unchanged capability is not a change.
    expect(checkVariables({ cap_linekey_count: '27' }, 'model', caps, caps).readOnly).toEqual({});
  });
});
