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
import type { TimeConditionsService } from './time-conditions.ts';

const idParams = z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) });
const created = z.object({ id: z.number().int() });

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
    const crud = <W extends z.ZodType>(
      path: string,
      tags: string[],
      what: string,
      list: z.ZodType,
      write: W,
      ops: {
        list: () => Promise<unknown>;
        create: (body: z.infer<W>) => Promise<number>;
        update: (id: number, body: z.infer<W>) => Promise<void>;
        remove: (id: number) => Promise<void>;
      },
    ) => {
      app.get(path, { schema: { tags, summary: `${what}s`, response: { 200: list, ...errors } } }, () => ops.list());
      app.post(
        path,
        { schema: { tags, summary: `Creates a ${what}`, body: write, response: { 200: created, ...errors } } },
        async (request) => ({ id: await ops.create(request.body as z.infer<W>) }),
      );
      app.put(
        `${path}/:id`,
        {
          schema: {
            tags,
            summary: `Changes a ${what}`,
            params: idParams,
            body: write,
            response: { 204: z.null(), ...errors },
          },
        },
        async (request, reply) => {
          await ops.update(request.params.id, request.body as z.infer<W>);
          return reply.code(204).send(null);
        },
      );
      app.delete(
        `${path}/:id`,
        {
          schema: {
            tags,
            summary: `Deletes a ${what}; refused while something uses it`,
            params: idParams,
            response: { 204: z.null(), ...errors },
          },
        },
        async (request, reply) => {
          await ops.remove(request.params.id);
          return reply.code(204).send(null);
        },
      );
    };
    crud('/api/timegroups', ['timegroups'], 'time group', timeGroupListSchema, timeGroupWriteSchema, {
      list: () => service.listGroups(),
      create: (body) => service.createGroup(body),
      update: (id, body) => service.updateGroup(id, body),
      remove: (id) => service.removeGroup(id),
    });
    crud(
      '/api/timeconditions',
      ['timeconditions'],
      'time condition',
      timeConditionListSchema,
      timeConditionWriteSchema,
      {
        list: () => service.listConditions(),
        create: (body) => service.createCondition(body),
        update: (id, body) => service.updateCondition(id, body),
        remove: (id) => service.removeCondition(id),
      },
    );
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
