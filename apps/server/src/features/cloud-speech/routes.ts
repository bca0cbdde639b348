import { isIP } from 'node:net';
import {
  errorBodySchema,
  googleAuthUploadSchema,
  VOICEMAIL_TRANSCRIPTION_MAX_AUDIO_BYTES,
  VOICEMAIL_TRANSCRIPTION_PATH,
  voicemailSttStatusSchema,
  voicemailTranscriptionRequestSchema,
  voicemailTranscriptionSchema,
} from '@centralino/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../errors.ts';
import type { CloudSpeechService } from './service.ts';
import type { VoicemailSttToken } from './token.ts';

const tags = ['cloud speech'];

/** 127.0.0.0/8 and ::1, also as IPv4-mapped IPv6 addresses. */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  if (isIP(v4) === 4) return v4.startsWith('127.');
  return address === '::1';
}

/**
 * The credential of Asterisk's calls to the console (the voicemail mail command, recording from a phone): a call from a loopback address of this host (the TCP peer, not
 * a forwarded address; nothing relayed by a proxy), with the per-install token as a bearer token.
 */
export function asteriskCallAuth(token: VoicemailSttToken) {
  return async (request: FastifyRequest): Promise<void> => {
    const relayed = request.headers['x-forwarded-for'] !== undefined || request.headers.forwarded !== undefined;
    if (!isLoopback(request.raw.socket.remoteAddress) || relayed) {
      throw new AppError(403, 'voicemail_stt_local_only');
    }
    const match = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '');
    if (!(await token.matches(match?.[1]))) throw new AppError(401, 'unauthorized');
  };
}

export const cloudSpeechRoutes =
  (speech: CloudSpeechService, token: VoicemailSttToken): FastifyPluginAsyncZod =>
  async (app) => {
    const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema };

    app.get(
      '/api/configuration/googleauthexists',
      {
        schema: {
          tags,
          summary: 'Whether the Google service-account key is stored: true or false',
          response: { 200: z.boolean(), ...errors },
        },
      },
      // 200 false rather than the contract's proposed 404: no key yet is an answer, not an error the browser
      // logs on every visit (docs/differences.md).
      async () => speech.credentialsExist(),
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

    // The voicemail mail command's call (run by Asterisk, it cannot read the key): the message's audio in,
    // its text out. Authenticated by its own token, not by a sign-in key; not in the API documentation.
    app.post(
      VOICEMAIL_TRANSCRIPTION_PATH,
      {
        config: { ownAuth: asteriskCallAuth(token) },
        // The base64 of the largest WAV accepted, and the JSON around it.
        bodyLimit: Math.ceil(VOICEMAIL_TRANSCRIPTION_MAX_AUDIO_BYTES / 3) * 4 + 4096,
        schema: {
          hide: true,
          body: voicemailTranscriptionRequestSchema,
          response: {
            200: voicemailTranscriptionSchema,
            ...errors,
            403: errorBodySchema,
            412: errorBodySchema,
            413: errorBodySchema,
            502: errorBodySchema,
          },
        },
      },
      async (request) => ({
        text: await speech.transcribe(Buffer.from(request.body.audio, 'base64'), request.body.language),
      }),
    );
  };
