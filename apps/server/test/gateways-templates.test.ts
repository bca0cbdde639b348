import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type GatewayModel, gatewayModels } from '@centralino/contract';
import { describe, expect, it } from 'vitest';
import { parseArpTable } from '../src/features/gateways/service.ts';
import { type GatewayConfigInput, renderGatewayConfig, tftpFileName } from '../src/features/gateways/templates.ts';

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'gateways');
const model = (name: string) => gatewayModels.find((m) => m.model === name) as GatewayModel;
const trunk = (vendor: string, type: string, port: number, n: number) => ({
  username: `${vendor}_0b1c2d_${type}_${port}`,
  secret: `Secret${type}${port}x`,
  trunkNumber: `2000${n}`,
});
const base = (m: GatewayModel): GatewayConfigInput => ({
  model: m,
  name: `${m.manufacturer}-${m.description}`,
  mac: '00:A0:BA:0B:1C:2D',
  ip: '192.168.1.250',
  netmask: '255.255.255.0',
  defaultGateway: '192.168.1.1',
  pbx: '192.168.1.2',
  isdn: [],
  pri: [],
  fxo: [],
  fxs: [],
  now: new Date(Date.UTC(2025, 2, 4, 9, 5, 7)),
});

/** One model per vendor family (and the TLS twin where the family has one). */
const cases: [file: string, input: GatewayConfigInput][] = [
  [
    'patton-trinity-isdn.cfg',
    {
      ...base(model('TRI_ISDN_2')),
      isdn: [
        { ...trunk('Patton', 'isdn', 0, 1), protocol: 'pp' },
        { ...trunk('Patton', 'isdn', 1, 2), protocol: 'pmp' },
      ],
    },
  ],
  [
    'patton-trinity-fxo.cfg',
    {
      ...base(model('TRI_FXO_2')),
      fxo: [
        { ...trunk('Patton', 'fxo', 0, 1), number: '0721100001' },
        { ...trunk('Patton', 'fxo', 1, 2), number: '' },
      ],
    },
  ],
  ['patton-trinity-pri.cfg', { ...base(model('TRI_PRI_1')), pri: [trunk('Patton', 'pri', 0, 1)] }],
  [
    'patton-smartnode-isdn.cfg',
    {
      ...base(model('4554')),
      isdn: [
        { ...trunk('Patton', 'isdn', 0, 1), protocol: 'pp' },
        { ...trunk('Patton', 'isdn', 1, 2), protocol: 'pmp' },
      ],
    },
  ],
  [
    'patton-smartnode-fxs.cfg',
    {
      ...base(model('4112fxs')),
      fxs: [
        { extension: '91201', secret: 'FxsSecret1' },
        { extension: null, secret: null },
      ],
    },
  ],
  [
    'grandstream-ht802.xml',
    {
      ...base(model('ht802')),
      mac: '00:0B:82:AB:CD:EF',
      fxs: [
        { extension: '91201', secret: 'FxsSecret1' },
        { extension: '91202', secret: 'FxsSecret2' },
      ],
    },
  ],
  [
    'grandstream-ht802-tls.xml',
    {
      ...base(model('ht802TLS')),
      mac: '00:0B:82:AB:CD:EF',
      fxs: [
        { extension: '91201', secret: 'FxsSecret1' },
        { extension: null, secret: null },
      ],
    },
  ],
  [
    'grandstream-gxw4216-tls.xml',
    {
      ...base(model('gxw4216TLS')),
      mac: '00:0B:82:AB:CD:EF',
      fxs: Array.from({ length: 16 }, (_, k) =>
        k < 2 ? { extension: `9${k + 1}201`, secret: `FxsSecret${k}` } : { extension: null, secret: null },
      ),
    },
  ],
  [
    'sangoma-vega-isdn.txt',
    {
      ...base(model('Vega_60_2isdn')),
      mac: '00:50:58:0B:1C:2D',
      isdn: [
        { ...trunk('Sangoma', 'isdn', 1, 1), protocol: 'pmp' },
        { ...trunk('Sangoma', 'isdn', 2, 2), protocol: 'pp' },
      ],
    },
  ],
  [
    'sangoma-vega-fxo.txt',
    {
      ...base(model('Vega_60_4fxo')),
      mac: '00:50:58:0B:1C:2D',
      fxo: [1, 2, 3, 4].map((p) => ({ ...trunk('Sangoma', 'fxo', p, p), number: p === 1 ? '0721100001' : '' })),
    },
  ],
  [
    'mediatrix-4402.cfg',
    {
      ...base(model('M4402')),
      mac: '00:90:F8:0B:1C:2D',
      isdn: [
        { ...trunk('Mediatrix', 'isdn', 1, 1), protocol: 'pp' },
        { ...trunk('Mediatrix', 'isdn', 2, 2), protocol: 'pmp' },
      ],
    },
  ],
];

describe('the PBX port in gateway files', () => {
  // A console started with SIP_PORT=5070 / SIP_TLS_PORT=5071: every gateway registers to those, not to 5060.
  it.each(cases)('%s names the configured port', (_file, input) => {
    const moved = renderGatewayConfig({ ...input, pbxPorts: { sip: 5070, tls: 5071 } });
    const port = input.model.tls ? 5071 : 5070;
    const at = new RegExp(`${input.pbx.replaceAll('.', '\\.')}(:| )${port}\\b`);
    expect(moved).toMatch(at);
    expect(moved).not.toMatch(new RegExp(`${input.pbx.replaceAll('.', '\\.')}(:| )506[01]\\b`));
  });
});

describe('generated gateway files (golden)', () => {
  it.each(cases)('%s', (file, input) => {
    const text = renderGatewayConfig(input);
    const golden = path.join(dir, file);
    // UPDATE_GOLDEN=1 rewrites the files after a deliberate template change; review the diff.
    if (process.env.UPDATE_GOLDEN || !fs.existsSync(golden)) fs.writeFileSync(golden, text);
    expect(text).toBe(fs.readFileSync(golden, 'utf8'));
    // Every account's credentials are in the file.
    for (const port of [...input.isdn, ...input.pri, ...input.fxo]) {
      expect(text).toContain(port.username);
      expect(text).toContain(port.secret);
      expect(text).toContain(port.trunkNumber);
    }
    for (const port of input.fxs) if (port.extension) expect(text).toContain(port.secret as string);
  });

  it('renders every catalogue model', () => {
    for (const m of gatewayModels) {
      const input = {
        ...base(m),
        isdn: Array.from({ length: m.n_isdn_trunks }, (_, i) => ({
          ...trunk(m.manufacturer, 'isdn', i, i),
          protocol: 'pp' as const,
        })),
        pri: Array.from({ length: m.n_pri_trunks }, (_, i) => trunk(m.manufacturer, 'pri', i, i)),
        fxo: Array.from({ length: m.n_fxo_trunks }, (_, i) => ({ ...trunk(m.manufacturer, 'fxo', i, i), number: '' })),
        fxs: Array.from({ length: m.n_fxs_ext }, (_, k) => ({ extension: `9${k % 9}${200 + k}`, secret: `S${k}` })),
      };
      const text = renderGatewayConfig(input);
      // Grandstream files carry the address as octets.
      expect(text, m.model).toContain(m.manufacturer === 'Grandstream' ? '<P12>250</P12>' : '192.168.1.250');
      for (const p of [...input.isdn, ...input.pri, ...input.fxo]) expect(text, m.model).toContain(p.username);
      for (const p of input.fxs) expect(text, m.model).toContain(p.extension);
    }
  });

  it('names the TFTP files as the devices ask for them', () => {
    expect(tftpFileName(model('TRI_FXO_2'), '00:A0:BA:0B:1C:2D')).toBe('00A0BA0B1C2D.cfg');
    expect(tftpFileName(model('Vega_60_4fxo'), '00:50:58:0B:1C:2D')).toBe('0050580B1C2Dconfig.txt');
    expect(tftpFileName(model('ht802'), '00:0B:82:AB:CD:EF')).toBe('cfg000b82abcdef.xml');
  });
});

describe('discovery from the neighbour table', () => {
  it('keeps complete entries of gateway vendors', () => {
    const table = [
      'IP address       HW type     Flags       HW address            Mask     Device',
      '192.168.1.20     0x1         0x2         00:a0:ba:0b:1c:2d     *        eth0',
      '192.168.1.21     0x1         0x2         00:15:65:aa:bb:cc     *        eth0',
      '192.168.1.22     0x1         0x0         00:90:f8:00:00:00     *        eth0',
      '192.168.1.23     0x1         0x2         00:90:f8:12:34:56     *        eth0',
    ].join('\n');
    expect(parseArpTable(table)).toEqual([
      { ipv4: '192.168.1.20', mac: '00:A0:BA:0B:1C:2D', manufacturer: 'Patton' },
      { ipv4: '192.168.1.23', mac: '00:90:F8:12:34:56', manufacturer: 'Mediatrix' },
    ]);
  });
});
