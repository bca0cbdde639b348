import {
  blockedCallerListSchema,
  blockedCallerWriteSchema,
  callClassPrefixesSchema,
  errorBodySchema,
} from '@centralino/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { crudRoutes } from '../flows/crud-routes.ts';
import type { BlockingService } from './service.ts';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
  422: errorBodySchema,
};

/**
 * Blocked callers and the outbound call classes (issue 42 item 7). Both are PBX configuration: every write marks it
 * changed (inbound routes' check, sub-call-permission).
 */
export const blockingRoutes =
  (service: BlockingService): FastifyPluginAsyncZod =>
  async (app) => {
    const tags = ['blocking'];
    crudRoutes(app, {
      path: '/api/blocklist',
      tags,
      errors,
      list: blockedCallerListSchema,
      write: blockedCallerWriteSchema,
      summaries: {
        list: 'Blocked callers: numbers, prefixes and anonymous callers, with what they hear and where',
        create: 'Blocks a caller; an unknown recording, destination or inbound route answers 422 naming it',
        update: 'Changes a blocked caller',
        remove: 'Lets a blocked caller through again',
      },
      ops: service,
    });
    app.get(
      '/api/callclasses',
      {
        schema: {
          tags,
          summary: 'The prefixes that make a dialled number local, national, mobile, international or premium',
          response: { 200: callClassPrefixesSchema, ...errors },
        },
      },
      () => service.callClasses(),
    );
    app.put(
      '/api/callclasses',
      {
        schema: {
          tags,
          summary: 'Changes the class prefixes (the longest matching prefix decides; none: national)',
          body: callClassPrefixesSchema,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await service.setCallClasses(request.body);
        return reply.code(204).send(null);
      },
    );
  };
