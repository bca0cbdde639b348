import { Readable } from 'node:stream';
import {
  createdUserSchema,
  errorBodySchema,
  finalReportSchema,
  isSystemAccount,
  mainExtensionRequestSchema,
  newUserSchema,
  passwordRequestSchema,
  storedPasswordSchema,
  TOTAL_COUNT_HEADER,
  type User,
  type UserListQuery,
  userLimitsSchema,
  userListQuerySchema,
  userListSchema,
  usernameSchema,
  userSchema,
} from '@centralino/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../errors.ts';
import type { UsersService } from './service.ts';

const tags = ['users'];

/**
 * The JSON array of every user the query selects, written page by page. Each user goes through the
 * list schema on the way out (the stream bypasses the response serializer), so no field outside it, and
 * so no secret, can reach the answer.
 */
function streamedList(users: UsersService, query: UserListQuery): Readable {
  async function* chunks() {
    let first = true;
    yield '[';
    for await (const page of users.allPages(query)) {
      let text = '';
      for (const user of page) {
        text += (first ? '' : ',') + JSON.stringify(userSchema.parse(user));
        first = false;
      }
      yield text;
    }
    yield ']';
  }
  return Readable.from(chunks(), { objectMode: false });
}
const ok = z.object({ success: z.literal(true) });

export const usersRoutes =
  (users: UsersService): FastifyPluginAsyncZod =>
  async (app) => {
    const errors = { 400: errorBodySchema, 401: errorBodySchema };

    app.get(
      '/api/users/count',
      { schema: { tags, summary: 'Number of directory users', response: { 200: z.number().int(), ...errors } } },
      () => users.repo.count(),
    );

    app.get(
      '/api/users/sync',
      {
        schema: {
          tags,
          summary: 'True while the external directory is being synchronised',
          response: { 200: z.boolean(), ...errors },
        },
      },
      () => users.directory.syncing(),
    );

    app.post(
      '/api/users/sync',
      { schema: { tags, summary: 'Starts a directory synchronisation', response: { 200: ok, ...errors } } },
      async () => {
        await users.directory.startSync();
        return { success: true as const };
      },
    );

    app.get(
      '/api/users/:arg',
      {
        schema: {
          tags,
          summary:
            "Users with their main extension. 'true' also starts a directory sync. With limit, answers one page and the total in X-Total-Count.",
          params: z.object({ arg: z.string().max(16) }),
          querystring: userListQuerySchema,
          response: { 200: userListSchema, ...errors },
        },
      },
      async (request, reply) => {
        if (request.params.arg === 'true') await users.directory.startSync();
        if (request.query.limit === undefined) {
          // The unpaged list of older clients (about 1 MB at 5,000 users) is streamed a page at a time.
          reply.header(TOTAL_COUNT_HEADER, String(await users.repo.countMatching(request.query)));
          // A stream skips the response serializer; the typed reply only knows the array it would serialise.
          const body = streamedList(users, request.query) as unknown as User[];
          return reply.type('application/json; charset=utf-8').send(body);
        }
        const { users: list, total } = await users.list(request.query);
        reply.header(TOTAL_COUNT_HEADER, String(total));
        return list;
      },
    );

    app.post(
      '/api/users',
      {
        schema: {
          tags,
          summary: 'Adds a user to the local directory with a random password (answered once)',
          body: newUserSchema,
          response: { 201: createdUserSchema, 409: errorBodySchema, ...errors },
        },
        // admin is the console administrator (POST /api/users/admin/password is its password): refuse it, and
        // the other system accounts, with an error of its own rather than a generic validation message.
        preValidation: async (request) => {
          const name = (request.body as { username?: unknown } | null)?.username;
          if (typeof name === 'string' && isSystemAccount(name.trim())) {
            throw new AppError(400, 'username_reserved');
          }
        },
      },
      async (request, reply) => {
        const user = await users.create(request.body.username, request.body.fullname);
        request.log.info({ username: user.username }, 'directory user created');
        return reply.code(201).send(user);
      },
    );

    app.post(
      '/api/users/:username/password',
      {
        schema: {
          tags,
          summary: "Sets a local directory user's password",
          params: z.object({ username: usernameSchema }),
          body: passwordRequestSchema,
          response: { 201: ok, 404: errorBodySchema, 409: errorBodySchema, ...errors },
        },
      },
      async (request, reply) => {
        await users.setPassword(request.params.username, request.body.password);
        return reply.code(201).send({ success: true as const });
      },
    );

    app.get(
      '/api/users/:username/password',
      {
        config: { credentials: "one user's password, shown on request" },
        schema: {
          tags,
          summary: 'The password last set through the console',
          params: z.object({ username: usernameSchema }),
          response: { 200: storedPasswordSchema, 404: errorBodySchema, ...errors },
        },
      },
      async (request) => {
        const password = await users.storedPassword(request.params.username);
        if (password === null) throw new AppError(404, 'not_found');
        return { result: password };
      },
    );

    app.post(
      '/api/mainextensions',
      {
        schema: {
          tags,
          summary: "Assigns, changes or (with '' or 'none') removes a user's main extension",
          body: mainExtensionRequestSchema,
          response: {
            200: z.object({ message: z.string() }),
            201: z.object({}),
            403: errorBodySchema,
            404: errorBodySchema,
            422: errorBodySchema,
            ...errors,
          },
        },
      },
      async (request, reply) => {
        const { username, extension, outboundcid } = request.body;
        const outcome = await users.setMainExtension(username, extension, outboundcid);
        request.log.info({ username, extension, outcome }, 'main extension');
        if (outcome === 'removed' || (outcome === 'unchanged' && (extension === '' || extension === 'none'))) {
          return reply.code(200).send({ message: 'No extension specified' });
        }
        return reply.code(201).send({});
      },
    );

    app.get(
      '/api/mainextensions/userlimits',
      {
        schema: {
          tags,
          summary: 'Licensed extensions: configured, limit and how many are left (false when unlimited)',
          response: { 200: userLimitsSchema, ...errors },
        },
      },
      () => users.limits(),
    );

    app.get(
      '/api/final',
      {
        schema: {
          tags,
          summary: 'Final report: configured users with extension, passwords and voicemail PIN',
          response: { 200: finalReportSchema, ...errors },
        },
      },
      () => users.finalReport(),
    );
  };
