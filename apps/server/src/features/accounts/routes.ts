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
import { AppError } from '../../errors.ts';
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
          summary:
            "Changes an account's role (one administrator always remains) and whether it may listen to call recordings",
          params,
          body: accountUpdateSchema,
          response: { 200: done, ...errors },
        },
      },
      async (request) => {
        const { role, listen_recordings: listen } = request.body;
        if (role) await accounts.setRole(request.params.username, role);
        if (listen !== undefined) await accounts.setListen(request.params.username, listen);
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
          summary:
            "Sets another account's password and signs it out everywhere (one's own: 400 current_password_required, see POST /api/users/admin/password)",
          params,
          body: accountPasswordResetSchema,
          response: { 200: done, ...errors },
        },
      },
      async (request) => {
        // One's own password changes with the current one (POST /api/users/admin/password), never by a reset.
        if (request.params.username.trim().toLowerCase() === (request.admin ?? '').trim().toLowerCase()) {
          throw new AppError(400, 'current_password_required', (lang) =>
            lang === 'it'
              ? 'La tua password si cambia in Impostazioni, inserendo la password attuale. Non è stato modificato nulla.'
              : 'Change your own password under Settings, with your current password. Nothing was changed.',
          );
        }
        await accounts.resetPassword(request.params.username, request.body.password);
        return { success: true as const };
      },
    );
  };
