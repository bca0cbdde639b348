import { pickUiLanguage, type UiLanguage } from '@centralino/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

/** The Fastify instance a zod-typed plugin gets. */
type ZodApp = Parameters<FastifyPluginAsyncZod>[0];

export const idParams = z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) });
const created = z.object({ id: z.number().int() });

/**
 * The four routes of a call-flow object kept by numeric id (issue 26: announcements, IVRs, queues, time groups,
 * time conditions, CQR): GET list, POST (answers the new id), PUT /:id and DELETE /:id (204). The routes stay thin:
 * the body is the contract's write schema, validated by Fastify, and each route is one call of the service, whose
 * errors (404, 409 when something uses the object, 422 ...) travel as AppErrors. `summaries` document each route
 * in the OpenAPI document.
 */
export function crudRoutes<W extends z.ZodType>(
  app: ZodApp,
  {
    path,
    tags,
    errors,
    list,
    write,
    summaries,
    ops,
  }: {
    path: string;
    tags: string[];
    /** The error answers the routes may give (shape of the error body per status). */
    errors: Record<number, z.ZodType>;
    list: z.ZodType;
    write: W;
    summaries: { list: string; create: string; update: string; remove: string };
    ops: {
      /** `lang`: the caller's Accept-Language, for lists that name things in words (who uses an object). */
      list: (lang: UiLanguage) => Promise<unknown>;
      create: (body: z.infer<W>) => Promise<number>;
      update: (id: number, body: z.infer<W>) => Promise<void>;
      remove: (id: number) => Promise<void>;
    };
  },
): void {
  app.get(path, { schema: { tags, summary: summaries.list, response: { 200: list, ...errors } } }, (request) =>
    ops.list(pickUiLanguage(request.headers['accept-language'])),
  );
  app.post(
    path,
    { schema: { tags, summary: summaries.create, body: write, response: { 200: created, ...errors } } },
    async (request) => ({ id: await ops.create(request.body as z.infer<W>) }),
  );
  app.put(
    `${path}/:id`,
    {
      schema: {
        tags,
        summary: summaries.update,
        params: idParams,
        body: write,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await ops.update(request.params.id, request.body as z.infer<W>);
      return reply.code(204).send(null);
    },
  );
  app.delete(
    `${path}/:id`,
    { schema: { tags, summary: summaries.remove, params: idParams, response: { 204: z.null(), ...errors } } },
    async (request, reply) => {
      await ops.remove(request.params.id);
      return reply.code(204).send(null);
    },
  );
}
