import {
  dashboardPageQuerySchema,
  dashboardTrunksPageSchema,
  dashboardUsersPageSchema,
  errorBodySchema,
  type PbxConnection,
} from '@centralino/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { LiveChange, LiveState } from '../../pbx/live-state.ts';
import type { DashboardService } from './service.ts';

const tags = ['dashboard'];
const errors = { 400: errorBodySchema, 401: errorBodySchema };
/** A comment line now and then keeps proxies and the browser from closing a quiet stream. */
const HEARTBEAT_MS = 15_000;

export const dashboardRoutes =
  (dashboard: DashboardService, live: LiveState): FastifyPluginAsyncZod =>
  async (app) => {
    // Open streams end when the server closes (a stream never ends by itself).
    const streams = new Set<() => void>();
    app.addHook('onClose', async () => {
      for (const end of streams) end();
    });

    app.get(
      '/api/dashboard/users',
      {
        schema: {
          tags,
          summary: 'Users with presence and the live status of each extension, 20 at a time, searchable',
          querystring: dashboardPageQuerySchema,
          response: { 200: dashboardUsersPageSchema, ...errors },
        },
      },
      (request) => dashboard.usersPage(request.query),
    );

    app.get(
      '/api/dashboard/trunks',
      {
        schema: {
          tags,
          summary: 'Trunks (VoIP and gateway ports) with their live status and registration',
          querystring: dashboardPageQuerySchema,
          response: { 200: dashboardTrunksPageSchema, ...errors },
        },
      },
      (request) => dashboard.trunksPage(request.query),
    );

    app.get(
      '/api/dashboard/events',
      {
        schema: {
          tags,
          summary:
            "Server-sent events: 'users' or 'trunks' when what the dashboard shows changed, 'pbx' when the PBX connection went up or down",
          response: { ...errors },
        },
      },
      (request, reply) => {
        reply.hijack();
        const res = reply.raw;
        res.writeHead(200, {
          'Content-Type': 'text/event-stream; charset=utf-8',
          'Cache-Control': 'no-store',
          Connection: 'keep-alive',
          // Nginx in front must pass events on as they come.
          'X-Accel-Buffering': 'no',
        });
        const send = (event: string, data: unknown) => res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
        send('pbx', live.connection());
        const onChange = (change: LiveChange) => send(change, {});
        const onPbx = (connection: PbxConnection) => send('pbx', connection);
        live.on('change', onChange);
        live.on('pbx', onPbx);
        const heartbeat = setInterval(() => res.write(': still here\n\n'), HEARTBEAT_MS);
        heartbeat.unref();
        const stop = () => {
          clearInterval(heartbeat);
          live.off('change', onChange);
          live.off('pbx', onPbx);
          streams.delete(end);
        };
        const end = () => {
          stop();
          res.end();
        };
        streams.add(end);
        request.raw.on('close', stop);
        res.on('error', stop);
      },
    );
  };
