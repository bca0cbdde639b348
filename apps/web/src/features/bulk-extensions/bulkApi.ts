import {
  type BulkEdit,
  type BulkSelectQuery,
  bulkPreviewSchema,
  bulkSelectionAnswerSchema,
  bulkSettingsSchema,
  destinationsSchema,
} from '@centralino/contract';
import { z } from 'zod';
import { apiRequest } from '../../api/client.ts';

/** Calls of the bulk extensions screen. Selections travel in the body: a path cannot hold 10,000 numbers. */
export const bulkApi = {
  select: (query: BulkSelectQuery) => {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) {
      if (value !== undefined && value !== '') params.set(key, String(value));
    }
    return apiRequest('GET', `/api/bulk/selection?${params}`, { schema: bulkSelectionAnswerSchema });
  },
  settings: (extensions: string[]) =>
    apiRequest('POST', '/api/bulk/settings', { body: { extensions }, schema: bulkSettingsSchema }),
  preview: (extensions: string[], edit: BulkEdit) =>
    apiRequest('POST', '/api/bulk/preview', { body: { ...edit, extensions }, schema: bulkPreviewSchema }),
  apply: (extensions: string[], edit: BulkEdit) =>
    apiRequest('POST', '/api/bulk', {
      body: { ...edit, extensions },
      schema: z.object({ status: z.literal(true), users: z.number() }),
    }),
  destinations: () => apiRequest('GET', '/api/destinations', { schema: destinationsSchema }),
};
