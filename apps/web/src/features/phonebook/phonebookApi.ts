import {
  errorBodySchema,
  type PhonebookConnection,
  type PhonebookContactsQuery,
  type PhonebookSourceWrite,
  phonebookContactPageSchema,
  phonebookSourceListSchema,
  phonebookTestResultSchema,
} from '@centralino/contract';
import { AUTH_KEY_HEADER, AUTH_USER_HEADER } from '@centralino/contract/constants';
import { z } from 'zod';
import { ApiError, apiRequest } from '../../api/client.ts';
import { readCredentials } from '../../api/credentials.ts';
import i18n from '../../i18n/index.ts';

/** Calls of the phonebook sources screen (contract api-admin §9). */
export const phonebookApi = {
  list: () => apiRequest('GET', '/api/phonebook/config', { schema: phonebookSourceListSchema }),
  /** A page of the phonebook as the phones see it. */
  contacts: ({ search, offset = 0, limit }: PhonebookContactsQuery) => {
    const params = new URLSearchParams({ offset: String(offset) });
    if (search) params.set('search', search);
    if (limit !== undefined) params.set('limit', String(limit));
    return apiRequest('GET', `/api/phonebook/contacts?${params}`, { schema: phonebookContactPageSchema });
  },
  fields: () => apiRequest('GET', '/api/phonebook/fields', { schema: z.array(z.string()) }),
  password: (id: string) =>
    apiRequest('GET', `/api/phonebook/config/${encodeURIComponent(id)}/password`, {
      schema: z.object({ password: z.string() }),
    }),
  create: (body: PhonebookSourceWrite) =>
    apiRequest('POST', '/api/phonebook/config', { body, schema: z.object({ id: z.string() }) }),
  update: (id: string, body: PhonebookSourceWrite) =>
    apiRequest('POST', `/api/phonebook/config/${encodeURIComponent(id)}`, { body, schema: z.object({}) }),
  remove: (id: string) =>
    apiRequest('DELETE', `/api/phonebook/config/${encodeURIComponent(id)}`, { schema: z.object({}) }),
  test: (body: PhonebookConnection, id?: string) =>
    apiRequest('POST', `/api/phonebook/test${id ? `?id=${encodeURIComponent(id)}` : ''}`, {
      body,
      schema: phonebookTestResultSchema,
    }),
  sync: (id: string) =>
    apiRequest('POST', `/api/phonebook/syncnow/${encodeURIComponent(id)}`, {
      schema: z.object({ status: z.literal(true), contacts: z.number(), skipped: z.number() }),
    }),
  /** Uploads a CSV; answers the file:/// uri the source's url takes. */
  upload: async (file: File): Promise<string> => {
    const form = new FormData();
    form.append('0', file, file.name);
    const headers: Record<string, string> = { Accept: 'application/json', 'Accept-Language': i18n.language || 'en' };
    const credentials = readCredentials();
    if (credentials) {
      headers[AUTH_USER_HEADER] = credentials.user;
      headers[AUTH_KEY_HEADER] = credentials.secretkey;
    }
    const res = await fetch('/api/phonebook/uploadfile', { method: 'POST', headers, body: form });
    const json = await res.json().catch(() => undefined);
    if (!res.ok) {
      const parsed = errorBodySchema.safeParse(json);
      throw new ApiError(
        res.status,
        parsed.success
          ? parsed.data
          : { code: 'internal', title: i18n.t('errors.internal.title'), detail: i18n.t('errors.internal.detail') },
      );
    }
    const uri = z.object({ uri: z.string() }).parse(json).uri;
    // The spec: an upload must answer a file:/// uri.
    if (!uri.startsWith('file:///')) throw new Error(i18n.t('phonebook.errors.upload'));
    return uri;
  },
};
