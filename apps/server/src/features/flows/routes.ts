import {
  announcementListSchema,
  announcementWriteSchema,
  dayNightListSchema,
  dayNightStateSchema,
  dayNightWriteSchema,
  errorBodySchema,
  ivrListSchema,
  ivrWriteSchema,
  RECORDING_UPLOAD_MAX_BYTES,
  recordingListSchema,
  recordingPatchSchema,
} from '@centralino/contract';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../errors.ts';
import { crudRoutes, idParams } from './crud-routes.ts';
import type { FlowsService, RecordingsService } from './service.ts';

const created = z.object({ id: z.number().int() });

/** Call flows (issue 26): recordings, announcements, IVRs. */
export const flowsRoutes =
  (recordings: RecordingsService, flows: FlowsService): FastifyPluginAsyncZod =>
  async (app) => {
    const errors = {
      400: errorBodySchema,
      401: errorBodySchema,
      404: errorBodySchema,
      409: errorBodySchema,
      413: errorBodySchema,
      503: errorBodySchema,
    };
    await app.register(multipart, {
      limits: { fileSize: RECORDING_UPLOAD_MAX_BYTES, files: 1, fields: 5, parts: 10 },
    });

    // ---- recordings
    let tags = ['recordings'];
    app.get(
      '/api/recordings',
      {
        schema: { tags, summary: 'Recordings, with who plays them', response: { 200: recordingListSchema, ...errors } },
      },
      () => recordings.list(),
    );

    app.post(
      '/api/recordings',
      {
        schema: {
          tags,
          summary:
            'Uploads a recording (multipart: fields displayname, description, then one WAV, MP3 or OGG file); it is converted to 8 kHz mono WAV',
          consumes: ['multipart/form-data'],
          response: { 200: created, ...errors },
        },
      },
      async (request) => {
        if (!request.isMultipart()) {
          throw new AppError(415, 'unsupported_media_type', 'Send the file as multipart/form-data.');
        }
        const part = await request.file();
        if (!part) throw new AppError(400, 'validation', undefined, { file: 'missing' });
        const field = (name: string) => {
          const f = part.fields[name];
          const one = Array.isArray(f) ? f[0] : f;
          return one && one.type === 'field' ? String(one.value) : undefined;
        };
        const bytes = await part.toBuffer();
        const meta = recordingPatchSchema.safeParse({
          displayname: field('displayname') ?? part.filename.replace(/\.[^.]*$/, ''),
          description: field('description') ?? '',
        });
        if (!meta.success) {
          throw new AppError(400, 'validation', undefined, (lang) => ({
            displayname:
              lang === 'it' ? 'Inserisci un nome (fino a 80 caratteri)' : 'Enter a name (up to 80 characters)',
          }));
        }
        return { id: await recordings.create(meta.data, bytes) };
      },
    );

    app.get(
      '/api/recordings/:id/audio',
      {
        schema: {
          tags,
          summary: 'The converted audio of a recording (audio/wav), to listen to in the console',
          params: idParams,
          response: { 200: z.any(), ...errors },
        },
      },
      async (request, reply) => {
        const wav = await recordings.audio(request.params.id);
        return reply
          .header('content-type', 'audio/wav')
          .header('cache-control', 'private, no-store')
          .header('content-disposition', `inline; filename="recording-${request.params.id}.wav"`)
          .send(wav);
      },
    );

    app.patch(
      '/api/recordings/:id',
      {
        schema: {
          tags,
          summary: 'Renames a recording',
          params: idParams,
          body: recordingPatchSchema,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await recordings.patch(request.params.id, request.body);
        return reply.code(204).send(null);
      },
    );

    app.delete(
      '/api/recordings/:id',
      {
        schema: {
          tags,
          summary: 'Deletes a recording; refused while an announcement or IVR plays it',
          params: idParams,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await recordings.remove(request.params.id);
        return reply.code(204).send(null);
      },
    );

    // ---- announcements
    crudRoutes(app, {
      path: '/api/announcements',
      tags: ['announcements'],
      errors,
      list: announcementListSchema,
      write: announcementWriteSchema,
      summaries: {
        list: 'Announcements',
        create: 'Creates an announcement: a recording, then a destination',
        update: 'Changes an announcement',
        remove: 'Deletes an announcement; refused while routes or flows send calls to it',
      },
      ops: {
        list: () => flows.listAnnouncements(),
        create: (body) => flows.createAnnouncement(body),
        update: (id, body) => flows.updateAnnouncement(id, body),
        remove: (id) => flows.removeAnnouncement(id),
      },
    });

    // ---- IVRs
    crudRoutes(app, {
      path: '/api/ivrs',
      tags: ['ivr'],
      errors,
      list: ivrListSchema,
      write: ivrWriteSchema,
      summaries: {
        list: 'IVR menus',
        create: 'Creates an IVR menu',
        update: 'Changes an IVR menu (its entries are replaced)',
        remove: 'Deletes an IVR menu; refused while routes or flows send calls to it',
      },
      ops: {
        list: () => flows.listIvrs(),
        create: (body) => flows.createIvr(body),
        update: (id, body) => flows.updateIvr(id, body),
        remove: (id) => flows.removeIvr(id),
      },
    });

    // ---- day/night switches (kept by their digit, not an id)
    tags = ['daynight'];
    const extParams = z.object({ ext: z.coerce.number().int().min(0).max(9) });
    app.get(
      '/api/daynight',
      {
        schema: {
          tags,
          summary: 'Day/night switches with their current mode (unknown while the PBX is not connected)',
          response: { 200: dayNightListSchema, ...errors },
        },
      },
      () => flows.listDayNight(),
    );
    app.post(
      '/api/daynight',
      {
        schema: {
          tags,
          summary: 'Creates a day/night switch (feature code *28<ext>)',
          body: dayNightWriteSchema,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await flows.createDayNight(request.body);
        return reply.code(204).send(null);
      },
    );
    app.put(
      '/api/daynight/:ext',
      {
        schema: {
          tags,
          summary: 'Changes a day/night switch (its digit stays)',
          params: extParams,
          body: dayNightWriteSchema,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await flows.updateDayNight(request.params.ext, request.body);
        return reply.code(204).send(null);
      },
    );
    app.delete(
      '/api/daynight/:ext',
      {
        schema: {
          tags,
          summary: 'Deletes a day/night switch; refused while routes or flows send calls to it',
          params: extParams,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await flows.removeDayNight(request.params.ext);
        return reply.code(204).send(null);
      },
    );
    app.post(
      '/api/daynight/:ext/state',
      {
        schema: {
          tags,
          summary: 'Sets the current mode in Asterisk (AstDB DAYNIGHT/C<ext>), as the feature code does',
          params: extParams,
          body: dayNightStateSchema,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await flows.setDayNight(request.params.ext, request.body.state);
        return reply.code(204).send(null);
      },
    );
  };
