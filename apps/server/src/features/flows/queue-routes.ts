import { errorBodySchema, queueListSchema, queueWriteSchema } from '@centralino/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { crudRoutes } from './crud-routes.ts';
import type { QueuesService } from './queues.ts';

/** Call queues (issue 26): a write marks the PBX configuration changed (queues.conf, ext-queues). */
export const queueRoutes =
  (queues: QueuesService): FastifyPluginAsyncZod =>
  async (app) => {
    crudRoutes(app, {
      path: '/api/queues',
      tags: ['queues'],
      errors: {
        400: errorBodySchema,
        401: errorBodySchema,
        404: errorBodySchema,
        409: errorBodySchema,
        422: errorBodySchema,
      },
      list: queueListSchema,
      write: queueWriteSchema,
      summaries: {
        list: 'Call queues, with members and agents',
        create: 'Creates a queue; its number is checked like an extension (422 names the holder)',
        update: 'Changes a queue',
        remove: 'Deletes a queue; refused while routes or flows send calls to it',
      },
      // The service's own list, create, update and remove, called as its methods.
      ops: queues,
    });
  };
