import {
  canonicalMac,
  errorBodySchema,
  pickUiLanguage,
  rebootCancelSchema,
  rebootRequestSchema,
  rebootResultSchema,
  rebootScheduleSchema,
  rpsRequestSchema,
  scannedDeviceListSchema,
  scanRequestSchema,
  scanStartedSchema,
} from '@centralino/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../errors.ts';
import type { RebootService } from './reboot.ts';
import { type RpsOptions, registerWithRps } from './rps.ts';
import { type ScanService, scanHash } from './scan.ts';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
  502: errorBodySchema,
};

/** Network discovery (api-admin §3.1, §3.3) and phone actions (api-core §13.2, §13.3). */
export const phoneActionsRoutes =
  (scan: ScanService, reboot: RebootService, rps: RpsOptions): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/api/devices/scan',
      {
        schema: {
          tags: ['devices'],
          summary:
            'Scans a network of the server (at most a /22) for phones and gateways; progress at GET /api/tasks/{id}',
          body: scanRequestSchema,
          response: { 200: scanStartedSchema, ...errors },
        },
      },
      async (request) => ({
        result: await scan.start(request.body.network),
        hash: scanHash(request.body.network),
      }),
    );

    app.delete(
      '/api/devices/scan/:taskId',
      {
        schema: {
          tags: ['devices'],
          summary: 'Stops a running network scan (its task then ends with progress -1)',
          params: z.object({ taskId: z.string().regex(/^[0-9a-f]{32}$/) }),
          response: { 200: z.object({ stopped: z.literal(true) }), ...errors },
        },
      },
      async (request) => {
        if (!scan.stop(request.params.taskId)) throw new AppError(404, 'not_found');
        return { stopped: true as const };
      },
    );

    app.get(
      '/api/devices/phones/list/:networkhash',
      {
        schema: {
          tags: ['devices'],
          summary: 'Phones found by the scan of a network; the hash is md5 of the network string as sent',
          params: z.object({ networkhash: z.string().regex(/^[0-9a-f]{32}$/i) }),
          response: { 200: scannedDeviceListSchema, ...errors },
        },
      },
      async (request) => {
        const hash = request.params.networkhash.toLowerCase();
        const list = await scan.phones(hash);
        if (!list) {
          throw new AppError(404, 'not_found', (lang) =>
            lang === 'it' ? `Nessuna scansione per la rete ${hash}` : `Scan for network ${hash} doesn't exist!`,
          );
        }
        return list;
      },
    );

    app.post(
      '/api/phones/reboot',
      {
        schema: {
          tags: ['phones'],
          summary: 'Reboots phones now ({}) or once at hours:minutes; an outcome per MAC (204 done)',
          body: rebootRequestSchema,
          response: { 200: rebootResultSchema, ...errors },
        },
      },
      (request) => reboot.request(request.body, pickUiLanguage(request.headers['accept-language'])),
    );

    app.get(
      '/api/phones/reboot',
      {
        schema: {
          tags: ['phones'],
          summary: 'Pending delayed reboots by MAC',
          response: { 200: rebootScheduleSchema, ...errors },
        },
      },
      () => reboot.list(),
    );

    app.get(
      '/api/phones/reboot/:mac',
      {
        schema: {
          tags: ['phones'],
          summary: 'The pending delayed reboot of one phone ({} when none)',
          params: z.object({ mac: z.string().max(32) }),
          response: { 200: rebootScheduleSchema, ...errors },
        },
      },
      (request) => {
        const mac = canonicalMac(request.params.mac);
        if (!mac) throw new AppError(400, 'validation', undefined, { mac: 'Invalid MAC address' });
        return reboot.list(mac.replaceAll('-', ':'));
      },
    );

    app.delete(
      '/api/phones/reboot',
      {
        schema: {
          tags: ['phones'],
          summary: 'Cancels delayed reboots: body is a list of MACs; 202 per phone',
          body: rebootCancelSchema,
          response: { 200: rebootResultSchema, ...errors },
        },
      },
      (request) => reboot.cancel(request.body, pickUiLanguage(request.headers['accept-language'])),
    );

    app.post(
      '/api/phones/rps/:mac',
      {
        schema: {
          tags: ['phones'],
          summary: "Registers a phone with its vendor's redirect service so it fetches its configuration from url",
          params: z.object({ mac: z.string().max(32) }),
          body: rpsRequestSchema,
          response: {
            200: z.literal('').describe('empty'),
            201: z.literal('').describe('empty'),
            202: z.literal('').describe('empty'),
            204: z.literal('').describe('empty'),
            ...errors,
          },
        },
      },
      async (request, reply) => {
        const status = await registerWithRps({ ...rps, log: request.log }, request.params.mac, request.body.url);
        return reply.code([200, 201, 202, 204].includes(status) ? status : 200).send('');
      },
    );
  };
