import {
  PROVISIONING_API_BASE,
  provDefaultsSchema,
  provModelListSchema,
  provPhoneListSchema,
  provPhoneSchema,
} from '@centralino/contract';
import { z } from 'zod';
import { ApiError, apiRequest } from '../../api/client.ts';

const base = PROVISIONING_API_BASE;
const pbxPhone = (mac: string) => `/api/physicalextensions/${encodeURIComponent(mac)}`;

/** The PBX inventory may not know a phone the engine has (added through the engine API alone). */
async function ignoreNotFound(call: Promise<unknown>): Promise<void> {
  try {
    await call;
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 404)) throw error;
  }
}

/** Phones live twice: in the provisioning engine and in the PBX inventory; both are kept in step. */
export const phonesApi = {
  list: () => apiRequest('GET', `${base}/phones`, { schema: provPhoneListSchema }),
  models: () => apiRequest('GET', `${base}/models`, { schema: provModelListSchema }),
  add: async (mac: string, model: string | null, vendor: string) => {
    await apiRequest('POST', `${base}/phones`, {
      body: { mac, model: model ?? undefined, display_name: vendor },
      schema: provPhoneSchema,
    });
    await apiRequest('POST', '/api/physicalextensions', { body: { mac, model }, schema: z.unknown() });
  },
  setModel: async (mac: string, model: string | null) => {
    await apiRequest('PATCH', `${base}/phones/${encodeURIComponent(mac)}`, {
      body: { model },
      schema: provPhoneSchema,
    });
    await ignoreNotFound(apiRequest('PATCH', pbxPhone(mac), { body: { model }, schema: z.unknown() }));
  },
  remove: async (mac: string) => {
    await apiRequest('DELETE', `${base}/phones/${encodeURIComponent(mac)}`, { schema: z.unknown() });
    await ignoreNotFound(apiRequest('DELETE', pbxPhone(mac), { schema: z.unknown() }));
  },
  defaults: () => apiRequest('GET', `${base}/defaults`, { schema: provDefaultsSchema }),
  saveDefaults: (body: Record<string, string | null>) =>
    apiRequest('PATCH', `${base}/defaults`, { body, schema: z.unknown() }),
};

/** The server's explanation of a failure, for per-phone results. */
export function errorText(error: unknown): string {
  if (error instanceof ApiError) return error.body.detail || error.body.title;
  return error instanceof Error ? error.message : String(error);
}
