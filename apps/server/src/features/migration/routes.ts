import {
  cdrProgressSchema,
  cdrRowCountSchema,
  errorBodySchema,
  importOldUsersSchema,
  migrationDryRunSchema,
  migrationReportSchema,
  migrationStatusBodySchema,
  migrationStatusSchema,
  migrationStepResultSchema,
  oldUserListSchema,
  pickUiLanguage,
  type UiLanguage,
} from '@centralino/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../errors.ts';
import type { StepAnswer } from './config-steps.ts';
import { msg, renderMessage } from './messages.ts';
import type { MigrationService } from './service.ts';

const tags = ['migration'];
const errors = { 400: errorBodySchema, 401: errorBodySchema, 409: errorBodySchema, 422: errorBodySchema };
const step = { 200: migrationStepResultSchema, 500: migrationStepResultSchema, ...errors };
const done = (infos: string[]) => ({ status: true, errors: [], warnings: [], infos });
/** The language the migration's lines are answered in: the request's (Accept-Language), English by default. */
const langOf = (request: { headers: { 'accept-language'?: string } }): UiLanguage =>
  pickUiLanguage(request.headers['accept-language']);
const statusChanged = (lang: UiLanguage) => done([renderMessage(msg('status_changed'), lang)]);

export const migrationRoutes =
  (migration: MigrationService): FastifyPluginAsyncZod =>
  async (app) => {
    /** A configuration step: HTTP 200 when it succeeded, 500 with its lists when it failed (contract §11.1). */
    const stepRoute = (url: string, summary: string, run: () => Promise<StepAnswer>) =>
      app.post(url, { schema: { tags, summary, response: step } }, async (request, reply) => {
        const answer = await run();
        return reply.code(answer.code).send(answer.body(langOf(request)));
      });

    app.get(
      '/api/migration/ismigration',
      {
        schema: {
          tags,
          summary: 'Whether a migration from the older system is available and not finished',
          response: { 200: z.boolean(), ...errors },
        },
      },
      () => migration.isMigration(),
    );

    app.get(
      '/api/migration/migrationstatus',
      {
        schema: {
          tags,
          summary: 'The migration status (a JSON string)',
          response: { 200: migrationStatusSchema, ...errors },
        },
      },
      // A JSON string as the original answers ("ready"), not the bare text a string schema would send.
      async (_request, reply) =>
        reply
          .type('application/json; charset=utf-8')
          .serializer((v: unknown) => JSON.stringify(v))
          .send(await migration.state.status()),
    );

    app.post(
      '/api/migration/migrationstatus',
      {
        schema: {
          tags,
          summary: 'Stores the migration status',
          body: migrationStatusBodySchema,
          response: { 200: migrationStepResultSchema, ...errors },
        },
      },
      async (request) => {
        await migration.setStatus(request.body.status);
        return statusChanged(langOf(request));
      },
    );

    app.post(
      '/api/migration/endmigration',
      {
        schema: {
          tags,
          summary: 'Ends the migration (status done)',
          response: { 200: migrationStepResultSchema, ...errors },
        },
      },
      async (request) => {
        await migration.setStatus('done');
        return statusChanged(langOf(request));
      },
    );

    app.get(
      '/api/migration/oldusers',
      {
        schema: {
          tags,
          summary: 'Extensions of the older system with their CTI accounts (no secrets)',
          response: { 200: oldUserListSchema, ...errors },
        },
      },
      () => migration.users.oldUsers(),
    );

    stepRoute('/api/migration/importprofiles', 'Migrates the CTI profiles', () => migration.users.importProfiles());

    app.post(
      '/api/migration/importusers',
      {
        schema: {
          tags,
          summary: 'Starts the import of the old users (progress: GET /csv/csvimport)',
          body: importOldUsersSchema,
          response: { 200: z.null(), ...errors },
        },
      },
      async (request) => {
        const names = new Set<string>();
        for (const u of request.body) {
          if (names.has(u.username)) {
            const name = u.username;
            throw new AppError(
              400,
              'validation',
              (lang) => (lang === 'it' ? `Nome utente già usato: ${name}` : `Username already used: ${name}`),
              (lang) => ({ username: lang === 'it' ? 'Nome utente già usato' : 'Username already used' }),
            );
          }
          names.add(u.username);
        }
        await migration.users.importUsers(request.body);
        return null;
      },
    );

    const config = () => migration.config;
    stepRoute('/api/migration/importoldvoiptrunks', 'Migrates the chan_sip trunks', () => config().voipTrunks());
    stepRoute('/api/migration/gateways', 'Migrates the physical gateways and their port trunks', () =>
      config().gatewaysStep(),
    );
    stepRoute('/api/migration/iax', 'Reports the IAX trunks and extensions', () => config().iax());
    stepRoute('/api/migration/importoutboundroutes', 'Migrates the outbound routes', () => config().outboundRoutes());
    stepRoute('/api/migration/trunksroutesassignements', 'Migrates the trunks of each outbound route', () =>
      config().trunksRoutesAssignments(),
    );
    stepRoute(
      '/api/migration/groups',
      'Migrates the ring groups, with their numbers, members, strategies and failovers',
      () => config().ringGroups(),
    );
    stepRoute('/api/migration/queues', 'Migrates the queues and their static members', () => config().queues());
    stepRoute('/api/migration/ivr', 'Migrates the IVR menus and their keys', () => config().ivrs());
    stepRoute('/api/migration/cqr', 'Migrates the caller query routings and their databases', () => config().cqrs());
    stepRoute('/api/migration/recordings', 'Migrates the system recordings with their audio', () =>
      config().recordingsStep(),
    );
    stepRoute('/api/migration/announcements', 'Migrates the announcements', () => config().announcements());
    stepRoute('/api/migration/daynight', 'Migrates the day/night switches', () => config().dayNight());
    stepRoute('/api/migration/timegroups', 'Migrates the time groups', () => config().timeGroups());
    stepRoute('/api/migration/timeconditions', 'Migrates the time conditions', () => config().timeConditions());
    stepRoute('/api/migration/inboundroutes', 'Migrates the inbound routes', () => config().inboundRoutes());
    app.post(
      '/api/migration/postmigration',
      {
        schema: {
          tags,
          summary: 'Migrates the CTI phonebook and the card templates, then applies the PBX once and checks it',
          response: step,
        },
      },
      async (request, reply) => {
        const answer = await migration.postMigration();
        return reply.code(answer.code).send(answer.body(pickUiLanguage(request.headers['accept-language'])));
      },
    );

    app.post(
      '/api/migration/dryrun',
      {
        schema: {
          tags,
          summary: 'What the migration would do, read from the whole old system, without writing anything',
          response: { 200: migrationDryRunSchema, ...errors },
        },
        config: { auditExempt: 'a dry run writes nothing: every step is rolled back' },
      },
      (request) => migration.dryRun(pickUiLanguage(request.headers['accept-language'])),
    );

    app.get(
      '/api/migration/cdrrowcount',
      { schema: { tags, summary: 'Number of old call records', response: { 200: cdrRowCountSchema, ...errors } } },
      async () => ({ count: String(await migration.cdr.count()), ...done([]) }),
    );

    app.post(
      '/api/migration/cdr',
      {
        schema: {
          tags,
          summary: 'Starts (or resumes) copying the old call records in the background',
          response: { 200: z.null(), ...errors },
        },
      },
      async () => {
        await migration.cdr.start();
        return null;
      },
    );

    app.get(
      '/api/migration/cdr',
      {
        schema: {
          tags,
          summary: 'Progress of the call-record copy',
          response: { 200: cdrProgressSchema, 500: cdrProgressSchema, ...errors },
        },
      },
      async (_request, reply) => {
        const progress = await migration.cdr.progress();
        if (!progress) throw new AppError(422, 'no_cdr_migration');
        return reply.code(progress.status === false ? 500 : 200).send(progress);
      },
    );

    app.get(
      '/api/migration/report',
      {
        schema: {
          tags,
          summary: 'Errors and warnings of every migration step',
          response: { 200: migrationReportSchema, ...errors },
        },
      },
      (request) => migration.state.report(langOf(request)),
    );
  };
