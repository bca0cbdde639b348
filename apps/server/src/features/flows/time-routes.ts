import {
  errorBodySchema,
  timeConditionListSchema,
  timeConditionOverrideSchema,
  timeConditionWriteSchema,
  timeGroupListSchema,
  timeGroupWriteSchema,
} from '@centralino/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { crudRoutes, idParams } from './crud-routes.ts';
import type { TimeConditionsService } from './time-conditions.ts';

/** Time groups and time conditions (issue 26). */
export const timeRoutes =
  (service: TimeConditionsService): FastifyPluginAsyncZod =>
  async (app) => {
    const errors = {
      400: errorBodySchema,
      401: errorBodySchema,
      404: errorBodySchema,
      409: errorBodySchema,
      503: errorBodySchema,
    };
    crudRoutes(app, {
      path: '/api/timegroups',
      tags: ['timegroups'],
      errors,
      list: timeGroupListSchema,
      write: timeGroupWriteSchema,
      summaries: {
        list: 'time groups',
        create: 'Creates a time group',
        update: 'Changes a time group',
        remove: 'Deletes a time group; refused while something uses it',
      },
      ops: {
        list: () => service.listGroups(),
        create: (body) => service.createGroup(body),
        update: (id, body) => service.updateGroup(id, body),
        remove: (id) => service.removeGroup(id),
      },
    });
    crudRoutes(app, {
      path: '/api/timeconditions',
      tags: ['timeconditions'],
      errors,
      list: timeConditionListSchema,
      write: timeConditionWriteSchema,
      summaries: {
        list: 'time conditions',
        create: 'Creates a time condition',
        update: 'Changes a time condition',
        remove: 'Deletes a time condition; refused while something uses it',
      },
      ops: {
        list: () => service.listConditions(),
        create: (body) => service.createCondition(body),
        update: (id, body) => service.updateCondition(id, body),
        remove: (id) => service.removeCondition(id),
      },
    });
    app.post(
      '/api/timeconditions/:id/override',
      {
        schema: {
          tags: ['timeconditions'],
          summary: 'Sets or clears the override in Asterisk (AstDB TC/<id>), as the feature code does',
          params: idParams,
          body: timeConditionOverrideSchema,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await service.setOverride(request.params.id, request.body.override);
        return reply.code(204).send(null);
      },
    );
  };
