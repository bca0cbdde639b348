import { errorBodySchema, macAddressMap, macSchema, vendorOfMac } from '@centralino/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../errors.ts';
import type { PbxLive } from '../../pbx/live.ts';
import { sendJsonValue } from '../../plugins/json-value.ts';
import type { DevicesService } from '../devices/service.ts';

/**
 * Read calls of the original API that its console never made but scripts written against it do
 * (contract api-core §18, api-admin §3.7, provisioning §5.5). They answer the original's shapes, except that
 * lists carry no secrets (docs/differences.md). Every path here needs the sign-in key (plugins/auth.ts).
 */

const tags = ['legacy'];
const ext = z.string().regex(/^[0-9]{2,8}$/);
const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema, 503: errorBodySchema };
const virtualExtension = z.object({ extension: z.string(), name: z.string(), username: z.string() });
const mailbox = z.object({
  mailbox: z.string(),
  name: z.string(),
  email: z.string(),
  pager: z.string(),
  options: z.record(z.string(), z.string()),
});
const inventoryPhone = z.object({
  mac: z.string().nullable(),
  vendor: z.string().nullable(),
  model: z.string().nullable(),
  extension: z.string().nullable(),
  user_id: z.number().nullable(),
});

export const legacyReadsRoutes =
  (devices: DevicesService, live: PbxLive): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/mainextensions',
      {
        schema: {
          tags,
          summary: 'Main extensions no device registers on (the original: extensions without a device)',
          response: { 200: z.array(virtualExtension), ...errors },
        },
      },
      () => devices.mainExtensionsWithoutDevice(),
    );
    app.get(
      '/api/mainextensions/:extension',
      {
        schema: {
          tags,
          summary: 'One main extension no device registers on, or 404',
          params: z.object({ extension: ext }),
          response: { 200: virtualExtension, ...errors },
        },
      },
      async (request) => {
        const [found] = await devices.mainExtensionsWithoutDevice(request.params.extension);
        if (!found) throw new AppError(404, 'not_found');
        return found;
      },
    );

    app.get(
      '/api/mobiles',
      {
        schema: {
          tags,
          summary: "Every user's mobile number (null when none)",
          response: { 200: z.array(z.object({ mobile: z.string().nullable(), username: z.string() })), ...errors },
        },
      },
      () => devices.mobiles(),
    );

    app.get(
      '/api/voicemails',
      {
        schema: {
          tags,
          summary: 'Every mailbox by number, without PINs ([] when there is none)',
          response: { 200: z.union([z.record(z.string(), mailbox), z.array(z.never())]), ...errors },
        },
      },
      async () => {
        const boxes = await devices.voicemails();
        // The original answered an empty PHP array, [], when there was no mailbox.
        return Object.keys(boxes).length === 0 ? [] : boxes;
      },
    );

    app.get(
      '/api/physicalextensions/:extension',
      {
        schema: {
          tags,
          summary: 'The device with this number, in the shape of the inventory list, or 404',
          params: z.object({ extension: ext }),
          response: { 200: inventoryPhone, ...errors },
        },
      },
      async (request) => {
        const d = await devices.deviceOfExtension(request.params.extension);
        if (!d) throw new AppError(404, 'not_found');
        return {
          mac: d.mac,
          vendor: d.vendor,
          model: d.model,
          extension: d.extension,
          user_id: d.user_id === null ? null : Number(d.user_id),
        };
      },
    );

    app.get(
      '/api/devices/:mac/brand',
      {
        schema: {
          tags,
          summary: 'The vendor of a MAC address from the vendor map, or null',
          params: z.object({ mac: z.string().max(64) }),
          response: { 200: z.string().nullable(), ...errors },
        },
      },
      async (request, reply) => sendJsonValue(reply, vendorOfMac(request.params.mac) ?? null),
    );

    app.get(
      '/api/phones/account/:mac',
      {
        schema: {
          tags,
          summary: 'The number and SIP secret of the account a phone is linked to, or {}',
          params: z.object({ mac: macSchema }),
          response: {
            200: z.union([z.object({ extension: z.string(), secret: z.string() }), z.object({}).strict()]),
            ...errors,
          },
        },
      },
      (request) => devices.accountOfPhone(request.params.mac),
    );

    app.get(
      '/api/phones/state',
      {
        schema: {
          tags,
          summary:
            "Every account's extension state as AMI numbers it (0 idle, 1 in use, 2 busy, 4 unavailable, 8 ringing, " +
            '9 ringing while in use, 16 on hold, -1 unknown to the PBX); 503 without a PBX connection',
          response: { 200: z.record(z.string(), z.number().int()), ...errors },
        },
      },
      () => live.extensionStates(),
    );

    app.get(
      '/freepbx/rest/lib/macAddressMap.json',
      {
        schema: {
          tags,
          summary: "The MAC vendor map at the original console's path: vendor → MAC ranges, matched in order",
          response: {
            200: z.record(z.string(), z.array(z.object({ start: z.string(), end: z.string() }))),
            ...errors,
          },
        },
      },
      () => macAddressMap(),
    );
  };
