import { describe, expect, it } from 'vitest';
import { defaultPbxSettings } from '../../src/pbx/model.ts';
import { renderAsteriskConf, renderModules } from '../../src/pbx/render/system.ts';

describe('asterisk.conf and modules.conf', () => {
  it('writes [directories] as a real section from the settings, and runuser/rungroup only when set', () => {
    const text = renderAsteriskConf({
      ...defaultPbxSettings,
      system: {
        runUser: null,
        runGroup: 'pbx',
        directories: {
          config: '/srv/pbx/etc',
          modules: '/opt/asterisk/lib/asterisk/modules',
          varlib: '/srv/pbx/lib',
          data: '/opt/asterisk/var/lib/asterisk',
          spool: '/srv/pbx/spool',
          run: '/run/pbx',
          log: '/var/log/pbx',
        },
      },
    });
    expect(text).toContain('\n[directories]\n');
    expect(text).not.toContain('(!)');
    for (const line of [
      'astetcdir => /srv/pbx/etc',
      'astmoddir => /opt/asterisk/lib/asterisk/modules',
      'astvarlibdir => /srv/pbx/lib',
      'astdbdir => /srv/pbx/lib',
      'astdatadir => /opt/asterisk/var/lib/asterisk',
      'astagidir => /srv/pbx/lib/agi-bin',
      'astspooldir => /srv/pbx/spool',
      'astrundir => /run/pbx',
      'astlogdir => /var/log/pbx',
      'rungroup = pbx',
    ]) {
      expect(text).toContain(`${line}\n`);
    }
    expect(text).not.toContain('runuser');
  });

  it('loads an explicit list of modules instead of every module there is', () => {
    const text = renderModules();
    expect(text).toContain('autoload = no\n');
    expect(text).toContain('preload = func_db.so\n');
    for (const module of ['chan_pjsip.so', 'pbx_config.so', 'app_voicemail.so', 'res_pjsip_outbound_publish.so']) {
      expect(text).toContain(`load = ${module}\n`);
    }
    expect(text).not.toMatch(/chan_sip|res_crypto|\nload = func_db/);
  });
});
