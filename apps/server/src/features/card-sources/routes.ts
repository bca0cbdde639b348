import {
  cardSourceCreateSchema,
  cardSourceListSchema,
  cardSourcePatchSchema,
  cardSourceSchema,
  cardSourceTestResultSchema,
  cardSourceTestSchema,
  cardSourceTypesSchema,
  errorBodySchema,
} from '@centralino/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type CardSourcesService, driverMessageOf } from './service.ts';

const tags = ['customer cards'];
const idParams = z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) });

export const cardSourcesRoutes =
  (sources: CardSourcesService): FastifyPluginAsyncZod =>
  async (app) => {
    /** A failed connection check goes to the log with the driver's message, which the answer leaves out. */
    const logged = async <T>(request: FastifyRequest, run: () => Promise<T>): Promise<T> => {
      try {
        return await run();
      } catch (error) {
        const driver = driverMessageOf(error);
        if (driver) request.log.info({ driver }, 'card source connection check failed');
        throw error;
      }
    };
    const errors = {
      400: errorBodySchema,
      401: errorBodySchema,
      404: errorBodySchema,
      409: errorBodySchema,
      422: errorBodySchema,
    };

    app.get(
      '/api/cti/dbconn',
      {
        schema: {
          tags,
          summary: 'Customer-card sources, the two built-in ones first; never a password',
          response: { 200: cardSourceListSchema, ...errors },
        },
      },
      () => sources.list(),
    );

    app.get(
      '/api/cti/dbconn/type',
      {
        schema: {
          tags,
          summary: 'Database types a source may have, with their labels',
          response: { 200: cardSourceTypesSchema, ...errors },
        },
      },
      () => sources.types(),
    );

    app.post(
      '/api/cti/dbconn',
      {
        schema: {
          tags,
          summary: 'Creates a source, only if its connection answers (connect and select 1)',
          body: cardSourceCreateSchema,
          response: { 200: cardSourceSchema, ...errors },
        },
      },
      (request) => logged(request, () => sources.create(request.body)),
    );

    app.put(
      '/api/cti/dbconn/:id',
      {
        schema: {
          tags,
          summary: 'Changes a source (a missing pass keeps the stored one), only if the result answers',
          params: idParams,
          body: cardSourcePatchSchema,
          response: { 200: cardSourceSchema, ...errors },
        },
      },
      (request) => logged(request, () => sources.update(request.params.id, request.body)),
    );

    app.delete(
      '/api/cti/dbconn/:id',
      {
        schema: {
          tags,
          summary: 'Deletes a source (built-in sources are refused)',
          params: idParams,
          response: { 200: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await sources.remove(request.params.id);
        return reply.code(200).send(null);
      },
    );

    app.post(
      '/api/dbconn/test',
      {
        schema: {
          tags,
          summary:
            'Connection check: connects (2 s timeout) and runs select 1; with id, the stored source (and password)',
          body: cardSourceTestSchema,
          response: { 200: cardSourceTestResultSchema, ...errors, 503: errorBodySchema },
        },
      },
      (request) => logged(request, () => sources.test(request.body)),
    );
  };
