import { errorBodySchema, queueListSchema, queueWriteSchema } from '@centralino/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { QueuesService } from './queues.ts';

const idParams = z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) });
const created = z.object({ id: z.number().int() });

/** Call queues (issue 26): a write marks the PBX configuration changed (queues.conf, ext-queues). */
export const queueRoutes =
  (queues: QueuesService): FastifyPluginAsyncZod =>
  async (app) => {
    const errors = {
      400: errorBodySchema,
      401: errorBodySchema,
      404: errorBodySchema,
      409: errorBodySchema,
      422: errorBodySchema,
    };
    const tags = ['queues'];
    app.get(
      '/api/queues',
      {
        schema: {
          tags,
          summary: 'Call queues, with members and agents',
          response: { 200: queueListSchema, ...errors },
        },
      },
      () => queues.list(),
    );
    app.post(
      '/api/queues',
      {
        schema: {
          tags,
          summary: 'Creates a queue; its number is checked like an extension (422 names the holder)',
          body: queueWriteSchema,
          response: { 200: created, ...errors },
        },
      },
      async (request) => ({ id: await queues.create(request.body) }),
    );
    app.put(
      '/api/queues/:id',
      {
        schema: {
          tags,
          summary: 'Changes a queue',
          params: idParams,
          body: queueWriteSchema,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await queues.update(request.params.id, request.body);
        return reply.code(204).send(null);
      },
    );
    app.delete(
      '/api/queues/:id',
      {
        schema: {
          tags,
          summary: 'Deletes a queue; refused while routes or flows send calls to it',
          params: idParams,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await queues.remove(request.params.id);
        return reply.code(204).send(null);
      },
    );
  };
