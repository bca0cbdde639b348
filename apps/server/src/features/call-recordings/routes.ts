import { createReadStream } from 'node:fs';
import { callRecordingSettingsSchema, callRecordingStatusSchema, errorBodySchema } from '@centralino/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../errors.ts';
import type { CallRecordingsService, Listener, RecordingFile } from './service.ts';

const tags = ['calls'];
const params = z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) });

/** One byte range of a `Range: bytes=…` header (a single range: what players ask), or 'bad' when unsatisfiable. */
export function byteRange(header: string | undefined, size: number): { start: number; end: number } | 'bad' | null {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return 'bad';
  const [, from = '', to = ''] = match;
  if (from === '' && to === '') return 'bad';
  if (from === '') {
    // The last N bytes.
    const n = Number(to);
    if (n === 0) return 'bad';
    return { start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(from);
  const end = to === '' ? size - 1 : Math.min(Number(to), size - 1);
  if (start >= size || end < start) return 'bad';
  return { start, end };
}

/** Sends the file, or the part a Range header asks for (206), or 416 for a range outside it. */
function sendFile(request: FastifyRequest, reply: FastifyReply, file: RecordingFile, attachment: boolean) {
  reply.header('accept-ranges', 'bytes').type('audio/wav').header('cache-control', 'private, no-store');
  if (attachment) reply.header('content-disposition', `attachment; filename="${file.filename}"`);
  const range = byteRange(request.headers.range, file.size);
  if (range === 'bad') {
    return reply.code(416).header('content-range', `bytes */${file.size}`).send();
  }
  if (range === null) {
    reply.header('content-length', file.size);
    return reply.send(createReadStream(file.file));
  }
  reply
    .code(206)
    .header('content-range', `bytes ${range.start}-${range.end}/${file.size}`)
    .header('content-length', range.end - range.start + 1);
  return reply.send(createReadStream(file.file, { start: range.start, end: range.end }));
}

const listener = (request: FastifyRequest): Listener => ({
  username: request.admin ?? '',
  role: request.role,
  address: request.ip,
});

export const callRecordingsRoutes =
  (recordings: CallRecordingsService): FastifyPluginAsyncZod =>
  async (app) => {
    const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };

    app.get(
      '/api/call-recordings/settings',
      {
        schema: {
          tags,
          summary: 'Call recordings: retention, free-space warning and the notice before an always-on recording',
          response: { 200: callRecordingSettingsSchema, ...errors },
        },
      },
      () => recordings.settings(),
    );

    app.put(
      '/api/call-recordings/settings',
      {
        schema: {
          tags,
          summary: 'Changes the call recordings settings',
          body: callRecordingSettingsSchema,
          response: { 200: callRecordingSettingsSchema, ...errors },
        },
      },
      (request) => recordings.saveSettings(request.body),
    );

    app.get(
      '/api/call-recordings/status',
      {
        schema: {
          tags,
          summary: 'Disk used by call recordings and free space left (the dashboard)',
          response: { 200: callRecordingStatusSchema, ...errors },
        },
      },
      () => recordings.status(),
    );

    app.get(
      '/api/calls/:id/recording',
      {
        schema: {
          tags,
          summary:
            "A call's recording as a WAV download (Range requests answer 206); admins, and read-only accounts allowed to listen; audited",
          params,
        },
      },
      async (request, reply) => {
        const file = await recordings.download(request.params.id, listener(request));
        return sendFile(request, reply, file, true);
      },
    );

    app.get(
      '/api/calls/:id/recording/link',
      {
        schema: {
          tags,
          summary: "A short-lived link (10 minutes) for the browser's player, which streams and seeks it; audited",
          params,
          response: { 200: z.object({ url: z.string(), expires: z.number() }), ...errors, 410: errorBodySchema },
        },
      },
      (request) => recordings.link(request.params.id, listener(request)),
    );

    app.get(
      '/api/call-recordings/play/:id',
      {
        schema: {
          tags,
          summary: 'The player link: the recording with Range support, valid for the account and time it names',
          params,
          querystring: z.object({ user: z.string().max(64), expires: z.coerce.number(), sig: z.string().max(100) }),
        },
        config: {
          // The link is the credential: an <audio> element sends no sign-in headers.
          ownAuth: async (request: FastifyRequest) => {
            const q = request.query as { user?: string; expires?: string; sig?: string };
            const { id } = request.params as { id?: string };
            const ok =
              q.user !== undefined &&
              q.sig !== undefined &&
              (await recordings.checkLink(Number(id), q.user, Number(q.expires), q.sig));
            if (!ok) throw new AppError(401, 'unauthorized');
          },
        },
      },
      async (request, reply) => sendFile(request, reply, await recordings.file(request.params.id), false),
    );
  };
