import { buildShippedModels, SHIPPED_DEFAULTS } from '@centralino/contract';
import { describe, expect, it } from 'vitest';
import { LINE_KEY_ORDER, modelCapabilities, withCurrent } from '../src/features/models/capabilities.ts';
import { initialKeys, keyIndex, keyVariables, moreKeys } from '../src/features/models/keyPaging.ts';
import {
  composeDisplayName,
  composeModelName,
  hasOriginals,
  listedModels,
  modelSources,
  validateNewModel,
} from '../src/features/models/modelNames.ts';
import {
  hasUnsavedChanges,
  inheritedOption,
  inheritedValue,
  isChanged,
  listValue,
  type ModelLayers,
  resetToOriginalPayload,
  savePayload,
  textValue,
  withEdit,
} from '../src/features/models/modelState.ts';

const shipped = new Map(buildShippedModels().map((m) => [m.name, m]));
const model = (name: string) => {
  const found = shipped.get(name);
  if (!found) throw new Error(name);
  return found;
};

describe('model names', () => {
  it('composes the new name from the source and the custom part, replacing other characters', () => {
    expect(composeModelName('yealink-T46', 'reception')).toBe('yealink-T46-reception');
    expect(composeModelName('yealink-T46', ' Front desk/2 è ')).toBe('yealink-T46-Front_desk_2__');
    expect(composeDisplayName({ name: 'yealink-T46', display_name: 'Yealink T46G/S/U' }, ' reception ')).toBe(
      'Yealink T46G/S/U - reception',
    );
  });

  it('lists used models and copies, not unused shipped ones nor fanvil-X3SG-PRO', () => {
    const all = [
      { name: 'fanvil-X3SG-PRO', display_name: 'Fanvil X3SG PRO' },
      { name: 'snom-D785', display_name: 'Snom D785' },
      { name: 'yealink-T46', display_name: 'Yealink T46G/S/U' },
      { name: 'yealink-T46-reception', display_name: 'Yealink T46G/S/U - reception' },
    ];
    const used = [{ name: 'yealink-T46', display_name: 'Yealink T46G/S/U' }];
    expect(listedModels(used, all).map((m) => m.name)).toEqual(['yealink-T46', 'yealink-T46-reception']);
    // A phone using it brings it in.
    expect(listedModels([all[0] as (typeof all)[0]], all).map((m) => m.name)).toContain('fanvil-X3SG-PRO');
  });

  it('offers the listed models and the rest of the catalogue as sources of a new model', () => {
    const listed = [
      { name: 'yealink-T46', display_name: 'Yealink T46G/S/U' },
      { name: 'yealink-T46-reception', display_name: 'Yealink T46G/S/U - reception' },
    ];
    const all = [
      { name: 'fanvil-X3SG-PRO', display_name: 'Fanvil X3SG PRO' },
      { name: 'snom-D785', display_name: 'Snom D785' },
      { name: 'yealink-T46', display_name: 'Yealink T46G/S/U' },
      { name: 'yealink-T46-reception', display_name: 'Yealink T46G/S/U - reception' },
      { name: 'fanvil-X6U', display_name: 'Fanvil X6U' },
    ];
    const sources = modelSources(listed, all);
    expect(sources.onSystem.map((m) => m.name)).toEqual(['yealink-T46', 'yealink-T46-reception']);
    // Not what is already listed, not fanvil-X3SG-PRO (hidden unless a phone uses it); by display name.
    expect(sources.catalogue.map((m) => m.name)).toEqual(['fanvil-X6U', 'snom-D785']);
    // A fresh system: nothing listed, still the whole catalogue to start from.
    expect(modelSources([], all).catalogue).toHaveLength(3);
  });

  it('only shipped models have originals to go back to', () => {
    expect(hasOriginals('yealink-T46')).toBe(true);
    expect(hasOriginals('fanvil-X3SG-PRO')).toBe(true);
    expect(hasOriginals('yealink-T46-reception')).toBe(false);
  });

  it('requires a source and a custom part and refuses a taken name', () => {
    expect(validateNewModel(null, '', [])).toEqual({ source: 'sourceRequired', custom: 'customRequired' });
    expect(validateNewModel('yealink-T46', '  ', [])).toEqual({ custom: 'customRequired' });
    expect(validateNewModel('yealink-T46', 'a b', [{ name: 'yealink-T46-a_b', display_name: '' }])).toEqual({
      custom: 'exists',
    });
    expect(validateNewModel('yealink-T46', 'x'.repeat(100), [])).toEqual({ custom: 'tooLong' });
    expect(validateNewModel('yealink-T46', 'reception', [])).toEqual({});
  });
});

describe('capabilities', () => {
  it('reads key counts, modules and blacklists of a model', () => {
    const caps = modelCapabilities(model('yealink-T46').variables, SHIPPED_DEFAULTS);
    expect(caps.softKeys.count).toBe(4);
    expect(caps.lineKeys.count).toBe(27);
    expect(caps.expansion).toMatchObject({ modules: 3, count: 60 });
    expect(caps.expansion.types).not.toContain('queuetoggle');
    expect(caps.lineKeys.types).toEqual([...LINE_KEY_ORDER]);
    expect(caps.ringtones[0]).toBe('-1');
    expect(caps.contrast).toBe(false);
    expect(caps.brightness).toBe(true);
    // T1 leaves 8 of the 16 timeouts.
    expect(caps.backlightTimes).toEqual(['15', '30', '60', '120', '300', '600', '1800', '0']);
  });

  it('hides blacklisted options, and a field whose every value is blacklisted', () => {
    const caps = modelCapabilities(
      {
        cap_linekey_count: '2',
        cap_linekey_type_blacklist: 'blf,dtmf',
        cap_softkey_type_blacklist: 'pick_up,history',
        cap_ringtone_count: '3',
        cap_ringtone_blacklist: '-1,0',
        cap_backlight_time_blacklist: '0,3,5,7,10,15,30,60,120,300,600,1200,1800,2400,3000,3600',
        cap_dss_transfer_blacklist: 'verify',
        cap_date_format_blacklist: 'DD MM YY',
        cap_ldap_tls_blacklist: 'starttls',
      },
      SHIPPED_DEFAULTS,
    );
    expect(caps.lineKeys.types).not.toContain('blf');
    expect(caps.lineKeys.types).not.toContain('dtmf');
    expect(caps.softKeys).toEqual({ count: 0, types: expect.not.arrayContaining(['pick_up', 'history']) });
    expect(caps.ringtones).toEqual(['1', '2', '3']);
    expect(caps.backlightTimes).toEqual([]);
    expect(caps.screensaverTimes).toHaveLength(16);
    expect(caps.dssTransfer).toEqual(['attended', 'blind']);
    expect(caps.dateFormats).not.toContain('DD MM YY');
    expect(caps.ldapTls).toEqual(['none', 'ldaps']);
  });

  it('takes capabilities the model leaves out from the defaults', () => {
    const caps = modelCapabilities({}, SHIPPED_DEFAULTS);
    expect(caps.ringtones).toEqual(['1']);
    expect(caps.backgroundFile).toBe(false);
    expect(caps.expansion.modules).toBe(0);
  });

  it('keeps a preset value that is not offered', () => {
    expect(withCurrent(['a', 'b'], 'mute')).toEqual(['a', 'b', 'mute']);
    expect(withCurrent(['a', 'b'], 'a')).toEqual(['a', 'b']);
    expect(withCurrent(['a'], '')).toEqual(['a']);
  });
});

describe('key paging', () => {
  it('shows 4 keys, then 4 more, never past the last', () => {
    expect(initialKeys(27)).toBe(4);
    expect(initialKeys(2)).toBe(2);
    expect(moreKeys(4, 27)).toBe(8);
    expect(moreKeys(24, 27)).toBe(27);
  });

  it('numbers expansion keys across modules', () => {
    expect(keyIndex('expkey', 1, 2, 60)).toBe(61);
    expect(keyIndex('linekey', 5)).toBe(5);
    expect(keyVariables('expkey', 61)).toEqual({
      type: 'expkey_type_61',
      value: 'expkey_value_61',
      label: 'expkey_label_61',
    });
  });
});

describe('model editor state', () => {
  const layers: ModelLayers = {
    stored: { language: 'en', linekey_type_1: 'line', screensaver_time: '', ntp_server: 'ntp.local' },
    globals: {
      language: 'it',
      ntp_server: 'pool.ntp.org',
      screensaver_time: '600',
      ldap_server: '',
      hostname: 'pbx.example',
    },
  };

  it('lists show the own value, else the default; text fields only the own value', () => {
    expect(listValue('language', layers)).toBe('en');
    expect(listValue('screensaver_time', layers)).toBe('600');
    expect(listValue('linekey_type_2', layers)).toBe('');
    expect(textValue('ntp_server', layers)).toBe('ntp.local');
    expect(textValue('ldap_server', layers)).toBe('');
  });

  it("marks '(changed)' only when a value differs from both the saved and the default value", () => {
    let edits = withEdit({}, 'language', 'it', 'en');
    expect(isChanged('language', layers, edits)).toBe(false);
    edits = withEdit(edits, 'language', 'it', 'en');
    edits = withEdit({}, 'linekey_type_1', 'blf', 'line');
    expect(isChanged('linekey_type_1', layers, edits)).toBe(true);
    expect(isChanged('language', layers, edits)).toBe(false);
    // Back to what was loaded: no change left.
    expect(withEdit(edits, 'linekey_type_1', 'line', 'line')).toEqual({});
  });

  it('placeholders name the default, the model or the PBX host', () => {
    expect(inheritedValue('ntp_server', layers)).toEqual({ source: 'default', value: 'pool.ntp.org' });
    expect(inheritedValue('ldap_server', layers)).toEqual({ source: 'hostname', value: 'pbx.example' });
    expect(inheritedValue('vlan_id_phone', layers)).toEqual({ source: 'none' });
    expect(inheritedOption('language', layers)).toEqual({ source: 'none' });
    expect(inheritedOption('screensaver_time', layers)).toEqual({ source: 'default', value: '600' });
    const phone: ModelLayers = {
      stored: {},
      globals: layers.globals,
      parent: { displayName: 'Yealink T46G/S/U', variables: { ntp_server: 'ntp.local' } },
    };
    expect(inheritedValue('ntp_server', phone)).toEqual({
      source: 'model',
      value: 'ntp.local',
      modelName: 'Yealink T46G/S/U',
    });
  });

  it('saves changes only: emptied values as null, defaults not stored', () => {
    const edits = {
      linekey_type_1: 'blf',
      linekey_value_1: '201',
      ntp_server: '',
      tonezone: 'it',
      language: 'null',
      contrast: '',
    };
    const globals = { ...layers.globals, tonezone: 'it' };
    expect(savePayload(edits, { ...layers, globals })).toEqual({
      linekey_type_1: 'blf',
      linekey_value_1: '201',
      ntp_server: null,
      language: null,
    });
    expect(hasUnsavedChanges({ tonezone: 'it' }, { ...layers, globals })).toBe(false);
    expect(hasUnsavedChanges({ linekey_value_1: '201' }, layers)).toBe(true);
  });

  it('resets to the original values, removing what the model gained, keeping the shipped name', () => {
    const body = resetToOriginalPayload(
      { linekey_type_1: 'blf', linekey_value_1: '201', cap_contrast: '' },
      { display_name: 'Yealink T46G/S/U', variables: { linekey_type_1: 'line', cap_contrast: '' } },
    );
    expect(body).toEqual({
      display_name: 'Yealink T46G/S/U',
      variables: { linekey_type_1: 'line', cap_contrast: '', linekey_value_1: null },
    });
  });
});
