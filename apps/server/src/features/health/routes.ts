import { healthResponseSchema } from '@centralino/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import type { DatabaseHandle } from '../../db/database.ts';
import { AppError } from '../../errors.ts';

export const healthRoutes =
  (database: DatabaseHandle, version: string): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/health',
      {
        config: { public: true },
        schema: { tags: ['system'], summary: 'Liveness and database check', response: { 200: healthResponseSchema } },
      },
      async () => {
        try {
          await sql`select 1`.execute(database.db);
        } catch {
          throw new AppError(503, 'internal', 'Database not reachable');
        }
        return { status: 'ok' as const, version, database: database.kind };
      },
    );
  };
