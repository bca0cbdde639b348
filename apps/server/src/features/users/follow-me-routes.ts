import { errorBodySchema, followMeSchema, usernameSchema } from '@centralino/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { FollowMeService } from './follow-me.ts';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  422: errorBodySchema,
};
const params = z.object({ username: usernameSchema });

/** A user's follow-me (issue 42): a write marks the PBX configuration changed (the user's part of ext-local). */
export const followMeRoutes =
  (followMe: FollowMeService): FastifyPluginAsyncZod =>
  async (app) => {
    const tags = ['users'];
    app.get(
      '/api/users/:username/followme',
      {
        schema: {
          tags,
          summary: "The user's follow-me (switched off with an empty list when never set)",
          params,
          response: { 200: followMeSchema, ...errors },
        },
      },
      (request) => followMe.get(request.params.username),
    );
    app.put(
      '/api/users/:username/followme',
      {
        schema: {
          tags,
          summary:
            "Sets the user's follow-me; an extension no user has (422 user_not_found) or the user's own is refused",
          params,
          body: followMeSchema,
          response: { 200: followMeSchema, ...errors },
        },
      },
      (request) => followMe.set(request.params.username, request.body),
    );
  };
