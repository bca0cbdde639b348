import {
  type InboundWrite,
  inboundListSchema,
  type OutboundRouteDetail,
  type OutboundSave,
  outboundDefaultsSchema,
  outboundRouteDetailSchema,
  outboundRouteListSchema,
} from '@centralino/contract';
import { z } from 'zod';
import { apiRequest } from '../../api/client.ts';

const ok = z.unknown();

export const routesApi = {
  inbound: () => apiRequest('GET', '/api/inboundroutes', { schema: inboundListSchema }),
  createInbound: (body: InboundWrite) => apiRequest('POST', '/api/inboundroutes', { body, schema: ok }),
  updateInbound: (old: { extension: string; cidnum: string }, body: InboundWrite) =>
    apiRequest('PUT', '/api/inboundroutes', { body: { ...body, old }, schema: ok }),
  deleteInbound: (extension: string, cid: string) =>
    apiRequest('POST', '/api/inboundroutes/delete', { body: { extension, cid }, schema: ok }),
  planner: () =>
    apiRequest('GET', '/api/configuration/routeplanner', { schema: z.object({ url: z.string().nullable() }) }),
  outbound: () => apiRequest('GET', '/api/outboundroutes', { schema: outboundRouteListSchema }),
  defaults: () => apiRequest('GET', '/api/outboundroutes/defaults', { schema: outboundDefaultsSchema }),
  saveOutbound: (body: OutboundSave) => apiRequest('POST', '/api/outboundroutes', { body, schema: ok }),
  route: (id: number) =>
    apiRequest('GET', `/api/outboundroutes/${id}`, {
      schema: outboundRouteDetailSchema.extend({ route_id: z.number() }),
    }),
  createRoute: (body: OutboundRouteDetail) =>
    apiRequest('POST', '/api/outboundroutes/route', { body, schema: z.object({ route_id: z.number() }) }),
  updateRoute: (id: number, body: OutboundRouteDetail) =>
    apiRequest('PUT', `/api/outboundroutes/${id}`, { body, schema: ok }),
  deleteRoute: (id: number) => apiRequest('DELETE', `/api/outboundroutes/${id}`, { schema: ok }),
};
