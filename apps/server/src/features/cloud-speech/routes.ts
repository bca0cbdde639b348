import { errorBodySchema, googleAuthUploadSchema, voicemailSttStatusSchema } from '@centralino/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../errors.ts';
import type { CloudSpeechService } from './service.ts';

const tags = ['cloud speech'];

export const cloudSpeechRoutes =
  (speech: CloudSpeechService): FastifyPluginAsyncZod =>
  async (app) => {
    const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema };

    app.get(
      '/api/configuration/googleauthexists',
      {
        schema: {
          tags,
          summary: 'true when the Google service-account key is stored; 404 when it is not',
          response: { 200: z.literal(true), ...errors },
        },
      },
      async () => {
        if (!(await speech.credentialsExist())) throw new AppError(404, 'not_found');
        return true as const;
      },
    );

    app.post(
      '/api/configuration/googleauth',
      {
        schema: {
          tags,
          summary: 'Stores the Google service-account key (checked: JSON, service_account, client_email, private_key)',
          body: googleAuthUploadSchema,
          response: { 200: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await speech.upload(request.body.file);
        return reply.code(200).send(null);
      },
    );

    app.get(
      '/api/configuration/voicemailgooglestt',
      {
        schema: {
          tags,
          summary: 'Whether voicemail e-mails carry the transcription',
          response: { 200: voicemailSttStatusSchema, ...errors },
        },
      },
      // A bare JSON string, as the original answers: Fastify would send a returned string as plain text.
      async (_request, reply) =>
        reply
          .type('application/json')
          .serializer(JSON.stringify)
          .send(await speech.status()),
    );

    app.post(
      '/api/configuration/voicemailgooglestt/:status',
      {
        schema: {
          tags,
          summary: 'Switches voicemail transcription; enabling needs the key (412 google_auth_missing)',
          params: z.object({ status: voicemailSttStatusSchema }),
          response: { 200: z.null(), ...errors, 412: errorBodySchema },
        },
      },
      async (request, reply) => {
        await speech.setStatus(request.params.status);
        return reply.code(200).send(null);
      },
    );
  };
