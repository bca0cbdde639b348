import {
  type BulkPhoneListQuery,
  type BulkReconfigureRequest,
  type BulkSetModelRequest,
  bulkPhonePageSchema,
  bulkReconfigureStartedSchema,
  bulkReconfigureTaskSchema,
  bulkSetModelResultSchema,
  ctiGroupListSchema,
  PROVISIONING_API_BASE,
  provModelListSchema,
} from '@centralino/contract';
import { apiRequest } from '../../api/client.ts';

function queryString(query: BulkPhoneListQuery): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The bulk phones calls (server: features/bulk-phones) and the lists its filters offer. */
export const bulkPhonesApi = {
  page: (query: BulkPhoneListQuery) =>
    apiRequest('GET', `/api/bulk/phones${queryString(query)}`, { schema: bulkPhonePageSchema }),
  groups: () => apiRequest('GET', '/api/cti/groups', { schema: ctiGroupListSchema }),
  /** Every model (the set-model choices); `used` only those some phone has (the filter). */
  models: (used = false) =>
    apiRequest('GET', `${PROVISIONING_API_BASE}/models${used ? '?filter[used]' : ''}`, { schema: provModelListSchema }),
  setModel: (body: BulkSetModelRequest) =>
    apiRequest('POST', '/api/bulk/phones/model', { body, schema: bulkSetModelResultSchema }),
  startReconfigure: (body: BulkReconfigureRequest) =>
    apiRequest('POST', '/api/phones/reconfigure/bulk', { body, schema: bulkReconfigureStartedSchema }),
  reconfigureTask: (task: string) =>
    apiRequest('GET', `/api/phones/reconfigure/bulk/${encodeURIComponent(task)}`, {
      schema: bulkReconfigureTaskSchema,
    }),
};
