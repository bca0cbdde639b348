import { cqrListSchema, cqrWriteSchema, errorBodySchema } from '@centralino/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CQR_LOOKUP_PATH } from '../../pbx/render/cqr.ts';
import { dialplanTarget } from '../../pbx/render/dialplan.ts';
import { asteriskCallAuth } from '../cloud-speech/routes.ts';
import type { VoicemailSttToken } from '../cloud-speech/token.ts';
import type { CqrService } from './cqr.ts';
import { crudRoutes, idParams } from './crud-routes.ts';

/** Caller query routing (issue 26): the console's CRUD, and the dialplan's call-time lookup. */
export const cqrRoutes =
  (service: CqrService, token: VoicemailSttToken): FastifyPluginAsyncZod =>
  async (app) => {
    const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };
    crudRoutes(app, {
      path: '/api/cqr',
      tags: ['cqr'],
      errors,
      list: cqrListSchema,
      write: cqrWriteSchema,
      summaries: {
        list: 'Caller query routings',
        create: 'Creates a caller query routing',
        update: 'Changes a caller query routing',
        remove: 'Deletes a caller query routing; refused while something uses it',
      },
      // The service's own list, create, update and remove, called as its methods.
      ops: service,
    });
    // Asterisk's CURL() at call time: a GET with the caller in the query string, answered with the destination as
    // plain text ('context,exten,priority'), which the dialplan Goto()s. Authenticated like the voicemail mail command.
    app.get(
      `${CQR_LOOKUP_PATH}/:id`,
      {
        config: { ownAuth: asteriskCallAuth(token) },
        schema: {
          hide: true,
          params: idParams,
          querystring: z.object({
            caller: z
              .string()
              .regex(/^[0-9*#+]{0,40}$/)
              .default(''),
          }),
          response: {
            200: z.string(),
            400: errorBodySchema,
            401: errorBodySchema,
            403: errorBodySchema,
            404: errorBodySchema,
          },
        },
      },
      async (request, reply) => {
        const decision = await service.decide(request.params.id, request.query.caller);
        request.log.info({ cqr: request.params.id, reason: decision.reason }, 'caller query routing');
        return reply.type('text/plain').serializer(String).send(dialplanTarget(decision.destination));
      },
    );
  };
