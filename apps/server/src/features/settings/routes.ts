import { errorBodySchema, languageRequestSchema, languagesResponseSchema } from '@centralino/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { LanguageService } from './service.ts';

const ok = z.object({ success: z.literal(true) });

export const settingsRoutes =
  (languages: LanguageService): FastifyPluginAsyncZod =>
  async (app) => {
    const errors = { 400: errorBodySchema, 401: errorBodySchema };

    app.get(
      '/api/settings/languages',
      {
        schema: {
          tags: ['settings'],
          summary: 'Installed PBX languages and which one is the default',
          response: { 200: languagesResponseSchema, 401: errorBodySchema },
        },
      },
      () => languages.list(),
    );

    app.post(
      '/api/settings/language',
      {
        schema: {
          tags: ['settings'],
          summary: 'Installs a PBX language',
          body: languageRequestSchema,
          response: { 200: ok, ...errors },
        },
      },
      async (request) => {
        await languages.install(request.body.lang);
        return { success: true as const };
      },
    );

    app.post(
      '/api/settings/defaultlanguage',
      {
        schema: {
          tags: ['settings'],
          summary: 'Sets the PBX default language and tone zone',
          body: languageRequestSchema,
          response: { 200: ok, ...errors },
        },
      },
      async (request) => {
        await languages.setDefault(request.body.lang);
        request.log.info({ lang: request.body.lang }, 'PBX language changed');
        return { success: true as const };
      },
    );
  };
