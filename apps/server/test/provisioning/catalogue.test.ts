import {
  buildShippedModels,
  canonicalMac,
  ENGINE_MAC_VENDORS,
  modelPrefixOfVendor,
  providerBrandModel,
  SHIPPED_DEFAULTS,
  vendorOfMac,
} from '@centralino/contract';
import { describe, expect, it } from 'vitest';
import { TEMPLATE_NAMES } from '../../src/provisioning/templates.ts';

const models = new Map(buildShippedModels().map((m) => [m.name, m]));
const vars = (name: string) => {
  const model = models.get(name);
  if (!model) throw new Error(`no model ${name}`);
  return model.variables;
};

describe('shipped model catalogue (contract §5)', () => {
  it('has every model of every vendor', () => {
    const perVendor: Record<string, number> = {};
    for (const name of models.keys()) {
      const vendor = name.split('-')[0] as string;
      perVendor[vendor] = (perVendor[vendor] ?? 0) + 1;
    }
    expect(perVendor).toEqual({ akuvox: 4, fanvil: 29, gigaset: 10, nethesis: 4, sangoma: 11, snom: 26, yealink: 32 });
  });

  it('names a template the engine has for every model', () => {
    for (const [name, model] of models) {
      expect(TEMPLATE_NAMES.has(model.variables.tmpl_phone as string), name).toBe(true);
      if (model.variables.tmpl_firmware) expect(TEMPLATE_NAMES.has(model.variables.tmpl_firmware), name).toBe(true);
    }
  });

  it('keeps capabilities, blacklists and presets as the contract lists them', () => {
    expect(vars('yealink-T46')).toMatchObject({
      cap_softkey_count: '4',
      cap_linekey_count: '27',
      cap_expmodule_count: '3',
      cap_expkey_count: '60',
      cap_ringtone_count: '10',
      cap_background_file: '1',
      cap_contrast: '',
      cap_brightness: '1',
      cap_date_format_blacklist: 'DD MM YY,DD MMM WW,MM DD YYYY,MMM DD WW,YY MM DD',
      cap_backlight_time_blacklist: '3,5,7,10,1200,2400,3000,3600',
      backlight_time: '0',
      softkey_type_1: 'history',
      softkey_type_4: 'menu',
      linekey_type_2: 'line',
      provisioning_url_filename: '',
    });
    // '—' cells are not defined at all, so defaults apply.
    expect(vars('fanvil-H2')).not.toHaveProperty('cap_expmodule_count');
    expect(vars('fanvil-H2')).toMatchObject({ linekey_type_1: '', linekey_type_2: '', screensaver_time: '0' });
    expect(vars('snom-D305')).toMatchObject({
      linekey_type_5: 'mute',
      screensaver_time: '',
      cap_screensaver_time_blacklist: '0,3,5,7,10,15,30,60,120,300,600,1200,1800,2400,3000,3600',
      ldap_number_filter: '(|(telephoneNumber=%*)(mobile=%*)(homePhone=%*))',
      tmpl_firmware: 'snom-firmware.tmpl',
      provisioning_url_filename: '{mac}.xml',
    });
    expect(vars('snom-D712')).not.toHaveProperty('cap_softkey_type_blacklist');
    expect(vars('snom-D335')).toMatchObject({ backlight_time: '32' });
    expect(models.get('snom-D335')?.display_name).toBe('Snom D385');
    expect(vars('nethesis-NPX5')).toMatchObject({
      tmpl_firmware_v2: 'nethesis-firmware-v2.tmpl',
      nethesis_sidekey_count: '4',
      date_format: 'WWW DD MMM',
    });
    expect(vars('gigaset-Maxwell2')).toMatchObject({
      provisioning_url_filename: '%25MACD.xml',
      cap_softkey_type_blacklist: 'pick_up,history,menu,status,prefix',
    });
    expect(vars('sangoma-S205')).toMatchObject({ cap_linekey_count: '', cap_ldap_tls_blacklist: 'starttls,ldaps' });
    expect(vars('akuvox-WP480')).toMatchObject({ tmpl_phone: 'akuvox480w.tmpl', cap_dsskey_count: '0' });
    expect(models.get('fanvil-X301')?.display_name).toBe('Fanvil X301P/G/W;');
  });

  it('ships defaults with the allowed values of §7', () => {
    expect(SHIPPED_DEFAULTS).toMatchObject({
      provisioning_freq: 'everyday',
      tmpl_phone: 'fallback.tmpl',
      ui_first_config: '1',
      cap_ringtone_blacklist: '-1,0',
      ldap_tls: 'none',
    });
    expect(SHIPPED_DEFAULTS).not.toHaveProperty('hostname');
  });
});

describe('MAC vendors (contract §5.5, §5.6)', () => {
  it('normalises the accepted MAC forms and refuses the rest', () => {
    expect(canonicalMac('00:15:65:aa:bb:cc')).toBe('00-15-65-AA-BB-CC');
    expect(canonicalMac('001565AABBCC')).toBe('00-15-65-AA-BB-CC');
    expect(canonicalMac('00-15-65-AA-BB-CC')).toBe('00-15-65-AA-BB-CC');
    for (const bad of [
      '',
      '00-15-65-AA-BB',
      '00-15-65-AA-BB-CG',
      '0015:65AABBCC',
      '../etc/passwd',
      '00-15-65-AA-BB-CC-DD',
    ]) {
      expect(canonicalMac(bad), bad).toBeUndefined();
    }
  });

  it('detects the vendor by prefix, first match wins', () => {
    expect(vendorOfMac('00-15-65-12-34-56')).toBe('Yealink/Dreamwave');
    expect(vendorOfMac('00-A8-5A-12-34-56')).toBe('Fanvil');
    expect(vendorOfMac('00-04-13-E5-00-01')).toBe('Snom');
    expect(vendorOfMac('E0-E6-56-00-00-01')).toBe('Nethesis');
    expect(vendorOfMac('00-0B-82-00-00-01')).toBe('Grandstream');
    expect(vendorOfMac('00-00-00-00-00-09')).toBe('CloudTC');
    expect(vendorOfMac('00-01-43-00-00-01')).toBe('Cisco/Linksys');
    expect(vendorOfMac('12-34-56-78-9A-BC')).toBeUndefined();
    expect(modelPrefixOfVendor('Yealink/Dreamwave')).toBe('yealink');
    expect(ENGINE_MAC_VENDORS['0C1105']).toBe('akuvox');
  });

  it('picks the provider-brand model from the 4th octet', () => {
    expect(providerBrandModel('E0-E6-56-00-11-22')).toBe('nethesis-NPX3');
    expect(providerBrandModel('e0:e6:56:01:11:22')).toBe('nethesis-NPX5');
    expect(providerBrandModel('E0E656021122')).toBe('nethesis-NPX210');
    expect(providerBrandModel('E0-E6-56-03-11-22')).toBe('nethesis-NPV61');
    expect(providerBrandModel('E0-E6-56-04-11-22')).toBe('nethesis-NPX5');
    expect(providerBrandModel('E0-E6-56-05-11-22')).toBeUndefined();
    expect(providerBrandModel('00-15-65-01-11-22')).toBeUndefined();
  });
});
