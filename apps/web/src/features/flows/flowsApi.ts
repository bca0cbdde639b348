import {
  type AnnouncementWrite,
  announcementListSchema,
  type CqrWrite,
  cqrListSchema,
  type DayNightWrite,
  dayNightListSchema,
  destinationsSchema,
  type ErrorBody,
  errorBodySchema,
  type IvrWrite,
  ivrListSchema,
  type QueueWrite,
  queueListSchema,
  type RecordingPatch,
  type RingGroupWrite,
  recordingListSchema,
  ringGroupListSchema,
  type TimeConditionWrite,
  type TimeGroupWrite,
  timeConditionListSchema,
  timeGroupListSchema,
} from '@centralino/contract';
import { AUTH_KEY_HEADER, AUTH_USER_HEADER } from '@centralino/contract/constants';
import { z } from 'zod';
import { ApiError, apiRequest } from '../../api/client.ts';
import { readCredentials } from '../../api/credentials.ts';
import i18n from '../../i18n/index.ts';

const created = z.object({ id: z.number() });

/** Headers of a signed-in request made without apiRequest (uploads, audio). */
export function authHeaders(): Record<string, string> {
  const headers: Record<string, string> = { 'Accept-Language': i18n.language || 'en' };
  const credentials = readCredentials();
  if (credentials) {
    headers[AUTH_USER_HEADER] = credentials.user;
    headers[AUTH_KEY_HEADER] = credentials.secretkey;
  }
  return headers;
}

export async function failure(res: Response): Promise<ApiError> {
  const json = await res.json().catch(() => undefined);
  const parsed = errorBodySchema.safeParse(json);
  const body: ErrorBody = parsed.success
    ? parsed.data
    : { code: 'internal', title: i18n.t('errors.internal.title'), detail: i18n.t('errors.internal.detail') };
  return new ApiError(res.status, body);
}

export const flowsApi = {
  destinations: () => apiRequest('GET', '/api/destinations', { schema: destinationsSchema }),

  recordings: () => apiRequest('GET', '/api/recordings', { schema: recordingListSchema }),
  /** Uploads an audio file (WAV, MP3, OGG); the server converts it. */
  upload: async (file: File, displayname: string, description: string): Promise<number> => {
    const form = new FormData();
    form.append('displayname', displayname);
    form.append('description', description);
    form.append('file', file, file.name);
    const res = await fetch('/api/recordings', {
      method: 'POST',
      headers: { Accept: 'application/json', ...authHeaders() },
      body: form,
    });
    if (!res.ok) throw await failure(res);
    return created.parse(await res.json()).id;
  },
  /** The converted audio, as a blob the page can play (an <audio> element cannot send the sign-in headers). */
  audio: async (id: number): Promise<Blob> => {
    const res = await fetch(`/api/recordings/${id}/audio`, { headers: authHeaders() });
    if (!res.ok) throw await failure(res);
    return res.blob();
  },
  renameRecording: (id: number, body: RecordingPatch) =>
    apiRequest('PATCH', `/api/recordings/${id}`, { body, schema: z.unknown() }),
  removeRecording: (id: number) => apiRequest('DELETE', `/api/recordings/${id}`, { schema: z.unknown() }),

  announcements: () => apiRequest('GET', '/api/announcements', { schema: announcementListSchema }),
  createAnnouncement: (body: AnnouncementWrite) => apiRequest('POST', '/api/announcements', { body, schema: created }),
  updateAnnouncement: (id: number, body: AnnouncementWrite) =>
    apiRequest('PUT', `/api/announcements/${id}`, { body, schema: z.unknown() }),
  removeAnnouncement: (id: number) => apiRequest('DELETE', `/api/announcements/${id}`, { schema: z.unknown() }),

  ivrs: () => apiRequest('GET', '/api/ivrs', { schema: ivrListSchema }),
  createIvr: (body: IvrWrite) => apiRequest('POST', '/api/ivrs', { body, schema: created }),
  updateIvr: (id: number, body: IvrWrite) => apiRequest('PUT', `/api/ivrs/${id}`, { body, schema: z.unknown() }),
  removeIvr: (id: number) => apiRequest('DELETE', `/api/ivrs/${id}`, { schema: z.unknown() }),

  dayNight: () => apiRequest('GET', '/api/daynight', { schema: dayNightListSchema }),
  createDayNight: (body: DayNightWrite) => apiRequest('POST', '/api/daynight', { body, schema: z.unknown() }),
  updateDayNight: (ext: number, body: DayNightWrite) =>
    apiRequest('PUT', `/api/daynight/${ext}`, { body, schema: z.unknown() }),
  removeDayNight: (ext: number) => apiRequest('DELETE', `/api/daynight/${ext}`, { schema: z.unknown() }),
  queues: () => apiRequest('GET', '/api/queues', { schema: queueListSchema }),
  createQueue: (body: QueueWrite) => apiRequest('POST', '/api/queues', { body, schema: created }),
  updateQueue: (id: number, body: QueueWrite) => apiRequest('PUT', `/api/queues/${id}`, { body, schema: z.unknown() }),
  removeQueue: (id: number) => apiRequest('DELETE', `/api/queues/${id}`, { schema: z.unknown() }),
  ringGroups: () => apiRequest('GET', '/api/ringgroups', { schema: ringGroupListSchema }),
  createRingGroup: (body: RingGroupWrite) => apiRequest('POST', '/api/ringgroups', { body, schema: created }),
  updateRingGroup: (id: number, body: RingGroupWrite) =>
    apiRequest('PUT', `/api/ringgroups/${id}`, { body, schema: z.unknown() }),
  removeRingGroup: (id: number) => apiRequest('DELETE', `/api/ringgroups/${id}`, { schema: z.unknown() }),

  timeGroups: () => apiRequest('GET', '/api/timegroups', { schema: timeGroupListSchema }),
  createTimeGroup: (body: TimeGroupWrite) => apiRequest('POST', '/api/timegroups', { body, schema: created }),
  updateTimeGroup: (id: number, body: TimeGroupWrite) =>
    apiRequest('PUT', `/api/timegroups/${id}`, { body, schema: z.unknown() }),
  removeTimeGroup: (id: number) => apiRequest('DELETE', `/api/timegroups/${id}`, { schema: z.unknown() }),
  timeConditions: () => apiRequest('GET', '/api/timeconditions', { schema: timeConditionListSchema }),
  createTimeCondition: (body: TimeConditionWrite) =>
    apiRequest('POST', '/api/timeconditions', { body, schema: created }),
  updateTimeCondition: (id: number, body: TimeConditionWrite) =>
    apiRequest('PUT', `/api/timeconditions/${id}`, { body, schema: z.unknown() }),
  removeTimeCondition: (id: number) => apiRequest('DELETE', `/api/timeconditions/${id}`, { schema: z.unknown() }),
  cqrs: () => apiRequest('GET', '/api/cqr', { schema: cqrListSchema }),
  createCqr: (body: CqrWrite) => apiRequest('POST', '/api/cqr', { body, schema: created }),
  updateCqr: (id: number, body: CqrWrite) => apiRequest('PUT', `/api/cqr/${id}`, { body, schema: z.unknown() }),
  removeCqr: (id: number) => apiRequest('DELETE', `/api/cqr/${id}`, { schema: z.unknown() }),
  setTimeConditionOverride: (id: number, override: 'auto' | 'inside' | 'outside') =>
    apiRequest('POST', `/api/timeconditions/${id}/override`, { body: { override }, schema: z.unknown() }),

  setDayNight: (ext: number, state: 'day' | 'night') =>
    apiRequest('POST', `/api/daynight/${ext}/state`, { body: { state }, schema: z.unknown() }),
};
