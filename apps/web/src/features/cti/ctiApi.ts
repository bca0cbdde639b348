import {
  type CtiProfileWrite,
  ctiGroupListSchema,
  ctiPermissionsTemplateSchema,
  ctiProfileListSchema,
  userLimitsSchema,
} from '@centralino/contract';
import { z } from 'zod';
import { apiRequest } from '../../api/client.ts';

const idResult = z.object({ id: z.number() });
const status = z.object({ status: z.literal(true) });

export const ctiApi = {
  groups: () => apiRequest('GET', '/api/cti/groups', { schema: ctiGroupListSchema }),
  createGroup: (name: string) => apiRequest('POST', '/api/cti/groups', { body: { name }, schema: idResult }),
  deleteGroup: (id: number) => apiRequest('DELETE', `/api/cti/groups/${id}`, { schema: status }),
  profiles: () => apiRequest('GET', '/api/cti/profiles', { schema: ctiProfileListSchema }),
  template: () => apiRequest('GET', '/api/cti/permissions', { schema: ctiPermissionsTemplateSchema }),
  createProfile: (body: CtiProfileWrite) => apiRequest('POST', '/api/cti/profiles', { body, schema: idResult }),
  saveProfile: (id: number, body: CtiProfileWrite) =>
    apiRequest('POST', `/api/cti/profiles/${id}`, { body, schema: status }),
  deleteProfile: (id: number) => apiRequest('DELETE', `/api/cti/profiles/${id}`, { schema: status }),
  /** The queue manager needs an active licence: limit false; a failed read counts as inactive. */
  licenceActive: async () => {
    try {
      const limits = await apiRequest('GET', '/api/mainextensions/userlimits', { schema: userLimitsSchema });
      return limits.limit === false;
    } catch {
      return false;
    }
  },
};
