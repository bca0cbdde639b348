import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, lookupId } from '../src/config.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe('loadConfig', () => {
  it('has working defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      databaseUrl: undefined,
      adminPassword: undefined,
      logLevel: 'info',
      provisioningEngine: 'tancredi',
      sessionIdleMinutes: 480,
      loginRateLimit: 10,
      webDistDir: undefined,
      extensionLimit: undefined,
      backupRestoreMaxBytes: 4 * 1024 ** 3,
      // The original's ports for the phones' phonebook (api-admin §9.9 legacy): what deployed phones point at.
      phonebookLdapPorts: { ldap: 10389, ldaps: 10636 },
    });
    expect(config.dataDir).toBe(path.resolve('./data'));
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '9000',
      HOST: '127.0.0.1',
      DATA_DIR: '/tmp/centralino-data',
      BACKUP_DIR: '/var/backups/centralino',
      DATABASE_URL: 'postgresql://u:p@db/centralino',
      ADMIN_PASSWORD: 'long-enough',
      LOG_LEVEL: 'warn',
      PROVISIONING_ENGINE: 'freepbx',
      SESSION_IDLE_MINUTES: '30',
      LOGIN_RATE_LIMIT: '5',
      TRUST_PROXY: '10.0.0.1, 10.1.0.0/16',
      WEB_DIST_DIR: '/tmp/web',
      EXTENSION_LIMIT: '8',
      LOCAL_DOMAIN: 'Example.COM',
      ROUTE_PLANNER_URL: 'https://plan.example.com/',
      TFTP_PORT: '1069',
      PHONEBOOK_LDAP_PORT: '20389',
      PHONEBOOK_LDAPS_PORT: '20636',
      GATEWAY_CONTROL_PORT: '2323',
      ASTERISK_CONFIG_DIR: '/etc/asterisk',
      ASTERISK_TLS_CERT: '/etc/ssl/pbx.crt',
      ASTERISK_TLS_KEY: '/etc/ssl/pbx.key',
      ASTERISK_USER: 'pbx',
      ASTERISK_GROUP: 'root',
      ASTERISK_MODULES_DIR: '/opt/asterisk/lib/asterisk/modules',
      ASTERISK_VARLIB_DIR: '/opt/asterisk/var/lib/asterisk',
      ASTERISK_DATA_DIR: '/opt/asterisk/share/asterisk',
      ASTERISK_SPOOL_DIR: '/opt/asterisk/var/spool/asterisk',
      ASTERISK_RUN_DIR: '/opt/asterisk/var/run/asterisk',
      ASTERISK_LOG_DIR: '/opt/asterisk/var/log/asterisk',
      ASTERISK_SOUNDS_DIR: '/opt/asterisk/sounds/custom',
      STREAMING_ALLOWED_HOSTS: 'Cam.local, [fd00::5]',
      PHONE_FILES_DIR: '/var/lib/centralino-phone-files',
      PHONE_FILES_GROUP: 'root',
      PHONE_FILES_FIRST_USE_LOG: '/var/lib/centralino-phone-files/first-use.log',
      AMI_HOST: '127.0.0.1',
      AMI_PORT: '5039',
      AMI_USERNAME: 'centralino',
      AMI_SECRET: 'ami-secret',
      MIGRATION_DB_URL: 'mysql://migration:pw@10.0.0.9:3306',
      MIGRATION_PBX_DB: 'old_asterisk',
      MIGRATION_CDR_DB: 'old_cdr',
      MIGRATION_CTI_DB: 'old_cti',
      MIGRATION_SOUNDS_DIR: '/srv/old-pbx/sounds',
      MIGRATION_CTI_TEMPLATES_DIR: '/srv/old-pbx/cti-templates',
      BACKUP_RESTORE_MAX_BYTES: String(8 * 1024 ** 3),
      SIP_PORT: '5070',
      SIP_TLS_PORT: '5071',
      SIP_WSS_PORT: '8090',
      RTP_PORT_START: '30000',
      RTP_PORT_END: '30998',
      ASTERISK_BIN: '/opt/asterisk/sbin/asterisk',
      ASTERISK_CACHE_DIR: '/srv/cache',
    });
    expect(config).toEqual({
      port: 9000,
      host: '127.0.0.1',
      dataDir: '/tmp/centralino-data',
      backupDir: '/var/backups/centralino',
      backupRestoreMaxBytes: 8 * 1024 ** 3,
      databaseUrl: 'postgresql://u:p@db/centralino',
      adminPassword: 'long-enough',
      logLevel: 'warn',
      provisioningEngine: 'freepbx',
      recordingsDir: '/tmp/centralino-data/recordings',
      sessionIdleMinutes: 30,
      loginRateLimit: 5,
      trustProxy: ['10.0.0.1', '10.1.0.0/16'],
      webDistDir: '/tmp/web',
      extensionLimit: 8,
      localDomain: 'example.com',
      routePlannerUrl: 'https://plan.example.com/',
      https: { port: 0, certFile: undefined, keyFile: undefined },
      tftpPort: 1069,
      phonebookLdapPorts: { ldap: 20389, ldaps: 20636 },
      rps: { url: 'https://rps.nethesis.it', systemId: undefined, secret: undefined },
      gatewayControlPort: 2323,
      streamingAllowedHosts: ['cam.local', 'fd00::5'],
      phoneFilesExport: {
        dir: '/var/lib/centralino-phone-files',
        gid: 0,
        firstUseLog: '/var/lib/centralino-phone-files/first-use.log',
      },
      migration: {
        url: 'mysql://migration:pw@10.0.0.9:3306',
        pbxDb: 'old_asterisk',
        cdrDb: 'old_cdr',
        ctiDb: 'old_cti',
        soundsDir: '/srv/old-pbx/sounds',
        templatesDir: '/srv/old-pbx/cti-templates',
      },
      pbx: {
        configDir: '/etc/asterisk',
        soundsDir: '/opt/asterisk/sounds/custom',
        tls: { certFile: '/etc/ssl/pbx.crt', keyFile: '/etc/ssl/pbx.key', caFile: null },
        runAs: { user: 'pbx', group: 'root', gid: 0 },
        directories: {
          modules: '/opt/asterisk/lib/asterisk/modules',
          varlib: '/opt/asterisk/var/lib/asterisk',
          data: '/opt/asterisk/share/asterisk',
          spool: '/opt/asterisk/var/spool/asterisk',
          run: '/opt/asterisk/var/run/asterisk',
          log: '/opt/asterisk/var/log/asterisk',
        },
        ami: { host: '127.0.0.1', port: 5039, username: 'centralino', secret: 'ami-secret' },
        mode: 'external',
        ports: { sip: 5070, tls: 5071, wss: 8090, rtpStart: 30000, rtpEnd: 30998 },
        asteriskBin: '/opt/asterisk/sbin/asterisk',
        asteriskCacheDir: '/srv/cache',
        amiPort: 5039,
        explicitDirectories: { modules: true, varlib: true, data: true, spool: true, run: true, log: true },
      },
    });
  });

  it('runs its own Asterisk unless AMI_HOST names one, with its folders under DATA_DIR and its ports checked', () => {
    const managed = loadConfig({ DATA_DIR: '/tmp/d' }).pbx;
    expect(managed.mode).toBe('managed');
    expect(managed.ami).toBeUndefined();
    expect(managed.ports).toEqual({ sip: 5060, tls: 5061, wss: 8089, rtpStart: 10000, rtpEnd: 20000 });
    expect(managed.directories).toMatchObject({
      varlib: '/tmp/d/pbx/lib',
      data: '/tmp/d/pbx/data',
      spool: '/tmp/d/pbx/spool',
      run: '/tmp/d/pbx/run',
      log: '/tmp/d/pbx/log',
    });
    const external = { AMI_HOST: '10.0.0.5', AMI_USERNAME: 'centralino', AMI_SECRET: 'ami-secret' };
    expect(loadConfig(external).pbx.mode).toBe('external');
    expect(() => loadConfig({ ...external, ASTERISK_MODE: 'managed' })).toThrow(
      'ASTERISK_MODE=managed does not connect to an external Asterisk: unset AMI_HOST',
    );
    expect(() => loadConfig({ ASTERISK_MODE: 'cloud' })).toThrow('ASTERISK_MODE must be one of managed, external, off');
    expect(() => loadConfig({ SIP_PORT: '8080' })).toThrow('SIP_PORT and PORT are both 8080');
    expect(() => loadConfig({ SIP_PORT: '15000' })).toThrow('SIP_PORT (15000) is inside the media range');
    expect(() => loadConfig({ RTP_PORT_START: '20000', RTP_PORT_END: '20010' })).toThrow(
      'RTP_PORT_END must be at least 100 above RTP_PORT_START',
    );
    // Another host's ports cannot collide with this one's.
    expect(loadConfig({ ...external, AMI_PORT: '8080' }).pbx.amiPort).toBe(8080);
  });

  it('reads the redirect service address (without a trailing slash) and its credentials', () => {
    expect(
      loadConfig({ RPS_URL: 'http://127.0.0.1:9/rps/', RPS_SYSTEM_ID: 'sys-1', RPS_SECRET: 'shh-secret' }).rps,
    ).toEqual({ url: 'http://127.0.0.1:9/rps', systemId: 'sys-1', secret: 'shh-secret' });
    expect(() => loadConfig({ RPS_URL: 'ftp://rps' })).toThrow('RPS_URL must be an http(s) address');
  });

  it("runs Asterisk as this host's asterisk user and group when there are, and wants a named group to exist", () => {
    const { pbx } = loadConfig({ ASTERISK_MODE: 'off' });
    expect(pbx.runAs.group).toBe(lookupId('group', 'asterisk') === null ? null : 'asterisk');
    expect(pbx.runAs.gid).toBe(lookupId('group', 'asterisk'));
    expect(pbx.runAs.user).toBe(lookupId('passwd', 'asterisk') === null ? null : 'asterisk');
    expect(pbx.tls).toEqual({ certFile: null, keyFile: null, caFile: null });
    expect(pbx.directories).toEqual({
      modules: '/usr/lib/asterisk/modules',
      varlib: '/var/lib/asterisk',
      data: '/var/lib/asterisk',
      spool: '/var/spool/asterisk',
      run: '/var/run/asterisk',
      log: '/var/log/asterisk',
    });
    expect(() => loadConfig({ ASTERISK_GROUP: 'no-such-group-here' })).toThrow(
      'ASTERISK_GROUP: this host has no group named "no-such-group-here"',
    );
    expect(() => loadConfig({ ASTERISK_TLS_CERT: '/etc/ssl/a.crt' })).toThrow(
      'ASTERISK_TLS_CERT and ASTERISK_TLS_KEY go together',
    );
  });

  it('writes phone files for a front web server only when told where, readable by a group that exists', () => {
    expect(loadConfig({}).phoneFilesExport).toBeUndefined();
    expect(loadConfig({ PHONE_FILES_DIR: '/srv/phones' }).phoneFilesExport).toEqual({ dir: '/srv/phones', gid: null });
    expect(() => loadConfig({ PHONE_FILES_DIR: 'phones' })).toThrow('PHONE_FILES_DIR must be an absolute path');
    expect(() => loadConfig({ PHONE_FILES_DIR: '/srv/phones', PHONE_FILES_GROUP: 'no-such-group-here' })).toThrow(
      'PHONE_FILES_GROUP: this host has no group named "no-such-group-here"',
    );
    expect(() => loadConfig({ PHONE_FILES_GROUP: 'root' })).toThrow('PHONE_FILES_GROUP needs PHONE_FILES_DIR');
    expect(
      loadConfig({ PHONE_FILES_DIR: '/srv/phones', PHONE_FILES_FIRST_USE_LOG: '/srv/phones/first-use.log' })
        .phoneFilesExport,
    ).toEqual({ dir: '/srv/phones', gid: null, firstUseLog: '/srv/phones/first-use.log' });
    expect(() => loadConfig({ PHONE_FILES_FIRST_USE_LOG: '/srv/phones/first-use.log' })).toThrow(
      'PHONE_FILES_FIRST_USE_LOG needs PHONE_FILES_DIR',
    );
    expect(() => loadConfig({ PHONE_FILES_DIR: '/srv/phones', PHONE_FILES_FIRST_USE_LOG: 'first-use.log' })).toThrow(
      'PHONE_FILES_FIRST_USE_LOG must be an absolute path',
    );
  });

  it('puts the Asterisk files under DATA_DIR and wants the AMI settings together', () => {
    expect(loadConfig({ DATA_DIR: '/tmp/d' }).pbx).toMatchObject({ configDir: '/tmp/d/asterisk', ami: undefined });
    expect(() => loadConfig({ AMI_HOST: '127.0.0.1' })).toThrow('AMI_HOST, AMI_USERNAME and AMI_SECRET go together');
    const error = (() => {
      try {
        loadConfig({ AMI_HOST: 'h', AMI_USERNAME: 'u', AMI_SECRET: 'short' });
      } catch (e) {
        return String(e);
      }
    })();
    expect(error).toContain('AMI_SECRET must be at least 8 characters');
    expect(error).not.toContain('short');
  });

  it('treats empty strings as unset', () => {
    const config = loadConfig({
      PORT: '',
      HOST: '',
      DATA_DIR: '',
      DATABASE_URL: '',
      ADMIN_PASSWORD: '',
      LOG_LEVEL: '',
      PROVISIONING_ENGINE: '',
      SESSION_IDLE_MINUTES: '',
      LOGIN_RATE_LIMIT: '',
      WEB_DIST_DIR: '',
    });
    expect(config).toEqual(loadConfig({}));
  });

  it('falls back to the web app given by the caller', () => {
    expect(loadConfig({}, { webDistDir: '/opt/web' }).webDistDir).toBe('/opt/web');
    expect(loadConfig({ WEB_DIST_DIR: '/srv/web' }, { webDistDir: '/opt/web' }).webDistDir).toBe('/srv/web');
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '-1'],
    ['PORT', '80.5'],
    ['LOG_LEVEL', 'verbose'],
    ['PROVISIONING_ENGINE', 'asterisk'],
    ['DATABASE_URL', 'mysql://x'],
    ['DATABASE_URL', 'postgres://'],
    ['ADMIN_PASSWORD', 'short'],
    ['SESSION_IDLE_MINUTES', '0'],
    ['SESSION_IDLE_MINUTES', 'forever'],
    ['LOGIN_RATE_LIMIT', '0'],
  ])('refuses %s=%s with a problem naming the variable', (key, value) => {
    const problems = problemsOf({ [key]: value });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(key);
  });

  it('lists every problem at once', () => {
    const problems = problemsOf({ PORT: 'abc', LOG_LEVEL: 'loud', DATABASE_URL: 'mysql://x' });
    expect(problems).toHaveLength(3);
    for (const key of ['PORT', 'LOG_LEVEL', 'DATABASE_URL']) expect(problems.some((p) => p.includes(key))).toBe(true);
  });

  it('takes the HTTPS listener settings, and refuses a certificate without its key or a port clash', () => {
    expect(loadConfig({}).https).toEqual({ port: 0, certFile: undefined, keyFile: undefined });
    expect(loadConfig({ HTTPS_PORT: '8443', HTTPS_CERT: '/etc/c.pem', HTTPS_KEY: '/etc/k.pem' }).https).toEqual({
      port: 8443,
      certFile: '/etc/c.pem',
      keyFile: '/etc/k.pem',
    });
    expect(problemsOf({ HTTPS_CERT: '/etc/c.pem' })[0]).toContain('HTTPS_CERT and HTTPS_KEY go together');
    expect(problemsOf({ HTTPS_PORT: '8080', PORT: '8080' })[0]).toContain('HTTPS_PORT must differ from PORT');
    expect(problemsOf({ HTTPS_KEY: 'relative.pem', HTTPS_CERT: '/etc/c.pem' })[0]).toContain('absolute path');
  });

  it('shows the bad value, except for secrets', () => {
    expect(problemsOf({ PORT: 'abc' })[0]).toContain('"abc"');
    expect(problemsOf({ ADMIN_PASSWORD: 'hunter2' })[0]).not.toContain('hunter2');
    expect(problemsOf({ DATABASE_URL: 'mysql://root:s3cret@db/x' })[0]).not.toContain('s3cret');
  });
});

describe('server entry point', () => {
  it('exits with code 2 and names the variable when the configuration is bad', async () => {
    const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        ['--import', 'tsx', 'apps/server/src/main.ts'],
        {
          cwd: repoRoot,
          env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: 'abc', ADMIN_PASSWORD: 'hunter2' },
          timeout: 30_000,
        },
        (error, stdout, stderr) => resolve({ code: error ? (error.code as number | null) : 0, stdout, stderr }),
      );
    });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain('PORT');
    expect(result.stderr).toContain('"abc"');
    expect(result.stderr).toContain('ADMIN_PASSWORD');
    expect(result.stderr).not.toContain('hunter2');
  });
});
