import { errorBodySchema, paramUrlDeleteSchema, paramUrlListSchema, paramUrlWriteSchema } from '@centralino/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ParamUrlsService } from './service.ts';

const tags = ['parameterised URLs'];
const idParams = z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) });
const idResult = z.object({ id: z.number().int() });

export const paramUrlsRoutes =
  (urls: ParamUrlsService): FastifyPluginAsyncZod =>
  async (app) => {
    const errors = {
      400: errorBodySchema,
      401: errorBodySchema,
      404: errorBodySchema,
      409: errorBodySchema,
      422: errorBodySchema,
    };

    app.get(
      '/api/cti/paramurls',
      {
        schema: {
          tags,
          summary: 'Parameterised URLs with their profiles and the queues-only flag',
          response: { 200: paramUrlListSchema, ...errors },
        },
      },
      () => urls.list(),
    );

    app.post(
      '/api/cti/paramurl',
      {
        schema: {
          tags,
          summary: 'Creates a URL for profiles that have none yet (409 paramurl_profile_taken otherwise)',
          body: paramUrlWriteSchema,
          response: { 200: idResult, ...errors },
        },
      },
      (request) => urls.create(request.body),
    );

    app.put(
      '/api/cti/paramurl/:id',
      {
        schema: {
          tags,
          summary: 'Replaces a URL, its profiles and its flag',
          params: idParams,
          body: paramUrlWriteSchema,
          response: { 200: idResult, ...errors },
        },
      },
      (request) => urls.update(request.params.id, request.body),
    );

    app.delete(
      '/api/cti/paramurl/:id',
      {
        schema: {
          tags,
          summary: 'Deletes a URL and its profile links',
          params: idParams,
          response: { 200: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await urls.remove(request.params.id);
        return reply.code(200).send(null);
      },
    );

    app.post(
      '/api/cti/paramurl/delete',
      {
        schema: {
          tags,
          summary: "Deletes the URL with this text (the original's form of delete)",
          body: paramUrlDeleteSchema,
          response: { 200: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await urls.removeByUrl(request.body.url);
        return reply.code(200).send(null);
      },
    );
  };
