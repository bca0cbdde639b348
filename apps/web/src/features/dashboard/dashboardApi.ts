import {
  astExtensionSchema,
  dashboardTrunksPageSchema,
  dashboardUsersPageSchema,
  type PresenceRequest,
} from '@centralino/contract';
import { z } from 'zod';
import { apiRequest } from '../../api/client.ts';

const page = (path: string, search: string, offset: number, limit: number) =>
  `${path}?${new URLSearchParams({ ...(search ? { search } : {}), offset: String(offset), limit: String(limit) })}`;

export const dashboardApi = {
  users: (search: string, offset: number, limit: number) =>
    apiRequest('GET', page('/api/dashboard/users', search, offset, limit), { schema: dashboardUsersPageSchema }),
  trunks: (search: string, offset: number, limit: number) =>
    apiRequest('GET', page('/api/dashboard/trunks', search, offset, limit), { schema: dashboardTrunksPageSchema }),
  extension: (id: string) =>
    apiRequest('GET', `/api/astproxy/extension/${encodeURIComponent(id)}`, { schema: astExtensionSchema }),
  setPresence: (body: PresenceRequest) => apiRequest('POST', '/api/user/presence', { body, schema: z.unknown() }),
};
