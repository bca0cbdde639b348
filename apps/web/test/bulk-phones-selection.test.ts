import { type BulkPhone, bulkPhoneVendor, vendorOfMac } from '@centralino/contract';
import { describe, expect, it } from 'vitest';
import { isSelected, NONE, summarize, toggle, toRequest } from '../src/features/bulk-phones/selection.ts';

const phone = (mac: string, vendor: string | null, registered = false): BulkPhone => ({
  mac,
  vendor,
  model: null,
  modelName: null,
  user: null,
  extension: null,
  registered,
});
const yealink = phone('80-5E-C0-00-00-01', 'Yealink/Dreamwave', true);
const fanvil = phone('0C-38-3E-00-00-03', 'Fanvil');

describe('bulk phones selection', () => {
  it('sums up phones ticked one by one: count, vendors, registered', () => {
    let selection = toggle(NONE, yealink, true);
    expect(summarize(selection, undefined)).toEqual({ count: 1, vendors: ['Yealink/Dreamwave'], registered: 1 });
    selection = toggle(selection, fanvil, true);
    expect(summarize(selection, undefined)).toMatchObject({ count: 2, vendors: ['Yealink/Dreamwave', 'Fanvil'] });
    expect(toRequest(selection)).toEqual({ macs: [yealink.mac, fanvil.mac] });
    selection = toggle(toggle(selection, fanvil, false), yealink, false);
    expect(selection).toEqual(NONE);
    expect(toRequest(selection)).toBeUndefined();
  });

  it('keeps "all" as the filter, and subtracts the phones left out from the filter totals', () => {
    const facets = { total: 30, vendors: { 'Yealink/Dreamwave': 29, Fanvil: 1 }, registered: 1 };
    let selection = { kind: 'all' as const, filter: { group: 3 }, except: new Map() };
    expect(summarize(selection, facets)).toEqual({
      count: 30,
      vendors: ['Yealink/Dreamwave', 'Fanvil'],
      registered: 1,
    });
    selection = toggle(toggle(selection, fanvil, false), yealink, false) as typeof selection;
    expect(isSelected(selection, fanvil.mac)).toBe(false);
    expect(summarize(selection, facets)).toEqual({ count: 28, vendors: ['Yealink/Dreamwave'], registered: 0 });
    expect(toRequest(selection)).toEqual({ filter: { group: 3 }, except: [fanvil.mac, yealink.mac] });
    selection = toggle(selection, fanvil, true) as typeof selection;
    expect(isSelected(selection, fanvil.mac)).toBe(true);
  });
});

describe('bulk phone vendor', () => {
  it('is the vendor of the MAC, as the inventory shows it, else the one the phone was added with', () => {
    for (const mac of [
      '80-5E-C0-12-34-56',
      '0C-38-3E-00-00-01',
      '00-04-13-AA-BB-CC',
      '00-A8-59-00-00-01',
      'AA-BB-CC-00-00-01',
    ]) {
      expect(bulkPhoneVendor(mac, null)).toBe(vendorOfMac(mac) ?? null);
    }
    expect(bulkPhoneVendor('AA-BB-CC-00-00-01', 'Snom')).toBe('Snom');
    expect(bulkPhoneVendor('80-5E-C0-12-34-56', 'Snom')).toBe('Yealink/Dreamwave');
  });
});
