import { describe, expect, it } from 'vitest';
import { phonesToAdd } from '../src/features/phones/ScanNetwork.tsx';

describe('phones found by a network scan', () => {
  it('keeps known vendors not yet in the inventory, once each, as dash MACs with the told model', () => {
    const found = phonesToAdd(
      [
        { mac: '80:5E:C0:AA:BB:01', ipv4: '10.0.0.2', manufacturer: 'Yealink/Dreamwave', type: 'phone' },
        {
          mac: 'E0:E6:56:01:00:07',
          ipv4: '10.0.0.3',
          manufacturer: 'Nethesis',
          type: 'phone',
          model: 'nethesis-NPX5',
        },
        { mac: '02:12:34:56:78:9A', ipv4: '10.0.0.4', manufacturer: 'Someone', type: 'phone' },
        { mac: '00:04:13:11:22:33', ipv4: '10.0.0.5', manufacturer: 'Snom', type: 'phone' },
        { mac: '80:5E:C0:AA:BB:01', ipv4: '10.0.0.6', manufacturer: 'Yealink/Dreamwave', type: 'phone' },
      ],
      new Set(['00-04-13-11-22-33']),
    );
    expect(found).toEqual([{ input: '80-5E-C0-AA-BB-01' }, { input: 'E0-E6-56-01-00-07', model: 'nethesis-NPX5' }]);
  });
});
