import {
  codecListSchema,
  providerListSchema,
  trunkListSchema,
  type VoipTrunkCreate,
  type VoipTrunkPatch,
} from '@centralino/contract';
import { z } from 'zod';
import { apiRequest } from '../../api/client.ts';

/** Live state of a trunk as the PBX engine reports it (contract §1.9); absent when not connected. */
const liveTrunkSchema = z
  .object({
    ip: z.string().optional(),
    port: z.union([z.string(), z.number()]).optional(),
    status: z.string().optional(),
    registration: z.string().optional(),
  })
  .loose();
export type LiveTrunk = z.infer<typeof liveTrunkSchema>;

export const trunksApi = {
  list: () => apiRequest('GET', '/api/trunks', { schema: trunkListSchema }),
  providers: () => apiRequest('GET', '/api/providers', { schema: providerListSchema }),
  codecs: () => apiRequest('GET', '/api/codecs/voip', { schema: codecListSchema }),
  create: (body: VoipTrunkCreate) =>
    apiRequest('POST', '/api/trunks', { body, schema: z.object({ trunkid: z.number() }) }),
  patch: (id: number, body: VoipTrunkPatch) => apiRequest('PATCH', `/api/trunks/${id}`, { body, schema: z.unknown() }),
  remove: (id: number) => apiRequest('DELETE', `/api/trunks/${id}`, { schema: z.unknown() }),
  /** Keyed by trunk name; empty when the PBX engine is not connected. */
  live: async (): Promise<Record<string, LiveTrunk>> => {
    try {
      return await apiRequest('GET', '/api/astproxy/trunks', { schema: z.record(z.string(), liveTrunkSchema) });
    } catch {
      return {};
    }
  },
};
