import { describe, expect, it } from 'vitest';
import { provSipPorts } from '../../src/db/migrations/0033_prov_sip_ports.ts';
import { DB_KINDS, login, startApp, type TestApp, useTestDatabase } from '../helpers.ts';

const V1 = '/api/provisioning/v1';
const MAC = '00-15-65-AA-BB-CC';
const TLS_MAC = '00-15-65-AA-BB-DD';
const UA = 'Yealink SIP-T46S 66.86.0.15';

/**
 * Phones are told the SIP ports the PBX listens on (SIP_PORT, SIP_TLS_PORT), not the 5060/5061 a first start once
 * copied into the defaults, and follow them when the settings change; a port the administrator sets still wins.
 */
describe.each(DB_KINDS)('SIP ports in phone files (%s)', (kind) => {
  const db = useTestDatabase(kind);

  async function server(sip: number, tls: number) {
    const s = await startApp(db.current, {
      env: { TFTP_PORT: '0', SIP_PORT: String(sip), SIP_TLS_PORT: String(tls) },
    });
    const headers = await login(s.app);
    const api = async (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) => {
      const res = await s.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
      return res.body ? res.json() : undefined;
    };
    /** The SIP server port line of a phone's file, as the phone downloads it. */
    const port = async (mac: string) => {
      const { tok2 } = await api('GET', `${V1}/phones/${mac}`);
      const file = `${mac.replaceAll('-', '').toLowerCase()}.cfg`;
      const res = await s.app.inject({
        method: 'GET',
        url: `/provisioning/${tok2}/${file}`,
        headers: { 'user-agent': `${UA} ${mac.replaceAll('-', ':').toLowerCase()}` },
      });
      expect(res.statusCode, res.body).toBe(200);
      return /^account\.1\.sip_server\.1\.port = (\d+)$/m.exec(res.body)?.[1];
    };
    return { ...s, api, port };
  }

  const closing = async (s: TestApp, run: () => Promise<void>) => {
    try {
      await run();
    } finally {
      await s.close();
    }
  };

  it('a server started with other SIP ports tells phones those, and its phones follow a change of them', async () => {
    const first = await server(5070, 5071);
    await closing(first, async () => {
      await first.api('POST', `${V1}/phones`, { mac: MAC, model: 'yealink-T46' });
      await first.api('POST', `${V1}/phones`, { mac: TLS_MAC, model: 'yealink-T46' });
      await first.app.provisioning.setPhoneAccounts(MAC, [
        { extension: '201', secret: 'Secret-201', displayName: 'A' },
      ]);
      await first.app.provisioning.setPhoneAccounts(TLS_MAC, [
        { extension: '202', secret: 'Secret-202', displayName: 'B', srtp: true },
      ]);
      expect(await first.port(MAC)).toBe('5070');
      expect(await first.port(TLS_MAC)).toBe('5071');
      expect(await first.api('GET', `${V1}/defaults`)).toMatchObject({ sip_udp_port: '5070', sip_tls_port: '5071' });
      // The console's save sends back what it read: that leaves the ports following the settings.
      await first.api('PATCH', `${V1}/defaults`, { sip_udp_port: '5070', sip_tls_port: '5071', ntp_server: 'ntp.lan' });
    });

    const moved = await server(5080, 5081);
    await closing(moved, async () => {
      expect(await moved.port(MAC)).toBe('5080');
      expect(await moved.port(TLS_MAC)).toBe('5081');
      expect(await moved.api('GET', `${V1}/defaults`)).toMatchObject({
        sip_udp_port: '5080',
        sip_tls_port: '5081',
        ntp_server: 'ntp.lan',
      });
      // The administrator's own port (a SIP proxy in front, say) wins over the setting, and keeps winning.
      await moved.api('PATCH', `${V1}/defaults`, { sip_udp_port: '5062' });
      expect(await moved.port(MAC)).toBe('5062');
      expect(await moved.port(TLS_MAC)).toBe('5081');
    });

    const again = await server(5090, 5091);
    await closing(again, async () => {
      expect(await again.port(MAC)).toBe('5062');
      // Removing it hands the port back to the setting.
      await again.api('PATCH', `${V1}/defaults`, { sip_udp_port: null });
      expect(await again.port(MAC)).toBe('5090');
      expect(await again.port(TLS_MAC)).toBe('5091');
    });
  });

  it('an installation from before follows the settings too, keeping a port the administrator changed', async () => {
    const s = await server(5070, 5071);
    await closing(s, async () => {
      // The defaults as a first start stored them, with a TLS port changed since.
      const stored = { ...(await s.api('GET', `${V1}/defaults`)), sip_udp_port: '5060', sip_tls_port: '5099' };
      await s.database.db
        .updateTable('prov_scopes')
        .set({ variables: JSON.stringify(stored) })
        .where('id', '=', 'defaults')
        .execute();
      await provSipPorts.up(s.database.db);
      await s.app.provisioning.allChanged(s.database.db);
      expect(await s.api('GET', `${V1}/defaults`)).toMatchObject({ sip_udp_port: '5070', sip_tls_port: '5099' });
      expect(await s.port(MAC)).toBe('5070');
      expect(await s.port(TLS_MAC)).toBe('5099');
    });
  });
});
