import {
  errorBodySchema,
  phoneListSchema,
  phoneManufacturersSchema,
  phoneModelRequestSchema,
  phoneProvisionRequestSchema,
} from '@centralino/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { PhoneConfigService } from './service.ts';

const tags = ['devices'];
const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };
const ok = z.object({ status: z.literal(true) });

/** Old-mode device configuration and the per-user screen's phone list (contract api-admin §3.3–§3.9). */
export const phoneConfigRoutes =
  (phones: PhoneConfigService): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/devices/phones/manufacturers',
      {
        schema: {
          tags,
          summary: 'Phone vendors and the names of the models a phone of each can be given',
          response: { 200: phoneManufacturersSchema, ...errors },
        },
      },
      () => phones.manufacturers(),
    );

    app.post(
      '/api/devices/phones/model',
      {
        schema: {
          tags,
          summary: "Sets a phone's model (adding the phone to the inventory when new); its user link stays",
          body: phoneModelRequestSchema,
          response: { 200: ok, ...errors },
        },
      },
      async (request) => {
        await phones.setModel(request.body.mac, request.body.vendor, request.body.model);
        return { status: true as const };
      },
    );

    app.get(
      '/api/devices/phones/list',
      {
        schema: {
          tags,
          summary: 'Phones and custom devices of the PBX with their lines (no secrets)',
          response: { 200: phoneListSchema, ...errors },
        },
      },
      () => phones.list(),
    );

    app.post(
      '/api/devices/phones/provision',
      {
        schema: {
          tags,
          summary:
            "Prepares a phone's configuration (model and SIP account) for its next fetch; then POST /api/phones/reconfigure",
          body: phoneProvisionRequestSchema,
          response: { 200: z.object({ mac: z.string(), model: z.string().nullable() }), ...errors },
        },
      },
      (request) => phones.provision(request.body.mac),
    );
  };
