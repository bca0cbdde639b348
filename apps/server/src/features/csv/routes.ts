import {
  csvExportSchema,
  csvFileSchema,
  csvImportStartedSchema,
  csvImportStatusSchema,
  csvPreviewSchema,
  errorBodySchema,
  pickUiLanguage,
} from '@centralino/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { mayReadCredentials } from '../../plugins/auth.ts';
import { sendJsonValue } from '../../plugins/json-value.ts';
import type { CsvService } from './service.ts';

const tags = ['csv'];
// The file travels base64-encoded in JSON: 5 MB of CSV is about 6.7 MB of body.
const CSV_BODY_LIMIT = 9 * 1024 * 1024;

export const csvRoutes =
  (csv: CsvService): FastifyPluginAsyncZod =>
  async (app) => {
    const errors = { 400: errorBodySchema, 401: errorBodySchema, 413: errorBodySchema, 422: errorBodySchema };

    app.get(
      '/api/csv/csvexport',
      {
        schema: {
          tags,
          summary: 'users.csv as a base64 string',
          response: { 200: csvExportSchema, 401: errorBodySchema },
        },
      },
      async (request, reply) => sendJsonValue(reply, await csv.export(mayReadCredentials(request))),
    );

    app.post(
      '/api/csv/csvimport/preview',
      {
        bodyLimit: CSV_BODY_LIMIT,
        schema: {
          tags,
          summary: 'What an import of this file would create, change or reject (writes nothing)',
          body: csvFileSchema,
          response: { 200: csvPreviewSchema, 409: errorBodySchema, ...errors },
        },
      },
      (request) => csv.preview(request.body.file, pickUiLanguage(request.headers['accept-language'])),
    );

    app.post(
      '/api/csv/csvimport',
      {
        bodyLimit: CSV_BODY_LIMIT,
        schema: {
          tags,
          summary: 'Starts importing users from a CSV file (poll GET /api/csv/csvimport)',
          body: csvFileSchema,
          response: { 200: csvImportStartedSchema, 409: errorBodySchema, ...errors },
        },
      },
      async (request) => ({
        result: await csv.start(request.body.file, pickUiLanguage(request.headers['accept-language'])),
      }),
    );

    app.get(
      '/api/csv/csvimport',
      {
        schema: {
          tags,
          summary:
            'Progress of the last import: 0–99 running, 100 done (refused rows, if any, in failures), -1 cut short or nothing imported',
          response: { 200: csvImportStatusSchema, ...errors },
        },
      },
      (request) => csv.status(pickUiLanguage(request.headers['accept-language'])),
    );
  };
