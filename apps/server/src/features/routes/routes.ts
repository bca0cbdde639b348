import {
  errorBodySchema,
  inboundDeleteSchema,
  inboundListSchema,
  inboundUpdateSchema,
  inboundWriteSchema,
  outboundDefaultsSchema,
  outboundRouteDetailSchema,
  outboundRouteListSchema,
  outboundSaveSchema,
  routeLocales,
} from '@centralino/contract';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { InboundRoutesService } from './inbound.ts';
import type { OutboundRoutesService } from './outbound.ts';

const tags = ['routes'];
const id = z.coerce.number().int().min(1).max(2_147_483_647);
const anyId = z.coerce.number().int().min(0).max(2_147_483_647);
const ok = z.object({ success: z.literal(true) });

export const routesRoutes =
  (
    inbound: InboundRoutesService,
    outbound: OutboundRoutesService,
    routePlannerUrl: string | undefined,
  ): FastifyPluginAsyncZod =>
  async (app) => {
    const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };

    app.get(
      '/api/inboundroutes',
      {
        schema: {
          tags,
          summary: 'Inbound routes and every destination they can use',
          response: { 200: inboundListSchema, ...errors },
        },
      },
      () => inbound.list(),
    );
    app.get(
      '/api/inboundroutes/count',
      { schema: { tags, summary: 'Number of inbound routes', response: { 200: z.number().int(), ...errors } } },
      () => inbound.count(),
    );
    app.post(
      '/api/inboundroutes',
      {
        schema: {
          tags,
          summary: 'Creates an inbound route (DID + caller id must be new)',
          body: inboundWriteSchema,
          response: { 200: ok, ...errors },
        },
      },
      async (request) => {
        await inbound.create(request.body);
        return { success: true as const };
      },
    );
    app.put(
      '/api/inboundroutes',
      {
        schema: {
          tags,
          summary: 'Replaces the inbound route named by old',
          body: inboundUpdateSchema,
          response: { 200: ok, ...errors },
        },
      },
      async (request) => {
        const { old, ...route } = request.body;
        await inbound.update(old, route);
        return { success: true as const };
      },
    );
    app.post(
      '/api/inboundroutes/delete',
      {
        schema: {
          tags,
          summary: 'Deletes the inbound route of a DID and caller id',
          body: inboundDeleteSchema,
          response: { 200: ok, ...errors },
        },
      },
      async (request) => {
        await inbound.remove(request.body.extension, request.body.cid);
        return { success: true as const };
      },
    );
    app.get(
      '/api/configuration/routeplanner',
      {
        schema: {
          tags,
          summary: 'Address of an external route planner, when one is configured',
          response: { 200: z.object({ url: z.string().nullable() }), ...errors },
        },
      },
      () => ({ url: routePlannerUrl ?? null }),
    );

    app.get(
      '/api/outboundroutes',
      {
        schema: {
          tags,
          summary: 'Outbound routes in priority order with their trunks in failover order',
          response: { 200: outboundRouteListSchema, ...errors },
        },
      },
      () => outbound.list(),
    );
    app.get(
      '/api/outboundroutes/count',
      { schema: { tags, summary: 'Number of outbound routes', response: { 200: z.number().int(), ...errors } } },
      () => outbound.count(),
    );
    app.get(
      '/api/outboundroutes/defaults',
      {
        schema: {
          tags,
          summary: 'Default routes of each language, proposing every trunk',
          response: { 200: outboundDefaultsSchema, ...errors },
        },
      },
      () => outbound.defaults(),
    );
    app.get(
      '/api/outboundroutes/supportedLocales',
      {
        schema: {
          tags,
          summary: 'Languages with default dial patterns',
          response: { 200: z.array(z.string()), ...errors },
        },
      },
      () => [...routeLocales],
    );
    app.post(
      '/api/outboundroutes',
      {
        schema: {
          tags,
          summary: 'Creates the default routes of a language, or saves order and trunks of every route',
          body: outboundSaveSchema,
          response: { 200: ok, ...errors },
        },
      },
      async (request) => {
        await outbound.save(request.body);
        return { success: true as const };
      },
    );
    app.delete(
      '/api/outboundroutes/:routeId/trunks/:trunkId',
      {
        schema: {
          tags,
          summary: 'Takes a trunk out of a route; 200 with an empty body even when the route does not use it',
          // The original console sent list positions, 0 included; they match nothing (contract api-admin §2.9).
          params: z.object({ routeId: anyId, trunkId: anyId }),
          response: { 200: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await outbound.removeTrunk(request.params.routeId, request.params.trunkId);
        // No payload at all, the original's empty body (the typed reply would serialise null as "null").
        return (reply as FastifyReply).code(200).send();
      },
    );
    app.get(
      '/api/outboundroutes/:routeId',
      {
        schema: {
          tags,
          summary: 'One outbound route with its dial patterns',
          params: z.object({ routeId: id }),
          response: { 200: outboundRouteDetailSchema.extend({ route_id: z.number().int() }), ...errors },
        },
      },
      (request) => outbound.detail(request.params.routeId),
    );
    app.post(
      '/api/outboundroutes/route',
      {
        schema: {
          tags,
          summary: 'Adds an outbound route',
          body: outboundRouteDetailSchema,
          response: { 200: z.object({ route_id: z.number().int() }), ...errors },
        },
      },
      async (request) => ({ route_id: await outbound.write(undefined, request.body) }),
    );
    app.put(
      '/api/outboundroutes/:routeId',
      {
        schema: {
          tags,
          summary: 'Replaces an outbound route',
          params: z.object({ routeId: id }),
          body: outboundRouteDetailSchema,
          response: { 200: ok, ...errors },
        },
      },
      async (request) => {
        await outbound.write(request.params.routeId, request.body);
        return { success: true as const };
      },
    );
    app.delete(
      '/api/outboundroutes/:routeId',
      {
        schema: {
          tags,
          summary: 'Deletes an outbound route',
          params: z.object({ routeId: id }),
          response: { 200: ok, ...errors },
        },
      },
      async (request) => {
        await outbound.remove(request.params.routeId);
        return { success: true as const };
      },
    );
  };
