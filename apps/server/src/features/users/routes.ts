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
  userLimitsSchema,
  userListQuerySchema,
  userListSchema,
  usernameSchema,
} from '@centralino/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../errors.ts';
import { pickEncoding } from '../../plugins/compress.ts';
import type { UsersService } from './service.ts';
import { slices, UnpagedUsers } from './unpaged.ts';

const tags = ['users'];

const ok = z.object({ success: z.literal(true) });

export const usersRoutes =
  (users: UsersService): FastifyPluginAsyncZod =>
  async (app) => {
    const errors = { 400: errorBodySchema, 401: errorBodySchema };
    const unpaged = new UnpagedUsers(users.repo.db, users);

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
          // The unpaged list of older clients (about 10 MB at 50,000 users): made once per state of the data, kept
          // with its compressed forms (unpaged.ts), sent as bytes, which skip the response serializer.
          const encoding = request.method === 'HEAD' ? undefined : pickEncoding(request.headers['accept-encoding']);
          const { body, total } = await unpaged.answer(request.query, encoding);
          reply.header(TOTAL_COUNT_HEADER, String(total)).header('vary', 'accept-encoding');
          if (encoding) reply.header('content-encoding', encoding);
          reply.header('content-length', String(body.length));
          // Written a slice at a time as the socket takes it; the typed reply only knows the array it would serialise.
          return reply.type('application/json; charset=utf-8').send(slices(body) as unknown as []);
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
