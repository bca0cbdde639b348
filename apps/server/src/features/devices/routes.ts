import {
  deviceCredentialsSchema,
  deviceExtensionRequestSchema,
  errorBodySchema,
  macSchema,
  mobileAppRequestSchema,
  mobileRequestSchema,
  physicalExtensionCreateSchema,
  voicemailRequestSchema,
  voicemailSchema,
} from '@centralino/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../errors.ts';
import { sendJsonValue } from '../../plugins/json-value.ts';
import type { DevicesService } from './service.ts';

const tags = ['devices'];
const ext = z.string().regex(/^[0-9]{2,8}$/);
const ok = z.object({ status: z.literal(true) });

export const devicesRoutes =
  (devices: DevicesService): FastifyPluginAsyncZod =>
  async (app) => {
    const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };

    app.get(
      '/api/voicemails/:extension',
      {
        schema: {
          tags,
          summary: 'The mailbox of a main extension, or null',
          params: z.object({ extension: ext }),
          response: { 200: voicemailSchema, ...errors },
        },
      },
      (request) => devices.voicemail(request.params.extension),
    );
    app.post(
      '/api/voicemails',
      {
        schema: {
          tags,
          summary: "Switches a user's mailbox on (random 4-digit PIN) or off",
          body: voicemailRequestSchema,
          response: { 200: ok, ...errors },
        },
      },
      async (request) => {
        await devices.setVoicemail(request.body.extension, request.body.state === 'yes');
        return { status: true as const };
      },
    );

    app.get(
      '/api/mobiles/:username',
      {
        schema: {
          tags,
          summary: "A user's mobile number, or null",
          params: z.object({ username: z.string().max(64) }),
          response: { 200: z.string().nullable(), ...errors },
        },
      },
      async (request, reply) => sendJsonValue(reply, await devices.mobile(request.params.username.toLowerCase())),
    );
    app.post(
      '/api/mobiles',
      {
        schema: {
          tags,
          summary: "Sets (or with '' clears) a user's mobile number",
          body: mobileRequestSchema,
          response: { 200: ok, ...errors },
        },
      },
      async (request) => {
        await devices.setMobile(request.body.username, request.body.mobile);
        return { status: true as const };
      },
    );

    for (const [path, type] of [
      ['webrtc', 'webrtc'],
      ['nethlink', 'nethlink'],
    ] as const) {
      app.get(
        `/api/${path}/:mainextension`,
        {
          schema: {
            tags,
            summary: `The user's ${type} device extension, or null`,
            params: z.object({ mainextension: ext }),
            response: { 200: z.string().nullable(), ...errors },
          },
        },
        async (request, reply) => sendJsonValue(reply, await devices.deviceOfType(request.params.mainextension, type)),
      );
      app.post(
        `/api/${path}`,
        {
          schema: {
            tags,
            summary: `Creates the user's ${type} device`,
            body: deviceExtensionRequestSchema,
            response: { 200: z.object({ extension: z.string(), mobile_extension: z.null() }), ...errors },
          },
        },
        async (request) => ({ extension: await devices.enable(request.body.extension, type), mobile_extension: null }),
      );
      app.delete(
        `/api/${path}/:mainextension`,
        {
          schema: {
            tags,
            summary: `Deletes the user's ${type} device`,
            params: z.object({ mainextension: ext }),
            response: { 200: ok, ...errors },
          },
        },
        async (request) => {
          await devices.disable(request.params.mainextension, type);
          return { status: true as const };
        },
      );
    }

    app.get(
      '/api/mobileapp/:mainextension',
      {
        schema: {
          tags,
          summary: "The user's mobile app device extension, or null",
          params: z.object({ mainextension: ext }),
          response: { 200: z.string().nullable(), ...errors },
        },
      },
      async (request, reply) =>
        sendJsonValue(reply, await devices.deviceOfType(request.params.mainextension, 'mobile')),
    );
    app.post(
      '/api/mobileapp',
      {
        schema: {
          tags,
          summary: "Creates the user's mobile app device",
          body: mobileAppRequestSchema,
          response: { 201: z.object({ extension: z.string() }), ...errors },
        },
      },
      async (request, reply) =>
        reply.code(201).send({ extension: await devices.enable(request.body.mainextension, 'mobile') }),
    );
    app.delete(
      '/api/mobileapp/:extension',
      {
        schema: {
          tags,
          summary: 'Deletes a mobile app device (by its device extension)',
          params: z.object({ extension: ext }),
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await devices.removeExtension(request.params.extension);
        return reply.code(204).send(null);
      },
    );

    app.get(
      '/api/extensions/:extension/credentials',
      {
        config: { credentials: "one device's SIP secret and web login" },
        schema: {
          tags,
          summary: "A device's SIP secret and web login, for its information (the users list carries no secrets)",
          params: z.object({ extension: ext }),
          response: { 200: deviceCredentialsSchema, ...errors },
        },
      },
      async (request) => {
        const found = await devices.credentials(request.params.extension);
        if (!found) throw new AppError(404, 'not_found');
        return found;
      },
    );

    app.get(
      '/api/extensions/:extension/srtp',
      {
        schema: {
          tags,
          summary: 'Whether a device is encrypted (TLS + SRTP)',
          params: z.object({ extension: ext }),
          response: { 200: z.boolean(), ...errors },
        },
      },
      (request) => devices.srtp(request.params.extension),
    );
    app.post(
      '/api/extensions/:extension/srtp/:enabled',
      {
        schema: {
          tags,
          summary: 'Encrypts (true) or clears (anything else) a device',
          params: z.object({ extension: ext, enabled: z.string().max(8) }),
          response: { 200: ok, ...errors },
        },
      },
      async (request) => {
        await devices.setSrtp(request.params.extension, request.params.enabled === 'true');
        return { status: true as const };
      },
    );

    app.get(
      '/api/physicalextensions',
      {
        schema: {
          tags,
          summary: 'Phones of the inventory with the user and extension they are linked to',
          response: {
            200: z.array(
              z.object({
                mac: z.string().nullable(),
                vendor: z.string().nullable(),
                model: z.string().nullable(),
                extension: z.string().nullable(),
                user_id: z.number().nullable(),
              }),
            ),
            ...errors,
          },
        },
      },
      async () =>
        (await devices.inventory()).map((d) => ({
          mac: d.mac,
          vendor: d.vendor,
          model: d.model,
          extension: d.extension,
          user_id: d.user_id === null ? null : Number(d.user_id),
        })),
    );
    app.post(
      '/api/physicalextensions',
      {
        schema: {
          tags,
          summary: 'Adds a phone to the inventory, links a phone to a user, or creates a custom device',
          body: physicalExtensionCreateSchema,
          response: { 200: z.object({ extension: z.string().nullable() }), ...errors },
        },
      },
      async (request) => ({ extension: await devices.physical(request.body) }),
    );
    app.post(
      '/api/physicalextensions/adminpw',
      {
        schema: {
          tags,
          summary: "Sets the web admin password recorded for every inventory phone (the phones' new admin password)",
          body: z.object({ password: z.string().min(1).max(128) }),
          response: { 200: ok, ...errors },
        },
      },
      async (request) => {
        await devices.setPhonesWebPassword(request.body.password);
        return { status: true as const };
      },
    );
    app.delete(
      '/api/physicalextensions/:id',
      {
        schema: {
          tags,
          summary: 'Unlinks a device (by extension) or removes a phone from the inventory (by MAC, any spelling)',
          params: z.object({ id: z.string().max(17) }),
          response: { 200: ok, ...errors },
        },
      },
      async (request) => {
        const mac = macSchema.safeParse(request.params.id);
        if (/^[0-9]{2,8}$/.test(request.params.id)) await devices.removeExtension(request.params.id);
        else if (mac.success) await devices.removeMac(mac.data);
        else throw new AppError(400, 'validation', 'An extension or a MAC address');
        return { status: true as const };
      },
    );
    app.patch(
      '/api/physicalextensions/:mac',
      {
        schema: {
          tags,
          summary: 'Sets the model of an inventory phone',
          params: z.object({ mac: macSchema }),
          body: z.object({ model: z.string().max(64).nullish() }),
          response: { 200: ok, ...errors },
        },
      },
      async (request) => {
        await devices.setModel(request.params.mac, request.body.model || null);
        return { status: true as const };
      },
    );
  };
