import {
  type ConferenceWrite,
  conferenceListSchema,
  conferenceLiveListSchema,
  conferenceParticipantListSchema,
} from '@centralino/contract';
import { z } from 'zod';
import { apiRequest } from '../../api/client.ts';

const created = z.object({ id: z.number() });

export const conferencesApi = {
  list: () => apiRequest('GET', '/api/conferences', { schema: conferenceListSchema }),
  create: (body: ConferenceWrite) => apiRequest('POST', '/api/conferences', { body, schema: created }),
  update: (id: number, body: ConferenceWrite) =>
    apiRequest('PUT', `/api/conferences/${id}`, { body, schema: z.unknown() }),
  remove: (id: number) => apiRequest('DELETE', `/api/conferences/${id}`, { schema: z.unknown() }),
  live: () => apiRequest('GET', '/api/conferences/live', { schema: conferenceLiveListSchema }),
  participants: (id: number) =>
    apiRequest('GET', `/api/conferences/${id}/participants`, { schema: conferenceParticipantListSchema }),
  mute: (id: number, channel: string, muted: boolean) =>
    apiRequest('POST', `/api/conferences/${id}/participants/mute`, { body: { channel, muted }, schema: z.unknown() }),
  kick: (id: number, channel: string) =>
    apiRequest('POST', `/api/conferences/${id}/participants/kick`, { body: { channel }, schema: z.unknown() }),
};
