import {
  BULK_PATH_MAX,
  bulkEditRequestSchema,
  bulkEditSchema,
  bulkPreviewSchema,
  bulkReadRequestSchema,
  bulkSelectionAnswerSchema,
  bulkSelectQuerySchema,
  bulkSettingsSchema,
  contextsSchema,
  destinationsSchema,
  errorBodySchema,
} from '@centralino/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { BulkService } from './service.ts';

const tags = ['bulk'];
/** The original's path form: comma-separated main extensions (small selections). */
const extsParams = z.object({
  exts: z
    .string()
    .regex(/^\d{2,6}(,\d{2,6})*$/, 'Main extensions separated by commas')
    .refine((s) => s.split(',').length <= BULK_PATH_MAX, `At most ${BULK_PATH_MAX} extensions in a path`)
    .transform((s) => s.split(',')),
});
const applied = z.object({ status: z.literal(true), users: z.number().int() });

export const bulkRoutes =
  (bulk: BulkService): FastifyPluginAsyncZod =>
  async (app) => {
    const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema, 422: errorBodySchema };

    app.get(
      '/api/bulk/selection',
      {
        schema: {
          tags,
          summary: 'Main extensions of the users in a CTI group, a number interval or a search (all without one)',
          querystring: bulkSelectQuerySchema,
          response: { 200: bulkSelectionAnswerSchema, ...errors },
        },
      },
      (request) => bulk.select(request.query),
    );

    app.get(
      '/api/bulk/:exts',
      {
        schema: {
          tags,
          summary: "The selected users' call settings; null where they differ",
          params: extsParams,
          response: { 200: bulkSettingsSchema, ...errors },
        },
      },
      (request) => bulk.read(request.params.exts),
    );

    app.post(
      '/api/bulk/settings',
      {
        schema: {
          tags,
          summary: 'As GET /api/bulk/{exts}, for a selection sent in the body',
          body: bulkReadRequestSchema,
          response: { 200: bulkSettingsSchema, ...errors },
        },
      },
      (request) => bulk.read(request.body.extensions),
    );

    app.post(
      '/api/bulk/preview',
      {
        schema: {
          tags,
          summary: 'How many users and accounts an edit would change, per field; writes nothing',
          body: bulkEditRequestSchema,
          response: { 200: bulkPreviewSchema, ...errors },
        },
      },
      (request) => bulk.preview(request.body.extensions, request.body),
    );

    app.post(
      '/api/bulk',
      {
        schema: {
          tags,
          summary: 'Applies an edit to the users of a selection sent in the body; all or nothing',
          body: bulkEditRequestSchema,
          response: { 200: applied, ...errors },
        },
      },
      async (request) => ({ status: true as const, ...(await bulk.apply(request.body.extensions, request.body)) }),
    );

    app.post(
      '/api/bulk/:exts',
      {
        schema: {
          tags,
          summary: 'Applies an edit (null or absent keys are left untouched) to the listed main extensions',
          params: extsParams,
          body: bulkEditSchema,
          response: { 200: applied, ...errors },
        },
      },
      async (request) => ({ status: true as const, ...(await bulk.apply(request.params.exts, request.body)) }),
    );

    app.get(
      '/api/destinations',
      {
        schema: {
          tags,
          summary: 'Every destination the PBX can send a call to, by category',
          response: { 200: destinationsSchema, ...errors },
        },
      },
      () => bulk.destinations(),
    );

    app.get(
      '/api/contexts',
      {
        schema: {
          tags,
          summary: 'Dial contexts: Standard and one per CTI profile',
          response: { 200: contextsSchema, ...errors },
        },
      },
      () => bulk.contexts(),
    );
  };
