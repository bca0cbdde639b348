import fs from 'node:fs';
import {
  BACKUP_UPLOAD_MAX_BYTES,
  backupRestoreResultSchema,
  backupScheduleSchema,
  backupStatusSchema,
  backupSummarySchema,
  errorBodySchema,
} from '@centralino/contract';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../errors.ts';
import type { BackupService } from './service.ts';

const tags = ['backup'];
const idParams = z.object({ id: z.string().regex(/^w-[A-Za-z0-9]{1,32}$/) });

export const backupRoutes =
  (backups: BackupService): FastifyPluginAsyncZod =>
  async (app) => {
    const errors = {
      400: errorBodySchema,
      401: errorBodySchema,
      404: errorBodySchema,
      409: errorBodySchema,
      413: errorBodySchema,
    };
    // The upload is streamed to a file as it arrives (never whole in memory); one file per request.
    await app.register(multipart, { limits: { fileSize: BACKUP_UPLOAD_MAX_BYTES, files: 1, fields: 0, parts: 1 } });

    app.get(
      '/api/backup',
      {
        config: { credentials: 'a backup holds every password, SIP secret and private key' },
        schema: {
          tags,
          summary: 'Takes a backup now and downloads it (tar.gz: database dump, files, TLS material, manifest)',
          produces: ['application/gzip'],
        },
      },
      async (_request, reply) => {
        const backup = await backups.download();
        const stream = fs.createReadStream(backup.file);
        stream.once('close', () => void backup.done());
        return reply
          .header('content-type', 'application/gzip')
          .header('content-disposition', `attachment; filename="${backup.name}"`)
          .header('cache-control', 'no-store')
          .send(stream);
      },
    );

    app.get(
      '/api/backup/status',
      {
        schema: {
          tags,
          summary: 'Schedule, backup folder and the backups in it',
          response: { 200: backupStatusSchema, ...errors },
        },
      },
      () => backups.status(),
    );

    app.put(
      '/api/backup/schedule',
      {
        schema: {
          tags,
          summary: 'Sets the daily scheduled backup (time of day, how many to keep)',
          body: backupScheduleSchema,
          response: { 200: backupStatusSchema, ...errors },
        },
      },
      async (request) => {
        await backups.setSchedule(request.body);
        return backups.status();
      },
    );

    app.post(
      '/api/backup/uploads',
      {
        schema: {
          tags,
          summary: 'Uploads a backup (multipart, one file) and answers what it holds; nothing is restored yet',
          consumes: ['multipart/form-data'],
          response: { 200: backupSummarySchema, ...errors },
        },
      },
      async (request) => {
        if (!request.isMultipart()) {
          throw new AppError(415, 'unsupported_media_type', 'Send the file as multipart/form-data.');
        }
        const part = await request.file({ throwFileSizeLimit: false });
        if (!part) throw new AppError(400, 'validation', undefined, { file: 'missing' });
        return backups.stage(part.file);
      },
    );

    app.delete(
      '/api/backup/uploads/:id',
      {
        schema: {
          tags,
          summary: 'Discards an uploaded backup',
          params: idParams,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await backups.discard(request.params.id);
        return reply.code(204).send(null);
      },
    );

    app.post(
      '/api/backup/uploads/:id/restore',
      {
        schema: {
          tags,
          summary:
            'Restores an uploaded backup: the database in one transaction, then the files; the PBX is applied afterwards',
          params: idParams,
          response: { 200: backupRestoreResultSchema, ...errors },
        },
      },
      (request) => backups.restore(request.params.id),
    );
  };
