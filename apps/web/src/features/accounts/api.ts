import {
  type AccountCreate,
  type AccountRole,
  type AuditQuery,
  type AuditSettings,
  accountSchema,
  auditPageSchema,
  auditSettingsSchema,
} from '@centralino/contract';
import { z } from 'zod';
import { apiRequest } from '../../api/client.ts';
import { queryString } from '../../api/download.ts';

const success = z.object({ success: z.literal(true) }).loose();
const name = (username: string) => encodeURIComponent(username);

export const accountsApi = {
  list: () => apiRequest('GET', '/api/admin/accounts', { schema: z.array(accountSchema) }),
  create: (body: AccountCreate) => apiRequest('POST', '/api/admin/accounts', { body, schema: success }),
  setRole: (username: string, role: AccountRole) =>
    apiRequest('PUT', `/api/admin/accounts/${name(username)}`, { body: { role }, schema: success }),
  setListen: (username: string, listen: boolean) =>
    apiRequest('PUT', `/api/admin/accounts/${name(username)}`, {
      body: { listen_recordings: listen },
      schema: success,
    }),
  remove: (username: string) => apiRequest('DELETE', `/api/admin/accounts/${name(username)}`, { schema: success }),
  resetTwoFactor: (username: string) =>
    apiRequest('DELETE', `/api/admin/accounts/${name(username)}/2fa`, { schema: success }),
  resetPassword: (username: string, password: string) =>
    apiRequest('POST', `/api/admin/accounts/${name(username)}/password`, { body: { password }, schema: success }),
};

/** Query string of an audit search (empty fields left out). */
export function auditSearch(query: AuditQuery): string {
  return queryString(query);
}

export const auditApi = {
  search: (query: AuditQuery) =>
    apiRequest('GET', `/api/admin/audit?${auditSearch(query)}`, { schema: auditPageSchema }),
  settings: () => apiRequest('GET', '/api/admin/audit/settings', { schema: auditSettingsSchema }),
  saveSettings: (body: AuditSettings) => apiRequest('PUT', '/api/admin/audit/settings', { body, schema: success }),
};
