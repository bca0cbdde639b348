import fs from 'node:fs/promises';
import path from 'node:path';
import { errorBodySchema } from '@centralino/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../errors.ts';
import { PHONE_RECORDING_NAME, PHONE_RECORDING_PATH } from '../../pbx/phone-recording.ts';
import { asteriskCallAuth } from '../cloud-speech/routes.ts';
import type { VoicemailSttToken } from '../cloud-speech/token.ts';
import type { RecordingsService } from './service.ts';

/** What the dialplan's CURL() posts (a form): the file's name in the spool folder, `new` or an id, the extension. */
export const phoneRecordingFormSchema = z.object({
  file: z.string().regex(PHONE_RECORDING_NAME),
  recording: z.union([z.literal('new'), z.string().regex(/^[0-9]{1,9}$/)]),
  caller: z
    .string()
    .regex(/^[0-9*#+]{0,40}$/)
    .default(''),
});

/**
 * Asterisk's call after a recording from a phone (*77): the console reads the recorded file from the spool folder,
 * converts and keeps it like an upload, removes the file and answers the recording's id as plain text, which the
 * dialplan says back to the caller. Authenticated like the voicemail mail command (loopback and its token).
 */
export const phoneRecordingRoutes =
  (recordings: RecordingsService, token: VoicemailSttToken, spoolDir: string): FastifyPluginAsyncZod =>
  async (app) => {
    // CURL() posts a form; this plugin's scope alone reads forms.
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(body))));
    });
    app.post(
      PHONE_RECORDING_PATH,
      {
        config: { ownAuth: asteriskCallAuth(token) },
        schema: {
          hide: true,
          body: phoneRecordingFormSchema,
          response: {
            200: z.string(),
            400: errorBodySchema,
            401: errorBodySchema,
            403: errorBodySchema,
            404: errorBodySchema,
          },
        },
      },
      async (request, reply) => {
        const { file, recording, caller } = request.body;
        const source = path.join(spoolDir, `${file}.wav`);
        let id: number;
        try {
          const bytes = await fs.readFile(source).catch(() => {
            throw new AppError(404, 'not_found');
          });
          id = await recordings.fromPhone(bytes, recording === 'new' ? 'new' : Number(recording), caller);
        } finally {
          // Kept or refused, the spool file is done with (the answer goes out after it is gone).
          await fs.rm(source, { force: true });
        }
        return reply.type('text/plain').serializer(String).send(String(id));
      },
    );
  };
