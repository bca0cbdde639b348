import { type MusicClassWrite, musicClassListSchema } from '@centralino/contract';
import { z } from 'zod';
import { apiRequest } from '../../api/client.ts';
import { authHeaders, failure } from '../flows/flowsApi.ts';

const created = z.object({ id: z.number() });

export const musicApi = {
  list: () => apiRequest('GET', '/api/music', { schema: musicClassListSchema }),
  create: (body: MusicClassWrite) => apiRequest('POST', '/api/music', { body, schema: created }),
  update: (id: number, body: MusicClassWrite) => apiRequest('PUT', `/api/music/${id}`, { body, schema: z.unknown() }),
  remove: (id: number) => apiRequest('DELETE', `/api/music/${id}`, { schema: z.unknown() }),
  /** Uploads one audio file into a class (WAV, MP3, OGG); the server converts it. */
  upload: async (id: number, file: File): Promise<number> => {
    const form = new FormData();
    form.append('file', file, file.name);
    const res = await fetch(`/api/music/${id}/files`, {
      method: 'POST',
      headers: { Accept: 'application/json', ...authHeaders() },
      body: form,
    });
    if (!res.ok) throw await failure(res);
    return created.parse(await res.json()).id;
  },
  /** The converted audio as a blob (an <audio> element cannot send the sign-in headers). */
  audio: async (id: number, fileId: number): Promise<Blob> => {
    const res = await fetch(`/api/music/${id}/files/${fileId}/audio`, { headers: authHeaders() });
    if (!res.ok) throw await failure(res);
    return res.blob();
  },
  removeFile: (id: number, fileId: number) =>
    apiRequest('DELETE', `/api/music/${id}/files/${fileId}`, { schema: z.unknown() }),
};
