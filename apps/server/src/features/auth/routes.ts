import { errorBodySchema, loginRequestSchema, loginResponseSchema } from '@centralino/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../errors.ts';
import { secretKeyOf } from '../../plugins/auth.ts';
import type { AuthService } from './service.ts';

export const authRoutes =
  (auth: AuthService, loginRateLimit: number): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/api/login',
      {
        config: { public: true, rateLimit: { max: loginRateLimit, timeWindow: 60_000 } },
        schema: {
          tags: ['session'],
          summary: 'Sign in: checks the password and issues a secret key',
          body: loginRequestSchema,
          response: { 200: loginResponseSchema, 401: errorBodySchema, 429: errorBodySchema },
        },
      },
      async (request) => {
        const session = await auth.login(request.body.username, request.body.password);
        if (!session) {
          request.log.warn({ username: request.body.username }, 'login failed');
          throw new AppError(401, 'login_failed');
        }
        request.log.info({ username: session.user }, 'login');
        return session;
      },
    );

    app.get(
      '/api/login',
      {
        schema: {
          tags: ['session'],
          summary: 'Checks the User and Secretkey headers (automatic login)',
          response: { 200: z.object({ success: z.literal(true), user: z.string() }), 401: errorBodySchema },
        },
      },
      async (request) => ({ success: true as const, user: request.admin ?? '' }),
    );

    app.get(
      '/api/logout',
      {
        schema: {
          tags: ['session'],
          summary: 'Revokes the secret key sent in the headers',
          response: { 200: z.object({ success: z.literal(true) }), 401: errorBodySchema },
        },
      },
      async (request) => {
        await auth.logout(secretKeyOf(request));
        return { success: true as const };
      },
    );
  };
