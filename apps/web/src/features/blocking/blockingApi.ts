import {
  type BlockedCallerWrite,
  blockedCallerListSchema,
  type CallClassPrefixes,
  callClassPrefixesSchema,
} from '@centralino/contract';
import { z } from 'zod';
import { apiRequest } from '../../api/client.ts';

const created = z.object({ id: z.number() });

export const blockingApi = {
  list: () => apiRequest('GET', '/api/blocklist', { schema: blockedCallerListSchema }),
  create: (body: BlockedCallerWrite) => apiRequest('POST', '/api/blocklist', { body, schema: created }),
  update: (id: number, body: BlockedCallerWrite) =>
    apiRequest('PUT', `/api/blocklist/${id}`, { body, schema: z.unknown() }),
  remove: (id: number) => apiRequest('DELETE', `/api/blocklist/${id}`, { schema: z.unknown() }),
  classes: () => apiRequest('GET', '/api/callclasses', { schema: callClassPrefixesSchema }),
  setClasses: (body: CallClassPrefixes) => apiRequest('PUT', '/api/callclasses', { body, schema: z.unknown() }),
};
