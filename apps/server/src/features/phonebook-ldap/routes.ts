import { errorBodySchema, phonebookLdapSchema, phonebookLdapStatusParamsSchema } from '@centralino/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { PhonebookLdapService } from './service.ts';

const tags = ['phonebook'];
const ok = z.object({ status: z.literal(true) });

/** GET /api/phonebook/ldap and POST /api/phonebook/{ldap|ldaps}/status/{enabled|disabled} (api-admin §9.9–§9.10). */
export const phonebookLdapRoutes =
  (phonebook: PhonebookLdapService): FastifyPluginAsyncZod =>
  async (app) => {
    const errors = { 400: errorBodySchema, 401: errorBodySchema };

    app.get(
      '/api/phonebook/ldap',
      {
        schema: {
          tags,
          summary: 'Connection values of the PBX LDAP phonebook services for phones, and whether each is on',
          response: { 200: phonebookLdapSchema, ...errors },
        },
      },
      () => phonebook.get(),
    );

    app.post(
      '/api/phonebook/:type/status/:state',
      {
        schema: {
          tags,
          summary: 'Switches the plain (ldap) or TLS (ldaps) phonebook service on or off',
          params: phonebookLdapStatusParamsSchema,
          response: { 200: ok, ...errors },
        },
      },
      async (request) => {
        await phonebook.setEnabled(request.params.type, request.params.state === 'enabled');
        request.log.info(request.params, 'phonebook LDAP service switched');
        return { status: true as const };
      },
    );
  };
