import {
  type ParamUrlWrite,
  paramUrlListSchema,
  type StreamingSourceWrite,
  streamingSourceListSchema,
  streamingTestResultSchema,
} from '@centralino/contract';
import { z } from 'zod';
import { apiRequest } from '../../api/client.ts';

const idResult = z.object({ id: z.number() });
const anything = z.unknown();

/** Calls of the Apps area: parameterised URLs (contract api-admin §8), streaming (§7), cloud speech (api-core §17). */
export const appsApi = {
  paramUrls: () => apiRequest('GET', '/api/cti/paramurls', { schema: paramUrlListSchema }),
  createParamUrl: (body: ParamUrlWrite) => apiRequest('POST', '/api/cti/paramurl', { body, schema: idResult }),
  updateParamUrl: (id: number, body: ParamUrlWrite) =>
    apiRequest('PUT', `/api/cti/paramurl/${id}`, { body, schema: idResult }),
  removeParamUrl: (id: number) => apiRequest('DELETE', `/api/cti/paramurl/${id}`, { schema: z.null() }),

  streaming: () => apiRequest('GET', '/api/cti/streaming', { schema: streamingSourceListSchema }),
  createStreaming: (body: StreamingSourceWrite) => apiRequest('POST', '/api/cti/streaming', { body, schema: anything }),
  updateStreaming: (current: string, body: StreamingSourceWrite) =>
    apiRequest('PUT', `/api/cti/streaming/${encodeURIComponent(current)}`, {
      body: { ...body, currentDescr: current },
      schema: anything,
    }),
  removeStreaming: (descr: string) =>
    apiRequest('DELETE', `/api/cti/streaming/${encodeURIComponent(descr)}`, { schema: anything }),
  /** `descr`: the stored source whose password a listed URL (which never shows it) should use. */
  testStreaming: (url: string, descr?: string) =>
    apiRequest('POST', '/api/cti/sources/test', {
      body: descr === undefined ? { url } : { url, descr },
      schema: streamingTestResultSchema,
    }),

  googleAuthExists: () => apiRequest('GET', '/api/configuration/googleauthexists', { schema: z.boolean() }),
  uploadGoogleAuth: (file: string) =>
    apiRequest('POST', '/api/configuration/googleauth', { body: { file }, schema: anything }),
  voicemailStt: () =>
    apiRequest('GET', '/api/configuration/voicemailgooglestt', { schema: z.enum(['enabled', 'disabled']) }),
  setVoicemailStt: (status: 'enabled' | 'disabled') =>
    apiRequest('POST', `/api/configuration/voicemailgooglestt/${status}`, { schema: anything }),
};
