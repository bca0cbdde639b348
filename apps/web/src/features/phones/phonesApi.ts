import {
  AUTH_KEY_HEADER,
  AUTH_USER_HEADER,
  connectivityCheckResultSchema,
  errorBodySchema,
  PROVISIONING_API_BASE,
  type ProvisioningFileType,
  phonebookLdapSchema,
  provDefaultsSchema,
  provFileListSchema,
  provModelListSchema,
  provPhoneListSchema,
  provPhoneSchema,
  rebootScheduleSchema,
} from '@centralino/contract';
import { z } from 'zod';
import { ApiError, apiRequest } from '../../api/client.ts';
import { readCredentials } from '../../api/credentials.ts';
import i18n from '../../i18n/index.ts';
import type { SystemPhonebook } from './defaults.ts';

const base = PROVISIONING_API_BASE;
const enc = encodeURIComponent;
const pbxPhone = (mac: string) => `/api/physicalextensions/${enc(mac)}`;

/** The PBX inventory may not know a phone the engine has (added through the engine API alone). */
async function ignoreNotFound(call: Promise<unknown>): Promise<void> {
  try {
    await call;
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 404)) throw error;
  }
}

const inventoryLinksSchema = z.array(
  z.looseObject({ mac: z.string().nullable(), extension: z.string().nullable(), user_id: z.number().nullable() }),
);
/** Per-MAC answers of the reboot calls (api-core §13.3); anything else in the answer is not a refusal. */
const rebootAnswerSchema = z.unknown().transform((answer) =>
  answer && typeof answer === 'object'
    ? Object.entries(answer).flatMap(([mac, result]) => {
        const parsed = z
          .looseObject({ code: z.number(), title: z.string().optional(), detail: z.string().optional() })
          .safeParse(result);
        return parsed.success ? [{ mac, ...parsed.data }] : [];
      })
    : [],
);

/** Phones live twice: in the provisioning engine and in the PBX inventory; both are kept in step. */
export const phonesApi = {
  list: () => apiRequest('GET', `${base}/phones`, { schema: provPhoneListSchema }),
  phone: (mac: string) => apiRequest('GET', `${base}/phones/${enc(mac)}`, { schema: provPhoneSchema }),
  models: () => apiRequest('GET', `${base}/models`, { schema: provModelListSchema }),
  /** The PBX inventory rows: which extension each phone is linked to. */
  links: () => apiRequest('GET', '/api/physicalextensions', { schema: inventoryLinksSchema }),
  /** Adds a phone to both inventories; answers the engine's record (with its provisioning URLs). */
  add: async (mac: string, model: string | null, vendor: string) => {
    const phone = await apiRequest('POST', `${base}/phones`, {
      body: { mac, model: model ?? undefined, display_name: vendor },
      schema: provPhoneSchema,
    });
    await apiRequest('POST', '/api/physicalextensions', { body: { mac, model }, schema: z.unknown() });
    return phone;
  },
  /** Registers the phone's first-access URL with its vendor's redirect service (api-core §13.2). */
  pushToRedirectService: (mac: string, url: string) =>
    apiRequest('POST', `/api/phones/rps/${enc(mac)}`, { body: { url }, schema: z.unknown() }),
  setModel: async (mac: string, model: string | null) => {
    await apiRequest('PATCH', `${base}/phones/${enc(mac)}`, {
      body: { model },
      schema: provPhoneSchema,
    });
    await ignoreNotFound(apiRequest('PATCH', pbxPhone(mac), { body: { model }, schema: z.unknown() }));
  },
  remove: async (mac: string) => {
    await apiRequest('DELETE', `${base}/phones/${enc(mac)}`, { schema: z.unknown() });
    await ignoreNotFound(apiRequest('DELETE', pbxPhone(mac), { schema: z.unknown() }));
  },
  /**
   * Cancels delayed reboots. A MAC without one is fine; the call fails when the server does, or refuses
   * a MAC for a reason of its own (4xx other than 'nothing to cancel', or 5xx).
   */
  cancelDelayedReboot: async (macs: string[]) => {
    const answer = await apiRequest('DELETE', '/api/phones/reboot', { body: macs, schema: rebootAnswerSchema });
    const refused = answer.find((result) => result.code >= 400 && result.code !== 404);
    if (refused) throw new Error(`${refused.mac}: ${refused.title ?? refused.code}`);
  },
  /** The web admin password the PBX records for its phones (api-core §12.7). */
  setPhonesWebPassword: (password: string) =>
    apiRequest('POST', '/api/physicalextensions/adminpw', { body: { password }, schema: z.unknown() }),
  /** Delayed reboots by MAC. */
  reboots: () => apiRequest('GET', '/api/phones/reboot', { schema: rebootScheduleSchema }),
  /** Reboots now (`{}`) or at a time; fails with the server's reason when the phone's answer is not 204. */
  reboot: async (body: Record<string, { hours?: string; minutes?: string }>) => {
    const answer = await apiRequest('POST', '/api/phones/reboot', { body, schema: rebootAnswerSchema });
    const refused = answer.find((result) => result.code >= 300);
    if (refused) throw new Error(refused.detail ?? refused.title ?? String(refused.code));
  },
  defaults: () => apiRequest('GET', `${base}/defaults`, { schema: provDefaultsSchema }),
  /** The console's save: the server checks the PBX address first and refuses one phones cannot reach. */
  saveDefaults: (body: Record<string, string | null>) =>
    apiRequest('PATCH', '/api/provisioning/defaults', { body, schema: z.unknown() }),
  connectivityCheck: (host: string, scheme: 'http' | 'https') =>
    apiRequest('POST', '/api/provisioning/connectivitycheck', {
      body: { host, scheme },
      schema: connectivityCheckResultSchema,
    }),
  phonebookLdap: () => apiRequest('GET', '/api/phonebook/ldap', { schema: phonebookLdapSchema }),
  startPhonebook: (type: SystemPhonebook) =>
    apiRequest('POST', `/api/phonebook/${type}/status/enabled`, { schema: z.unknown() }),
  files: (collection: ProvisioningFileType) =>
    apiRequest('GET', `${base}/${collection}`, { schema: provFileListSchema }),
  removeFile: (collection: ProvisioningFileType, name: string) =>
    apiRequest('DELETE', `${base}/${collection}/${enc(name)}`, { schema: z.unknown() }),
};

/**
 * Uploads one file to a collection. XMLHttpRequest rather than fetch because only it reports upload
 * progress; `onProgress` receives 0–100.
 */
export function uploadFile(
  collection: ProvisioningFileType,
  file: File,
  onProgress: (percent: number) => void,
): { done: Promise<void>; abort: () => void } {
  const xhr = new XMLHttpRequest();
  const done = new Promise<void>((resolve, reject) => {
    xhr.open('POST', `${base}/${collection}`);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader('Accept-Language', i18n.language || 'en');
    const credentials = readCredentials();
    if (credentials) {
      xhr.setRequestHeader(AUTH_USER_HEADER, credentials.user);
      xhr.setRequestHeader(AUTH_KEY_HEADER, credentials.secretkey);
    }
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(Math.round((event.loaded / event.total) * 100));
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(100);
        resolve();
        return;
      }
      let json: unknown;
      try {
        json = JSON.parse(xhr.responseText);
      } catch {
        json = undefined;
      }
      const parsed = errorBodySchema.safeParse(json);
      reject(
        new ApiError(
          xhr.status,
          parsed.success
            ? parsed.data
            : { code: 'internal', title: i18n.t('errors.internal.title'), detail: i18n.t('errors.internal.detail') },
        ),
      );
    };
    xhr.onerror = () =>
      reject(
        new ApiError(0, {
          code: 'network',
          title: i18n.t('errors.network.title'),
          detail: i18n.t('errors.network.detail'),
        }),
      );
    xhr.onabort = () => reject(new DOMException('aborted', 'AbortError'));
    const form = new FormData();
    // The engine takes the last file part whatever its name; the original console called it '0'.
    form.append('0', file, file.name);
    xhr.send(form);
  });
  return { done, abort: () => xhr.abort() };
}

/** The server's explanation of a failure, for per-phone results. */
export function errorText(error: unknown): string {
  if (error instanceof ApiError) return error.body.detail || error.body.title;
  return error instanceof Error ? error.message : String(error);
}
