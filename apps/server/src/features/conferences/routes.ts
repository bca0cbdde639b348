import {
  conferenceListSchema,
  conferenceLiveListSchema,
  conferenceParticipantActionSchema,
  conferenceParticipantListSchema,
  conferenceWriteSchema,
  errorBodySchema,
} from '@centralino/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { crudRoutes, idParams } from '../flows/crud-routes.ts';
import type { ConferenceLive } from './live.ts';
import type { ConferencesService } from './service.ts';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
  422: errorBodySchema,
  503: errorBodySchema,
};

/**
 * Conference rooms (issue 42 item 1): the CRUD routes mark the PBX configuration changed (confbridge.conf,
 * ext-meetme); the participants routes are live state over AMI and change no file (dirty-hook.ts skips them).
 */
export const conferenceRoutes =
  (rooms: ConferencesService, live: ConferenceLive): FastifyPluginAsyncZod =>
  async (app) => {
    const tags = ['conferences'];
    crudRoutes(app, {
      path: '/api/conferences',
      tags,
      errors,
      list: conferenceListSchema,
      write: conferenceWriteSchema,
      summaries: {
        list: 'Conference rooms (PINs are never shown: has_user_pin / has_admin_pin)',
        create: 'Creates a room; its number is checked like an extension (422 names the holder)',
        update: 'Changes a room; a PIN left out is kept, an empty PIN removed',
        remove: 'Deletes a room; refused while routes or flows send calls to it',
      },
      ops: rooms,
    });
    app.get(
      '/api/conferences/live',
      {
        schema: {
          tags,
          summary:
            "The rooms with people in them now and who they are (the dashboard's card; the event stream says 'conferences' when it changed); 503 when the PBX is not connected",
          response: { 200: conferenceLiveListSchema, ...errors },
        },
      },
      async () => live.rooms(await rooms.byExtension()),
    );
    app.get(
      '/api/conferences/:id/participants',
      {
        schema: {
          tags,
          summary: 'Who is in the room now (AMI ConfbridgeList); 503 when the PBX is not connected',
          params: idParams,
          response: { 200: conferenceParticipantListSchema, ...errors },
        },
      },
      async (request) => live.participants(await rooms.extensionOf(request.params.id)),
    );
    for (const action of ['mute', 'kick'] as const) {
      app.post(
        `/api/conferences/:id/participants/${action}`,
        {
          schema: {
            tags,
            summary:
              action === 'mute'
                ? 'Mutes (muted: true, the default) or unmutes one participant, named by channel'
                : 'Ends one participant’s leg in the room, named by channel',
            params: idParams,
            body: conferenceParticipantActionSchema,
            response: { 204: z.null(), ...errors },
          },
        },
        async (request, reply) => {
          const room = await rooms.extensionOf(request.params.id);
          const how = action === 'kick' ? 'kick' : request.body.muted === false ? 'unmute' : 'mute';
          await live.act(room, request.body.channel, how);
          return reply.code(204).send(null);
        },
      );
    }
  };
