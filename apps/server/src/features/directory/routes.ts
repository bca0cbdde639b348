import {
  currentModeSchema,
  errorBodySchema,
  ldapSettingsSchema,
  ldapTestRequestSchema,
  ldapTestResultSchema,
  modeRequestSchema,
  modeResponseSchema,
  taskSchema,
  userProviderSchema,
} from '@centralino/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../errors.ts';
import type { DirectoryService } from './service.ts';

const tags = ['directory'];

export const directoryRoutes =
  (directory: DirectoryService): FastifyPluginAsyncZod =>
  async (app) => {
    const errors = { 400: errorBodySchema, 401: errorBodySchema };

    app.get(
      '/api/configuration/userprovider',
      {
        schema: {
          tags,
          summary: 'Which user directory is configured',
          response: { 200: userProviderSchema, 401: errorBodySchema },
        },
      },
      () => directory.userProvider(),
    );

    app.get(
      '/api/configuration/mode',
      { schema: { tags, summary: 'Directory mode', response: { 200: currentModeSchema, 401: errorBodySchema } } },
      async () => ({ result: await directory.mode() }),
    );

    app.post(
      '/api/configuration/mode',
      {
        schema: {
          tags,
          summary: "Chooses the directory mode: 'legacy' installs the local directory (answers the task id)",
          body: modeRequestSchema,
          response: { 200: modeResponseSchema, 409: errorBodySchema, ...errors },
        },
      },
      async (request) => ({ result: await directory.setMode(request.body.mode) }),
    );

    app.get(
      '/api/tasks/:taskId',
      {
        schema: {
          tags,
          summary: 'Progress of a background task (progress -1 when it failed)',
          params: z.object({ taskId: z.string().regex(/^[0-9a-f]{32}$/) }),
          response: { 200: taskSchema, 404: errorBodySchema, ...errors },
        },
      },
      async (request) => {
        const task = await directory.task(request.params.taskId);
        if (!task) throw new AppError(404, 'not_found');
        return task;
      },
    );

    app.get(
      '/api/configuration/directory',
      {
        schema: {
          tags,
          summary: 'External directory settings (bind password blanked); 404 when the directory is local or unset',
          response: { 200: ldapSettingsSchema, 404: errorBodySchema, 401: errorBodySchema },
        },
      },
      async () => {
        const settings = await directory.ldapSettings();
        if (!settings) throw new AppError(404, 'not_found');
        return settings;
      },
    );

    app.post(
      '/api/configuration/directory/test',
      {
        schema: {
          tags,
          summary: 'Binds to an LDAP server or Active Directory and counts its users',
          body: ldapTestRequestSchema,
          response: { 200: ldapTestResultSchema, 422: errorBodySchema, ...errors },
        },
      },
      (request) => directory.test(request.body.settings, request.body.username || undefined),
    );

    app.post(
      '/api/configuration/directory',
      {
        schema: {
          tags,
          summary: 'Saves the external directory (after a successful test) and starts the user sync',
          body: ldapSettingsSchema,
          response: {
            200: z.object({ success: z.literal(true) }),
            409: errorBodySchema,
            422: errorBodySchema,
            ...errors,
          },
        },
      },
      async (request) => {
        await directory.saveLdap(request.body);
        return { success: true as const };
      },
    );
  };
