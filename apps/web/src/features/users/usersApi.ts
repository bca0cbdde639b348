import {
  createdUserSchema,
  csvExportSchema,
  csvImportStartedSchema,
  csvImportStatusSchema,
  csvPreviewSchema,
  type DirectoryMode,
  type FollowMeWrite,
  followMeSchema,
  type LdapSettings,
  ldapSettingsSchema,
  ldapTestResultSchema,
  type MainExtensionRequest,
  modeResponseSchema,
  type NewUser,
  NO_EXTENSION,
  storedPasswordSchema,
  TOTAL_COUNT_HEADER,
  taskSchema,
  type User,
  type UserListQuery,
  userLimitsSchema,
  userListSchema,
} from '@centralino/contract';
import { z } from 'zod';
import { apiRequest } from '../../api/client.ts';

function queryString(query: UserListQuery): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') params.set(key, String(value));
  }
  return params.toString();
}

/** Users with a main extension (not 'none', not empty): the only ones a phone, port or key can be given to. */
export function configuredUsers<T extends Pick<User, 'default_extension'>>(users: readonly T[]): T[] {
  return users.filter((u) => u.default_extension !== '' && u.default_extension !== NO_EXTENSION);
}

/** Calls of the users, directory and CSV screens. */
export const usersApi = {
  /**
   * One page of users. The limit is required: the unpaged list (no limit) is kept on the server for
   * older clients only, and no screen of the console asks for it (test/no-unpaged-users.test.ts).
   */
  page: async (query: UserListQuery & { limit: number }) => {
    let total = 0;
    const users = await apiRequest('GET', `/api/users/false?${queryString(query)}`, {
      schema: userListSchema,
      onHeaders: (headers) => {
        total = Number(headers.get(TOTAL_COUNT_HEADER) ?? 0);
      },
    });
    return { users, total };
  },
  /**
   * One page of the users with a main extension, for the choosers that give them a phone, a gateway port or a key.
   * The filter is asked of the server and applied here too: the API the console also runs against (contract
   * api-core §8.2) lists every user whatever the filter, and leaves the filtering to the console.
   */
  configured: async (query: Omit<UserListQuery, 'filter'> & { limit: number }) => {
    const { users, total } = await usersApi.page({ ...query, filter: 'configured' });
    // `next` is the server's offset after this page: fewer users may be kept than it sent.
    return { users: configuredUsers(users), total, next: (query.offset ?? 0) + users.length };
  },
  /** Same list, and asks the server to mirror the external directory (GET /users/true). */
  startSync: () => apiRequest('GET', '/api/users/true?limit=1', { schema: userListSchema }),
  /** A user's password set through the console, read only when the administrator asks to see it. */
  password: (username: string) =>
    apiRequest('GET', `/api/users/${encodeURIComponent(username)}/password`, { schema: storedPasswordSchema }),
  syncing: () => apiRequest('GET', '/api/users/sync', { schema: z.boolean() }),
  count: () => apiRequest('GET', '/api/users/count', { schema: z.number() }),
  create: (body: NewUser) => apiRequest('POST', '/api/users', { body, schema: createdUserSchema }),
  followMe: (username: string) =>
    apiRequest('GET', `/api/users/${encodeURIComponent(username)}/followme`, { schema: followMeSchema }),
  setFollowMe: (username: string, body: FollowMeWrite) =>
    apiRequest('PUT', `/api/users/${encodeURIComponent(username)}/followme`, { body, schema: followMeSchema }),
  setMainExtension: (body: MainExtensionRequest) =>
    apiRequest('POST', '/api/mainextensions', { body, schema: z.unknown() }),
  limits: () => apiRequest('GET', '/api/mainextensions/userlimits', { schema: userLimitsSchema }),
  setMode: (mode: DirectoryMode) =>
    apiRequest('POST', '/api/configuration/mode', { body: { mode }, schema: modeResponseSchema }),
  task: (id: string) => apiRequest('GET', `/api/tasks/${id}`, { schema: taskSchema }),
  testDirectory: (settings: LdapSettings, username?: string) =>
    apiRequest('POST', '/api/configuration/directory/test', {
      body: { settings, ...(username ? { username } : {}) },
      schema: ldapTestResultSchema,
    }),
  saveDirectory: (settings: LdapSettings) =>
    apiRequest('POST', '/api/configuration/directory', { body: settings, schema: z.unknown() }),
  directorySettings: () => apiRequest('GET', '/api/configuration/directory', { schema: ldapSettingsSchema }),
  exportCsv: () => apiRequest('GET', '/api/csv/csvexport', { schema: csvExportSchema }),
  previewCsv: (file: string) =>
    apiRequest('POST', '/api/csv/csvimport/preview', { body: { file }, schema: csvPreviewSchema }),
  importCsv: (file: string) =>
    apiRequest('POST', '/api/csv/csvimport', { body: { file }, schema: csvImportStartedSchema }),
  importStatus: () => apiRequest('GET', '/api/csv/csvimport', { schema: csvImportStatusSchema }),
};
