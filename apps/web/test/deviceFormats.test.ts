import { describe, expect, it } from 'vitest';
import { ApiError } from '../src/api/client.ts';
import { pushFailureOf } from '../src/features/phones/AddPhonesModal.tsx';
import { mergePhones } from '../src/features/phones/ConfigDevicesPage.tsx';
import { displayMac, modelDisplayName, phoneLabel } from '../src/features/phones/macs.ts';

const models = [
  { name: 'yealink-T46', display_name: 'Yealink T46G/S/U' },
  { name: 'snom-D120', display_name: '' },
];

describe('phones in the formats of the inventory', () => {
  it('shows MACs as upper-case dash pairs whatever the spelling', () => {
    expect(displayMac('80:5e:c0:12:34:56')).toBe('80-5E-C0-12-34-56');
    expect(displayMac('805EC0123456')).toBe('80-5E-C0-12-34-56');
  });

  it('shows a model by its display name, or its name when it has none', () => {
    expect(modelDisplayName(models, 'yealink-T46')).toBe('Yealink T46G/S/U');
    expect(modelDisplayName(models, 'snom-D120')).toBe('snom-D120');
    expect(modelDisplayName(models, 'gone-X1')).toBe('gone-X1');
    expect(modelDisplayName(models, null)).toBeNull();
  });

  it('labels a phone of the device picker with MAC, vendor and model as the inventory does', () => {
    expect(phoneLabel({ mac: '80:5E:C0:12:34:56', vendor: 'Yealink/Dreamwave', model: 'yealink-T46' }, models)).toBe(
      '80-5E-C0-12-34-56 · Yealink/Dreamwave · Yealink T46G/S/U',
    );
    // No vendor stored: the MAC tells; no model: left out.
    expect(phoneLabel({ mac: '00:04:13:AA:00:01', vendor: null, model: null }, models)).toBe(
      '00-04-13-AA-00-01 · Snom',
    );
  });
});

describe('phones the redirect service did not take', () => {
  const error = (status: number, code: string, detail = 'x') => new ApiError(status, { code, title: 't', detail });

  it('tells an unreachable service from a refusal', () => {
    expect(pushFailureOf(error(502, 'rps_unreachable'))).toEqual({ reason: 'unreachable' });
    expect(pushFailureOf(error(0, 'network'))).toEqual({ reason: 'unreachable' });
    expect(pushFailureOf(error(404, 'rps_rejected', 'The redirect service answered 404'))).toEqual({
      reason: 'refused',
      detail: 'The redirect service answered 404',
    });
    expect(pushFailureOf(error(502, 'rps_rejected', 'answered 503'))).toEqual({
      reason: 'refused',
      detail: 'answered 503',
    });
  });
});

describe('phones of the old-mode device screen', () => {
  it('merges the PBX phones with those a scan found, once each, leaving out unknown vendors and gateways', () => {
    const rows = mergePhones(
      [
        {
          mac: '80:5E:C0:12:34:56',
          manufacturer: 'Yealink/Dreamwave',
          model: 'yealink-T46',
          lines: [{ extension: '201', displayname: 'Alice Rossi' }],
        },
        { model: 'custom', manufacturer: ' _', lines: [{ extension: '91201', displayname: 'Alice Rossi' }] },
      ],
      [
        { mac: '80:5E:C0:12:34:56', ipv4: '10.0.0.2', manufacturer: 'Yealink/Dreamwave', type: 'phone' },
        { mac: '00:04:13:AA:00:01', ipv4: '10.0.0.3', manufacturer: 'Snom', type: 'phone' },
        { mac: '02:12:34:56:78:9A', ipv4: '10.0.0.4', manufacturer: 'x', type: 'phone' },
        { mac: '00:A0:BA:0B:1C:2D', ipv4: '10.0.0.5', manufacturer: 'Patton', type: 'gateway' },
      ],
    );
    expect(rows).toEqual([
      { mac: '00:04:13:AA:00:01', vendor: 'Snom', model: null, ipv4: '10.0.0.3' },
      {
        mac: '80:5E:C0:12:34:56',
        vendor: 'Yealink/Dreamwave',
        model: 'yealink-T46',
        ipv4: '10.0.0.2',
        line: { displayname: 'Alice Rossi', extension: '201' },
      },
    ]);
  });
});
