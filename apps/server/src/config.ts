import { spawnSync } from 'node:child_process';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { provisioningEngines } from '@centralino/contract';
import { z } from 'zod';

/** An IPv4/IPv6 address, optionally with a /prefix (CIDR). */
function isAddressOrCidr(value: string): boolean {
  const [address = '', prefix, extra] = value.split('/');
  const family = net.isIP(address);
  if (family === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/** TRUST_PROXY: false/true, a number of proxy hops (1-10), or a comma-separated list of addresses/CIDRs. */
function isTrustProxy(value: string): boolean {
  if (/^(true|false)$/i.test(value)) return true;
  if (/^\d+$/.test(value)) return Number(value) >= 1 && Number(value) <= 10;
  const parts = value.split(',').map((part) => part.trim());
  return parts.every((part) => isAddressOrCidr(part));
}

function parseTrustProxy(value: string | undefined): boolean | number | string[] {
  if (value === undefined || /^false$/i.test(value)) return false;
  if (/^true$/i.test(value)) return true;
  if (/^\d+$/.test(value)) return Number(value);
  return value.split(',').map((part) => part.trim());
}

const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** A MariaDB database name the migration puts in its queries (quoted there, so only these characters). */
const DB_NAME = /^[A-Za-z0-9_]{1,64}$/;

/** A TCP/UDP port setting (1-65535), its messages naming the variable. */
const portSetting = (name: string, fallback: number) =>
  z.coerce
    .number({ error: `${name} must be a number` })
    .int(`${name} must be a whole number`)
    .min(1, `${name} must be between 1 and 65535`)
    .max(65535, `${name} must be between 1 and 65535`)
    .default(fallback);

/** managed: this process runs Asterisk; external: one runs elsewhere (AMI_HOST); off: configuration files only. */
export const asteriskModes = ['managed', 'external', 'off'] as const;
export type AsteriskMode = (typeof asteriskModes)[number];

const envSchema = z.object({
  PORT: z.coerce
    .number({ error: 'PORT must be a number' })
    .int('PORT must be a whole number')
    .min(0, 'PORT must be between 0 and 65535')
    .max(65535, 'PORT must be between 0 and 65535')
    .default(8080),
  HOST: z.string().min(1, 'HOST must not be empty').default('0.0.0.0'),
  DATA_DIR: z.string().min(1, 'DATA_DIR must not be empty').default('./data'),
  BACKUP_DIR: z.string().startsWith('/', 'BACKUP_DIR must be an absolute path').optional(),
  RECORDINGS_DIR: z.string().startsWith('/', 'RECORDINGS_DIR must be an absolute path').optional(),
  BACKUP_RESTORE_MAX_BYTES: z.coerce
    .number({ error: 'BACKUP_RESTORE_MAX_BYTES must be a number of bytes' })
    .int('BACKUP_RESTORE_MAX_BYTES must be a whole number of bytes')
    .min(1024, 'BACKUP_RESTORE_MAX_BYTES must be at least 1024')
    .max(Number.MAX_SAFE_INTEGER, 'BACKUP_RESTORE_MAX_BYTES is too large')
    .default(4 * 1024 ** 3),
  DATABASE_URL: z
    .string()
    .regex(/^(postgres|postgresql):\/\/.+/, 'DATABASE_URL must start with postgres:// (leave it unset for SQLite)')
    .optional(),
  ADMIN_PASSWORD: z.string().min(8, 'ADMIN_PASSWORD must be at least 8 characters').max(256).optional(),
  LOG_LEVEL: z.enum(logLevels, { error: `LOG_LEVEL must be one of ${logLevels.join(', ')}` }).default('info'),
  PROVISIONING_ENGINE: z
    .enum(provisioningEngines, { error: `PROVISIONING_ENGINE must be one of ${provisioningEngines.join(', ')}` })
    .default('tancredi'),
  SESSION_IDLE_MINUTES: z.coerce
    .number({ error: 'SESSION_IDLE_MINUTES must be a number' })
    .int()
    .min(1, 'SESSION_IDLE_MINUTES must be at least 1')
    .max(60 * 24 * 30, 'SESSION_IDLE_MINUTES must be at most 43200 (30 days)')
    .default(480),
  LOGIN_RATE_LIMIT: z.coerce
    .number({ error: 'LOGIN_RATE_LIMIT must be a number' })
    .int()
    .min(1, 'LOGIN_RATE_LIMIT must be at least 1')
    .default(10),
  TRUST_PROXY: z
    .string()
    .refine(
      isTrustProxy,
      'TRUST_PROXY must be false, true, a number of proxies (1-10) or a comma-separated list of proxy addresses (IP or CIDR)',
    )
    .optional(),
  WEB_DIST_DIR: z.string().optional(),
  EXTENSION_LIMIT: z.coerce
    .number({ error: 'EXTENSION_LIMIT must be a number' })
    .int('EXTENSION_LIMIT must be a whole number')
    .min(0, 'EXTENSION_LIMIT must be 0 or more')
    .optional(),
  ROUTE_PLANNER_URL: z
    .string()
    .regex(/^https?:\/\/\S+$/, 'ROUTE_PLANNER_URL must be an http(s) address')
    .optional(),
  /**
   * Hosts the streaming sources' snapshot check may reach even though they are the server itself (loopback),
   * link-local or a cloud metadata address: comma-separated host names or addresses, as written in the URLs.
   */
  STREAMING_ALLOWED_HOSTS: z
    .string()
    .regex(/^[\w.:\-[\], ]*$/, 'STREAMING_ALLOWED_HOSTS must be a comma-separated list of host names or addresses')
    .optional(),
  TFTP_PORT: z.coerce
    .number({ error: 'TFTP_PORT must be a number' })
    .int('TFTP_PORT must be a whole number')
    .min(0, 'TFTP_PORT must be between 0 and 65535')
    .max(65535, 'TFTP_PORT must be between 0 and 65535')
    .default(6969),
  PHONEBOOK_LDAP_PORT: z.coerce
    .number({ error: 'PHONEBOOK_LDAP_PORT must be a number' })
    .int('PHONEBOOK_LDAP_PORT must be a whole number')
    .min(1, 'PHONEBOOK_LDAP_PORT must be between 1 and 65535')
    .max(65535, 'PHONEBOOK_LDAP_PORT must be between 1 and 65535')
    .default(10389),
  PHONEBOOK_LDAPS_PORT: z.coerce
    .number({ error: 'PHONEBOOK_LDAPS_PORT must be a number' })
    .int('PHONEBOOK_LDAPS_PORT must be a whole number')
    .min(1, 'PHONEBOOK_LDAPS_PORT must be between 1 and 65535')
    .max(65535, 'PHONEBOOK_LDAPS_PORT must be between 1 and 65535')
    .default(10636),
  GATEWAY_CONTROL_PORT: z.coerce
    .number({ error: 'GATEWAY_CONTROL_PORT must be a number' })
    .int('GATEWAY_CONTROL_PORT must be a whole number')
    .min(0, 'GATEWAY_CONTROL_PORT must be between 0 and 65535')
    .max(65535, 'GATEWAY_CONTROL_PORT must be between 0 and 65535')
    .default(0),
  HTTPS_PORT: z.coerce
    .number({ error: 'HTTPS_PORT must be a number' })
    .int('HTTPS_PORT must be a whole number')
    .min(0, 'HTTPS_PORT must be between 0 and 65535')
    .max(65535, 'HTTPS_PORT must be between 0 and 65535')
    .default(0),
  HTTPS_CERT: z.string().startsWith('/', 'HTTPS_CERT must be an absolute path').optional(),
  HTTPS_KEY: z.string().startsWith('/', 'HTTPS_KEY must be an absolute path').optional(),
  ASTERISK_CONFIG_DIR: z.string().min(1, 'ASTERISK_CONFIG_DIR must not be empty').optional(),
  ASTERISK_TLS_CERT: z.string().startsWith('/', 'ASTERISK_TLS_CERT must be an absolute path').optional(),
  ASTERISK_TLS_KEY: z.string().startsWith('/', 'ASTERISK_TLS_KEY must be an absolute path').optional(),
  ASTERISK_TLS_CA: z.string().startsWith('/', 'ASTERISK_TLS_CA must be an absolute path').optional(),
  ASTERISK_USER: z
    .string()
    .regex(/^[a-z_][a-z0-9_.-]{0,31}$/i, 'ASTERISK_USER must be a user name')
    .optional(),
  ASTERISK_GROUP: z
    .string()
    .regex(/^[a-z_][a-z0-9_.-]{0,31}$/i, 'ASTERISK_GROUP must be a group name')
    .optional(),
  ASTERISK_MODULES_DIR: z.string().startsWith('/', 'ASTERISK_MODULES_DIR must be an absolute path').optional(),
  ASTERISK_VARLIB_DIR: z.string().startsWith('/', 'ASTERISK_VARLIB_DIR must be an absolute path').optional(),
  ASTERISK_DATA_DIR: z.string().startsWith('/', 'ASTERISK_DATA_DIR must be an absolute path').optional(),
  ASTERISK_SPOOL_DIR: z.string().startsWith('/', 'ASTERISK_SPOOL_DIR must be an absolute path').optional(),
  ASTERISK_RUN_DIR: z.string().startsWith('/', 'ASTERISK_RUN_DIR must be an absolute path').optional(),
  ASTERISK_LOG_DIR: z.string().startsWith('/', 'ASTERISK_LOG_DIR must be an absolute path').optional(),
  ASTERISK_SOUNDS_DIR: z.string().startsWith('/', 'ASTERISK_SOUNDS_DIR must be an absolute path').optional(),
  ASTERISK_MODE: z
    .enum(asteriskModes, { error: `ASTERISK_MODE must be one of ${asteriskModes.join(', ')}` })
    .optional(),
  ASTERISK_BIN: z.string().startsWith('/', 'ASTERISK_BIN must be an absolute path').optional(),
  ASTERISK_CACHE_DIR: z.string().startsWith('/', 'ASTERISK_CACHE_DIR must be an absolute path').optional(),
  SIP_PORT: portSetting('SIP_PORT', 5060),
  SIP_TLS_PORT: portSetting('SIP_TLS_PORT', 5061),
  SIP_WSS_PORT: portSetting('SIP_WSS_PORT', 8089),
  RTP_PORT_START: portSetting('RTP_PORT_START', 10000),
  RTP_PORT_END: portSetting('RTP_PORT_END', 20000),
  AMI_HOST: z
    .string()
    .regex(/^[A-Za-z0-9.:[\]-]+$/, 'AMI_HOST must be a host name or an IP address')
    .optional(),
  AMI_PORT: z.coerce
    .number({ error: 'AMI_PORT must be a number' })
    .int('AMI_PORT must be a whole number')
    .min(1, 'AMI_PORT must be between 1 and 65535')
    .max(65535, 'AMI_PORT must be between 1 and 65535')
    .default(5038),
  AMI_USERNAME: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,64}$/, 'AMI_USERNAME must be letters, digits, dot, dash or underscore')
    .optional(),
  AMI_SECRET: z.string().min(8, 'AMI_SECRET must be at least 8 characters').max(256).optional(),
  LOCAL_DOMAIN: z
    .string()
    .regex(/^[a-z0-9.-]+$/i, 'LOCAL_DOMAIN must be a domain name such as example.com')
    .optional(),
  RPS_URL: z
    .string()
    .regex(/^https?:\/\/[^\s/]+(\/\S*)?$/, 'RPS_URL must be an http(s) address')
    .default('https://rps.nethesis.it'),
  RPS_SYSTEM_ID: z.string().max(256).optional(),
  PHONE_FILES_DIR: z.string().startsWith('/', 'PHONE_FILES_DIR must be an absolute path').optional(),
  PHONE_FILES_GROUP: z
    .string()
    .regex(/^[a-z_][a-z0-9_.-]{0,31}$/i, 'PHONE_FILES_GROUP must be a group name')
    .optional(),
  PHONE_FILES_FIRST_USE_LOG: z
    .string()
    .startsWith('/', 'PHONE_FILES_FIRST_USE_LOG must be an absolute path')
    .optional(),
  MIGRATION_DB_URL: z
    .string()
    .regex(/^(mysql|mariadb):\/\/[^\s/]+\/?$/, 'MIGRATION_DB_URL must look like mysql://user:password@host:3306')
    .optional(),
  MIGRATION_PBX_DB: z.string().regex(DB_NAME, 'MIGRATION_PBX_DB must be a database name').default('asterisk11'),
  MIGRATION_CDR_DB: z.string().regex(DB_NAME, 'MIGRATION_CDR_DB must be a database name').default('asteriskcdrdb11'),
  MIGRATION_CTI_DB: z.string().regex(DB_NAME, 'MIGRATION_CTI_DB must be a database name').default('nethcti2'),
  MIGRATION_SOUNDS_DIR: z.string().startsWith('/', 'MIGRATION_SOUNDS_DIR must be an absolute path').optional(),
  MIGRATION_CTI_TEMPLATES_DIR: z
    .string()
    .startsWith('/', 'MIGRATION_CTI_TEMPLATES_DIR must be an absolute path')
    .optional(),
  RPS_SECRET: z.string().max(256).optional(),
});

export interface PbxPorts {
  sip: number;
  tls: number;
  wss: number;
  rtpStart: number;
  rtpEnd: number;
}

/** The setting that names each port, for messages about a port already taken. */
export const PORT_SETTINGS: Record<keyof PbxPorts, string> = {
  sip: 'SIP_PORT',
  tls: 'SIP_TLS_PORT',
  wss: 'SIP_WSS_PORT',
  rtpStart: 'RTP_PORT_START',
  rtpEnd: 'RTP_PORT_END',
};

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  /** Where scheduled backups are written (BACKUP_DIR); unset, scheduled backups are off. */
  backupDir: string | undefined;
  /** Call recordings (issue 41): RECORDINGS_DIR, else DATA_DIR/recordings; a folder per day. */
  recordingsDir: string;
  /** How many bytes an uploaded backup may unpack to (BACKUP_RESTORE_MAX_BYTES); more is refused while unpacking. */
  backupRestoreMaxBytes: number;
  databaseUrl: string | undefined;
  adminPassword: string | undefined;
  logLevel: (typeof logLevels)[number];
  provisioningEngine: (typeof provisioningEngines)[number];
  sessionIdleMinutes: number;
  /** Login attempts allowed per client address and minute. */
  loginRateLimit: number;
  /**
   * Fastify's trustProxy: which reverse proxies may set X-Forwarded-For (the client address the login
   * rate limit counts). false (default): the TCP peer is the client.
   */
  trustProxy: boolean | number | string[];
  /** Built web app to serve; undefined serves no SPA (API only). */
  webDistDir: string | undefined;
  /** Licensed number of configured extensions; undefined means unlimited. */
  extensionLimit: number | undefined;
  /** PBX engine: where the Asterisk configuration is written, certificates, and the AMI connection. */
  pbx: {
    configDir: string;
    /**
     * Asterisk's certificate for the TLS transport and the web phones' WSS listener; null certFile and
     * keyFile: a self-signed pair is made in <configDir>/keys.
     */
    tls: { certFile: string | null; keyFile: string | null; caFile: string | null };
    /**
     * Who Asterisk runs as (runuser / rungroup of asterisk.conf); the files are written group-owned by
     * `group` (gid) and readable by it. Null: not set (Asterisk keeps the user that starts it).
     */
    runAs: { user: string | null; group: string | null; gid: number | null };
    /** The [directories] of asterisk.conf (the configuration directory is configDir). */
    /** data: Asterisk's installed data (documentation, sounds); varlib: its own state (astdb, keys). */
    directories: { modules: string; varlib: string; data: string; spool: string; run: string; log: string };
    /**
     * Where the console writes the recordings it converted (8 kHz mono WAV), group-owned like the configuration;
     * the dialplan plays them by absolute path. ASTERISK_SOUNDS_DIR, else DATA_DIR/sounds.
     */
    soundsDir: string;
    /** Undefined when no AMI connection is configured (live state then answers "not connected"). */
    ami: { host: string; port: number; username: string; secret: string } | undefined;
    /** Who runs Asterisk (ASTERISK_MODE; default managed unless AMI_HOST names an external one). */
    mode: AsteriskMode;
    /** Where phones reach Asterisk (SIP_PORT, SIP_TLS_PORT, SIP_WSS_PORT) and its media ports (RTP_PORT_*). */
    ports: PbxPorts;
    /** Managed mode: an explicit binary (ASTERISK_BIN) and the build cache searched for one (ASTERISK_CACHE_DIR). */
    asteriskBin: string | undefined;
    asteriskCacheDir: string;
    /** The manager port (AMI_PORT): of the external Asterisk, or where the managed one listens on loopback. */
    amiPort: number;
    /** Which directories were named in the environment (managed mode puts the others under DATA_DIR/pbx). */
    explicitDirectories: Partial<Record<'modules' | 'varlib' | 'data' | 'spool' | 'run' | 'log', true>>;
  };
  /** User domain of the built-in directory (shown in the user portal link). */
  localDomain: string;
  /**
   * Second listener over TLS for the console and the files phones fetch; port 0 disables it. Without a
   * certificate a self-signed one is made in DATA_DIR/tls.
   */
  https: { port: number; certFile: string | undefined; keyFile: string | undefined };
  /** UDP port of the TFTP server gateways fetch their files from; 0 disables it (and push). */
  tftpPort: number;
  /** Ports of the phones' LDAP phonebook services (plain and TLS), listening only while switched on. */
  phonebookLdapPorts: { ldap: number; ldaps: number };
  /** Console port of every gateway (telnet/SSH/web) instead of the vendor's own; 0 = the vendor's. */
  gatewayControlPort: number;
  /** External route planner the inbound routes screen may open; undefined when there is none. */
  routePlannerUrl: string | undefined;
  /** Hosts the streaming snapshot check may reach although they are loopback, link-local or metadata (lower case). */
  streamingAllowedHosts: string[];
  /** Vendor redirect service phones are registered with (POST /phones/rps); credentials of this system. */
  rps: { url: string; systemId: string | undefined; secret: string | undefined };
  /**
   * Phone files also written to disk for a front web server (PHONE_FILES_DIR), readable by its group
   * (PHONE_FILES_GROUP, gid); undefined: phones are served by this process alone. `firstUseLog`
   * (PHONE_FILES_FIRST_USE_LOG): the front server's access log of phones' first steady-state fetches, so that those
   * too are served from disk.
   */
  phoneFilesExport: { dir: string; gid: number | null; firstUseLog?: string } | undefined;
  /**
   * The older system's databases (a local copy on MariaDB/MySQL) the migration reads; undefined when
   * MIGRATION_DB_URL is unset (the migration area is then inert: `ismigration` answers false).
   */
  migration:
    | {
        url: string;
        pbxDb: string;
        cdrDb: string;
        ctiDb: string;
        /** The older system's sounds folder (a copy of /var/lib/asterisk/sounds): where the recordings' audio is. */
        soundsDir: string | undefined;
        /** The old CTI's customer-card templates folder (EJS files). */
        templatesDir: string | undefined;
      }
    | undefined;
};

/** Values never echoed in error messages: a password, or a URL that may carry one. */
const SECRET_KEYS = new Set(['ADMIN_PASSWORD', 'AMI_SECRET', 'DATABASE_URL', 'MIGRATION_DB_URL', 'RPS_SECRET']);

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/** Reads and validates the environment; throws ConfigError listing every bad value. */
export function loadConfig(env: NodeJS.ProcessEnv, defaults: { webDistDir?: string } = {}): Config {
  const cleaned = Object.fromEntries(
    Object.keys(envSchema.shape).map((key) => [key, env[key] === '' ? undefined : env[key]]),
  );
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => {
        const key = String(issue.path[0] ?? '');
        if (!issue.message.startsWith(key)) return `${key}: ${issue.message}`;
        return SECRET_KEYS.has(key) ? issue.message : `${issue.message} (got "${env[key]}")`;
      }),
    );
  }
  const v = parsed.data;
  if (!v.HTTPS_CERT !== !v.HTTPS_KEY) {
    throw new ConfigError(['HTTPS_CERT and HTTPS_KEY go together: set both or none']);
  }
  if (v.HTTPS_PORT !== 0 && v.HTTPS_PORT === v.PORT) {
    throw new ConfigError(['HTTPS_PORT must differ from PORT']);
  }
  if (!v.ASTERISK_TLS_CERT !== !v.ASTERISK_TLS_KEY) {
    throw new ConfigError(['ASTERISK_TLS_CERT and ASTERISK_TLS_KEY go together: set both or none']);
  }
  // Asterisk runs as 'asterisk' when this host has that user and group; a group named explicitly must exist.
  const asteriskGroup = v.ASTERISK_GROUP ?? (lookupId('group', 'asterisk') === null ? null : 'asterisk');
  const gid = asteriskGroup === null ? null : lookupId('group', asteriskGroup);
  if (asteriskGroup !== null && gid === null) {
    throw new ConfigError([`ASTERISK_GROUP: this host has no group named "${asteriskGroup}"`]);
  }
  const phoneFilesGid = v.PHONE_FILES_GROUP === undefined ? null : lookupId('group', v.PHONE_FILES_GROUP);
  if (v.PHONE_FILES_GROUP !== undefined && phoneFilesGid === null) {
    throw new ConfigError([`PHONE_FILES_GROUP: this host has no group named "${v.PHONE_FILES_GROUP}"`]);
  }
  if (v.PHONE_FILES_GROUP !== undefined && v.PHONE_FILES_DIR === undefined) {
    throw new ConfigError(['PHONE_FILES_GROUP needs PHONE_FILES_DIR: it names who may read the files written there']);
  }
  if (v.PHONE_FILES_FIRST_USE_LOG !== undefined && v.PHONE_FILES_DIR === undefined) {
    throw new ConfigError([
      'PHONE_FILES_FIRST_USE_LOG needs PHONE_FILES_DIR: the front server logs fetches of files there',
    ]);
  }
  const asteriskUser = v.ASTERISK_USER ?? (lookupId('passwd', 'asterisk') === null ? null : 'asterisk');
  if ((v.AMI_HOST || v.AMI_USERNAME || v.AMI_SECRET) && !(v.AMI_HOST && v.AMI_USERNAME && v.AMI_SECRET)) {
    throw new ConfigError(['AMI_HOST, AMI_USERNAME and AMI_SECRET go together: set all three or none']);
  }
  const mode: AsteriskMode = v.ASTERISK_MODE ?? (v.AMI_HOST ? 'external' : 'managed');
  if (mode !== 'external' && v.AMI_HOST) {
    throw new ConfigError([
      `ASTERISK_MODE=${mode} does not connect to an external Asterisk: unset AMI_HOST, AMI_USERNAME and AMI_SECRET, or set ASTERISK_MODE=external`,
    ]);
  }
  const ports = checkPorts(v, mode === 'managed');
  // A managed Asterisk keeps its state, spool, logs and run folder beside the console's data.
  const managedDir = (name: string) => (mode === 'managed' ? path.resolve(v.DATA_DIR, 'pbx', name) : undefined);
  const explicitDirectories = Object.fromEntries(
    (['modules', 'varlib', 'data', 'spool', 'run', 'log'] as const)
      .filter((d) => v[`ASTERISK_${d.toUpperCase()}_DIR` as 'ASTERISK_LOG_DIR'] !== undefined)
      .map((d) => [d, true]),
  );
  return {
    port: v.PORT,
    host: v.HOST,
    dataDir: path.resolve(v.DATA_DIR),
    backupDir: v.BACKUP_DIR,
    recordingsDir: path.resolve(v.RECORDINGS_DIR ?? path.join(v.DATA_DIR, 'recordings')),
    backupRestoreMaxBytes: v.BACKUP_RESTORE_MAX_BYTES,
    databaseUrl: v.DATABASE_URL,
    adminPassword: v.ADMIN_PASSWORD,
    logLevel: v.LOG_LEVEL,
    provisioningEngine: v.PROVISIONING_ENGINE,
    sessionIdleMinutes: v.SESSION_IDLE_MINUTES,
    loginRateLimit: v.LOGIN_RATE_LIMIT,
    trustProxy: parseTrustProxy(v.TRUST_PROXY),
    webDistDir: v.WEB_DIST_DIR ? path.resolve(v.WEB_DIST_DIR) : defaults.webDistDir,
    extensionLimit: v.EXTENSION_LIMIT,
    pbx: {
      configDir: path.resolve(v.ASTERISK_CONFIG_DIR ?? path.join(v.DATA_DIR, 'asterisk')),
      tls: {
        certFile: v.ASTERISK_TLS_CERT ?? null,
        keyFile: v.ASTERISK_TLS_KEY ?? null,
        caFile: v.ASTERISK_TLS_CA ?? null,
      },
      runAs: { user: asteriskUser, group: asteriskGroup, gid },
      directories: {
        modules: v.ASTERISK_MODULES_DIR ?? '/usr/lib/asterisk/modules',
        varlib: v.ASTERISK_VARLIB_DIR ?? managedDir('lib') ?? '/var/lib/asterisk',
        data: v.ASTERISK_DATA_DIR ?? v.ASTERISK_VARLIB_DIR ?? managedDir('data') ?? '/var/lib/asterisk',
        spool: v.ASTERISK_SPOOL_DIR ?? managedDir('spool') ?? '/var/spool/asterisk',
        run: v.ASTERISK_RUN_DIR ?? managedDir('run') ?? '/var/run/asterisk',
        log: v.ASTERISK_LOG_DIR ?? managedDir('log') ?? '/var/log/asterisk',
      },
      soundsDir: path.resolve(v.ASTERISK_SOUNDS_DIR ?? path.join(v.DATA_DIR, 'sounds')),
      ami:
        v.AMI_HOST && v.AMI_USERNAME && v.AMI_SECRET
          ? { host: v.AMI_HOST, port: v.AMI_PORT, username: v.AMI_USERNAME, secret: v.AMI_SECRET }
          : undefined,
      mode,
      ports,
      asteriskBin: v.ASTERISK_BIN,
      asteriskCacheDir: v.ASTERISK_CACHE_DIR ?? '/var/cache/centralino',
      amiPort: v.AMI_PORT,
      explicitDirectories,
    },
    localDomain: (v.LOCAL_DOMAIN ?? defaultDomain()).toLowerCase(),
    https: { port: v.HTTPS_PORT, certFile: v.HTTPS_CERT, keyFile: v.HTTPS_KEY },
    tftpPort: v.TFTP_PORT,
    phonebookLdapPorts: { ldap: v.PHONEBOOK_LDAP_PORT, ldaps: v.PHONEBOOK_LDAPS_PORT },
    gatewayControlPort: v.GATEWAY_CONTROL_PORT,
    routePlannerUrl: v.ROUTE_PLANNER_URL,
    streamingAllowedHosts: (v.STREAMING_ALLOWED_HOSTS ?? '')
      .split(',')
      .map((h) =>
        h
          .trim()
          .toLowerCase()
          .replace(/^\[|\]$/g, ''),
      )
      .filter((h) => h !== ''),
    rps: { url: v.RPS_URL.replace(/\/+$/, ''), systemId: v.RPS_SYSTEM_ID, secret: v.RPS_SECRET },
    phoneFilesExport: v.PHONE_FILES_DIR
      ? {
          dir: path.resolve(v.PHONE_FILES_DIR),
          gid: phoneFilesGid,
          ...(v.PHONE_FILES_FIRST_USE_LOG === undefined
            ? {}
            : { firstUseLog: path.resolve(v.PHONE_FILES_FIRST_USE_LOG) }),
        }
      : undefined,
    migration: v.MIGRATION_DB_URL
      ? {
          url: v.MIGRATION_DB_URL,
          pbxDb: v.MIGRATION_PBX_DB,
          cdrDb: v.MIGRATION_CDR_DB,
          ctiDb: v.MIGRATION_CTI_DB,
          soundsDir: v.MIGRATION_SOUNDS_DIR ? path.resolve(v.MIGRATION_SOUNDS_DIR) : undefined,
          templatesDir: v.MIGRATION_CTI_TEMPLATES_DIR ? path.resolve(v.MIGRATION_CTI_TEMPLATES_DIR) : undefined,
        }
      : undefined,
  };
}

/** The phones' ports: each its own, and a media range that holds at least a few calls. */
function checkPorts(v: z.infer<typeof envSchema>, managed: boolean): PbxPorts {
  const ports: PbxPorts = {
    sip: v.SIP_PORT,
    tls: v.SIP_TLS_PORT,
    wss: v.SIP_WSS_PORT,
    rtpStart: v.RTP_PORT_START,
    rtpEnd: v.RTP_PORT_END,
  };
  const problems: string[] = [];
  if (ports.rtpEnd - ports.rtpStart < 100) {
    problems.push('RTP_PORT_END must be at least 100 above RTP_PORT_START (two ports a call)');
  }
  const tcp: [string, number][] = [
    ['SIP_PORT', ports.sip],
    ['SIP_TLS_PORT', ports.tls],
    ['SIP_WSS_PORT', ports.wss],
    ['AMI_PORT', v.AMI_PORT],
  ];
  if (v.PORT !== 0) tcp.push(['PORT', v.PORT]);
  // Elsewhere the ports are another host's (an external Asterisk), so only a managed one can collide here.
  for (let i = 0; managed && i < tcp.length; i++) {
    for (let j = i + 1; j < tcp.length; j++) {
      const [a, pa] = tcp[i] as [string, number];
      const [b, pb] = tcp[j] as [string, number];
      if (pa === pb) problems.push(`${a} and ${b} are both ${pa}: each needs a port of its own`);
    }
  }
  // The media range is UDP: only the SIP port is also UDP.
  if (ports.sip >= ports.rtpStart && ports.sip <= ports.rtpEnd) {
    problems.push(`SIP_PORT (${ports.sip}) is inside the media range RTP_PORT_START-RTP_PORT_END`);
  }
  if (problems.length > 0) throw new ConfigError([...new Set(problems)]);
  return ports;
}

/** The numeric id of a user ('passwd') or group on this host (NSS, as `getent` sees it), null when there is none. */
export function lookupId(database: 'passwd' | 'group', name: string): number | null {
  const r = spawnSync('getent', [database, name], { encoding: 'utf8' });
  const id = r.status === 0 ? Number(r.stdout.split(':')[2]) : Number.NaN;
  return Number.isInteger(id) ? id : null;
}

/** The host's DNS domain (pbx.example.com → example.com), or 'local' when the name has none. */
function defaultDomain(): string {
  const parts = os.hostname().split('.');
  return parts.length > 1 ? parts.slice(1).join('.') : 'local';
}
