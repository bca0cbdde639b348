import { Readable } from 'node:stream';
import {
  callDetailSchema,
  callFiltersSchema,
  callPageSchema,
  callQuerySchema,
  errorBodySchema,
} from '@centralino/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { CallsService } from './service.ts';

const tags = ['calls'];

export const callsRoutes =
  (calls: CallsService): FastifyPluginAsyncZod =>
  async (app) => {
    const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema };

    app.get(
      '/api/calls',
      {
        schema: {
          tags,
          summary: 'Call history: one page of calls matching the filters, newest first (pass `next` as cursor)',
          querystring: callQuerySchema,
          response: { 200: callPageSchema, ...errors },
        },
      },
      (request) => calls.page(request.query),
    );

    app.get(
      '/api/calls/backlog',
      {
        schema: {
          tags,
          summary: 'Call records not yet in the history (while a large copy is taken in)',
          response: { 200: z.object({ records: z.number().int() }), ...errors },
        },
      },
      async () => ({ records: await calls.backlog() }),
    );

    app.get(
      '/api/calls/export',
      {
        schema: {
          tags,
          summary: 'Every call matching the filters as CSV, streamed',
          querystring: callFiltersSchema,
        },
      },
      (request, reply) => {
        const day = new Date().toISOString().slice(0, 10);
        reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="calls-${day}.csv"`);
        return reply.send(Readable.from(calls.csv(request.query)));
      },
    );

    app.get(
      '/api/calls/:id',
      {
        schema: {
          tags,
          summary: 'One call: its legs in order and the way it went',
          params: z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) }),
          response: { 200: callDetailSchema, ...errors },
        },
      },
      (request) => calls.detail(request.params.id),
    );
  };
