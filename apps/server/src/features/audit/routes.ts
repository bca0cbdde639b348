import { Readable } from 'node:stream';
import { auditPageSchema, auditQuerySchema, auditSettingsSchema, errorBodySchema } from '@centralino/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AuditService } from './service.ts';

const tags = ['audit'];

export const auditRoutes =
  (audit: AuditService): FastifyPluginAsyncZod =>
  async (app) => {
    const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema };

    app.get(
      '/api/admin/audit',
      {
        schema: {
          tags,
          summary: 'Searches the audit log (text, user, object, date range), newest first, one page',
          querystring: auditQuerySchema,
          response: { 200: auditPageSchema, ...errors },
        },
      },
      (request) => audit.search(request.query),
    );

    app.get(
      '/api/admin/audit/export',
      {
        schema: {
          tags,
          summary: 'The audit rows matching a search as CSV (every page)',
          querystring: auditQuerySchema,
        },
      },
      (request, reply) => {
        const day = new Date().toISOString().slice(0, 10);
        reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="audit-${day}.csv"`);
        return reply.send(Readable.from(audit.csv(request.query)));
      },
    );

    app.get(
      '/api/admin/audit/settings',
      { schema: { tags, summary: 'Audit log retention', response: { 200: auditSettingsSchema, ...errors } } },
      async () => ({ retention_days: await audit.retentionDays() }),
    );

    app.put(
      '/api/admin/audit/settings',
      {
        schema: {
          tags,
          summary: 'Sets how many days audit rows are kept (purged daily)',
          body: auditSettingsSchema,
          response: { 200: z.object({ success: z.literal(true) }), ...errors },
        },
      },
      async (request) => {
        await audit.setRetentionDays(request.body.retention_days);
        return { success: true as const };
      },
    );
  };
