import { errorBodySchema, ringGroupListSchema, ringGroupWriteSchema } from '@centralino/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { crudRoutes } from './crud-routes.ts';
import type { RingGroupsService } from './ring-groups.ts';

/** Ring groups (issue 42): a write marks the PBX configuration changed (extensions.ringgroups.conf). */
export const ringGroupRoutes =
  (ringGroups: RingGroupsService): FastifyPluginAsyncZod =>
  async (app) => {
    crudRoutes(app, {
      path: '/api/ringgroups',
      tags: ['ringgroups'],
      errors: {
        400: errorBodySchema,
        401: errorBodySchema,
        404: errorBodySchema,
        409: errorBodySchema,
        422: errorBodySchema,
      },
      list: ringGroupListSchema,
      write: ringGroupWriteSchema,
      summaries: {
        list: 'Ring groups, with their members in ring order',
        create: 'Creates a ring group; its number is checked like an extension and its users must exist (422)',
        update: 'Changes a ring group',
        remove: 'Deletes a ring group; refused while routes or flows send calls to it',
      },
      ops: ringGroups,
    });
  };
