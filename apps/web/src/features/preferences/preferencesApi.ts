import {
  ctiGroupListSchema,
  ctiProfileListSchema,
  deviceCredentialsSchema,
  voicemailSchema,
} from '@centralino/contract';
import { z } from 'zod';
import { apiRequest } from '../../api/client.ts';

const ok = z.unknown();
/** Calls of the per-user configuration screen (contract api-core §12–§14, api-admin §5.8–§5.10). */
export const preferencesApi = {
  profiles: () => apiRequest('GET', '/api/cti/profiles', { schema: ctiProfileListSchema }),
  groups: () => apiRequest('GET', '/api/cti/groups', { schema: ctiGroupListSchema }),
  userProfile: async (userId: number) => {
    try {
      return (await apiRequest('GET', `/api/cti/profiles/users/${userId}`, { schema: z.object({ id: z.number() }) }))
        .id;
    } catch {
      return null;
    }
  },
  setUserProfile: (userId: number, profileId: number | null) =>
    apiRequest('POST', `/api/cti/profiles/users/${userId}`, { body: { profile_id: profileId }, schema: ok }),
  userGroups: (userId: number) => apiRequest('GET', `/api/cti/groups/users/${userId}`, { schema: z.array(z.number()) }),
  setUserGroups: (userId: number, groups: number[]) =>
    apiRequest('POST', `/api/cti/groups/users/${userId}`, { body: { groups }, schema: ok }),
  voicemail: (ext: string) => apiRequest('GET', `/api/voicemails/${ext}`, { schema: voicemailSchema }),
  setVoicemail: (ext: string, on: boolean) =>
    apiRequest('POST', '/api/voicemails', { body: { extension: ext, state: on ? 'yes' : 'no' }, schema: ok }),
  mobile: (username: string) => apiRequest('GET', `/api/mobiles/${username}`, { schema: z.string().nullable() }),
  setMobile: (username: string, mobile: string) =>
    apiRequest('POST', '/api/mobiles', { body: { username, mobile }, schema: ok }),
  enableDevice: (type: 'webrtc' | 'nethlink' | 'mobileapp', main: string) =>
    apiRequest('POST', `/api/${type}`, {
      body: type === 'mobileapp' ? { mainextension: main } : { extension: main },
      schema: z.object({ extension: z.string() }).loose(),
    }),
  disableDevice: (type: 'webrtc' | 'nethlink' | 'mobileapp', extension: string) =>
    apiRequest('DELETE', `/api/${type}/${extension}`, { schema: ok }),
  link: (main: string, mac: string | null) =>
    apiRequest('POST', '/api/physicalextensions', {
      body: { mainextension: main, mac, clear_temporary: true },
      schema: z.object({ extension: z.string().nullable() }),
    }),
  unlink: (extension: string) => apiRequest('DELETE', `/api/physicalextensions/${extension}`, { schema: ok }),
  /** One device's SIP secret and web login, read when its information is shown (lists carry no secrets). */
  credentials: (extension: string) =>
    apiRequest('GET', `/api/extensions/${extension}/credentials`, { schema: deviceCredentialsSchema }),
  reconfigure: (extension: string) =>
    apiRequest('POST', '/api/phones/reconfigure', { body: { extension }, schema: ok }),
  /** The engine's record of a phone; its MAC in the engine's dash form. */
  provisioningPhone: (mac: string) =>
    apiRequest('GET', `/api/provisioning/v1/phones/${mac.replaceAll(':', '-')}`, {
      schema: z
        .object({
          provisioning_url1: z.string().nullable().optional(),
          provisioning_url2: z.string().nullable().optional(),
        })
        .loose(),
    }),
  setSrtp: (extension: string, on: boolean) =>
    apiRequest('POST', `/api/extensions/${extension}/srtp/${on ? 'true' : 'false'}`, { schema: ok }),
};
