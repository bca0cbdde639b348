import {
  astExtensionMapSchema,
  astExtensionSchema,
  astTrunkMapSchema,
  ctiUserEndpointsMapSchema,
  errorBodySchema,
  pbxApplyStatusSchema,
  pbxLogQuerySchema,
  pbxLogSchema,
  pbxSystemStatusSchema,
  pickUiLanguage,
  presenceRequestSchema,
} from '@centralino/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { PbxEngine } from './engine.ts';
import { readPbxLog } from './managed/log.ts';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema, 503: errorBodySchema };

export const pbxRoutes =
  (engine: PbxEngine): FastifyPluginAsyncZod =>
  async (app) => {
    const tags = ['pbx'];
    app.get(
      '/api/pbx/apply',
      {
        schema: {
          tags,
          summary: 'State of the PBX configuration: whether an apply runs or waits, and the last apply',
          response: { 200: pbxApplyStatusSchema, ...errors },
        },
      },
      (request) => engine.applier.status(pickUiLanguage(request.headers['accept-language'])),
    );

    app.post(
      '/api/pbx/apply',
      {
        schema: {
          tags,
          summary: 'Renders and applies the PBX configuration now (answers at once; poll GET for the outcome)',
          response: { 202: pbxApplyStatusSchema, ...errors },
        },
      },
      async (request, reply) => {
        engine.applier.request();
        return reply.code(202).send(await engine.applier.status(pickUiLanguage(request.headers['accept-language'])));
      },
    );

    app.get(
      '/api/pbx/system',
      {
        schema: {
          tags,
          summary: 'The phone system: who runs Asterisk, its state, version, uptime, ports and why it is failed',
          response: { 200: pbxSystemStatusSchema, ...errors },
        },
      },
      (request) => engine.system(pickUiLanguage(request.headers['accept-language'])),
    );

    app.get(
      '/api/pbx/system/log',
      {
        schema: {
          tags,
          summary: "Warnings and errors of the managed Asterisk's log since it started (empty for an external one)",
          querystring: pbxLogQuerySchema,
          response: { 200: pbxLogSchema, ...errors },
        },
      },
      (request) => {
        const supervisor = engine.supervisor;
        if (!supervisor) return { lines: [], total: 0 };
        return readPbxLog(supervisor.messagesFile, supervisor.logOffset, request.query);
      },
    );

    const live = ['astproxy'];
    app.get(
      '/api/astproxy/extensions',
      {
        schema: {
          tags: live,
          summary: 'Live state of every SIP account (503 when the PBX engine is not connected)',
          response: { 200: astExtensionMapSchema, ...errors },
        },
      },
      () => engine.live.extensions(),
    );
    app.get(
      '/api/astproxy/extension/:id',
      {
        schema: {
          tags: live,
          summary: 'Live state of one SIP account',
          params: z.object({ id: z.string().regex(/^[0-9]{1,16}$/) }),
          response: { 200: astExtensionSchema, ...errors },
        },
      },
      (request) => engine.live.extension(request.params.id),
    );
    app.get(
      '/api/astproxy/trunks',
      {
        schema: {
          tags: live,
          summary: 'Live state and registration of every trunk',
          response: { 200: astTrunkMapSchema, ...errors },
        },
      },
      () => engine.live.trunks(),
    );
    app.get(
      '/api/user/endpoints/all',
      {
        schema: {
          tags: live,
          summary: 'Users with their endpoints and presence',
          response: { 200: ctiUserEndpointsMapSchema, ...errors },
        },
      },
      () => engine.live.userEndpoints(),
    );
    app.post(
      '/api/phones/reconfigure',
      {
        schema: {
          tags: live,
          summary: 'Asks the phone registered on a device extension to fetch its configuration again',
          body: z.object({ extension: z.string().regex(/^\d{2,10}$/) }),
          response: { 200: z.object({}), 502: errorBodySchema, ...errors },
        },
      },
      async (request) => {
        await engine.live.reconfigure(request.body.extension);
        return {};
      },
    );
    app.post(
      '/api/user/presence',
      {
        schema: {
          tags: live,
          summary: "Sets a user's presence (DND, call forward) on all their extensions",
          body: presenceRequestSchema,
          response: { 200: z.object({}), ...errors },
        },
      },
      async (request) => {
        await engine.live.setPresence(request.body, String(request.headers.user ?? ''));
        return {};
      },
    );
  };
