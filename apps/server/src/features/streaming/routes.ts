import {
  errorBodySchema,
  streamingSourceListSchema,
  streamingSourceWriteSchema,
  streamingTestResultSchema,
  streamingTestSchema,
} from '@centralino/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { StreamingService } from './service.ts';

const tags = ['streaming sources'];
const descrParams = z.object({ descr: z.string().min(1).max(50) });
const idResult = z.object({ id: z.number().int() });

export const streamingRoutes =
  (streaming: StreamingService): FastifyPluginAsyncZod =>
  async (app) => {
    const errors = {
      400: errorBodySchema,
      401: errorBodySchema,
      404: errorBodySchema,
      409: errorBodySchema,
      422: errorBodySchema,
    };

    app.get(
      '/api/cti/streaming',
      {
        schema: {
          tags,
          summary: 'Streaming sources with the profiles that see them',
          response: { 200: streamingSourceListSchema, ...errors },
        },
      },
      () => streaming.list(),
    );

    app.post(
      '/api/cti/streaming',
      {
        schema: {
          tags,
          summary: 'Creates a source and its vs_* permission, held by the given profiles',
          body: streamingSourceWriteSchema,
          response: { 200: idResult, ...errors },
        },
      },
      (request) => streaming.create(request.body),
    );

    app.put(
      '/api/cti/streaming/:descr',
      {
        schema: {
          tags,
          summary: 'Replaces the source named currentDescr (else the path), keeping its permission',
          params: descrParams,
          body: streamingSourceWriteSchema,
          response: { 200: idResult, ...errors },
        },
      },
      (request) => streaming.update(request.body.currentDescr ?? request.params.descr, request.body),
    );

    app.delete(
      '/api/cti/streaming/:descr',
      {
        schema: {
          tags,
          summary: 'Deletes a source and its permission',
          params: descrParams,
          response: { 200: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await streaming.remove(request.params.descr);
        return reply.code(200).send(null);
      },
    );

    app.post(
      '/api/cti/sources/test',
      {
        schema: {
          tags,
          summary:
            'Fetches one snapshot through the server (5 s, 5 MB, images only, not the server itself or link-local)',
          body: streamingTestSchema,
          response: { 200: streamingTestResultSchema, ...errors, 502: errorBodySchema },
        },
      },
      // A bare JSON string, as the contract answers: Fastify would send a returned string as plain text.
      async (request, reply) =>
        reply
          .type('application/json')
          .serializer(JSON.stringify)
          .send(await streaming.test(request.body.url, request.body.descr)),
    );
  };
