import {
  errorBodySchema,
  gatewayCreatedSchema,
  gatewayCreateSchema,
  gatewayListSchema,
  gatewayManufacturersSchema,
  gatewayPushSchema,
  pickUiLanguage,
} from '@centralino/contract';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../errors.ts';
import type { GatewaysService } from './service.ts';

const tags = ['gateways'];

/** The original answers the file as a JSON string of base64; Fastify would send a bare string as text. */
function base64Json(reply: FastifyReply, text: string) {
  return reply.type('application/json; charset=utf-8').send(JSON.stringify(Buffer.from(text).toString('base64')));
}

export const gatewaysRoutes =
  (gateways: GatewaysService): FastifyPluginAsyncZod =>
  async (app) => {
    const errors = {
      400: errorBodySchema,
      401: errorBodySchema,
      404: errorBodySchema,
      409: errorBodySchema,
      502: errorBodySchema,
      503: errorBodySchema,
    };
    const listSchema = {
      tags,
      summary: 'Configured gateways and those seen on the network, by manufacturer',
      response: { 200: gatewayListSchema, ...errors },
    };

    app.get('/api/devices/gateways/list', { schema: listSchema }, () => gateways.list());
    // The original takes a network hash; discovery reads the host's neighbour table, so any value lists the same.
    app.get(
      '/api/devices/gateways/list/:networkhash',
      { schema: { ...listSchema, params: z.object({ networkhash: z.string().max(128) }) } },
      () => gateways.list(),
    );

    app.get(
      '/api/devices/gateways/manufacturers',
      {
        schema: {
          tags,
          summary: 'Gateway catalogue by manufacturer, with the PBX address to pre-fill',
          response: { 200: gatewayManufacturersSchema, ...errors },
        },
      },
      () => gateways.manufacturers(),
    );

    app.post(
      '/api/devices/gateways',
      {
        schema: {
          tags,
          summary: 'Configures a gateway: one trunk per ISDN, PRI and FXO port, one device per linked FXS port',
          body: gatewayCreateSchema,
          response: { 200: gatewayCreatedSchema, ...errors },
        },
      },
      async (request) => ({
        status: true as const,
        errors: [],
        warnings: [],
        infos: [],
        id: await gateways.create(request.body),
      }),
    );

    app.post(
      '/api/devices/gateways/push',
      {
        schema: {
          tags,
          summary: 'Makes the gateway fetch its file from the console over TFTP and restart with it',
          body: gatewayPushSchema,
          response: { 200: z.object({ status: z.literal(true) }), ...errors },
        },
      },
      async (request) => {
        await gateways.push(request.body.mac, pickUiLanguage(request.headers['accept-language']));
        return { status: true as const };
      },
    );

    app.delete(
      '/api/devices/gateways/:id',
      {
        schema: {
          tags,
          summary: 'Deletes a gateway configuration with its trunks and FXS devices',
          params: z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) }),
          response: { 200: z.object({ status: z.literal(true) }), ...errors },
        },
      },
      async (request) => {
        if (!(await gateways.remove(request.params.id))) throw new AppError(404, 'not_found');
        return { status: true as const };
      },
    );

    const downloadSchema = {
      tags,
      summary: 'The gateway configuration file, base64-encoded (by gateway id or configuration name)',
      response: { 200: z.string(), ...errors },
    };
    app.get(
      '/api/devices/gateways/download/:name',
      { schema: { ...downloadSchema, params: z.object({ name: z.string().min(1).max(255) }) } },
      async (request, reply) =>
        base64Json(
          reply,
          await gateways.download(request.params.name, undefined, pickUiLanguage(request.headers['accept-language'])),
        ),
    );
    app.get(
      '/api/devices/gateways/download/:name/:mac',
      {
        schema: {
          ...downloadSchema,
          params: z.object({ name: z.string().min(1).max(255), mac: z.string().regex(/^[0-9A-Fa-f:-]{12,17}$/) }),
        },
      },
      async (request, reply) =>
        base64Json(
          reply,
          await gateways.download(
            request.params.name,
            request.params.mac.replaceAll('-', ':'),
            pickUiLanguage(request.headers['accept-language']),
          ),
        ),
    );
  };
