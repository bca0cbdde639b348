import {
  errorBodySchema,
  PHONEBOOK_BUILTIN_SOURCES,
  PHONEBOOK_FIELDS,
  phonebookBuiltinSourcesSchema,
  phonebookConnectionSchema,
  phonebookContactPageSchema,
  phonebookContactsQuerySchema,
  phonebookSourceListSchema,
  phonebookSourceWriteSchema,
  phonebookTestResultSchema,
} from '@centralino/contract';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../errors.ts';
import type { PhonebookService } from './service.ts';

const tags = ['phonebook'];
const idParams = z.object({ id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/) });
/** A CSV phonebook export is rarely more than a few MB. */
const UPLOAD_MAX_BYTES = 50 * 1024 * 1024;

export const phonebookRoutes =
  (phonebook: PhonebookService): FastifyPluginAsyncZod =>
  async (app) => {
    const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema, 502: errorBodySchema };
    await app.register(multipart, { limits: { fileSize: UPLOAD_MAX_BYTES, files: 1, fields: 5, parts: 10 } });

    app.get(
      '/api/phonebook/fields',
      {
        schema: {
          tags,
          summary: 'Destination fields of the central phonebook',
          response: { 200: z.array(z.string()) },
        },
      },
      () => [...PHONEBOOK_FIELDS],
    );

    app.get(
      '/api/phonebook/contacts',
      {
        schema: {
          tags,
          summary:
            "The central phonebook as the phones see it (the PBX users and each source's current contacts), by " +
            'name: one page, filtered by a search of name, company, numbers and work e-mail',
          querystring: phonebookContactsQuerySchema,
          response: { 200: phonebookContactPageSchema, ...errors },
        },
      },
      (request) => phonebook.contacts(request.query),
    );

    app.get(
      '/api/phonebook/config',
      {
        schema: {
          tags,
          summary: 'Phonebook sources by id, with their last sync; no passwords',
          response: { 200: phonebookSourceListSchema, ...errors },
        },
      },
      () => phonebook.list(),
    );

    app.get(
      '/api/phonebook/config/:id/password',
      {
        config: { credentials: "one phonebook source's database password" },
        schema: {
          tags,
          summary: "A MySQL source's stored password, for the card's Show",
          params: idParams,
          response: { 200: z.object({ password: z.string() }), ...errors },
        },
      },
      async (request) => ({ password: await phonebook.password(request.params.id) }),
    );

    app.post(
      '/api/phonebook/config',
      {
        schema: {
          tags,
          summary: 'Creates a source (custom_<n>); no sync is started',
          body: phonebookSourceWriteSchema,
          response: { 200: z.object({ id: z.string() }), ...errors },
        },
      },
      async (request) => ({ id: await phonebook.create(request.body) }),
    );

    app.post(
      '/api/phonebook/config/:id',
      {
        schema: {
          tags,
          summary: 'Replaces a source; a password left out keeps the stored one',
          params: idParams,
          body: phonebookSourceWriteSchema,
          response: { 200: z.object({}), ...errors },
        },
      },
      async (request) => {
        await phonebook.update(request.params.id, request.body);
        return {};
      },
    );

    app.delete(
      '/api/phonebook/config/:id',
      {
        schema: {
          tags,
          summary: 'Deletes a source with its contacts and its uploaded file',
          params: idParams,
          response: { 200: z.object({}), ...errors },
        },
      },
      async (request) => {
        await phonebook.remove(request.params.id);
        return {};
      },
    );

    app.post(
      '/api/phonebook/test',
      {
        schema: {
          tags,
          summary:
            'Connection check: the first 3 rows by column, or {status:false, error}; ?id= uses that source’s stored password',
          querystring: z.object({ id: idParams.shape.id.optional() }),
          body: phonebookConnectionSchema,
          response: { 200: phonebookTestResultSchema, ...errors },
        },
      },
      (request) => phonebook.test(request.body, request.query.id),
    );

    app.post(
      '/api/phonebook/getcolumns',
      {
        schema: {
          tags,
          summary: 'Column names of a source (as the connection check finds them)',
          querystring: z.object({ id: idParams.shape.id.optional() }),
          body: phonebookConnectionSchema,
          response: { 200: z.array(z.string()), ...errors },
        },
      },
      async (request) => {
        const result = await phonebook.test(request.body, request.query.id);
        if (!Array.isArray(result)) {
          throw new AppError(502, 'phonebook_source_failed', result.error, { source: result.error });
        }
        return Object.keys(result[0] ?? {});
      },
    );

    app.post(
      '/api/phonebook/syncnow/:id',
      {
        schema: {
          tags,
          summary: 'Syncs a source now: its contacts are replaced, or kept when the source cannot be read',
          params: idParams,
          response: {
            200: z.object({ status: z.literal(true), contacts: z.number().int(), skipped: z.number().int() }),
            ...errors,
          },
        },
      },
      async (request) => ({ status: true as const, ...(await phonebook.sync(request.params.id)) }),
    );

    app.post(
      '/api/phonebook/uploadfile',
      {
        schema: {
          tags,
          summary: 'Uploads a CSV (multipart, one file); answers the uri to use as the source url',
          consumes: ['multipart/form-data'],
          response: { 200: z.object({ status: z.literal(true), uri: z.string() }), ...errors },
        },
      },
      async (request) => {
        if (!request.isMultipart()) {
          throw new AppError(415, 'unsupported_media_type', 'Send the file as multipart/form-data.');
        }
        const part = await request.file();
        if (!part) throw new AppError(400, 'validation', 'The request carries no file.', { file: 'missing' });
        const bytes = await part.toBuffer();
        return { status: true as const, uri: await phonebook.upload(bytes) };
      },
    );

    app.get(
      '/api/phonebook/sources',
      {
        schema: {
          tags,
          summary:
            'Built-in sources of the central phonebook: the PBX extensions (CTI contacts and speed dials do not exist here)',
          response: { 200: phonebookBuiltinSourcesSchema, ...errors },
        },
      },
      () => ({ extensions: true, nethcti: false, speeddial: false }),
    );

    app.post(
      '/api/phonebook/sources/:prop/:state',
      {
        schema: {
          tags,
          summary: 'Switches a built-in source; only extensions exist, and they always feed the phonebook',
          params: z.object({ prop: z.enum(PHONEBOOK_BUILTIN_SOURCES), state: z.enum(['enabled', 'disabled']) }),
          response: { 200: z.object({}), ...errors },
        },
      },
      async (request) => {
        const { prop, state } = request.params;
        if (prop === 'extensions' && state === 'enabled') return {};
        if (prop !== 'extensions' && state === 'disabled') return {};
        throw new AppError(400, 'validation', (lang) =>
          prop === 'extensions'
            ? lang === 'it'
              ? 'Gli interni del centralino sono sempre nella rubrica.'
              : 'The PBX extensions are always in the phonebook.'
            : lang === 'it'
              ? `Centralino non ha ${prop === 'nethcti' ? 'contatti CTI' : 'selezioni rapide'} da mettere in rubrica.`
              : `Centralino has no ${prop === 'nethcti' ? 'CTI contacts' : 'speed dials'} to put in the phonebook.`,
        );
      },
    );
  };
