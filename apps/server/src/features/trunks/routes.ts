import {
  codecListSchema,
  errorBodySchema,
  providerListSchema,
  trunkListSchema,
  VOIP_CODECS,
  voipProviders,
  voipTrunkCreateSchema,
  voipTrunkPatchSchema,
} from '@centralino/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { TrunksService } from './service.ts';

const tags = ['trunks'];
const idParams = z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) });

export const trunksRoutes =
  (trunks: TrunksService): FastifyPluginAsyncZod =>
  async (app) => {
    const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };

    app.get(
      '/api/trunks',
      {
        schema: {
          tags,
          summary: 'Every trunk (VoIP and gateway ports), by id',
          response: { 200: trunkListSchema, ...errors },
        },
      },
      () => trunks.list(),
    );

    app.get(
      '/api/trunks/count',
      { schema: { tags, summary: 'Number of trunks', response: { 200: z.number().int(), ...errors } } },
      () => trunks.count(),
    );

    app.get(
      '/api/trunks/:tech',
      {
        schema: {
          tags,
          summary: 'Trunks of one technology (all trunks are pjsip)',
          params: z.object({ tech: z.string().max(16) }),
          response: { 200: trunkListSchema, ...errors },
        },
      },
      async (request) => (request.params.tech.toLowerCase() === 'pjsip' ? trunks.list() : []),
    );

    app.post(
      '/api/trunks',
      {
        schema: {
          tags,
          summary: 'Creates a VoIP trunk from a provider template',
          body: voipTrunkCreateSchema,
          response: { 200: z.object({ trunkid: z.number().int() }), ...errors },
        },
      },
      async (request) => ({ trunkid: await trunks.create(request.body) }),
    );

    app.patch(
      '/api/trunks/:id',
      {
        schema: {
          tags,
          summary: 'Changes a VoIP trunk (an empty password keeps the stored one)',
          params: idParams,
          body: voipTrunkPatchSchema,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await trunks.patch(request.params.id, request.body);
        return reply.code(204).send(null);
      },
    );

    app.delete(
      '/api/trunks/:id',
      {
        schema: {
          tags,
          summary: 'Deletes a VoIP trunk (and its place in outbound routes)',
          params: idParams,
          response: { 200: z.object({ status: z.literal(true) }), ...errors },
        },
      },
      async (request) => {
        await trunks.remove(request.params.id);
        return { status: true as const };
      },
    );

    app.get(
      '/api/providers',
      { schema: { tags, summary: 'VoIP provider catalogue', response: { 200: providerListSchema, ...errors } } },
      () =>
        [...voipProviders]
          .sort((a, b) => a.description.localeCompare(b.description))
          .map(({ id, provider, description }) => ({ id, provider, description })),
    );

    app.get(
      '/api/codecs/voip',
      { schema: { tags, summary: 'Codecs offered for VoIP trunks', response: { 200: codecListSchema, ...errors } } },
      () => VOIP_CODECS.map((codec) => ({ codec, enabled: true })),
    );
  };
