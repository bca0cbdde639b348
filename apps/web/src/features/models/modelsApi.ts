import { PROVISIONING_API_BASE, provModelListSchema, provModelSchema } from '@centralino/contract';
import { z } from 'zod';
import { apiRequest } from '../../api/client.ts';
import { usersApi } from '../users/usersApi.ts';

const base = PROVISIONING_API_BASE;
const model = (name: string) => `${base}/models/${encodeURIComponent(name)}`;

/** Users a BLF key may watch are looked up this many at a time (spec §9 'dynamic search page'). */
export const USER_SEARCH_PAGE = 6;

export const modelsApi = {
  /** Models some phone uses. */
  used: () => apiRequest('GET', `${base}/models?filter[used]`, { schema: provModelListSchema }),
  all: () => apiRequest('GET', `${base}/models`, { schema: provModelListSchema }),
  get: (name: string) => apiRequest('GET', model(name), { schema: provModelSchema }),
  original: (name: string) => apiRequest('GET', `${model(name)}/version/original`, { schema: provModelSchema }),
  create: (body: { name: string; display_name: string; variables: Record<string, string> }) =>
    apiRequest('POST', `${base}/models`, { body, schema: provModelSchema }),
  patch: (name: string, body: { display_name?: string; variables: Record<string, string | null> }) =>
    apiRequest('PATCH', model(name), { body, schema: provModelSchema }),
  remove: (name: string) => apiRequest('DELETE', model(name), { schema: z.unknown() }),
  /** Users with a main extension whose username, name or extension contains the text. */
  searchUsers: (search: string, offset: number) =>
    usersApi.configured({
      sort: 'displayname',
      offset,
      limit: USER_SEARCH_PAGE,
      ...(search.trim() ? { search: search.trim() } : {}),
    }),
};

export const modelQueryKey = (name: string) => ['model-editor', name] as const;
