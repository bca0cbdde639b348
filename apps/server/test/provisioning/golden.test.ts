import fs from 'node:fs';
import path from 'node:path';
import { SHIPPED_DEFAULTS } from '@centralino/contract';
import { describe, expect, it } from 'vitest';
import { accountVariables, phoneAccountsSchema } from '../../src/provisioning/accounts.ts';
import { renderFile } from '../../src/provisioning/render.ts';
import { mergeScopes, SHIPPED_MODELS } from '../../src/provisioning/scopes.ts';

/**
 * One rendered file per template family, compared byte for byte with golden/<case>.txt. After a deliberate
 * template change, regenerate with UPDATE_GOLDEN=1 and review the diff.
 */
const GOLDEN = path.join(import.meta.dirname, 'golden');
const update = process.env.UPDATE_GOLDEN === '1';

const defaults = {
  ...SHIPPED_DEFAULTS,
  hostname: 'pbx.example.com',
  outbound_proxy_1: 'proxy.example.com',
  timezone: 'Europe/Rome',
  adminpw: 'adminsecret',
  userpw: 'usersecret',
  ldap_server: 'pbx.example.com',
  ldap_port: '20636',
  ldap_tls: 'ldaps',
  ldap_user: 'cn=phonebook,dc=phonebook,dc=nh',
  ldap_password: 'ldapsecret',
  ldap_base: 'dc=phonebook,dc=nh',
  vlan_id_phone: '20',
  vlan_id_pcport: '30',
  firmware_file: 'fw-1.2.3.bin',
  ui_first_config: '',
};
const phoneVariables = {
  linekey_type_3: 'blf',
  linekey_value_3: '202',
  linekey_label_3: 'Anna Bianchi',
  linekey_type_4: 'speed_dial',
  linekey_value_4: '0612345678',
  linekey_label_4: 'Office & Co <main>',
};
const accounts = phoneAccountsSchema.parse([
  { extension: '91201', secret: 'SIPSECRET201', displayName: 'Mario Rossi <201>', srtp: true, voicemail: '*97' },
]);

interface Case {
  name: string;
  model?: string;
  mac: string;
  templateVariable?: string;
  userAgent?: string;
  extra?: Record<string, string>;
  complete?: boolean;
  blank?: boolean;
}

const cases: Case[] = [
  {
    name: 'yealink-T46',
    model: 'yealink-T46',
    mac: '00-15-65-AA-BB-CC',
    userAgent: 'Yealink SIP-T46S 66.86.0.15',
    extra: { expkey_type_61: 'blf', expkey_value_61: '230' },
  },
  {
    name: 'yealink-T46-complete-never',
    model: 'yealink-T46',
    mac: '00-15-65-AA-BB-CC',
    complete: true,
    extra: { provisioning_freq: 'never', ringtone: '-1', ringtone_file: 'bell.wav' },
  },
  { name: 'snom-D785', model: 'snom-D785', mac: '00-04-13-AA-BB-CC', userAgent: 'snomD785-SIP/10.1.159.12' },
  { name: 'snom-D865', model: 'snom-D865', mac: '00-04-13-AA-BB-CD' },
  { name: 'snom-firmware', model: 'snom-D785', mac: '00-04-13-AA-BB-CC', templateVariable: 'tmpl_firmware' },
  { name: 'gigaset-P820', model: 'gigaset-P820', mac: '00-04-13-E5-AA-BB' },
  {
    name: 'gigaset-Maxwell4',
    model: 'gigaset-Maxwell4',
    mac: '7C-2F-80-AA-BB-CC',
    extra: { background_file: 'logo.png' },
  },
  { name: 'fanvil-X5U', model: 'fanvil-X5U', mac: '0C-38-3E-AA-BB-CC', extra: { background_file: 'wall.bmp' } },
  { name: 'fanvil-X3', model: 'fanvil-X3', mac: '0C-38-3E-AA-BB-CD', userAgent: 'Fanvil X3S 2.4.0' },
  { name: 'fanvil-V67', model: 'fanvil-V67', mac: '00-A8-59-AA-BB-CC' },
  { name: 'nethesis-NPX5', model: 'nethesis-NPX5', mac: 'E0-E6-56-01-BB-CC', userAgent: 'Nethesis NP-X5 2.4.13' },
  { name: 'nethesis-firmware', model: 'nethesis-NPX5', mac: 'E0-E6-56-01-BB-CC', templateVariable: 'tmpl_firmware' },
  { name: 'sangoma-S505', model: 'sangoma-S505', mac: '00-50-58-AA-BB-CC' },
  { name: 'akuvox-SPR63G', model: 'akuvox-SPR63G', mac: '0C-11-05-AA-BB-CC' },
  { name: 'akuvox-WP480', model: 'akuvox-WP480', mac: '9C-75-14-AA-BB-CC' },
  { name: 'grandstream-fallback', mac: '00-0B-82-AA-BB-CC', userAgent: 'Grandstream GXP2170 1.0.11.23' },
  { name: 'yealink-tokenless-blanked', model: 'yealink-T46', mac: '00-15-65-AA-BB-CC', blank: true },
];

describe('rendered phone files match the golden files', () => {
  for (const c of cases) {
    it(c.name, async () => {
      const model = c.model ? SHIPPED_MODELS.get(c.model)?.variables : undefined;
      const variables = mergeScopes(defaults, model, phoneVariables, c.extra, accountVariables(accounts));
      const body = await renderFile(variables[c.templateVariable ?? 'tmpl_phone'] as string, {
        variables,
        mac: c.mac,
        model: c.model ?? '',
        displayName: 'Vendor',
        tok1: 'firstaccesstoken0000000000000001',
        tok2: 'steadystatetoken0000000000000002',
        serverHost: 'server.local',
        complete: c.complete ?? false,
        blank: c.blank ?? false,
        userAgent: c.userAgent ?? '',
        accountExtras: [],
        now: new Date('2026-01-15T10:00:00Z'),
      });
      const file = path.join(GOLDEN, `${c.name}.txt`);
      if (update || !fs.existsSync(file)) {
        fs.mkdirSync(GOLDEN, { recursive: true });
        fs.writeFileSync(file, body);
        if (!update) throw new Error(`golden file ${c.name}.txt was missing and has been written: review it`);
      }
      expect(body).toBe(fs.readFileSync(file, 'utf8'));
      if (c.blank) {
        for (const secret of ['SIPSECRET201', 'adminsecret', 'usersecret', 'ldapsecret', 'steadystatetoken']) {
          expect(body).not.toContain(secret);
        }
      } else if (!c.templateVariable) {
        expect(body).toContain('SIPSECRET201');
        expect(body).toContain('adminsecret');
      }
    });
  }
});
