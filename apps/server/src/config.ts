import os from 'node:os';
import path from 'node:path';
import { provisioningEngines } from '@centralino/contract';
import { z } from 'zod';

const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const envSchema = z.object({
  PORT: z.coerce
    .number({ error: 'PORT must be a number' })
    .int('PORT must be a whole number')
    .min(0, 'PORT must be between 0 and 65535')
    .max(65535, 'PORT must be between 0 and 65535')
    .default(8080),
  HOST: z.string().min(1, 'HOST must not be empty').default('0.0.0.0'),
  DATA_DIR: z.string().min(1, 'DATA_DIR must not be empty').default('./data'),
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
  WEB_DIST_DIR: z.string().optional(),
  EXTENSION_LIMIT: z.coerce
    .number({ error: 'EXTENSION_LIMIT must be a number' })
    .int('EXTENSION_LIMIT must be a whole number')
    .min(0, 'EXTENSION_LIMIT must be 0 or more')
    .optional(),
  LOCAL_DOMAIN: z
    .string()
    .regex(/^[a-z0-9.-]+$/i, 'LOCAL_DOMAIN must be a domain name such as example.com')
    .optional(),
});

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  adminPassword: string | undefined;
  logLevel: (typeof logLevels)[number];
  provisioningEngine: (typeof provisioningEngines)[number];
  sessionIdleMinutes: number;
  /** Login attempts allowed per client address and minute. */
  loginRateLimit: number;
  /** Built web app to serve; undefined serves no SPA (API only). */
  webDistDir: string | undefined;
  /** Licensed number of configured extensions; undefined means unlimited. */
  extensionLimit: number | undefined;
  /** User domain of the built-in directory (shown in the user portal link). */
  localDomain: string;
};

/** Values never echoed in error messages: a password, or a URL that may carry one. */
const SECRET_KEYS = new Set(['ADMIN_PASSWORD', 'DATABASE_URL']);

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
  return {
    port: v.PORT,
    host: v.HOST,
    dataDir: path.resolve(v.DATA_DIR),
    databaseUrl: v.DATABASE_URL,
    adminPassword: v.ADMIN_PASSWORD,
    logLevel: v.LOG_LEVEL,
    provisioningEngine: v.PROVISIONING_ENGINE,
    sessionIdleMinutes: v.SESSION_IDLE_MINUTES,
    loginRateLimit: v.LOGIN_RATE_LIMIT,
    webDistDir: v.WEB_DIST_DIR ? path.resolve(v.WEB_DIST_DIR) : defaults.webDistDir,
    extensionLimit: v.EXTENSION_LIMIT,
    localDomain: (v.LOCAL_DOMAIN ?? defaultDomain()).toLowerCase(),
  };
}

/** The host's DNS domain (pbx.example.com → example.com), or 'local' when the name has none. */
function defaultDomain(): string {
  const parts = os.hostname().split('.');
  return parts.length > 1 ? parts.slice(1).join('.') : 'local';
}
