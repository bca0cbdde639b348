import {
  bulkPhoneListQuerySchema,
  bulkPhonePageSchema,
  bulkReconfigureRequestSchema,
  bulkReconfigureStartedSchema,
  bulkReconfigureTaskSchema,
  bulkSetModelRequestSchema,
  bulkSetModelResultSchema,
  errorBodySchema,
  pickUiLanguage,
} from '@centralino/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../errors.ts';
import type { BulkPhonesService } from './service.ts';

const tags = ['bulk phones'];
const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema };

/**
 * Bulk phones (spec extended-areas, /apps/bulkdevices). The reconfiguration lives under
 * /api/phones/reconfigure like the one-phone call, since it changes no PBX configuration (no apply follows).
 */
export const bulkPhonesRoutes =
  (bulk: BulkPhonesService): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/bulk/phones',
      {
        schema: {
          tags,
          summary:
            'Phones of the inventory with model, user and line, filtered by CTI group, model and search; one page, ' +
            'with the totals of the whole filter (phones, per vendor, registered)',
          querystring: bulkPhoneListQuerySchema,
          response: { 200: bulkPhonePageSchema, ...errors },
        },
      },
      (request) => bulk.list(request.query),
    );

    app.post(
      '/api/bulk/phones/model',
      {
        schema: {
          tags,
          summary: 'Sets the model of the selected phones (one vendor) in one transaction',
          body: bulkSetModelRequestSchema,
          response: { 200: bulkSetModelResultSchema, ...errors },
        },
      },
      (request) => bulk.setModel(request.body.selection, request.body.model),
    );

    app.post(
      '/api/phones/reconfigure/bulk',
      {
        schema: {
          tags,
          summary:
            "Sends each selected phone's line a reconfigure NOTIFY, then arms the delayed reboot when asked; " +
            'poll GET /api/phones/reconfigure/bulk/{task}',
          body: bulkReconfigureRequestSchema,
          response: { 202: bulkReconfigureStartedSchema, ...errors },
        },
      },
      async (request, reply) => {
        const task = await bulk.startReconfigure(request.body, pickUiLanguage(request.headers['accept-language']));
        return reply.code(202).send({ task });
      },
    );

    app.get(
      '/api/phones/reconfigure/bulk/:task',
      {
        schema: {
          tags,
          summary: 'Progress of a bulk reconfiguration, and what was not reconfigured and why once done',
          params: z.object({ task: z.string().regex(/^[0-9a-f]{32}$/) }),
          response: { 200: bulkReconfigureTaskSchema, ...errors },
        },
      },
      async (request) => {
        const task = await bulk.reconfigureTask(request.params.task);
        if (!task) throw new AppError(404, 'not_found');
        return task;
      },
    );
  };
