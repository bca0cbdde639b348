import { healthResponseSchema, type PbxSystemStatus } from '@centralino/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import type { DatabaseHandle } from '../../db/database.ts';
import { AppError } from '../../errors.ts';

export const healthRoutes =
  (database: DatabaseHandle, version: string, pbx?: () => PbxSystemStatus): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/health',
      {
        config: { public: true },
        schema: {
          tags: ['system'],
          summary: 'Liveness, database and phone system check',
          response: { 200: healthResponseSchema },
        },
      },
      async () => {
        try {
          await sql`select 1`.execute(database.db);
        } catch {
          throw new AppError(503, 'internal', 'Database not reachable');
        }
        const system = pbx?.();
        return {
          status: 'ok' as const,
          version,
          database: database.kind,
          ...(system
            ? {
                pbx: {
                  mode: system.mode,
                  state: system.state,
                  problem: system.problem?.code ?? null,
                  version: system.version,
                  uptimeSeconds: system.uptimeSeconds,
                  ami: system.ami,
                },
              }
            : {}),
        };
      },
    );
  };
