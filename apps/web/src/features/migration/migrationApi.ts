import {
  type CdrProgress,
  cdrProgressSchema,
  cdrRowCountSchema,
  csvImportStatusSchema,
  type ImportOldUser,
  type MigrationStatus,
  type MigrationStepResult,
  migrationDryRunSchema,
  migrationReportSchema,
  migrationStatusSchema,
  migrationStepResultSchema,
  oldUserListSchema,
} from '@centralino/contract';
import { AUTH_KEY_HEADER, AUTH_USER_HEADER } from '@centralino/contract/constants';
import { z } from 'zod';
import { ApiError, apiRequest } from '../../api/client.ts';
import { readCredentials } from '../../api/credentials.ts';
import i18n from '../../i18n/index.ts';

/**
 * A migration step: its three lists come back with HTTP 200 (success) and with 500 (failure) alike (contract
 * §11.1), so the answer is read either way; anything else (a network error, sign-in expired) throws.
 */
async function step(path: string): Promise<{ ok: boolean; result: MigrationStepResult }> {
  const credentials = readCredentials();
  const headers: Record<string, string> = { Accept: 'application/json', 'Accept-Language': i18n.language || 'en' };
  if (credentials) {
    headers[AUTH_USER_HEADER] = credentials.user;
    headers[AUTH_KEY_HEADER] = credentials.secretkey;
  }
  const response = await fetch(path, { method: 'POST', headers });
  const parsed = migrationStepResultSchema.safeParse(await response.json().catch(() => undefined));
  if (!parsed.success) {
    throw new ApiError(response.status, {
      code: 'internal',
      title: i18n.t('errors.internal.title'),
      detail: i18n.t('errors.internal.detail'),
    });
  }
  return { ok: response.ok, result: parsed.data };
}

const stepDone = migrationStepResultSchema;

export const migrationApi = {
  isMigration: () => apiRequest('GET', '/api/migration/ismigration', { schema: z.boolean() }),
  status: () => apiRequest('GET', '/api/migration/migrationstatus', { schema: migrationStatusSchema }),
  setStatus: (status: MigrationStatus) =>
    apiRequest('POST', '/api/migration/migrationstatus', { body: { status }, schema: stepDone }),
  end: () => apiRequest('POST', '/api/migration/endmigration', { schema: stepDone }),
  oldUsers: () => apiRequest('GET', '/api/migration/oldusers', { schema: oldUserListSchema }),
  importProfiles: () => step('/api/migration/importprofiles'),
  importUsers: (users: ImportOldUser[]) =>
    apiRequest('POST', '/api/migration/importusers', { body: users, schema: z.null() }),
  importStatus: () => apiRequest('GET', '/api/csv/csvimport', { schema: csvImportStatusSchema }),
  step,
  /** What the migration would do, read from the old system without writing anything. */
  dryRun: () => apiRequest('POST', '/api/migration/dryrun', { schema: migrationDryRunSchema }),
  cdrCount: () => apiRequest('GET', '/api/migration/cdrrowcount', { schema: cdrRowCountSchema }),
  startCdr: () => apiRequest('POST', '/api/migration/cdr', { schema: z.null() }),
  /** Progress of the copy; a failed copy answers 500 with its progress, read here as a result too. */
  cdrProgress: async (): Promise<CdrProgress | null> => {
    try {
      return await apiRequest('GET', '/api/migration/cdr', { schema: cdrProgressSchema });
    } catch (error) {
      if (error instanceof ApiError && error.status === 422) return null;
      if (error instanceof ApiError && error.status === 500) return { status: false, progress: 0, copied: 0, total: 0 };
      throw error;
    }
  },
  report: () => apiRequest('GET', '/api/migration/report', { schema: migrationReportSchema }),
};

/** The configuration sections in the contract's order, each with the calls it makes. */
export const CONFIG_SECTIONS: { key: string; calls: string[] }[] = [
  { key: 'vtrunks', calls: ['importoldvoiptrunks'] },
  { key: 'gateptrunks', calls: ['gateways'] },
  { key: 'iax', calls: ['iax'] },
  { key: 'outroutes', calls: ['importoutboundroutes', 'trunksroutesassignements'] },
  { key: 'groups', calls: ['groups'] },
  { key: 'queues', calls: ['queues'] },
  { key: 'ivr', calls: ['ivr'] },
  { key: 'cqr', calls: ['cqr'] },
  { key: 'recordings', calls: ['recordings'] },
  { key: 'announcements', calls: ['announcements'] },
  { key: 'daynight', calls: ['daynight'] },
  { key: 'tgroupstcond', calls: ['timegroups', 'timeconditions'] },
  { key: 'iroutes', calls: ['inboundroutes'] },
  { key: 'postmig', calls: ['postmigration'] },
];
