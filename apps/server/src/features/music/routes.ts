import {
  errorBodySchema,
  musicClassListSchema,
  musicClassWriteSchema,
  RECORDING_UPLOAD_MAX_BYTES,
} from '@centralino/contract';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../errors.ts';
import { crudRoutes, idParams } from '../flows/crud-routes.ts';
import type { MusicService } from './service.ts';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
  413: errorBodySchema,
  415: errorBodySchema,
  503: errorBodySchema,
};
const fileParams = idParams.extend({ fileId: z.coerce.number().int().min(1).max(2_147_483_647) });

/** Music on hold (issue 42 item 6): classes (CRUD) and their files (upload, listen, delete). */
export const musicRoutes =
  (music: MusicService): FastifyPluginAsyncZod =>
  async (app) => {
    const tags = ['music'];
    await app.register(multipart, { limits: { fileSize: RECORDING_UPLOAD_MAX_BYTES, files: 1, fields: 2, parts: 4 } });
    crudRoutes(app, {
      path: '/api/music',
      tags,
      errors,
      list: musicClassListSchema,
      write: musicClassWriteSchema,
      summaries: {
        list: 'Music on hold classes: the distribution’s default first, then the uploaded ones with their files and users',
        create: 'Creates an empty class (409 when the name is taken; default and ringing are reserved)',
        update: 'Changes the play order of a class; its name cannot change',
        remove: 'Deletes a class and its files; refused (409) while a queue, inbound route, trunk or room plays it',
      },
      ops: {
        list: (lang) => music.list(lang),
        create: (body) => music.create(body),
        update: (id, body) => music.update(id, body),
        remove: (id) => music.remove(id),
      },
    });
    app.post(
      '/api/music/:id/files',
      {
        schema: {
          tags,
          summary: 'Uploads one WAV, MP3 or OGG file into the class (multipart); converted to 8 kHz mono WAV',
          consumes: ['multipart/form-data'],
          params: idParams,
          response: { 200: z.object({ id: z.number().int() }), ...errors },
        },
      },
      async (request) => {
        if (!request.isMultipart()) {
          throw new AppError(415, 'unsupported_media_type', 'Send the file as multipart/form-data.');
        }
        const part = await request.file();
        if (!part) throw new AppError(400, 'validation', undefined, { file: 'missing' });
        const bytes = await part.toBuffer();
        return { id: await music.addFile(request.params.id, part.filename, bytes) };
      },
    );
    app.get(
      '/api/music/:id/files/:fileId/audio',
      {
        schema: {
          tags,
          summary: 'The converted audio of one file (audio/wav), to listen to in the console',
          params: fileParams,
          response: { 200: z.any(), ...errors },
        },
      },
      async (request, reply) => {
        const wav = await music.audio(request.params.id, request.params.fileId);
        return reply.header('content-type', 'audio/wav').header('cache-control', 'private, no-store').send(wav);
      },
    );
    app.delete(
      '/api/music/:id/files/:fileId',
      {
        schema: {
          tags,
          summary: 'Deletes one file of the class',
          params: fileParams,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await music.removeFile(request.params.id, request.params.fileId);
        return reply.code(204).send(null);
      },
    );
  };
