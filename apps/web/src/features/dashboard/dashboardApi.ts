import {
  astExtensionSchema,
  type DashboardUsersPage,
  dashboardTrunksPageSchema,
  dashboardUsersPageSchema,
  LIST_PAGE_SIZE,
  type PresenceRequest,
} from '@centralino/contract';
import { z } from 'zod';
import { apiRequest } from '../../api/client.ts';

const page = (path: string, search: string, offset: number, limit: number) =>
  `${path}?${new URLSearchParams({ ...(search ? { search } : {}), offset: String(offset), limit: String(limit) })}`;

const usersPage = (search: string, offset: number, limit: number) =>
  apiRequest('GET', page('/api/dashboard/users', search, offset, limit), { schema: dashboardUsersPageSchema });

/** The first page asked for before the dashboard's chunk arrived (warmStart.ts), taken by the first list. */
let early: { at: number; answer: Promise<DashboardUsersPage> } | undefined;
const EARLY_KEEP_MS = 10_000;

export const dashboardApi = {
  /** Asks for the first users page now, so the dashboard finds it on its way when it renders. */
  askEarly(): void {
    const answer = usersPage('', 0, LIST_PAGE_SIZE);
    // A refusal is the dashboard's to report when it asks; nobody may be left holding it.
    answer.catch(() => undefined);
    early = { at: Date.now(), answer };
  },
  users: (search: string, offset: number, limit: number) => {
    const waiting = early;
    early = undefined;
    if (
      waiting &&
      search === '' &&
      offset === 0 &&
      limit === LIST_PAGE_SIZE &&
      Date.now() - waiting.at < EARLY_KEEP_MS
    ) {
      return waiting.answer;
    }
    return usersPage(search, offset, limit);
  },
  trunks: (search: string, offset: number, limit: number) =>
    apiRequest('GET', page('/api/dashboard/trunks', search, offset, limit), { schema: dashboardTrunksPageSchema }),
  extension: (id: string) =>
    apiRequest('GET', `/api/astproxy/extension/${encodeURIComponent(id)}`, { schema: astExtensionSchema }),
  setPresence: (body: PresenceRequest) => apiRequest('POST', '/api/user/presence', { body, schema: z.unknown() }),
};
