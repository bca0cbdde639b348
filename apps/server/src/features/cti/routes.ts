import {
  ctiGroupCreateSchema,
  ctiGroupListSchema,
  ctiGroupMembersSchema,
  ctiPermissionsTemplateSchema,
  ctiProfileListSchema,
  ctiProfileSchema,
  ctiProfileWriteSchema,
  ctiUserGroupsSchema,
  ctiUserProfileSchema,
  errorBodySchema,
} from '@centralino/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../errors.ts';
import type { CtiService } from './service.ts';

const tags = ['cti'];
const idParam = (name: string) => z.object({ [name]: z.coerce.number().int().min(1).max(2_147_483_647) });
const status = z.object({ status: z.literal(true) });
const idResult = z.object({ id: z.number().int() });

export const ctiRoutes =
  (cti: CtiService): FastifyPluginAsyncZod =>
  async (app) => {
    const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema };

    app.get(
      '/api/cti/groups',
      { schema: { tags, summary: 'CTI groups', response: { 200: ctiGroupListSchema, ...errors } } },
      () => cti.groups(),
    );

    app.post(
      '/api/cti/groups',
      {
        schema: {
          tags,
          summary: 'Creates a CTI group and its presence-panel permission; a name that exists (in any case) is 409',
          body: ctiGroupCreateSchema,
          response: { 200: idResult, 409: errorBodySchema, ...errors },
        },
      },
      async (request) => ({ id: (await cti.createGroup(request.body.name)).id }),
    );

    app.delete(
      '/api/cti/groups/:id',
      {
        schema: {
          tags,
          summary: 'Deletes a CTI group, its memberships and its permission',
          params: idParam('id'),
          response: { 200: status, ...errors },
        },
      },
      async (request) => {
        await cti.deleteGroup(request.params.id as number);
        return { status: true as const };
      },
    );

    app.get(
      '/api/cti/profiles',
      {
        schema: {
          tags,
          summary: 'CTI profiles with every permission',
          response: { 200: ctiProfileListSchema, ...errors },
        },
      },
      () => cti.profiles(),
    );

    app.get(
      '/api/cti/permissions',
      {
        schema: {
          tags,
          summary: 'Blank profile template: every macro and permission switched off, and the outbound routes',
          response: { 200: ctiPermissionsTemplateSchema, ...errors },
        },
      },
      async () => (await cti.template()) as z.infer<typeof ctiPermissionsTemplateSchema>,
    );

    app.get(
      '/api/cti/profiles/:id',
      {
        schema: {
          tags,
          summary: 'One CTI profile',
          params: idParam('id'),
          response: { 200: ctiProfileSchema, ...errors },
        },
      },
      (request) => cti.profile(request.params.id as number),
    );

    app.post(
      '/api/cti/profiles',
      {
        schema: {
          tags,
          summary: 'Creates a CTI profile',
          body: ctiProfileWriteSchema,
          response: { 200: idResult, 403: errorBodySchema, 422: errorBodySchema, ...errors },
        },
      },
      async (request) => ({ id: await cti.createProfile(request.body) }),
    );

    app.post(
      '/api/cti/profiles/:id',
      {
        schema: {
          tags,
          summary: 'Saves a whole CTI profile (the console posts it after every switch)',
          params: idParam('id'),
          body: ctiProfileWriteSchema,
          response: { 200: status, 403: errorBodySchema, 422: errorBodySchema, ...errors },
        },
      },
      async (request) => {
        await cti.updateProfile(request.params.id as number, request.body);
        return { status: true as const };
      },
    );

    app.delete(
      '/api/cti/profiles/:id',
      {
        schema: {
          tags,
          summary: 'Deletes a CTI profile that no user has',
          params: idParam('id'),
          response: { 200: status, 409: errorBodySchema, ...errors },
        },
      },
      async (request) => {
        await cti.deleteProfile(request.params.id as number);
        return { status: true as const };
      },
    );

    app.get(
      '/api/cti/profiles/users/:userId',
      {
        schema: {
          tags,
          summary: "A user's CTI profile (404 when the user has none)",
          params: idParam('userId'),
          response: { 200: idResult, ...errors },
        },
      },
      async (request) => {
        const id = await cti.userProfile(request.params.userId as number);
        if (id === null) throw new AppError(404, 'not_found');
        return { id };
      },
    );

    app.post(
      '/api/cti/profiles/users/:userId',
      {
        schema: {
          tags,
          summary: "Sets (or with null clears) a user's CTI profile",
          params: idParam('userId'),
          body: ctiUserProfileSchema,
          response: { 200: status, ...errors },
        },
      },
      async (request) => {
        await cti.setUserProfile(request.params.userId as number, request.body.profile_id);
        return { status: true as const };
      },
    );

    app.get(
      '/api/cti/groups/users/:userId',
      {
        schema: {
          tags,
          summary: "Ids of a user's CTI groups",
          params: idParam('userId'),
          response: { 200: z.array(z.number().int()), ...errors },
        },
      },
      (request) => cti.userGroups(request.params.userId as number),
    );

    app.post(
      '/api/cti/groups/users/:userId',
      {
        schema: {
          tags,
          summary: "Replaces a user's CTI groups",
          params: idParam('userId'),
          body: ctiUserGroupsSchema,
          response: { 200: status, ...errors },
        },
      },
      async (request) => {
        await cti.setUserGroups(request.params.userId as number, request.body.groups);
        return { status: true as const };
      },
    );

    app.get(
      '/api/cti/users/groups/:groupId',
      {
        schema: {
          tags,
          summary: 'Members of a CTI group',
          params: idParam('groupId'),
          response: { 200: ctiGroupMembersSchema, ...errors },
        },
      },
      (request) => cti.groupMembers(request.params.groupId as number),
    );
  };
