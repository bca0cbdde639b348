import {
  accountCreateSchema,
  accountNameSchema,
  accountPasswordResetSchema,
  accountSchema,
  accountUpdateSchema,
  errorBodySchema,
} from '@centralino/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AccountsService } from './service.ts';

const tags = ['accounts'];
const params = z.object({ username: accountNameSchema });
const done = z.object({ success: z.literal(true) });

export const accountsRoutes =
  (accounts: AccountsService): FastifyPluginAsyncZod =>
  async (app) => {
    const errors = {
      400: errorBodySchema,
      401: errorBodySchema,
      403: errorBodySchema,
      404: errorBodySchema,
      409: errorBodySchema,
    };

    app.get(
      '/api/admin/accounts',
      {
        schema: {
          tags,
          summary: 'Console accounts and their roles',
          response: { 200: z.array(accountSchema), ...errors },
        },
      },
      () => accounts.list(),
    );

    app.post(
      '/api/admin/accounts',
      {
        schema: {
          tags,
          summary: 'Adds a console account',
          body: accountCreateSchema,
          response: { 201: done, ...errors },
        },
      },
      async (request, reply) => {
        await accounts.create(request.body);
        return reply.code(201).send({ success: true as const });
      },
    );

    app.put(
      '/api/admin/accounts/:username',
      {
        schema: {
          tags,
          summary: "Changes an account's role (one administrator always remains)",
          params,
          body: accountUpdateSchema,
          response: { 200: done, ...errors },
        },
      },
      async (request) => {
        await accounts.setRole(request.params.username, request.body.role);
        return { success: true as const };
      },
    );

    app.delete(
      '/api/admin/accounts/:username',
      {
        schema: {
          tags,
          summary: 'Removes an account and signs it out (the last administrator cannot be removed)',
          params,
          response: { 200: done, ...errors },
        },
      },
      async (request) => {
        await accounts.remove(request.params.username);
        return { success: true as const };
      },
    );

    app.delete(
      '/api/admin/accounts/:username/2fa',
      {
        schema: {
          tags,
          summary: "Turns another account's second factor off (lost phone); it signs in with its password again",
          params,
          response: { 200: done, ...errors },
        },
      },
      async (request) => {
        await accounts.resetTwoFactor(request.params.username);
        return { success: true as const };
      },
    );

    app.post(
      '/api/admin/accounts/:username/password',
      {
        schema: {
          tags,
          summary: "Sets another account's password and signs it out everywhere",
          params,
          body: accountPasswordResetSchema,
          response: { 200: done, ...errors },
        },
      },
      async (request) => {
        await accounts.resetPassword(request.params.username, request.body.password);
        return { success: true as const };
      },
    );
  };
