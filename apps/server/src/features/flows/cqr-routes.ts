import { cqrListSchema, cqrWriteSchema, errorBodySchema } from '@centralino/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CQR_LOOKUP_PATH } from '../../pbx/render/cqr.ts';
import { dialplanTarget } from '../../pbx/render/dialplan.ts';
import { asteriskCallAuth } from '../cloud-speech/routes.ts';
import type { VoicemailSttToken } from '../cloud-speech/token.ts';
import type { CqrService } from './cqr.ts';

const idParams = z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) });
const created = z.object({ id: z.number().int() });

/** Caller query routing (issue 26): the console's CRUD, and the dialplan's call-time lookup. */
export const cqrRoutes =
  (service: CqrService, token: VoicemailSttToken): FastifyPluginAsyncZod =>
  async (app) => {
    const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };
    const tags = ['cqr'];
    app.get('/api/cqr', { schema: { tags, summary: 'Caller query routings', response: { 200: cqrListSchema } } }, () =>
      service.list(),
    );
    app.post(
      '/api/cqr',
      {
        schema: {
          tags,
          summary: 'Creates a caller query routing',
          body: cqrWriteSchema,
          response: { 200: created, ...errors },
        },
      },
      async (request) => ({ id: await service.create(request.body) }),
    );
    app.put(
      '/api/cqr/:id',
      {
        schema: {
          tags,
          summary: 'Changes a caller query routing',
          params: idParams,
          body: cqrWriteSchema,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await service.update(request.params.id, request.body);
        return reply.code(204).send(null);
      },
    );
    app.delete(
      '/api/cqr/:id',
      {
        schema: {
          tags,
          summary: 'Deletes a caller query routing; refused while something uses it',
          params: idParams,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await service.remove(request.params.id);
        return reply.code(204).send(null);
      },
    );
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
